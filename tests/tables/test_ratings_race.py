"""Two games that end at once, in two processes of the bot on PostgreSQL, and share a
member: the member is rated by one game, then by the other, which reads the first's
rating (not the one before it); a rebuild from the kept games gives the same. Where the
second read the rating before the first was saved, the member's first game was lost."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Database, open_database
from bot.tables.ratings import Family, GameResult, Player, RatingRules, rebuild, record_game
from tests.pgserver import fresh_postgres

pytestmark = pytest.mark.e2e

GUILD = 1
RULES = RatingRules()
ANA, BEA, CRIS = (Player(user_id=u) for u in (100, 101, 102))
WAITS = 2000
"""How many times the test looks (every 10 ms) for the second game's transaction waiting on
the first's, before it gives up: the outcome never depends on how soon it is found."""


async def _ratings(db: Database) -> dict[tuple[int, str], tuple[float, float, int]]:
    rows = await db.fetchall("SELECT user_id, family, mu, sigma, games FROM ratings")
    return {(int(r[0]), str(r[1])): (float(r[2]), float(r[3]), int(r[4])) for r in rows}


async def _rate(db: Database, table_id: int, game: GameResult, at: float) -> None:
    async with db.transaction() as conn:
        await record_game(conn, GUILD, table_id, game, at, RULES)


async def _until_one_waits(watcher: Database) -> None:
    for _ in range(WAITS):
        row = await watcher.fetchone("SELECT count(*) FROM pg_locks WHERE NOT granted")
        if row is not None and int(row[0]) > 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the second game's transaction never waited on the first's")


async def test_two_games_ending_at_once_rate_their_shared_member_in_turn(
    pg_server: str,
) -> None:
    url = await fresh_postgres(pg_server)
    first, second, watcher = [await open_database(url) for _ in range(3)]
    ana_bea = GameResult(Family.TWO, ((ANA,), (BEA,)), (0, 1))
    ana_cris = GameResult(Family.TWO, ((ANA,), (CRIS,)), (1, 0))
    try:
        async with first.transaction() as conn:
            await record_game(conn, GUILD, 1, ana_bea, 1.0, RULES)
            # the other process's game ends while this one's transaction is still open
            other = asyncio.create_task(_rate(second, 2, ana_cris, 2.0))
            await _until_one_waits(watcher)
        await other
        rated = await _ratings(watcher)
        assert rated[(100, "two")][2] == 2, "Ana was rated by both games"
        async with watcher.transaction() as conn:
            assert await rebuild(conn, GUILD, RULES) == 2
        rebuilt = await _ratings(watcher)
        assert set(rebuilt) == set(rated)
        for key, value in rated.items():
            assert rebuilt[key] == pytest.approx(value), key
    finally:
        for db in (first, second, watcher):
            await db.close()
