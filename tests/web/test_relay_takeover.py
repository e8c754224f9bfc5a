"""A page's socket relayed to the process holding its table, when that process dies
mid-game (bot/web/relay.py over bot/tables/cluster): the page's socket is closed with 1012,
its reconnection is told to try again (1013) while the dead process's lease still holds,
and once another process has taken the shard over, the page lands on it and plays on.

Each "process" is a table service with its own PostgreSQL pool and its own web app on
127.0.0.1, as separate ``tute-bot --shards`` would have; skipped without PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
import pytest
from aiohttp import WSCloseCode, web
from aiohttp.test_utils import TestServer

from bot.engine import Variant, parse_options
from bot.storage import Database, open_database
from bot.tables.cluster import CLAIM_RETRY, LEASE_TTL, Cluster
from bot.tables.service import TableService
from bot.web import Session, sign
from bot.web.app import make_app
from bot.web.hub import TableHub
from bot.web.relay import RELAY, Relay
from bot.web.sockets import Sockets
from tests.pgserver import fresh_postgres
from tests.runtime import table_runtime
from tests.tables._play import Clock, Timers, instant_robot, opened
from tests.tables.test_cluster import Sleeps
from tests.web.test_relay import SECRET, front_socket  # the front checks sessions with it

SHARDS = 2
GUILD = 1001 << 22
"""A server on shard 1, held by the process that dies."""
CHANNEL = GUILD + 1
HUMAN = 555
WAIT = 10.0
"""Seconds a test waits for what must come (never reached unless something is broken)."""

TOKEN = sign(
    Session(
        user_id=HUMAN,
        name="Ana",
        instance_id="i-1",
        channel_id=CHANNEL,
        guild_id=GUILD,
        expires=2e9,
    ),
    SECRET,
)


@dataclass
class Process:
    db: Database
    service: TableService
    timers: Timers
    server: TestServer
    cluster: Cluster
    sleeps: Sleeps
    transports: list[asyncio.Transport] = field(default_factory=list[asyncio.Transport])
    killed: bool = False
    """The connections of the sockets it serves (to cut them as a dying process would)."""

    async def kill(self) -> None:
        """Gone at once, as with SIGKILL: its connections cut without a close, nothing
        saved on the way out, no lease given back."""
        self.killed = True
        for transport in self.transports:
            transport.abort()
        await self.timers.stop()
        if self.cluster._renewing is not None:  # pyright: ignore[reportPrivateUsage]
            self.cluster._renewing.cancel()  # pyright: ignore[reportPrivateUsage]
        await self.server.close()
        await self.db.close()


@pytest.fixture
async def url(pg_server: str) -> str:
    return await fresh_postgres(pg_server, migrated=True)


@pytest.fixture
async def made() -> AsyncIterator[list[Callable[[], Awaitable[None]]]]:
    """What each test started, stopped at its end (last first)."""
    stops: list[Callable[[], Awaitable[None]]] = []
    yield stops
    for stop in reversed(stops):
        await stop()


async def holder(
    url: str, lease_clock: Clock, stops: list[Callable[[], Awaitable[None]]], *, go: bool = True
) -> Process:
    """A process running shard 1 with its web table; with ``go``, holding it."""
    db = await open_database(url)
    timers = Timers()
    clock = Clock()
    sockets = Sockets(clock)
    service = TableService(
        db,
        (sockets,),
        table_runtime(clock, sleep=timers.sleep, robot=instant_robot),
        robot_delay=0.0,
    )
    hub = TableHub(service, sockets)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=None)
    transports: list[asyncio.Transport] = []

    @web.middleware
    async def keep_transport(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.transport is not None:
            transports.append(request.transport)
        return await handler(request)

    app.middlewares.append(keep_transport)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    sleeps = Sleeps()
    cluster = Cluster(
        db,
        shard_count=SHARDS,
        shards=[1],
        clock=lease_clock,
        sleep=sleeps.sleep,
        peer_url=str(server.make_url("")).rstrip("/"),
    )
    process = Process(db, service, timers, server, cluster, sleeps, transports)

    async def stop() -> None:
        if not process.killed:
            await timers.stop()
            await cluster.stop()
            await server.close()
            await db.close()

    stops.append(stop)
    if go:
        await cluster.start(service)
        await service.restore()
    return process


async def front(
    url: str, lease_clock: Clock, stops: list[Callable[[], Awaitable[None]]]
) -> TestServer:
    """A process running shard 0: the one Discord's Activity URL mapping reaches."""
    db = await open_database(url)
    cluster = Cluster(db, shard_count=SHARDS, shards=[0], clock=lease_clock, sleep=Sleeps().sleep)
    await cluster.start(TableService(db, (), table_runtime(Clock())))
    app = web.Application()
    app[RELAY] = relay = Relay(cluster)
    app.router.add_get("/api/ws", front_socket)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()

    async def stop() -> None:
        await server.close()
        await relay.close()
        await cluster.stop()
        await db.close()

    stops.append(stop)
    return server


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    async with asyncio.timeout(WAIT):
        while not ws.closed:
            message = await ws.receive()
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
    return ws.close_code


