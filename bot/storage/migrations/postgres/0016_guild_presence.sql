-- Version 16: the servers the bot is in, and when it left the others (see
-- ../0016_guild_presence.sql).
CREATE TABLE guild_presence (
    guild_id   BIGINT           PRIMARY KEY,
    joined_at  DOUBLE PRECISION NOT NULL,
    left_at    DOUBLE PRECISION
);
CREATE INDEX guild_presence_left ON guild_presence (left_at) WHERE left_at IS NOT NULL;
