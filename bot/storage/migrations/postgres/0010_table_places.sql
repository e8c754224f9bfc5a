-- Version 10: where each table's messages live on Discord, kept by the Discord side alone
-- (cogs/tables/places.py): the table's thread, its lobby message, the table message of the
-- deal in play, and each player's hand in their DMs (or that their DMs are closed). The
-- game's state no longer holds any of it. What the state held moves here; a table message
-- or a DM hand sent with embeds, before layout components, is kept as "legacy": the next
-- show replaces it with a fresh message.
CREATE TABLE table_places (
    table_id   BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    thread_id  BIGINT,
    lobby_id   BIGINT,
    play_id    BIGINT,
    play_deal  BIGINT,
    legacy_id  BIGINT,  -- a table message drawn with embeds, to be replaced
    hands      TEXT   NOT NULL DEFAULT '{}'  -- seat -> {user, channel, message, closed, legacy}
);

INSERT INTO table_places (table_id, thread_id, lobby_id, play_id, play_deal, legacy_id, hands)
SELECT
    t.id,
    (s.j ->> 'thread_id')::bigint,
    (s.j ->> 'message_id')::bigint,
    CASE WHEN s.v2 THEN (s.j ->> 'play_message_id')::bigint END,
    CASE WHEN s.v2 THEN (s.j ->> 'play_message_deal')::bigint END,
    CASE WHEN NOT s.v2 THEN (s.j ->> 'play_message_id')::bigint END,
    coalesce((
        SELECT jsonb_object_agg((seat.n - 1)::text, jsonb_build_object(
            'user', seat.v -> 'user_id',
            'channel', seat.v -> 'dm_channel_id',
            'message', seat.v -> 'dm_message_id',
            'closed', to_jsonb(coalesce((seat.v ->> 'dm_closed')::boolean, false)),
            'legacy', to_jsonb(NOT coalesce((seat.v ->> 'dm_message_v2')::boolean, false))
        ))
        FROM jsonb_array_elements(s.j -> 'seats') WITH ORDINALITY AS seat (v, n)
        WHERE jsonb_typeof(seat.v) = 'object'
          AND seat.v ->> 'user_id' IS NOT NULL
          AND (seat.v ->> 'dm_message_id' IS NOT NULL
               OR coalesce((seat.v ->> 'dm_closed')::boolean, false))
    )::text, '{}')
FROM tables AS t
CROSS JOIN LATERAL (
    SELECT t.state::jsonb AS j,
           coalesce((t.state::jsonb ->> 'play_message_v2')::boolean, false) AS v2
) AS s;
