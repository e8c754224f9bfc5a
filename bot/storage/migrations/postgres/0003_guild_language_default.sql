-- Version 3: a server's language may be left unset (NULL), meaning the bot's own default
-- (TUTE_LANGUAGE). Before, a server that changed any other setting got 'en' written for
-- it, and TUTE_LANGUAGE never took effect there. The rows already written keep the
-- language they have: whether it was chosen cannot be told apart.
-- (SQLite rebuilds the table for this; PostgreSQL alters the column in place. The CHECK
-- on the language stays, and passes NULL.)
ALTER TABLE guild_settings
    ALTER COLUMN language DROP NOT NULL,
    ALTER COLUMN language DROP DEFAULT;
