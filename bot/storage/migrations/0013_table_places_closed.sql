-- Version 13: a table whose channel refused the bot (a group DM, a DM between two members, a
-- server without the bot): it plays on the web table and in interaction answers only, and
-- nothing more is posted in its channel, after a restart too. 0: the bot may post there.
ALTER TABLE table_places ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
