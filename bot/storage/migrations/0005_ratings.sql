-- Version 5: skill ratings (bot/ratings.py).
-- rated_games: every finished competitive game as the ratings read it, so that they can be
-- recomputed from history (a change of parameters is safe): who sat on which side and how
-- the sides placed. result is JSON: {"sides": [[{"user": id} | {"robot": "hard"}, ...], ...],
-- "places": [0, 1, ...]} (0 is first; sides that tie share a place).
CREATE TABLE rated_games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order the games were rated in
    table_id     INTEGER NOT NULL UNIQUE,
    guild_id     INTEGER NOT NULL,
    family       TEXT    NOT NULL CHECK (family IN ('two', 'three', 'four', 'pairs')),
    finished_at  REAL    NOT NULL,
    result       TEXT    NOT NULL
);
CREATE INDEX rated_games_by_guild ON rated_games (guild_id, id);

-- A member's rating in a server and a family of variants (openskill's mu and sigma), the
-- rated games behind it, and the rating before the last of them (the change shown).
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    family      TEXT    NOT NULL CHECK (family IN ('two', 'three', 'four', 'pairs')),
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    games       INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    last_mu     REAL,
    last_sigma  REAL,
    PRIMARY KEY (guild_id, user_id, family)
);
CREATE INDEX ratings_by_family ON ratings (guild_id, family);

-- How much a game of one member against robots moves the ratings (percent, 0: not rated),
-- and how many rated games put a member on the rating leaderboard.
ALTER TABLE guild_settings ADD COLUMN robot_rating_weight INTEGER NOT NULL DEFAULT 0
    CHECK (robot_rating_weight BETWEEN 0 AND 100);
ALTER TABLE guild_settings ADD COLUMN min_rated_games INTEGER NOT NULL DEFAULT 5
    CHECK (min_rated_games BETWEEN 1 AND 100);
-- How many games a day (UTC) two members may play together and still be rated (0: no
-- limit): two accounts of one person playing each other stop gaining from it.
ALTER TABLE guild_settings ADD COLUMN pair_daily_cap INTEGER NOT NULL DEFAULT 10
    CHECK (pair_daily_cap BETWEEN 0 AND 100);
