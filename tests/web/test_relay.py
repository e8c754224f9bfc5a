"""A web table's socket that reaches a process without its table is piped to the process
holding it (bot/web/relay.py), as two processes of the bot would: two real aiohttp apps on
127.0.0.1 in this test, sharing one database where the holder's address is kept beside its
lease. The holder is the real app on the real table service; the front answers a socket as
the app's socket handler does, asking the relay first."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiohttp import WSCloseCode, web
from aiohttp.test_utils import TestServer, make_mocked_request

from bot.storage import Database, leases
from bot.tables.cluster import Cluster, shard_of
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.web import Session, sign, verify
from bot.web.app import SESSION_ENDED, make_app
from bot.web.hub import TableHub
from bot.web.relay import RELAY, RELAYED, Relay, relay_if_elsewhere, relay_mark
from bot.web.sockets import Sockets
from tests.tables._play import Clock
from tests.web.conftest import quick_hub, quick_service, started_habanero

SECRET = b"r" * 32
SHARDS = 2
HERE, THERE = (1000 << 22), (1001 << 22)
"""A server on the front's shard (0) and one on the holder's (1)."""
CHANNEL = 2
ANA, EVA = 10, 12
WAIT = 10.0
"""Seconds a test waits for what must come (never reached unless the relay is broken)."""


def session_of(user_id: int, guild_id: int = THERE, channel: int = CHANNEL) -> Session:
    return Session(
        user_id=user_id,
        name=f"user{user_id}",
        instance_id="i-1",
        channel_id=channel,
        guild_id=guild_id,
        expires=2e9,
    )


def token(user_id: int, guild_id: int = THERE, channel: int = CHANNEL) -> str:
    return sign(session_of(user_id, guild_id, channel), SECRET)


async def front_socket(request: web.Request) -> web.StreamResponse:
    """The app's socket handler, as far as the relay goes: the session checked, the socket
    opened, then the relay's question; a table played here answers ``here``."""
    session = verify(request.query.get("session", ""), SECRET, 1e9)
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    if await relay_if_elsewhere(request, session, ws, secret=SECRET, now=1e9):
        return ws
    await ws.send_json({"type": "here"})
    await ws.close()
    return ws


class Hub(TableHub):
    """The holder's hub, which says when a socket leaves it."""

    def __init__(self, service: TableService, sockets: Sockets) -> None:
        super().__init__(service, sockets)
        self.left = asyncio.Event()

    def leave(self, table_id: int, peer: Any) -> None:
        super().leave(table_id, peer)
        self.left.set()


@dataclass
class World:
    db: Database
    service: TableService
    hub: Hub
    table: Table
    holder: TestServer
    front: TestServer
    front_cluster: Cluster
    lease_clock: Clock
    http: aiohttp.ClientSession
    holder_clock: Clock
    """The holder's app's time (its sessions run out by it)."""

    @property
    def holder_url(self) -> str:
        return str(self.holder.make_url("")).rstrip("/")

    async def hold(self, url: str | None, *, owner: str = "holder", ttl: float = 30.0) -> None:
        """The holder process (re)claims shard 1, with ``url`` as its address."""
        now = self.lease_clock()
        held = await leases.claim(self.db, owner, [1], now=now, until=now + ttl, peer_url=url)
        assert held == {1}

    def connect(self, user_id: int, **where: Any) -> Any:
        return self.http.ws_connect(
            self.front.make_url("/api/ws"), params={"session": token(user_id, **where)}
        )


async def serve(app: web.Application) -> TestServer:
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    return server


def front_app(cluster: Cluster) -> web.Application:
    app = web.Application()
    app[RELAY] = Relay(cluster)
    app.router.add_get("/api/ws", front_socket)

    async def close_relay(app: web.Application) -> None:
        await app[RELAY].close()

    app.on_cleanup.append(close_relay)
    return app


@pytest.fixture
async def world(db: Database) -> AsyncIterator[World]:
    assert shard_of(THERE, SHARDS) == 1 and shard_of(HERE, SHARDS) == 0
    sockets = Sockets(Clock())
    service = quick_service(db, sockets)
    hub = Hub(service, sockets)
    table = await started_habanero(service, hub, guild_id=THERE, channel_id=CHANNEL, host_id=ANA)
    holder_clock = Clock(1e9)
    holder = await serve(make_app(hub=hub, secret=SECRET, clock=holder_clock, auth=None))
    lease_clock = Clock()
    cluster = Cluster(db, shard_count=SHARDS, shards=[0], clock=lease_clock, name="front")
    front = await serve(front_app(cluster))
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        made = World(
            db, service, hub, table, holder, front, cluster, lease_clock, http, holder_clock
        )
        await made.hold(made.holder_url)
        yield made
    await front.close()
    await holder.close()


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """Reads what is left on the socket until it closes; its close code."""
    async with asyncio.timeout(WAIT):
        while not ws.closed:
            message = await ws.receive()
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
    return ws.close_code


