"""A card table's session is good only while it lasts and while its Activity does
(bot/web/app.py, bot/web/instances.py): checked on every message of an open socket and
before every change pushed to it, and against Discord again when a socket opens with it.
Time is the test's clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import tables_en, tables_es
from bot.storage import Database
from bot.tables.model import Table
from bot.web import sign
from bot.web.app import SESSION_ENDED, make_app
from bot.web.hub import TableHub
from tests.tables._play import Clock
from tests.web.conftest import quick_service, started_habanero
from tests.web.test_app import ANA, CHANNEL, EVA, GUILD, SECRET, FakeAuth, session_of

NOW = 1e9
LASTS = 600.0
"""Seconds the sessions of these tests last."""


@dataclass
class World:
    client: TestClient[Any, Any]
    table: Table
    clock: Clock
    auth: FakeAuth

    def token(self, user_id: int, *, lasts: float = LASTS) -> str:
        return sign(session_of(user_id, expires=self.clock() + lasts), SECRET)

    def connect(self, token: str, lang: str = "en") -> Any:
        return self.client.ws_connect("/api/ws", params={"session": token, "lang": lang})


@pytest.fixture
async def world(db: Database) -> AsyncIterator[World]:
    service = quick_service(db)
    hub = TableHub(service)
    table = await started_habanero(service, hub, guild_id=GUILD, channel_id=CHANNEL, host_id=ANA)
    clock = Clock(NOW)
    auth = FakeAuth()
    client = TestClient(TestServer(make_app(hub=hub, secret=SECRET, clock=clock, auth=auth)))
    await client.start_server()
    yield World(client, table, clock, auth)
    await client.close()


def a_card(hand: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "act",
        "code": hand["playable"][0],
        "deal": hand["deal_no"],
        "trick": hand["trick_no"],
    }


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    message = await ws.receive(timeout=5)
    assert message.type is aiohttp.WSMsgType.CLOSE, message
    return ws.close_code


@pytest.mark.parametrize(("lang", "catalog"), [("en", tables_en), ("es", tables_es)])
async def test_a_session_that_ran_out_on_an_open_socket_plays_nothing(
    world: World, lang: str, catalog: Any
) -> None:
    deal = world.table.deal
    assert deal is not None
    async with world.connect(world.token(ANA), lang) as ws:
        hand = (await ws.receive_json())["hand"]
        world.clock.now += LASTS
        before = len(deal.actions)
        await ws.send_json(a_card(hand))
        said = await ws.receive_json()
        assert said["type"] == "refused" and said["key"] == "tables.errors.expired"
        assert said["text"] == catalog.MESSAGES["tables.errors.expired"]
        assert await closed_with(ws) == SESSION_ENDED  # the page logs in again
    assert len(deal.actions) == before


async def test_a_socket_whose_session_ran_out_is_sent_no_more_of_the_game(
    world: World,
) -> None:
    async with (
        world.connect(world.token(ANA, lasts=2 * LASTS)) as ana,
        world.connect(world.token(EVA)) as eva,
    ):
        hand = (await ana.receive_json())["hand"]
        assert (await eva.receive_json())["type"] == "state"
        world.clock.now += LASTS  # Eva's session runs out, Ana's goes on
        await ana.send_json(a_card(hand))
        assert (await ana.receive_json())["type"] == "state"
        said = await eva.receive_json(timeout=5)
        assert said["type"] == "refused" and said["key"] == "tables.errors.expired"
        assert await closed_with(eva) == SESSION_ENDED
