"""What a hostile page may send the card table's server is answered in words, never a 500
or a dead socket: a session whose signature is not ASCII, numbers JSON cannot hold in an
int, brackets nested past Python's recursion, and replay ids past the database's integers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import t
from bot.storage import Database
from bot.tables.model import Table
from bot.web import Session, sign
from bot.web.activity import Instance, Login
from bot.web.app import make_app
from tests.web.conftest import quick_hub, started_habanero

SECRET = b"k" * 32
ANA = 10
GUILD, CHANNEL = 1, 2


def _token(user_id: int = ANA) -> str:
    session = Session(
        user_id=user_id,
        name="Ana",
        instance_id="i-1",
        channel_id=CHANNEL,
        guild_id=GUILD,
        expires=2e9,
    )
    return sign(session, SECRET)


@pytest.fixture
async def world(db: Database) -> AsyncIterator[tuple[TestClient[Any, Any], Table]]:
    hub = quick_hub(db)
    service = hub.service
    table = await started_habanero(service, hub, guild_id=GUILD, channel_id=CHANNEL, host_id=ANA)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=None)
    client = TestClient(TestServer(app))
    await client.start_server()
    yield client, table
    await client.close()


@pytest.mark.parametrize("signature", ["é", "ñandú", "\u00a0AAAA", "A" * 42 + "€"])
async def test_a_signature_that_is_not_ascii_is_malformed_not_a_500(
    world: tuple[TestClient[Any, Any], Table], signature: str
) -> None:
    client, _ = world
    payload = _token().partition(".")[0]
    token = f"{payload}.{signature}"
    opened = await client.get("/api/ws", params={"session": token})
    assert opened.status == 401
    assert (await opened.json())["error"] == "malformed"
    header = f"Bearer {token}"
    if header.isascii() or all(ord(c) < 256 for c in header):  # what HTTP headers can carry
        listed = await client.get("/api/replays", headers={"Authorization": header})
        assert listed.status == 401
        assert (await listed.json())["error"] == "malformed"


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "act", "code": "1O", "deal": 1e999, "trick": 0}',
        '{"type": "act", "code": "1O", "deal": 0, "trick": -1e999}',
        '{"type": "act", "code": "1O", "deal": NaN, "trick": 0}',
        '{"type": "act", "code": "1O", "deal": 99999999999999999999999, "trick": 0}',
        '{"type": "act", "code": "1O", "deal": "²", "trick": 0}',
        '{"type": "act", "code": "1O", "deal": 0.5, "trick": 0}',
        '{"type": "act", "code": "1O", "deal": true, "trick": 0}',
        "[" * 2000 + "]" * 2000,
        '{"type": ' + "[" * 2000 + "]" * 2000 + "}",
    ],
    ids=["inf", "-inf", "nan", "huge", "unicode digit", "half", "bool", "brackets", "nested"],
)
async def test_a_message_no_number_or_nesting_can_hold_is_refused_and_the_socket_lives(
    world: tuple[TestClient[Any, Any], Table], message: str
) -> None:
    client, table = world
    async with client.ws_connect("/api/ws", params={"session": _token()}) as ws:
        hand = (await ws.receive_json())["hand"]
        await ws.send_str(message)
        refused = await ws.receive_json()
        assert refused["type"] == "refused"
        assert refused["key"] == "tables.errors.malformed"
        assert refused["text"] == t("tables.errors.malformed", "en")
        card = hand["playable"][0]  # the same socket still plays
        await ws.send_json(
            {"type": "act", "code": card, "deal": hand["deal_no"], "trick": hand["trick_no"]}
        )
        state = await ws.receive_json()
        assert state["type"] == "state" and card not in state["hand"]["cards"]
        assert not ws.closed
    assert table.deal is not None


@pytest.mark.parametrize(
    ("table", "deal"),
    [
        (str(2**63), "0"),
        (str(2**64 + 5), "0"),
        ("1", str(2**63)),
        ("9" * 5000, "0"),
        ("1", "9" * 5000),
    ],
    ids=["table 2**63", "table 2**64", "deal 2**63", "table 5000 digits", "deal 5000 digits"],
)
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_replay_id_past_the_databases_integers_is_no_such_deal_in_words(
    world: tuple[TestClient[Any, Any], Table], table: str, deal: str, lang: str
) -> None:
    client, _ = world
    answer = await client.get(
        f"/api/replays/{table}/{deal}",
        params={"lang": lang},
        headers={"Authorization": f"Bearer {_token()}"},
    )
    assert answer.status == 404
    said = await answer.json()
    assert said["error"] == "replay_none"
    assert said["text"].startswith(t("tables.errors.replay_none", lang, id="X", deal="Y")[:5])


class _NoLogin:
    """An Activity whose logins the test never reaches."""

    async def login(self, code: str, instance_id: str, body: Mapping[str, Any]) -> Login:
        raise AssertionError("nothing malformed is sent on to Discord")

    async def instance(self, instance_id: str) -> Instance:
        raise AssertionError("nothing malformed is sent on to Discord")


@pytest.mark.parametrize(
    "body",
    ["[" * 2000 + "]" * 2000, '{"code": ' + "[" * 2000 + "]" * 2000 + ', "instance_id": "i-1"}'],
    ids=["brackets", "nested code"],
)
async def test_a_login_nested_past_json_s_depth_is_malformed_not_a_500(
    db: Database, body: str
) -> None:
    app = make_app(hub=quick_hub(db), secret=SECRET, clock=lambda: 1e9, auth=_NoLogin())
    async with TestClient(TestServer(app)) as client:
        answer = await client.post("/api/token", data=body)
        assert answer.status == 400
        assert (await answer.json())["error"] == "malformed"
