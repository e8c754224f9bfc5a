-- Version 6: seasons. An admin starts and ends one (at most one runs at a time in a
-- server); ends_at is the planned end, when the bot ends it by itself; its podium is posted
-- in channel_id. A game kept for the ratings names the season it finished in, so that a
-- season's ratings and boards are replayed from its own games.
CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),
    started_at  REAL    NOT NULL,
    ends_at     REAL,
    ended_at    REAL,
    channel_id  INTEGER,
    UNIQUE (guild_id, number)
);
CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_due ON seasons (ends_at) WHERE ended_at IS NULL;

ALTER TABLE rated_games ADD COLUMN season_id INTEGER REFERENCES seasons (id);
CREATE INDEX rated_games_by_season ON rated_games (season_id, id);

-- Fair play: how old a member's Discord account, and their membership of the server, must
-- be (in days) for the daily grant and for rated play (0: no minimum).
ALTER TABLE guild_settings ADD COLUMN min_account_days INTEGER NOT NULL DEFAULT 0
    CHECK (min_account_days BETWEEN 0 AND 3650);
ALTER TABLE guild_settings ADD COLUMN min_member_days INTEGER NOT NULL DEFAULT 0
    CHECK (min_member_days BETWEEN 0 AND 3650);
