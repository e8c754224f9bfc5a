"""Migrations on a real file and a real PostgreSQL database: from nothing, and from every
earlier version; and the two engines' schemas are the same."""

import asyncio
import json
from pathlib import Path

import pytest

from bot.storage import ledger, members, open_database
from bot.storage import places as stored_places
from bot.storage import tournament_places as stored_tournament_places
from bot.storage.base import Database, migration_scripts
from bot.storage.settings import get_settings

from .conftest import fresh_postgres

TABLES = {
    "guild_settings",
    "tables",
    "actions",
    "deals",
    "deal_players",
    "members",
    "ledger",
    "member_preferences",
    "rated_games",
    "ratings",
    "seasons",
    "tournaments",
    "shard_leases",
    "table_places",
    "daily_deals",
    "daily_key",
    "tournament_places",
    "erasures",
    "guild_presence",
    "reviews",
}
ADDED_AT = {
    "member_preferences": 4,
    "rated_games": 5,
    "ratings": 5,
    "seasons": 6,
    "tournaments": 7,
    "shard_leases": 9,
    "table_places": 10,
    "daily_deals": 12,
    "daily_key": 12,
    "tournament_places": 14,
    "erasures": 15,
    "guild_presence": 16,
    "reviews": 17,
}
"""The tables a later version added, with that version."""
LATEST = len(migration_scripts())


async def schema_objects(db: Database, kind: str) -> set[str]:
    if db.dialect == "postgres":
        sql = {
            "table": "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_version'",
            # not the indexes of keys, which SQLite names by number
            "index": "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
            " AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'",
        }[kind]
        return {row[0] for row in await db.fetchall(sql)}
    rows = await db.fetchall(
        "SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'", (kind,)
    )
    return {row[0] for row in rows}


async def columns(db: Database, table: str) -> set[str]:
    if db.dialect == "postgres":
        sql = (
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name = ?"
        )
        return {row[0] for row in await db.fetchall(sql, (table,))}
    return {row[1] for row in await db.fetchall(f"PRAGMA table_info({table})")}


async def test_an_empty_file_gets_every_migration(db_path: Path) -> None:
    assert not await asyncio.to_thread(db_path.exists)

    db = await open_database(db_path)
    try:
        assert await db.schema_version() == LATEST >= 2
        assert await schema_objects(db, "table") == TABLES
        assert {"ledger_by_movement", "members_by_xp"} <= await schema_objects(db, "index")
        assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
    finally:
        await db.close()
    assert await asyncio.to_thread(db_path.is_file)


async def test_both_engines_have_the_same_schema(db_path: Path, pg_server: str) -> None:
    """PostgreSQL's migrations are SQLite's twins: the same tables, columns and indexes."""
    assert [v for v, _, _ in migration_scripts("postgres")] == list(range(1, LATEST + 1))
    sqlite = await open_database(db_path)
    postgres = await open_database(await fresh_postgres(pg_server))
    try:
        for kind in ("table", "index"):
            assert await schema_objects(postgres, kind) == await schema_objects(sqlite, kind)
        for table in TABLES:
            assert await columns(postgres, table) == await columns(sqlite, table), table
    finally:
        await sqlite.close()
        await postgres.close()


async def test_opening_again_applies_nothing(db_target: str | Path) -> None:
    db = await open_database(db_target)
    async with db.transaction() as conn:
        await members.ensure_member(conn, 1, 10, 1000, 0.0)
    await db.close()

    db = await open_database(db_target)
    try:
        assert await db.schema_version() == LATEST
        assert await db.migrate() == LATEST
        assert await schema_objects(db, "table") == TABLES
        assert await ledger.balance(db, 1, 10) == 1000
    finally:
        await db.close()


@pytest.mark.parametrize("start", range(1, LATEST))
async def test_every_earlier_version_migrates_to_the_latest(
    db_target: str | Path, start: int
) -> None:
    db = await open_database(db_target, migrate=False)
    try:
        assert await db.schema_version() == 0
        assert await db.migrate(target=start) == start
        assert await db.schema_version() == start
        # every version has the tables of version 1 and those added up to it
        later = {name for name, version in ADDED_AT.items() if version > start}
        assert await schema_objects(db, "table") == TABLES - later
        # Rows written by the version-1 bot (no movement numbers yet): a starting grant, and
        # a stake held by a table.
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO members (guild_id, user_id) VALUES (1, 10)")
            await conn.executemany(
                "INSERT INTO ledger (guild_id, account, user_id, table_id, kind, amount,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, 0)",
                [
                    (1, "member", 10, None, "start", 1000),
                    (1, "member", 10, 7, "stake", -100),
                    (1, "table", None, 7, "stake", 100),
                ],
            )

        assert await db.migrate() == LATEST

        assert await db.schema_version() == LATEST
        assert await ledger.balance(db, 1, 10) == 900
        assert await ledger.table_held(db, 7) == 100
        assert (await ledger.table_state(db, 7)).stakes == {10: 100}
        audit = await ledger.audit(db, 1)
        assert (audit.members, audit.tables, audit.granted) == (900, 100, 1000)
        # Old rows have no movement number: they count in the totals, not movement by movement.
        assert audit.balanced
        # New movements are numbered and balanced.
        async with db.transaction() as conn:
            await ledger.refund_table(conn, 1, 7, 1.0)
        assert await ledger.balance(db, 1, 10) == 1000
    finally:
        await db.close()


