-- Version 2: group the ledger's rows into movements, and index what the standings read.

-- Every row of one movement carries the same number (the id of its first row): a movement
-- other than a grant adds up to zero, which an audit can check movement by movement. Rows
-- written before this version have none; they still count in every balance and total.
ALTER TABLE ledger ADD COLUMN movement BIGINT;
CREATE INDEX ledger_by_movement ON ledger (movement);

-- Everything that went into or out of one table (stakes, the plato pot, payouts, refunds),
-- whichever account is on the other side.
CREATE INDEX ledger_by_table_any ON ledger (table_id, id) WHERE table_id IS NOT NULL;

-- The bank's account and the grants, per server.
CREATE INDEX ledger_by_guild_kind ON ledger (guild_id, account, kind);

-- Leaderboards by experience, games won and rounds won.
CREATE INDEX members_by_xp ON members (guild_id, xp DESC, user_id);
CREATE INDEX members_by_games_won ON members (guild_id, games_won DESC, user_id);
CREATE INDEX members_by_rounds_won ON members (guild_id, rounds_won DESC, user_id);