async def test_a_socket_for_a_table_elsewhere_plays_at_the_holder(world: World) -> None:
    table = world.table
    async with world.connect(ANA) as ws:
        state = await ws.receive_json(timeout=WAIT)
        assert state["type"] == "state" and state["table"]["id"] == table.id
        hand = state["hand"]
        assert hand["seat"] == table.seat_of(ANA) and hand["your_turn"]
        assert len(world.hub.peers(table.id)) == 1  # the relay's socket, at the holder

        # a refusal comes back in the holder's words
        await ws.send_json({"type": "act", "code": hand["playable"][0], "deal": 0, "trick": 99})
        assert (await ws.receive_json(timeout=WAIT))["key"] == "tables.errors.stale"

        deal = table.deal
        assert deal is not None
        before = len(deal.actions)
        card = hand["playable"][0]
        await ws.send_json(
            {"type": "act", "code": card, "deal": hand["deal_no"], "trick": hand["trick_no"]}
        )
        state = await ws.receive_json(timeout=WAIT)
        assert state["type"] == "state" and len(deal.actions) > before
        assert card not in state["hand"]["cards"]

    # the page left: the relay closed its socket at the holder, which forgot it
    await asyncio.wait_for(world.hub.left.wait(), WAIT)
    assert not world.hub.peers(table.id)


async def test_a_session_that_runs_out_at_the_holder_has_the_page_log_in_again(
    world: World,
) -> None:
    deal = world.table.deal
    assert deal is not None
    async with world.connect(ANA) as ws:
        hand = (await ws.receive_json(timeout=WAIT))["hand"]
        world.holder_clock.now = session_of(ANA).expires
        before = len(deal.actions)
        await ws.send_json(
            {"type": "act", "code": hand["playable"][0], "deal": 0, "trick": hand["trick_no"]}
        )
        assert (await ws.receive_json(timeout=WAIT))["key"] == "tables.errors.expired"
        assert await closed_with(ws) == SESSION_ENDED  # the holder's word, through the relay
    assert len(deal.actions) == before


async def test_a_spectator_elsewhere_sees_no_hand(world: World) -> None:
    async with world.connect(EVA) as ws:
        state = await ws.receive_json(timeout=WAIT)
        assert state["type"] == "state" and state["hand"] is None


async def test_many_pages_are_relayed_at_once(world: World) -> None:
    """More sockets than aiohttp's client opens by default to one host (100)."""
    sockets = [await world.connect(EVA + n).__aenter__() for n in range(120)]
    try:
        for ws in sockets:
            assert (await ws.receive_json(timeout=WAIT))["type"] == "state"
        assert len(world.hub.peers(world.table.id)) == 120
    finally:
        for ws in sockets:
            await ws.close()


async def test_a_table_of_this_process_is_not_relayed(world: World) -> None:
    async with world.connect(ANA, guild_id=HERE) as ws:
        assert await ws.receive_json(timeout=WAIT) == {"type": "here"}


async def test_a_socket_a_peer_relayed_is_never_relayed_again(world: World) -> None:
    mark = relay_mark(token(ANA), SECRET, 1e9 - 20)  # a peer's clock a little behind
    async with world.http.ws_connect(
        world.front.make_url("/api/ws"), params={"session": token(ANA)}, headers={RELAYED: mark}
    ) as ws:
        assert await ws.receive_json(timeout=WAIT) == {"type": "here"}


@pytest.mark.parametrize(
    "mark",
    [
        "1",
        "",
        relay_mark(token(ANA), b"x" * 32, 1e9),  # signed with another secret
        relay_mark(token(ANA), SECRET, 1e9 - 3600),  # an hour old: replayed
        relay_mark(token(EVA), SECRET, 1e9),  # another session's
        "1000000000.\xe9t\xe9",
        "\xb2.abc",
    ],
    ids=["plain", "empty", "forged", "stale", "other-session", "not-ascii", "odd-time"],
)
async def test_a_pages_own_relay_mark_is_relayed_to_the_holder(world: World, mark: str) -> None:
    """A page cannot claim a peer relayed it: its socket plays at the holder's table."""
    async with world.http.ws_connect(
        world.front.make_url("/api/ws"), params={"session": token(ANA)}, headers={RELAYED: mark}
    ) as ws:
        state = await ws.receive_json(timeout=WAIT)
        assert state["type"] == "state" and state["table"]["id"] == world.table.id
        assert state["hand"]["seat"] == world.table.seat_of(ANA)


async def test_a_channel_without_a_table_there_hears_so_from_the_holder(world: World) -> None:
    async with world.connect(ANA, channel=999) as ws:
        assert (await ws.receive_json(timeout=WAIT))["type"] == "no_table"


async def test_with_no_holder_now_the_page_is_told_to_try_again(world: World) -> None:
    world.lease_clock.now += 31  # the holder's lease ran out: its process died
    async with world.connect(ANA) as ws:
        assert await closed_with(ws) == WSCloseCode.TRY_AGAIN_LATER