async def test_migrating_to_a_target_stops_there(db_target: str | Path) -> None:
    db = await open_database(db_target, migrate=False)
    try:
        assert await db.migrate(target=1) == 1
        assert "ledger_by_movement" not in await schema_objects(db, "index")
        assert "movement" not in await columns(db, "ledger")
    finally:
        await db.close()


async def test_version_3_keeps_each_servers_language_and_lets_it_be_unset(db_path: Path) -> None:
    db = await open_database(db_path, migrate=False)
    try:
        assert await db.migrate(target=2) == 2
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'es')")
            await conn.execute("INSERT INTO guild_settings (guild_id, turn_time) VALUES (2, 90)")
        assert await db.migrate() == LATEST
        assert (await get_settings(db, 1)).language == "es"
        kept = await get_settings(db, 2)
        assert (kept.turn_time, kept.language) == (90, "en"), "written before: kept as it was"
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, turn_time) VALUES (3, 30)")
        assert (await get_settings(db, 3)).language is None, "new rows leave it to the bot"
    finally:
        await db.close()


async def test_version_8_copies_the_ledger_and_numbers_movements_on(db_path: Path) -> None:
    db = await open_database(db_path, migrate=False)
    try:
        assert await db.migrate(target=7) == 7
        # what the version-7 bot wrote: two starting grants, then two stakes at table 7
        async with db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO members (guild_id, user_id) VALUES (1, ?)", [(10,), (11,)]
            )
            await conn.executemany(
                "INSERT INTO ledger (guild_id, account, user_id, table_id, kind, amount,"
                " created_at, movement) VALUES (1, ?, ?, ?, ?, ?, 0, ?)",
                [
                    ("member", 10, None, "start", 1000, 1),
                    ("member", 11, None, "start", 1000, 2),
                    ("member", 10, 7, "stake", -100, 3),
                    ("member", 11, 7, "stake", -100, 3),
                    ("table", None, 7, "stake", 200, 3),
                ],
            )
        before = await db.fetchall("SELECT * FROM ledger ORDER BY id")
        last_movement = max(row[-1] for row in before)

        assert await db.migrate() == LATEST

        after = await db.fetchall(
            "SELECT id, guild_id, account, user_id, table_id, kind, amount, created_at, movement"
            " FROM ledger ORDER BY id"
        )
        assert [tuple(r) for r in after] == [tuple(r) for r in before]
        indexes = await schema_objects(db, "index")
        assert {"ledger_by_member", "ledger_by_table", "ledger_by_movement"} <= indexes
        assert {"ledger_by_table_any", "ledger_by_guild_kind", "ledger_by_tournament"} <= indexes
        async with db.transaction() as conn:
            movement = await ledger.refund_table(conn, 1, 7, 2.0)
        rows = await db.fetchall("SELECT movement FROM ledger WHERE kind = 'refund'")
        assert {row[0] for row in rows} == {len(before) + 1} and len(before) + 1 > last_movement
        assert movement == {10: 100, 11: 100}
        assert (await ledger.audit(db, 1)).balanced
    finally:
        await db.close()


OLD_STATE = {
    "options": {},
    "language": "en",
    "seats": [
        # a hand sent with layouts, a hand sent with embeds, closed DMs, a robot, a member
        # whose hand never went out
        {
            "name": "ana",
            "user_id": 10,
            "dm_channel_id": 500,
            "dm_message_id": 501,
            "dm_closed": False,
            "dm_message_v2": True,
        },
        {
            "name": "bea",
            "user_id": 11,
            "dm_channel_id": 510,
            "dm_message_id": 511,
            "dm_closed": False,
            "dm_message_v2": False,
        },
        {
            "name": "cruz",
            "user_id": 12,
            "dm_channel_id": None,
            "dm_message_id": None,
            "dm_closed": True,
            "dm_message_v2": False,
        },
        {
            "name": "robot:1",
            "user_id": None,
            "dm_channel_id": None,
            "dm_message_id": None,
            "dm_closed": False,
            "dm_message_v2": False,
        },
        {
            "name": "dani",
            "user_id": 13,
            "dm_channel_id": None,
            "dm_message_id": None,
            "dm_closed": False,
            "dm_message_v2": False,
        },
    ],
    "thread_id": 300,
    "message_id": 301,
    "play_message_id": 302,
    "play_message_deal": 2,
}


