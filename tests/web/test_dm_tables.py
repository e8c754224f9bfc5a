"""The card table opened in a member's DMs with the bot finds their own deal there: their
practice deal (a table of no server) and their daily deal (a table of its server), though
the page's session there has no server. The page sees the table and the member's hand, as
the table's Play at the table promises."""

from __future__ import annotations

from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage import Database
from bot.tables.daily import DailyService
from bot.tables.lobby import NO_SERVER
from bot.tables.practice import open_practice
from bot.tables.views import Outcome
from bot.web import Session, sign
from bot.web.app import make_app
from bot.web.lobby import channel_table
from tests.tables.test_service import settle
from tests.web.conftest import quick_hub

SECRET = b"k" * 32
GUILD, DM, ANA = 1, 500, 10


def in_her_dms(channel: int = DM) -> Session:
    """Ana's page in her DMs with the bot: Discord names no server there."""
    return Session(
        user_id=ANA, name="Ana", instance_id="i-1", channel_id=channel, guild_id=None, expires=2e9
    )


@pytest.mark.parametrize("deal", ["practice", "daily"])
async def test_the_page_in_her_dms_plays_her_own_deal(db: Database, deal: str) -> None:
    hub = quick_hub(db)
    service = hub.service
    outcome: Outcome
    if deal == "practice":
        outcome = await open_practice(
            service, user_id=ANA, name="Ana", language="en", channel_id=DM
        )
        assert outcome.show.table.guild_id == NO_SERVER
    else:
        daily = DailyService(db, service)
        outcome = await daily.play(
            guild_id=GUILD, user_id=ANA, name="Ana", language="en", channel_id=DM
        )
        assert outcome.show.table.guild_id == GUILD
    table = service.get(outcome.show.table.id)
    await settle(service, table)
    assert await channel_table(service, in_her_dms()) == service.view(table.id)
    assert await channel_table(service, in_her_dms(channel=DM + 1)) is None, "her DMs alone"

    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=None)
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        session = sign(in_her_dms(), SECRET)
        async with client.ws_connect("/api/ws", params={"session": session}) as ws:
            state = await ws.receive_json()
            assert state["type"] == "state", "her table, not an offer of another game"
            assert state["table"]["id"] == table.id
            assert state["hand"]["seat"] == table.seat_of(ANA)
            assert state["hand"]["cards"], "with her cards"
    finally:
        await client.close()
