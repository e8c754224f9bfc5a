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
from bot.web.instances import CHECK_TTL
from tests.tables._play import Clock
from tests.web.conftest import quick_hub, started_habanero
from tests.web.test_app import ANA, CHANNEL, EVA, GUILD, LUIS, SECRET, FakeAuth, session_of

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
    hub = quick_hub(db)
    service = hub.service
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


@pytest.mark.parametrize(
    ("change", "error"),
    [("gone", "no such instance"), ("left", "not in the instance")],
)
async def test_a_socket_is_refused_once_discord_no_longer_has_its_player(
    world: World, change: str, error: str
) -> None:
    """The Activity closed (or the player left it) since the login: its session, still
    within its hours, opens no socket, and the page is told why (it logs in again)."""
    token = world.token(ANA)
    async with world.connect(token) as ws:
        assert (await ws.receive_json())["type"] == "state"
    if change == "gone":
        world.auth.gone.add("i-1")
    else:
        world.auth.left.add(ANA)
    world.clock.now += CHECK_TTL
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await world.connect(token)
    assert refused.value.status == 401
    answer = await world.client.get("/api/ws", params={"session": token})  # the page's probe
    assert (answer.status, (await answer.json())["error"]) == (401, error)


async def test_a_discord_that_does_not_answer_locks_nobody_out(world: World) -> None:
    world.auth.down = True
    async with world.connect(world.token(ANA)) as ws:
        hand = (await ws.receive_json())["hand"]
        await ws.send_json(a_card(hand))
        assert (await ws.receive_json())["type"] == "state"
    assert world.auth.asked == ["i-1"]  # asked, and its silence was no refusal


async def test_a_page_that_reconnects_in_a_loop_asks_discord_once_a_while(
    world: World,
) -> None:
    token, other = world.token(ANA), world.token(LUIS)
    for _ in range(5):
        for session in (token, other):
            async with world.connect(session) as ws:
                assert (await ws.receive_json())["type"] == "state"
        world.clock.now += CHECK_TTL / 10
    assert world.auth.asked == ["i-1"]  # one instance, asked once for both players
    world.clock.now += CHECK_TTL
    async with world.connect(token) as ws:
        assert (await ws.receive_json())["type"] == "state"
    assert world.auth.asked == ["i-1", "i-1"]

    world.auth.gone.add("i-1")  # a refusal is kept as long: no refused call in a loop
    world.clock.now += CHECK_TTL
    for _ in range(5):
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await world.connect(token)
    assert world.auth.asked == ["i-1"] * 3


async def test_a_login_vouches_for_its_first_sockets_for_a_while(world: World) -> None:
    answer = await world.client.post("/api/token", json={"code": str(ANA), "instance_id": "i-1"})
    token = (await answer.json())["session"]
    async with world.connect(token) as ws:
        assert (await ws.receive_json())["type"] == "state"
    assert world.auth.asked == []  # the login has just asked Discord
    world.clock.now += CHECK_TTL
    async with world.connect(token) as ws:
        assert (await ws.receive_json())["type"] == "state"
    assert world.auth.asked == ["i-1"]
