-- Version 10: where each table's messages live on Discord, kept by the Discord side alone
-- (cogs/tables/places.py): the table's thread, its lobby message, the table message of the
-- deal in play, and each player's hand in their DMs (or that their DMs are closed). The
-- game's state no longer holds any of it. What the state held moves here; a table message
-- or a DM hand sent with embeds, before layout components, is kept as "legacy": the next
-- show replaces it with a fresh message.
CREATE TABLE table_places (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    thread_id  INTEGER,
    lobby_id   INTEGER,
    play_id    INTEGER,
    play_deal  INTEGER,
    legacy_id  INTEGER,  -- a table message drawn with embeds, to be replaced
    hands      TEXT    NOT NULL DEFAULT '{}'  -- seat -> {user, channel, message, closed, legacy}
);

INSERT INTO table_places (table_id, thread_id, lobby_id, play_id, play_deal, legacy_id, hands)
SELECT
    t.id,
    json_extract(t.state, '$.thread_id'),
    json_extract(t.state, '$.message_id'),
    CASE WHEN json_extract(t.state, '$.play_message_v2') THEN json_extract(t.state, '$.play_message_id') END,
    CASE WHEN json_extract(t.state, '$.play_message_v2') THEN json_extract(t.state, '$.play_message_deal') END,
    CASE WHEN NOT coalesce(json_extract(t.state, '$.play_message_v2'), 0) THEN json_extract(t.state, '$.play_message_id') END,
    coalesce((
        SELECT json_group_object(seat.key, json_object(
            'user', json_extract(seat.value, '$.user_id'),
            'channel', json_extract(seat.value, '$.dm_channel_id'),
            'message', json_extract(seat.value, '$.dm_message_id'),
            'closed', json(CASE WHEN json_extract(seat.value, '$.dm_closed') THEN 'true' ELSE 'false' END),
            'legacy', json(CASE WHEN json_extract(seat.value, '$.dm_message_v2') THEN 'false' ELSE 'true' END)
        ))
        FROM json_each(t.state, '$.seats') AS seat
        WHERE seat.type = 'object'
          AND json_extract(seat.value, '$.user_id') IS NOT NULL
          AND (json_extract(seat.value, '$.dm_message_id') IS NOT NULL
               OR json_extract(seat.value, '$.dm_closed'))
    ), '{}')
FROM tables AS t;
