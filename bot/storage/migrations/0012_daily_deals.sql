-- Version 12: the daily deal. Each server deals the same cards to all its members once a
-- UTC day; a member's attempt is written when they start it (so it is played once, however
-- it ends) and scored when its table ends. ``day`` counts days since 1970-01-01 (UTC).
-- ``tricks``: one letter per trick played, W (won by the member's side) or L; ``cantes``:
-- the cantes their side sang; ``hints``: the hints they asked for (such a deal ranks after
-- those played without). An attempt left ``playing`` is scored ``unfinished`` when its
-- table ends any other way than finished.
CREATE TABLE daily_deals (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    table_id    INTEGER,            -- NULL until its table is open
    status      TEXT    NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'unfinished')),
    points      INTEGER NOT NULL DEFAULT 0,
    margin      INTEGER NOT NULL DEFAULT 0,
    won         INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1)),
    tricks      TEXT    NOT NULL DEFAULT '',
    cantes      INTEGER NOT NULL DEFAULT 0 CHECK (cantes >= 0),
    hints       INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0),
    ended_at    REAL,
    PRIMARY KEY (guild_id, user_id, day)
);
CREATE INDEX daily_deals_by_day ON daily_deals (guild_id, day);
CREATE INDEX daily_deals_by_table ON daily_deals (table_id);

-- The install's own key of the daily seeds: without it anyone could work tomorrow's cards
-- out of a server's id and the date. One row, made the first time a deal is dealt.
CREATE TABLE daily_key (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  TEXT    NOT NULL
);

-- Whether a finished daily deal gives experience, as a friendly game does not (off: 0).
ALTER TABLE guild_settings ADD COLUMN daily_experience INTEGER NOT NULL DEFAULT 0
    CHECK (daily_experience IN (0, 1));
