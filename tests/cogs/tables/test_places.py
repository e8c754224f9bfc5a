"""Where a table's messages live (cogs/tables/places.py), on a real SQLite file: kept in
memory at once, written a little later in one commit for every table changed meanwhile, at
once when the bot stops, and kept for the next try when a write fails."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Options, Variant
from bot.storage import Database
from bot.storage import places as stored
from bot.tables.model import Seat, Status, Table
from bot.tables.views import TableView, table_view
from cogs.tables.places import FLUSH_AFTER, HandPlace, Places
from tests.migrated import open_migrated


class Parked:
    """A ``sleep`` whose waits the test lets go."""

    def __init__(self) -> None:
        self.waits: list[tuple[float, asyncio.Future[None]]] = []

    async def __call__(self, delay: float) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waits.append((delay, done))
        await done

    async def started(self) -> None:
        for _ in range(20):
            if self.waits:
                return
            await asyncio.sleep(0)

    async def release(self) -> None:
        await self.started()
        _, done = self.waits.pop(0)
        done.set_result(None)
        for _ in range(20):  # the flush that follows
            await asyncio.sleep(0)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "tute.db")
    async with database.transaction() as conn:
        for table_id in (7, 8):
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, variant, status, state,"
                " created_at, updated_at) VALUES (?, 1, 2, 10, 'habanero', 'playing', '{}', 0, 0)",
                (table_id,),
            )
    yield database
    await database.close()


def view(table_id: int) -> TableView:
    table = Table(
        id=table_id,
        guild_id=1,
        channel_id=2,
        host_id=10,
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
        created_at=0.0,
        seats=[Seat("ana", user_id=10), Seat.for_robot(1)],
        status=Status.PLAYING,
    )
    return table_view(table)


async def test_places_are_written_later_all_in_one_commit(db: Database) -> None:
    sleep = Parked()
    places = Places(lambda: db, sleep)
    seven, eight = await places.of(view(7)), await places.of(view(8))
    seven.thread_id, seven.play_message_id, seven.play_message_deal = 30, 31, 0
    seven.hands[0] = HandPlace(10, 40, 41)
    places.changed(seven)
    eight.message_id = 50
    places.changed(eight)
    await sleep.started()
    assert [delay for delay, _ in sleep.waits] == [FLUSH_AFTER], "one flush for both"
    assert await stored.load(db, 7) is None, "not written yet: the click commits its move only"

    batches = db.counts.batches
    await sleep.release()
    assert db.counts.batches == batches + 1, "one commit"
    again = Places(lambda: db, sleep)  # the next start reads them back
    seven_again = await again.of(view(7))
    assert (seven_again.where_id, seven_again.play_message_id) == (30, 31)
    assert seven_again.hand(0, 10) == HandPlace(10, 40, 41)
    assert seven_again.hand(0, 11) is None, "another member in that seat has no DM yet"
    assert (await again.of(view(8))).message_id == 50


async def test_the_stop_writes_at_once_and_a_failed_write_is_tried_again(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleep = Parked()
    places = Places(lambda: db, sleep)
    seven = await places.of(view(7))
    seven.hands[0] = HandPlace(10, dm_closed=True)
    places.changed(seven)

    save = stored.save

    async def full_disk(database: Database, rows: list[stored.PlaceRow]) -> None:
        raise OSError("database or disk is full")

    monkeypatch.setattr(stored, "save", full_disk)
    await sleep.release()
    assert await stored.load(db, 7) is None
    await sleep.started()
    assert len(sleep.waits) == 1, "tried again later"
    monkeypatch.setattr(stored, "save", save)

    seven.play_message_id = 60
    places.changed(seven)
    await places.close()  # the bot stops: written now, the later try called off
    back = await Places(lambda: db, sleep).of(view(7))
    assert back.play_message_id == 60 and back.dm_closed(0, 10)
    assert back.by_dm(view(7), 0) is False, "the hand goes under My hand"
