-- Version 17: the reviews of finished deals, kept once computed (see ../0017_reviews.sql).
CREATE TABLE reviews (
    guild_id  BIGINT           NOT NULL,
    table_id  BIGINT           NOT NULL,
    deal_no   BIGINT           NOT NULL,
    user_id   BIGINT           NOT NULL,
    review    TEXT             NOT NULL,
    made_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, deal_no, user_id),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no) ON DELETE CASCADE
);
CREATE INDEX reviews_user ON reviews (user_id);
CREATE INDEX reviews_guild ON reviews (guild_id);
