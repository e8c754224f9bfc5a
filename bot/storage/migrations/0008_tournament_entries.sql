-- Version 8: tournaments with an entry fee. The entries a tournament holds until it pays its
-- prizes (or gives them back) are a fourth kind of account, 'tournament' (tournament_id
-- set), so the audit reads: members + bank + tables + tournaments == granted.
--
-- SQLite cannot change a CHECK constraint in place: the ledger is copied into a new table
-- with the new account, row for row (ids, movements and times kept), and its indexes are
-- made again. AUTOINCREMENT's counter is carried over, so movement numbers go on.
CREATE TABLE ledger_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    account       TEXT    NOT NULL CHECK (account IN ('member', 'bank', 'table', 'tournament')),
    user_id       INTEGER,
    table_id      INTEGER,
    kind          TEXT    NOT NULL,
    amount        INTEGER NOT NULL,
    created_at    REAL    NOT NULL,
    movement      INTEGER,
    tournament_id INTEGER,
    CHECK ((account = 'member') = (user_id IS NOT NULL)),
    CHECK (account <> 'table' OR table_id IS NOT NULL),
    CHECK (account <> 'tournament' OR tournament_id IS NOT NULL)
);
INSERT INTO ledger_new (id, guild_id, account, user_id, table_id, kind, amount, created_at,
                        movement)
    SELECT id, guild_id, account, user_id, table_id, kind, amount, created_at, movement
    FROM ledger;
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'ledger_new', seq FROM sqlite_sequence WHERE name = 'ledger'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'ledger_new');
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'ledger')
    WHERE name = 'ledger_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'ledger');
DROP TABLE ledger;
ALTER TABLE ledger_new RENAME TO ledger;

CREATE INDEX ledger_by_member ON ledger (guild_id, user_id) WHERE account = 'member';
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE account = 'table';
CREATE INDEX ledger_by_movement ON ledger (movement);
CREATE INDEX ledger_by_table_any ON ledger (table_id, id) WHERE table_id IS NOT NULL;
CREATE INDEX ledger_by_guild_kind ON ledger (guild_id, account, kind);
-- Everything that went into or out of one tournament (entries, refunds, prizes).
CREATE INDEX ledger_by_tournament ON ledger (tournament_id, id) WHERE tournament_id IS NOT NULL;
