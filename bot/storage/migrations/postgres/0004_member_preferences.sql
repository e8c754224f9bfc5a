-- Version 4: a member's own switches in a server. notify_turn: when their turn comes after
-- others played, the bot tells them (a fresh DM hand, or a ping in the table's channel).
-- No row: the defaults.
CREATE TABLE member_preferences (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    notify_turn  BIGINT NOT NULL DEFAULT 1 CHECK (notify_turn IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);
