-- Version 14: where each tournament lives on Discord (see ../0014_tournament_places.sql).
CREATE TABLE tournament_places (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    message_id    BIGINT,
    told          TEXT   NOT NULL DEFAULT '[]'
);

INSERT INTO tournament_places (tournament_id, message_id, told)
SELECT
    t.id,
    (s.j ->> 'message_id')::bigint,
    coalesce((
        SELECT jsonb_agg(told.id ORDER BY told.id)::text
        FROM (
            SELECT e.v::bigint AS id
            FROM jsonb_array_elements_text(
                CASE WHEN jsonb_typeof(s.j -> 'told') = 'array' THEN s.j -> 'told' END
            ) AS e (v)
            UNION
            SELECT e.value::bigint
            FROM jsonb_each_text(
                CASE WHEN jsonb_typeof(s.j -> 'told') IS DISTINCT FROM 'array'
                          AND jsonb_typeof(s.j -> 'tables') = 'object'
                     THEN s.j -> 'tables' END
            ) AS e
        ) AS told
    ), '[]')
FROM tournaments AS t
CROSS JOIN LATERAL (SELECT t.state::jsonb AS j) AS s;
