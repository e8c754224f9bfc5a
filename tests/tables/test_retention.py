"""The retention of a server the bot left: a departure the bot missed while away counts from
when it is seen, for this process's shards only; a server with a table still open waits for
it; a retention of 0 erases at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, members, servers
from bot.tables.retention import DAY, Retention
from tests.migrated import open_migrated

NOW = 1_767_225_600.0
HERE, GONE, ELSEWHERE = 1 << 22, 2 << 22, 3 << 22
"""Three servers on shards 1, 2 and 3 of four."""
ANA = 101


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "tute.db")
    yield database
    await database.close()


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


async def never(delay: float) -> None:
    await asyncio.Event().wait()


async def _member(db: Database, guild: int) -> None:
    async with db.transaction() as conn:
        await members.ensure_member(conn, guild, ANA, 1000, NOW)


async def _has(db: Database, guild: int) -> bool:
    return await members.member_stats(db, guild, ANA) is not None


async def test_a_departure_missed_while_away_counts_for_this_process_shards_only(
    db: Database,
) -> None:
    clock = Clock()
    retention = Retention(
        db, days=30, clock=clock, sleep=never, owns=lambda g: (g >> 22) % 4 in (1, 2)
    )
    for guild in (HERE, GONE, ELSEWHERE):
        await _member(db, guild)
    await servers.seen(db, (HERE, GONE, ELSEWHERE), NOW)
    clock.now = NOW + DAY
    # this process holds shards 1 and 2; the gateway lists HERE only
    assert await retention.connected([HERE]) == [GONE]
    assert await servers.left_at(db, GONE) == NOW + DAY
    assert await servers.left_at(db, ELSEWHERE) is None  # another process's to tell
    clock.now = NOW + 31 * DAY - 1
    assert await retention.sweep() == []  # 30 days from when it was missed, not from before
    clock.now = NOW + 31 * DAY
    assert await retention.sweep() == [GONE]
    assert [await _has(db, g) for g in (HERE, GONE, ELSEWHERE)] == [True, False, True]
    retention.stop()


async def test_a_server_with_an_open_table_waits_and_zero_days_erase_at_once(
    db: Database,
) -> None:
    clock = Clock()
    open_tables = {GONE}
    retention = Retention(
        db, days=0, clock=clock, sleep=never, busy=lambda guild: guild in open_tables
    )
    await _member(db, GONE)
    await retention.joined(GONE)
    await retention.left(GONE)
    assert await retention.sweep() == []
    assert await _has(db, GONE)
    assert await retention.next_wait() == 3600.0  # tried again in an hour
    open_tables.clear()
    assert await retention.sweep() == [GONE]
    assert not await _has(db, GONE)
    retention.stop()


async def test_coming_back_before_the_retention_keeps_everything(db: Database) -> None:
    clock = Clock()
    retention = Retention(db, days=30, clock=clock, sleep=never)
    await _member(db, GONE)
    await retention.joined(GONE)
    await retention.left(GONE)
    assert await retention.next_wait() == 7 * DAY  # one wait lasts a week at most
    clock.now = NOW + 10 * DAY
    await retention.joined(GONE)
    clock.now = NOW + 60 * DAY
    assert await retention.sweep() == []
    assert await _has(db, GONE)
    retention.stop()
