-- Version 14: where each tournament lives on Discord, kept by the Discord side alone
-- (cogs/tournaments/places.py): its sign-up message in its channel, and the tables whose
-- link its channel was told (JSON: a list of table ids). The tournament's state no longer
-- holds either. What the state held moves here; a state kept before it knew what was told
-- (no "told") had told every table of its matches.
CREATE TABLE tournament_places (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    message_id    INTEGER,
    told          TEXT    NOT NULL DEFAULT '[]'
);

INSERT INTO tournament_places (tournament_id, message_id, told)
SELECT
    t.id,
    json_extract(t.state, '$.message_id'),
    (
        SELECT json_group_array(told.id)
        FROM (
            SELECT DISTINCT CAST(e.value AS INTEGER) AS id
            FROM json_each(
                t.state,
                CASE WHEN json_type(t.state, '$.told') = 'array' THEN '$.told' ELSE '$.tables' END
            ) AS e
            WHERE e.type = 'integer'
            ORDER BY id
        ) AS told
    )
FROM tournaments AS t;