async def play_a_card(ws: aiohttp.ClientWebSocketResponse) -> dict[str, object]:
    """The member's turn: a card of their hand's ``playable``; the state it made."""
    async with asyncio.timeout(WAIT):
        while True:
            state = await ws.receive_json()
            if state["type"] == "state" and state["hand"]["your_turn"]:
                break
    hand = state["hand"]
    card = hand["playable"][0]
    await ws.send_json(
        {"type": "act", "code": card, "deal": hand["deal_no"], "trick": hand["trick_no"]}
    )
    answer = await ws.receive_json(timeout=WAIT)
    assert answer["type"] == "state", answer
    assert card not in answer["hand"]["cards"]
    return answer


async def test_a_page_lands_on_the_process_that_took_its_table_over(
    url: str, made: list[Callable[[], Awaitable[None]]]
) -> None:
    lease_clock = Clock()
    dying = await holder(url, lease_clock, made)
    the_front = await front(url, lease_clock, made)
    table = await opened(
        dying.service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HUMAN,
        host_name="Ana",
        variant=Variant.INDIVIDUAL,
        options=parse_options(Variant.INDIVIDUAL, {}),
        language="en",
    )
    await dying.service.start(table.id, HUMAN)
    await dying.timers.quiet(dying.service)
    socket_url = the_front.make_url("/api/ws")

    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(socket_url, params={"session": TOKEN}) as ws:
            played = await play_a_card(ws)
            assert played["table"]["id"] == table.id  # type: ignore[index]
            await dying.timers.quiet(dying.service)  # the robots' cards after it, saved
            answered = len(dying.service.tables[table.id].deal.actions)  # type: ignore[union-attr]
            await dying.kill()  # mid-game
            assert await closed_with(ws) == WSCloseCode.SERVICE_RESTART

        # the page reconnects at once: the dead process's lease still holds
        async with http.ws_connect(socket_url, params={"session": TOKEN}) as ws:
            assert await closed_with(ws) == WSCloseCode.TRY_AGAIN_LATER

        # its replacement waits for the lease, then takes the shard and its tables over
        heir = await holder(url, lease_clock, made, go=False)
        starting = asyncio.create_task(heir.cluster.start(heir.service))
        delay, retry = await heir.sleeps.waiting.get()
        assert delay == CLAIM_RETRY
        lease_clock.now += LEASE_TTL  # the dead process never renewed it
        retry.set_result(None)
        await starting
        await heir.service.restore()
        await heir.timers.quiet(heir.service)

        # the page's next try lands on the heir: the same table, every card it had played
        async with http.ws_connect(socket_url, params={"session": TOKEN}) as ws:
            first = await ws.receive_json(timeout=WAIT)
            assert first["type"] == "state" and first["table"]["id"] == table.id
            deal = heir.service.tables[table.id].deal
            assert deal is not None and len(deal.actions) == answered
            await ws.send_json(
                {
                    "type": "act",
                    "code": first["hand"]["playable"][0],
                    "deal": first["hand"]["deal_no"],
                    "trick": first["hand"]["trick_no"],
                }
            )
            assert (await ws.receive_json(timeout=WAIT))["type"] == "state"
            assert len(deal.actions) > answered
