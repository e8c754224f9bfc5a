"""The web table as the bot runs it: it listens on a port of the bot's loop, its sockets
one of the presenters the service was built with (beside the others); stopping it closes
its sockets and leaves the tables to the others, and the service's presenters as they
were."""

from __future__ import annotations

import aiohttp
import pytest

from bot.engine import Options, Variant
from bot.storage import Database
from bot.web import Session, sign
from bot.web.server import WebTable
from bot.web.sockets import Sockets
from tests.tables._play import opened
from tests.tables.test_service import Recorder
from tests.web.conftest import quick_service

SECRET = b"w" * 32


async def test_it_listens_shows_the_table_and_stops(db: Database) -> None:
    discord, sockets = Recorder(), Sockets(lambda: 100.0)
    service = quick_service(db, discord, sockets)
    table = await opened(
        service,
        guild_id=1,
        channel_id=2,
        host_id=10,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
    )
    web = WebTable(
        service,
        sockets,
        secret=SECRET,
        clock=lambda: 100.0,
        application_id=None,
        client_secret="",
        bot_token="t",
    )
    assert not web.serving
    await web.start("127.0.0.1", 0)
    assert web.port and web.serving
    assert service.presenters == (discord, sockets)
    session = Session(10, "Ana", "i-1", 2, 1, 200.0)
    url = f"http://127.0.0.1:{web.port}/api/ws"
    async with aiohttp.ClientSession() as http:
        answer = await http.post(f"http://127.0.0.1:{web.port}/api/token", json={})
        assert answer.status == 404, "no Activity set up: nobody logs in through Discord"
        ws = await http.ws_connect(url, params={"session": sign(session, SECRET)})
        state = await ws.receive_json(timeout=5)
        assert state["table"]["id"] == table.id and state["hand"]["seat"] == 0
        await web.stop()
        closed = await ws.receive(timeout=5)
        assert closed.type is aiohttp.WSMsgType.CLOSE
        assert closed.data == aiohttp.WSCloseCode.GOING_AWAY
    assert not web.serving and not sockets.peers(table.id)
    assert service.presenters == (discord, sockets), "nothing swapped on the service"
    await service.start(table.id, 10)
    assert discord.calls, "the tables go on without it"


async def test_a_port_taken_is_said_and_leaves_nothing_open(db: Database) -> None:
    """A second web table on the same port cannot listen: it says so (OSError) and the
    service goes on with the presenters it had; the first one still serves."""
    discord, sockets = Recorder(), Sockets(lambda: 100.0)
    service = quick_service(db, discord, sockets)

    def web_table() -> WebTable:
        return WebTable(
            service,
            sockets,
            secret=SECRET,
            clock=lambda: 100.0,
            application_id=None,
            client_secret="",
            bot_token="t",
        )

    first, second = web_table(), web_table()
    await first.start("127.0.0.1", 0)
    assert first.port is not None
    try:
        with pytest.raises(OSError, match="in use"):
            await second.start("127.0.0.1", first.port)
        assert first.serving and not second.serving
        assert service.presenters == (discord, sockets)
        async with aiohttp.ClientSession() as http:
            answer = await http.get(f"http://127.0.0.1:{first.port}/api/config")
            assert answer.status == 200
    finally:
        await first.stop()
