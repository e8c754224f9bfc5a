-- Version 15: members who had the bot erase what it kept about them (``/tute privacy
-- erase``, bot/storage/privacy.py). Nothing of who they were is kept here: each erasure
-- gets a number, and what stays of the member in finished games, tournaments, the kept
-- rated games and the chips ledger is named by minus that number, a pseudonymous id that
-- is never a Discord id (those are positive).
CREATE TABLE erasures (
    id  INTEGER PRIMARY KEY AUTOINCREMENT
);