@pytest.mark.parametrize("layout", [True, False])
async def test_version_10_moves_where_messages_live_out_of_the_games_state(
    db_target: str | Path, layout: bool
) -> None:
    """Where each message lives leaves the table's state for the Discord side's own table; a
    table message or a hand sent with embeds (before layouts) is marked to be replaced."""
    db = await open_database(db_target, migrate=False)
    try:
        assert await db.migrate(target=9) == 9
        state = {**OLD_STATE, "play_message_v2": layout}
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, variant, status, state,"
                " created_at, updated_at) VALUES (7, 1, 2, 10, 'pairs', 'playing', ?, 0, 0)",
                (json.dumps(state),),
            )
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, variant, status, state,"
                " created_at, updated_at) VALUES (8, 1, 2, 10, 'habanero', 'lobby', ?, 0, 0)",
                (
                    json.dumps(
                        {
                            "options": {},
                            "seats": [None, None],
                            "thread_id": None,
                            "message_id": 401,
                            "play_message_id": None,
                        }
                    ),
                ),
            )
        assert await db.migrate() == LATEST

        row = await stored_places.load(db, 7)
        assert row is not None
        assert (row.thread_id, row.lobby_id) == (300, 301)
        if layout:
            assert (row.play_id, row.play_deal, row.legacy_id) == (302, 2, None)
        else:
            assert (row.play_id, row.play_deal, row.legacy_id) == (None, None, 302)
        assert json.loads(row.hands) == {
            "0": {"user": 10, "channel": 500, "message": 501, "closed": False, "legacy": False},
            "1": {"user": 11, "channel": 510, "message": 511, "closed": False, "legacy": True},
            "2": {"user": 12, "channel": None, "message": None, "closed": True, "legacy": True},
        }
        lobby = await stored_places.load(db, 8)
        assert lobby is not None and (lobby.lobby_id, lobby.play_id, lobby.hands) == (
            401,
            None,
            "{}",
        )
    finally:
        await db.close()


def tournament_state(**kept: object) -> str:
    """A tournament's state as the version-13 bot wrote it (with what ``kept`` adds)."""
    state = {
        "variant": "habanero",
        "options": {},
        "format": "knockout",
        "swiss_rounds": 0,
        "deadline": 0.0,
        "entrants": [[10, "ana"], [11, "bea"], [12, "cruz"], [13, "dani"]],
        "draw": None,
        "tables": {"0": 70, "1": 71},
    }
    return json.dumps({**state, **kept})


async def test_version_14_moves_a_tournaments_places_out_of_its_state(
    db_target: str | Path,
) -> None:
    """Its sign-up message and the tables its channel was told leave a tournament's state
    for the Discord side's own table; a state kept before ``told`` was (its tables all told
    then) counts every table of its matches as told."""
    db = await open_database(db_target, migrate=False)
    try:
        assert await db.migrate(target=13) == 13
        states = {
            1: tournament_state(message_id=901, told=[71]),
            2: tournament_state(message_id=902),  # kept before "told"
            3: tournament_state(message_id=None, tables={}, told=[]),  # signing up
            4: tournament_state(message_id=904, told=[71, 70]),
        }
        async with db.transaction() as conn:
            for tournament_id, state in states.items():
                await conn.execute(
                    "INSERT INTO tournaments (id, guild_id, channel_id, host_id, status, state,"
                    " created_at, updated_at) VALUES (?, 1, 2, 10, 'running', ?, 0, 0)",
                    (tournament_id, state),
                )
        assert await db.migrate() == LATEST

        found = {
            tournament_id: await stored_tournament_places.load(db, tournament_id)
            for tournament_id in states
        }
        assert {
            tournament_id: (row.message_id, json.loads(row.told))
            for tournament_id, row in found.items()
            if row is not None
        } == {1: (901, [71]), 2: (902, [70, 71]), 3: (None, []), 4: (904, [70, 71])}
        assert await stored_tournament_places.load(db, 5) is None
        # written from now on by the Discord side, in place of what was moved
        await stored_tournament_places.save(
            db, stored_tournament_places.TournamentPlaceRow(3, 903, "[72]")
        )
        assert await stored_tournament_places.load(
            db, 3
        ) == stored_tournament_places.TournamentPlaceRow(3, 903, "[72]")
    finally:
        await db.close()
