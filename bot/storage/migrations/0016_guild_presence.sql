-- Version 16: the servers the bot is in, and when it left the others. A server the bot
-- leaves keeps its data for TUTE_RETENTION_DAYS (bot/tables/retention.py); the bot coming
-- back before then clears left_at and keeps everything; past it, every row of the server is
-- erased, this one first. A server the bot was never in (a user install's, a DM's own) has no
-- row: it is never erased this way.
CREATE TABLE guild_presence (
    guild_id   INTEGER PRIMARY KEY,
    joined_at  REAL    NOT NULL,   -- when the bot was first seen in it (this time round)
    left_at    REAL                -- NULL: the bot is in it
);
CREATE INDEX guild_presence_left ON guild_presence (left_at) WHERE left_at IS NOT NULL;
