-- Version 8: tournaments with an entry fee. The entries a tournament holds until it pays its
-- prizes (or gives them back) are a fourth kind of account, 'tournament' (tournament_id
-- set), so the audit reads: members + bank + tables + tournaments == granted.
--
-- (SQLite copies the ledger into a new table for this; PostgreSQL changes the CHECK in
-- place: rows, ids, the identity's counter and the indexes stay as they are.)
ALTER TABLE ledger ADD COLUMN tournament_id BIGINT;
ALTER TABLE ledger DROP CONSTRAINT ledger_account_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_account_check
    CHECK (account IN ('member', 'bank', 'table', 'tournament'));
ALTER TABLE ledger ADD CONSTRAINT ledger_tournament_check
    CHECK (account <> 'tournament' OR tournament_id IS NOT NULL);

-- Everything that went into or out of one tournament (entries, refunds, prizes).
CREATE INDEX ledger_by_tournament ON ledger (tournament_id, id) WHERE tournament_id IS NOT NULL;
