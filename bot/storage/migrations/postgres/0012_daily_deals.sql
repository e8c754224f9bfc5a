-- Version 12: the daily deal (see ../0012_daily_deals.sql).
CREATE TABLE daily_deals (
    guild_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    day         BIGINT           NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    table_id    BIGINT,
    status      TEXT             NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'unfinished')),
    points      BIGINT           NOT NULL DEFAULT 0,
    margin      BIGINT           NOT NULL DEFAULT 0,
    won         BIGINT           NOT NULL DEFAULT 0 CHECK (won IN (0, 1)),
    tricks      TEXT             NOT NULL DEFAULT '',
    cantes      BIGINT           NOT NULL DEFAULT 0 CHECK (cantes >= 0),
    hints       BIGINT           NOT NULL DEFAULT 0 CHECK (hints >= 0),
    ended_at    DOUBLE PRECISION,
    PRIMARY KEY (guild_id, user_id, day)
);
CREATE INDEX daily_deals_by_day ON daily_deals (guild_id, day);
CREATE INDEX daily_deals_by_table ON daily_deals (table_id);

CREATE TABLE daily_key (
    id      BIGINT PRIMARY KEY CHECK (id = 1),
    secret  TEXT   NOT NULL
);

ALTER TABLE guild_settings ADD COLUMN daily_experience BIGINT NOT NULL DEFAULT 0
    CHECK (daily_experience IN (0, 1));
