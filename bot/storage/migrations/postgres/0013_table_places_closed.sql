-- Version 13: a table whose channel refused the bot (see ../0013_table_places_closed.sql).
ALTER TABLE table_places ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
