-- Version 3: a server's language may be left unset (NULL), meaning the bot's own default
-- (TUTE_LANGUAGE). Before, a server that changed any other setting got 'en' written for
-- it, and TUTE_LANGUAGE never took effect there. The rows already written keep the
-- language they have: whether it was chosen cannot be told apart.
CREATE TABLE guild_settings_new (
    guild_id        INTEGER PRIMARY KEY,
    starting_chips  INTEGER NOT NULL DEFAULT 1000 CHECK (starting_chips >= 0),
    daily_grant     INTEGER NOT NULL DEFAULT 100 CHECK (daily_grant >= 0),
    turn_time       INTEGER NOT NULL DEFAULT 60 CHECK (turn_time BETWEEN 10 AND 3600),
    language        TEXT    CHECK (language IN ('en', 'es')),  -- NULL: TUTE_LANGUAGE
    hand_delivery   TEXT    NOT NULL DEFAULT 'dm' CHECK (hand_delivery IN ('dm', 'ephemeral')),
    opener_role_id  INTEGER,            -- NULL: every member may open tables
    max_tables      INTEGER NOT NULL DEFAULT 10 CHECK (max_tables >= 1)
);
INSERT INTO guild_settings_new
    SELECT guild_id, starting_chips, daily_grant, turn_time, language, hand_delivery,
           opener_role_id, max_tables
    FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_new RENAME TO guild_settings;
