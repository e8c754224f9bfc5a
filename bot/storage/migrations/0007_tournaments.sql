-- Version 7: tournaments. A host opens one in a channel; members sign up until its
-- deadline, then it runs (its tables are ordinary tables that name it in their state) and
-- finishes with a winner, or is cancelled. Its entrants, draw and tables are its state (JSON).
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    status      TEXT    NOT NULL
        CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    state       TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
CREATE INDEX tournaments_active ON tournaments (status) WHERE status IN ('signup', 'running');
