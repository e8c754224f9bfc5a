-- Version 1: servers' settings, tables in play with their action log, finished deals,
-- members' standings and the chips ledger.

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    starting_chips  INTEGER NOT NULL DEFAULT 1000 CHECK (starting_chips >= 0),
    daily_grant     INTEGER NOT NULL DEFAULT 100 CHECK (daily_grant >= 0),
    turn_time       INTEGER NOT NULL DEFAULT 60 CHECK (turn_time BETWEEN 10 AND 3600),
    language        TEXT    NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es')),
    hand_delivery   TEXT    NOT NULL DEFAULT 'dm' CHECK (hand_delivery IN ('dm', 'ephemeral')),
    opener_role_id  INTEGER,            -- NULL: every member may open tables
    max_tables      INTEGER NOT NULL DEFAULT 10 CHECK (max_tables >= 1)
);

-- A table: where it lives, its status, and its state as JSON (options, seats, the game's
-- progress, clocks): everything but the actions, which are the log below.
CREATE TABLE tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'closed', 'cancelled')),
    state       TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
CREATE INDEX tables_by_status ON tables (status, guild_id);

-- The write-ahead action log of every deal of a table.
CREATE TABLE actions (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal_no   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    action    TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal_no, seq)
) WITHOUT ROWID;

-- Every deal: its game record (REFEREE.md), complete once finished.
CREATE TABLE deals (
    table_id     INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    deal_no      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    record       TEXT    NOT NULL,
    finished_at  REAL,
    PRIMARY KEY (table_id, deal_no)
);

CREATE TABLE deal_players (
    table_id  INTEGER NOT NULL,
    deal_no   INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    PRIMARY KEY (table_id, deal_no, seat),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no) ON DELETE CASCADE
);
CREATE INDEX deal_players_by_user ON deal_players (user_id);

CREATE TABLE members (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    xp             INTEGER NOT NULL DEFAULT 0,
    rounds_won     INTEGER NOT NULL DEFAULT 0,
    rounds_played  INTEGER NOT NULL DEFAULT 0,
    games_won      INTEGER NOT NULL DEFAULT 0,
    games_played   INTEGER NOT NULL DEFAULT 0,
    cantes         INTEGER NOT NULL DEFAULT 0,
    tutes          INTEGER NOT NULL DEFAULT 0,
    last_daily     TEXT,                -- the UTC date of the last daily grant, YYYY-MM-DD
    PRIMARY KEY (guild_id, user_id)
);

-- Chips as a double-entry ledger: a movement between accounts is rows that add up to zero;
-- only grants (start, daily, admin) create chips. account: 'member' (user_id set), 'bank',
-- or 'table' (stakes and pots held by table_id).
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    account     TEXT    NOT NULL CHECK (account IN ('member', 'bank', 'table')),
    user_id     INTEGER,
    table_id    INTEGER,
    kind        TEXT    NOT NULL,
    amount      INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    CHECK ((account = 'member') = (user_id IS NOT NULL)),
    CHECK (account <> 'table' OR table_id IS NOT NULL)
);
CREATE INDEX ledger_by_member ON ledger (guild_id, user_id) WHERE account = 'member';
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE account = 'table';
