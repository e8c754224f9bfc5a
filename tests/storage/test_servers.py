"""The servers the bot is in and the erasure of one it left, on both engines: every row of a
server gone past the retention is erased, in every table, and nothing of another server; a
server the bot came back to keeps everything."""

from bot.storage import Database, exports, servers

from .helpers import NOW

DAY = 86_400.0
GONE, STAYS, BACK = 7_000_000_000_000_000_001, 7_000_000_000_000_000_002, 7_000_000_000_000_000_003
"""Three servers (ids the size of Discord's): one the bot left, one it is in, one it came
back to."""
ANA = 7_100_000_000_000_000_001


def _rows(guild: int, n: int) -> list[tuple[str, tuple[object, ...]]]:
    """One row of every table a server keeps, its tables numbered from ``n``."""
    table, daily_table, season, tournament = n, n + 1, n, n
    state = '{"seats": []}'
    return [
        ("INSERT INTO guild_settings (guild_id) VALUES (?)", (guild,)),
        *(
            (
                "INSERT INTO tables (id, guild_id, channel_id, host_id, variant, status, state,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, 'pairs', 'finished', ?, ?, ?)",
                (t, guild, guild + 5, ANA, state, NOW, NOW),
            )
            for t in (table, daily_table)
        ),
        ("INSERT INTO actions VALUES (?, 0, 0, 'p:1')", (table,)),
        ("INSERT INTO deals VALUES (?, 0, ?, '{}', ?)", (table, guild, NOW)),
        ("INSERT INTO deal_players VALUES (?, 0, 0, ?)", (table, ANA)),
        ("INSERT INTO reviews VALUES (?, ?, 0, ?, '{}', 1)", (guild, table, ANA)),
        ("INSERT INTO table_places (table_id, thread_id) VALUES (?, ?)", (table, guild + 9)),
        ("INSERT INTO members (guild_id, user_id) VALUES (?, ?)", (guild, ANA)),
        (
            "INSERT INTO ledger (guild_id, account, user_id, kind, amount, created_at)"
            " VALUES (?, 'member', ?, 'start', 1000, ?)",
            (guild, ANA, NOW),
        ),
        ("INSERT INTO member_preferences (guild_id, user_id) VALUES (?, ?)", (guild, ANA)),
        (
            "INSERT INTO seasons (id, guild_id, number, started_at) VALUES (?, ?, 1, ?)",
            (season, guild, NOW),
        ),
        (
            "INSERT INTO rated_games (table_id, guild_id, family, finished_at, result, season_id)"
            " VALUES (?, ?, 'pairs', ?, '{}', ?)",
            (table, guild, NOW, season),
        ),
        (
            "INSERT INTO ratings (guild_id, user_id, family, mu, sigma) VALUES (?, ?, 'pairs', 25, 8)",
            (guild, ANA),
        ),
        (
            "INSERT INTO daily_deals (guild_id, user_id, day, started_at, table_id)"
            " VALUES (?, ?, 20454, ?, ?)",
            (guild, ANA, NOW, daily_table),
        ),
        (
            "INSERT INTO tournaments (id, guild_id, channel_id, host_id, status, state,"
            " created_at, updated_at) VALUES (?, ?, 1, ?, 'finished', '{}', ?, ?)",
            (tournament, guild, ANA, NOW, NOW),
        ),
        ("INSERT INTO tournament_places (tournament_id) VALUES (?)", (tournament,)),
    ]


async def _tables_of(db: Database) -> dict[str, set[str]]:
    """Every table of the schema, with its columns."""
    if db.dialect == "postgres":
        rows = await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name <> 'schema_version'"
        )
        found: dict[str, set[str]] = {}
        for table, column in rows:
            found.setdefault(table, set()).add(column)
        return found
    names = await db.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    return {
        name: {row[1] for row in await db.fetchall(f"PRAGMA table_info({name})")}
        for (name,) in names
    }


