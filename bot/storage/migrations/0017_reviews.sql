-- Version 17: the reviews of finished deals, kept once computed (bot/tables/review.py): one
-- per deal and member, the judge's marks of that member's decisions as JSON. A review is
-- computed again from the deal's record where it is missing, so erasing one loses nothing
-- but the time to compute it.
CREATE TABLE reviews (
    guild_id  INTEGER NOT NULL,
    table_id  INTEGER NOT NULL,
    deal_no   INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    review    TEXT    NOT NULL,   -- JSON: the marks, the costs, the better choices
    made_at   REAL    NOT NULL,
    PRIMARY KEY (table_id, deal_no, user_id),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no) ON DELETE CASCADE
);
CREATE INDEX reviews_user ON reviews (user_id);
CREATE INDEX reviews_guild ON reviews (guild_id);
