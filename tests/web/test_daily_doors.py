"""The day's daily deal through the card table's doors (Replays, Tricks) either side of
midnight UTC, on an injected clock: a member who may still be dealt it, or whose own copy
still plays, is kept from the cards of another's copy, before midnight and after; once the
day is over for them, any member of the server may step through it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import t
from bot.storage import Database
from bot.storage.daily import DAY, day_of
from bot.tables.daily import DailyService
from bot.tables.errors import TableError
from bot.tables.model import Status, Table
from bot.tables.service import TableService
from bot.web import Session, sign
from bot.web.app import make_app
from bot.web.hub import TableHub
from bot.web.sockets import Sockets
from tests.migrated import open_migrated
from tests.runtime import table_runtime
from tests.tables._sim import SimTime
from tests.tables.test_daily import World, begin, play_out

SECRET = b"k" * 32
GUILD, CHANNEL = 1, 2
ANA, BOB, EVA = 10, 11, 12
DMS = {ANA: 500, BOB: 501, EVA: 502}


@dataclass
class Doors:
    world: World
    service: TableService
    daily: DailyService
    client: TestClient[Any, Any]

    @property
    def time(self) -> SimTime:
        return self.world.time

    def session(self, user_id: int, *, in_dms: bool = False) -> str:
        channel = DMS[user_id] if in_dms else CHANNEL
        return sign(
            Session(
                user_id=user_id,
                name=f"user{user_id}",
                instance_id="i-1",
                channel_id=channel,
                guild_id=None if in_dms else GUILD,
                expires=self.time.now + 10 * DAY,
            ),
            SECRET,
        )

    async def replay(self, user_id: int, table: Table) -> tuple[int, dict[str, Any]]:
        """What the card table's Replays answers the member asking for the table's deal."""
        answer = await self.client.get(
            f"/api/replays/{table.id}/0",
            headers={"Authorization": f"Bearer {self.session(user_id)}"},
        )
        return answer.status, await answer.json()


@pytest.fixture
async def doors(tmp_path: Path) -> AsyncIterator[Doors]:
    db: Database = await open_migrated(tmp_path / "tute.db")
    world = World(db)
    sockets = Sockets(world.time)
    service = TableService(
        db,
        (sockets,),
        table_runtime(world.time, sleep=world.time.sleep),
        robot_delay=0.0,
        lobby_timeout=900.0,
        idle_timeout=600.0,
    )
    world.services.append(service)
    app = make_app(hub=TableHub(service, sockets), secret=SECRET, clock=world.time, auth=None)
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield Doors(world, service, DailyService(db, service), client)
    finally:
        await client.close()
        for running in world.services:
            await world.stop(running)
        await db.close()


async def _minute_to_midnight(doors: Doors) -> Table:
    """Ana played the day's deal out; it is a minute to midnight UTC."""
    ana = await play_out(
        doors.world, doors.service, await begin(doors.daily, ANA, channel=DMS[ANA]), ANA
    )
    doors.time.now = (day_of(doors.time.now) + 1) * DAY - 60
    return ana


async def test_replays_keep_the_deal_from_whoever_may_still_play_it(doors: Doors) -> None:
    ana = await _minute_to_midnight(doors)
    await begin(doors.daily, BOB, channel=DMS[BOB])  # Bob starts his copy before midnight
    for user in (BOB, EVA):  # Eva may still be dealt it today
        status, body = await doors.replay(user, ana)
        assert (status, body["error"]) == (403, "daily_secret"), user
        assert body["text"] == t("tables.errors.daily_secret", "en")
    assert (await doors.replay(ANA, ana))[0] == 200, "her own"

    doors.time.now += 120  # two minutes later, past midnight UTC
    status, body = await doors.replay(BOB, ana)
    assert (status, body["error"]) == (403, "daily_secret"), "his copy of it still plays"
    status, body = await doors.replay(EVA, ana)
    assert status == 200, "the day is over: Eva can no longer be dealt it"
    assert body["table_id"] == ana.id


async def test_tricks_of_a_copy_in_play_are_its_players_alone(doors: Doors) -> None:
    ana = await _minute_to_midnight(doors)
    bob = await begin(doors.daily, BOB, channel=DMS[BOB])
    await doors.world.time.quiet(doors.service)
    for moment in ("before", "after"):
        if moment == "after":
            doors.time.now += 120
        # Bob's card table in his DMs is at his copy, and shows him its tricks
        async with doors.client.ws_connect(
            "/api/ws", params={"session": doors.session(BOB, in_dms=True)}
        ) as ws:
            state = await ws.receive_json()
            assert state["type"] == "state" and state["table"]["id"] == bob.id
            await ws.send_json({"type": "tricks"})
            while (shown := await ws.receive_json())["type"] not in ("tricks", "refused"):
                pass
            assert shown["type"] == "tricks", moment
        # nobody else sees his copy as it plays: not Ana (her copy is over), not Eva
        for user in (ANA, EVA):
            with pytest.raises(TableError) as refused:
                doors.service.history(bob.id, user, GUILD)
            assert refused.value.key == "watch_private", (moment, user)
    assert ana.status is Status.FINISHED
