"""The web table's HTTP side on the real table service: a login answered with a signed
session (or refused in a word), a socket that opens only with a session and follows its
channel's table, and actions sent on it taken or refused like the buttons' clicks."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.engine import Options, Variant
from bot.storage import Database
from bot.tables import Presenters
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.web import Session, WebAuthError, sign
from bot.web.activity import Login
from bot.web.app import make_app
from bot.web.hub import TableHub
from tests.tables._play import opened
from tests.tables.test_service import settle
from tests.web.conftest import quick_service

SECRET = b"k" * 32
ANA, LUIS, EVA = 10, 11, 12
GUILD, CHANNEL = 1, 2


def session_of(user_id: int, *, channel: int = CHANNEL, expires: float = 2e9) -> Session:
    return Session(
        user_id=user_id,
        name=f"user{user_id}",
        instance_id="i-1",
        channel_id=channel,
        guild_id=GUILD,
        expires=expires,
    )


class FakeAuth:
    """Discord's proof, decided by the test: a code names the user it logs in."""

    async def login(self, code: str, instance_id: str) -> Login:
        if not code.isdigit():
            raise WebAuthError("code refused")
        return Login(dataclasses.replace(session_of(int(code)), instance_id=instance_id), "tok")


@pytest.fixture
async def world(db: Database) -> AsyncIterator[tuple[TestClient[Any, Any], TableService, Table]]:
    service = quick_service(db)
    hub = TableHub(service)
    service.presenter = Presenters(hub)
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
    )
    await service.start(table.id, ANA)
    await settle(service, table)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())  # type: ignore[arg-type]
    client = TestClient(TestServer(app))
    await client.start_server()
    yield client, service, table
    await client.close()


async def test_a_login_answers_a_session_the_socket_takes(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    answer = await client.post("/api/token", json={"code": str(ANA), "instance_id": "i-1"})
    assert answer.status == 200
    body = await answer.json()
    assert body["user"] == {"id": str(ANA), "name": f"user{ANA}"}
    assert body["access_token"] == "tok"
    async with client.ws_connect("/api/ws", params={"session": body["session"]}) as ws:
        state = await ws.receive_json()
        assert state["type"] == "state" and state["table"]["id"] == table.id
        assert state["hand"]["seat"] == table.seat_of(ANA)


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"code": "nope", "instance_id": "i-1"}, 401, "code refused"),
        ({"code": "10"}, 400, "malformed"),
        ("not json", 400, "malformed"),
    ],
)
async def test_a_login_discord_does_not_prove_is_refused_in_a_word(
    world: tuple[TestClient[Any, Any], TableService, Table], body: Any, status: int, error: str
) -> None:
    client, _, _ = world
    sent = {"json": body} if isinstance(body, dict) else {"data": body}
    answer = await client.post("/api/token", **sent)
    assert (answer.status, (await answer.json())["error"]) == (status, error)


@pytest.mark.parametrize("token", ["", "forged.token", "FORGED"])
async def test_no_socket_opens_without_a_good_session(
    world: tuple[TestClient[Any, Any], TableService, Table], token: str
) -> None:
    client, _, _ = world
    if token == "FORGED":
        token = sign(session_of(ANA), b"x" * 32)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/api/ws", params={"session": token})
    assert refused.value.status == 401


async def test_an_expired_session_opens_nothing(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    old = sign(session_of(ANA, expires=1e9 - 1), SECRET)
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await client.ws_connect("/api/ws", params={"session": old})


async def test_a_channel_without_a_table_says_so(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    elsewhere = sign(session_of(ANA, channel=999), SECRET)
    async with client.ws_connect("/api/ws", params={"session": elsewhere}) as ws:
        assert await ws.receive_json() == {"type": "no_table"}


async def test_a_card_from_the_socket_is_played_and_nonsense_refused(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    deal = table.deal
    assert deal is not None and deal.turn == table.seat_of(ANA)
    async with client.ws_connect(
        "/api/ws", params={"session": sign(session_of(ANA), SECRET)}
    ) as ws:
        hand = (await ws.receive_json())["hand"]
        await ws.send_str("{nonsense")
        assert (await ws.receive_json())["key"] == "tables.errors.malformed"
        stale = {"type": "act", "code": hand["playable"][0], "deal": 0, "trick": 99}
        await ws.send_json(stale)
        assert (await ws.receive_json())["key"] == "tables.errors.stale"
        before = len(deal.actions)
        card = hand["playable"][0]
        await ws.send_json(
            {"type": "act", "code": card, "deal": hand["deal_no"], "trick": hand["trick_no"]}
        )
        state = await ws.receive_json()
        assert state["type"] == "state" and len(deal.actions) > before
        played = [c for _, c in state["table"]["deal"]["trick"]]
        last = state["table"]["deal"]["last_trick"]
        assert card in played or (last is not None and card in [c for _, c in last["cards"]])
        assert card not in state["hand"]["cards"]


async def test_a_spectator_watches_and_plays_nothing(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    async with client.ws_connect(
        "/api/ws", params={"session": sign(session_of(EVA), SECRET)}
    ) as ws:
        state = await ws.receive_json()
        assert state["hand"] is None and state["table"]["id"] == table.id
        await ws.send_json({"type": "act", "code": "1O", "deal": 0, "trick": 0})
        assert (await ws.receive_json())["key"] == "tables.errors.not_seated"


def test_the_app_has_the_two_routes_alone() -> None:
    app = make_app(hub=None, secret=SECRET, clock=lambda: 0.0, auth=None)  # type: ignore[arg-type]
    routes = sorted((r.method, r.resource.canonical) for r in app.router.routes() if r.resource)
    assert routes == [("GET", "/api/ws"), ("HEAD", "/api/ws"), ("POST", "/api/token")]
    assert isinstance(app, web.Application)