async def test_a_holder_that_does_not_answer_has_the_page_try_again(world: World) -> None:
    nobody = await serve(web.Application())  # a port where no table's socket is served
    url = str(nobody.make_url("")).rstrip("/")
    await nobody.close()
    await world.hold(url)
    async with world.connect(ANA) as ws:
        assert await closed_with(ws) == WSCloseCode.TRY_AGAIN_LATER


async def test_a_holder_without_an_address_has_the_page_try_again(world: World) -> None:
    await world.hold(None)
    async with world.connect(ANA) as ws:
        assert await closed_with(ws) == WSCloseCode.TRY_AGAIN_LATER


async def test_the_holder_going_away_closes_the_page_with_its_word(world: World) -> None:
    async with world.connect(ANA) as ws:
        assert (await ws.receive_json(timeout=WAIT))["type"] == "state"
        await world.holder.close()  # the holder stops: its sockets are told it goes away
        assert await closed_with(ws) == WSCloseCode.GOING_AWAY


async def test_a_holder_gone_without_a_word_has_the_page_reconnect(world: World) -> None:
    dropped = asyncio.Event()

    async def vanishing(request: web.Request) -> web.StreamResponse:
        """A holder whose process dies once it has sent the table: no close frame."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "state"})
        await dropped.wait()
        assert request.transport is not None
        request.transport.abort()
        return ws

    app = web.Application()
    app.router.add_get("/api/ws", vanishing)
    dying = await serve(app)
    await world.hold(str(dying.make_url("")).rstrip("/"))
    async with world.connect(ANA) as ws:
        assert await ws.receive_json(timeout=WAIT) == {"type": "state"}
        dropped.set()
        assert await closed_with(ws) == WSCloseCode.SERVICE_RESTART
    await dying.close()


async def test_the_holder_is_asked_with_the_pages_own_query(world: World) -> None:
    seen: list[tuple[dict[str, str], str | None]] = []

    async def recording(request: web.Request) -> web.StreamResponse:
        seen.append((dict(request.query), request.headers.get(RELAYED)))
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/api/ws", recording)
    other = await serve(app)
    await world.hold(str(other.make_url("")).rstrip("/"))
    async with world.http.ws_connect(
        world.front.make_url("/api/ws"), params={"session": token(ANA), "lang": "es"}
    ) as ws:
        assert await closed_with(ws) == WSCloseCode.OK
    assert seen == [({"session": token(ANA), "lang": "es"}, relay_mark(token(ANA), SECRET, 1e9))]
    await other.close()


async def test_the_hook_is_a_no_op_without_a_relay() -> None:
    request = make_mocked_request("GET", "/api/ws", app=web.Application())
    ws: Any = None  # not touched
    assert await relay_if_elsewhere(request, session_of(ANA), ws, secret=SECRET, now=1e9) is False


async def test_the_bots_own_app_relays_a_socket_for_a_table_elsewhere(world: World) -> None:
    """The front as the bot runs it: its own app and service (no table of that server
    here), with the relay: the page plays at the holder's table."""
    front_hub = quick_hub(world.db)
    app = make_app(hub=front_hub, secret=SECRET, clock=lambda: 1e9, auth=None)
    app[RELAY] = Relay(world.front_cluster)
    front = await serve(app)
    try:
        async with world.http.ws_connect(
            front.make_url("/api/ws"), params={"session": token(ANA)}
        ) as ws:
            state = await ws.receive_json(timeout=WAIT)
            assert state["type"] == "state" and state["table"]["id"] == world.table.id
            assert state["hand"]["seat"] == world.table.seat_of(ANA)
            assert not front_hub.peers(world.table.id), "played at the holder, not here"
        # a page's own mark changes nothing: it cannot open a table of its own here
        async with world.http.ws_connect(
            front.make_url("/api/ws"), params={"session": token(ANA)}, headers={RELAYED: "1"}
        ) as ws:
            state = await ws.receive_json(timeout=WAIT)
            assert state["type"] == "state" and state["table"]["id"] == world.table.id
            assert not front_hub.peers(world.table.id), "played at the holder, not here"
    finally:
        await app[RELAY].close()
        await front.close()


async def test_a_members_own_deal_in_their_dms_is_played_where_it_is_filed(
    world: World,
) -> None:
    """A page in a member's DMs (no server) whose table is filed under a server, as a daily
    deal is: the process of that server's shard plays it, not the DM channel's."""
    table = world.table
    async with world.connect(ANA, guild_id=None) as ws:
        state = await ws.receive_json(timeout=WAIT)
        assert state["type"] == "state" and state["table"]["id"] == table.id
        assert state["hand"]["seat"] == table.seat_of(ANA)
    async with world.connect(ANA, guild_id=None, channel=CHANNEL + 1) as ws:
        # nothing plays in that DM: its own channel's shard, the front's, answers
        assert (await ws.receive_json(timeout=WAIT))["type"] == "here"