async def _kept(db: Database, guild: int, tables: set[int], tournaments: set[int]) -> set[str]:
    """The tables holding a row of the server: by its id, or by one of its tables' or
    tournaments' ids where a table names none."""
    held: set[str] = set()
    for name, columns in (await _tables_of(db)).items():
        if "guild_id" in columns:
            where, params = "guild_id = ?", [guild]
        elif "table_id" in columns:
            where, params = f"table_id IN ({', '.join('?' * len(tables))})", sorted(tables)
        elif "tournament_id" in columns:
            where = f"tournament_id IN ({', '.join('?' * len(tournaments))})"
            params = sorted(tournaments)
        else:
            continue  # the install's own (leases, the daily key)
        row = await db.fetchone(f"SELECT COUNT(*) FROM {name} WHERE {where}", params)
        if row is not None and row[0]:
            held.add(name)
    return held


async def _seed(db: Database) -> None:
    await db.write([*_rows(GONE, 100), *_rows(STAYS, 200), *_rows(BACK, 300)])
    await servers.seen(db, (GONE, STAYS, BACK), NOW)


async def _every_table_holding(db: Database) -> set[str]:
    return {
        name
        for name, columns in (await _tables_of(db)).items()
        if columns & {"guild_id", "table_id", "tournament_id"}
    }


async def test_a_server_gone_31_days_is_erased_from_every_table(db: Database) -> None:
    await _seed(db)
    every = await _every_table_holding(db)
    assert await _kept(db, GONE, {100, 101}, {100}) == every  # the seed fills every table
    await servers.left(db, GONE, NOW)
    await servers.left(db, BACK, NOW)
    await servers.seen(db, (BACK,), NOW + 10 * DAY)  # back after 10 days
    later = NOW + 31 * DAY
    assert await servers.departures(db) == [(GONE, NOW)]

    assert await servers.erase(db, GONE, left_before=later - 30 * DAY)
    assert await _kept(db, GONE, {100, 101}, {100}) == set()
    assert await _kept(db, STAYS, {200, 201}, {200}) == every
    assert await _kept(db, BACK, {300, 301}, {300}) == every
    assert await servers.departures(db) == []
    assert await servers.present(db) == [STAYS, BACK]
    # the server it came back to is never erased, whatever the cutoff
    assert not await servers.erase(db, BACK, left_before=later)
    assert await _kept(db, BACK, {300, 301}, {300}) == every


async def test_a_server_left_less_long_ago_is_not_erased(db: Database) -> None:
    await _seed(db)
    await servers.left(db, GONE, NOW + 2 * DAY)
    await servers.left(db, GONE, NOW + 5 * DAY)  # the first departure counts
    assert await servers.left_at(db, GONE) == NOW + 2 * DAY
    assert not await servers.erase(db, GONE, left_before=NOW + DAY)
    assert await _kept(db, GONE, {100, 101}, {100}) == await _every_table_holding(db)
    assert await servers.erase(db, GONE, left_before=NOW + 2 * DAY)


async def test_every_table_naming_a_server_is_erased_with_it(db: Database) -> None:
    """A table added later that names a server (or its tables, or its tournaments) must be
    in the erasure too."""
    covered = " ".join(servers.ERASE)
    for name, columns in (await _tables_of(db)).items():
        if columns & {"guild_id", "table_id", "tournament_id"} and name != "guild_presence":
            assert f"FROM {name} " in covered, name


async def test_the_export_reads_a_servers_standings_and_finished_deals(db: Database) -> None:
    await _seed(db)
    await db.write(
        [
            ("INSERT INTO members (guild_id, user_id, xp) VALUES (?, ?, 7)", (GONE, ANA + 1)),
            ("INSERT INTO deals VALUES (101, 0, ?, '{\"open\": 1}', NULL)", (GONE,)),
        ]
    )
    found = await exports.standings(db, GONE)
    assert [(s.user_id, s.chips, s.xp) for s in found] == [(ANA, 1000, 0), (ANA + 1, 0, 7)]
    assert found[0].ratings["pairs"].mu == 25 and found[1].ratings == {}
    deals = await exports.finished_deals(db, GONE)
    assert [(d.deal.table_id, d.deal.members, d.variant) for d in deals] == [
        (100, {0: ANA}, "pairs")
    ]
