"""The hint on the web table: the page's Hint asks on the socket, and the answer is the line
the Discord button gives, to that page alone, counted once per decision, the card it plays
marked in the hand; refused in words at a competitive table."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.engine import CODES, Kind, Options, Variant
from bot.i18n import t
from bot.storage import Database
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.web import sign
from bot.web.app import make_app
from bot.web.hub import TableHub
from bot.words import hint_line
from tests.tables._play import opened
from tests.tables.test_service import settle
from tests.web.browser import ANA, CHANNEL, GUILD, LUIS, MEMBERS, Served, open_page
from tests.web.browser import browser as browser  # the fixture
from tests.web.conftest import quick_hub, started_habanero
from tests.web.test_app import SECRET, FakeAuth, session_of
from tests.web.test_hub import Socket


async def friendly(db: Database) -> tuple[TableService, TableHub, Table]:
    """Ana and a robot at a friendly habanero table, Ana to play, shown on the web table."""
    hub = quick_hub(db)
    service = hub.service
    service.hints.budget = 0.02
    table = await opened(
        service,
        guild_id=1,
        channel_id=2,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(competitive=False),
        language="en",
    )
    await service.start(table.id, ANA)
    await settle(service, table)
    return service, hub, table


async def test_the_page_gets_the_same_line_as_the_button(db: Database) -> None:
    service, hub, table = await friendly(db)
    ana, luis = Socket(ANA, language="es"), Socket(LUIS)
    await hub.join(table.id, ana)
    await hub.join(table.id, luis)
    assert ana.last["hand"]["hint"] is True
    await hub.hint(table.id, ana)
    sent = ana.last
    hint = await service.hint(table.id, ANA)  # asked again: the same, counted once
    assert not hint.counted
    assert sent["type"] == "hint"
    assert sent["text"] == hint_line(replace(hint, counted=True), "es")
    played = hint.action.arg if hint.action.kind is Kind.PLAY else None
    assert sent["card"] == (CODES[played] if played is not None else None)
    assert all(m["type"] != "hint" for m in luis.sent), "to that page alone"
    seat = table.seat_of(ANA)
    assert seat is not None
    occupant = table.seats[seat]
    assert occupant is not None and occupant.hints == 1


async def test_a_hint_at_a_competitive_table_is_refused_in_words(db: Database) -> None:
    hub = quick_hub(db)
    service = hub.service
    table = await started_habanero(service, hub, guild_id=1, channel_id=2, host_id=ANA)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        session = sign(session_of(ANA), SECRET)
        async with client.ws_connect("/api/ws", params={"session": session, "lang": "en"}) as ws:
            state = await ws.receive_json()
            assert state["table"]["id"] == table.id and state["hand"]["hint"] is False
            await ws.send_json({"type": "hint"})
            refused = await ws.receive_json()
            assert refused["type"] == "refused"
            assert refused["text"] == t("tables.errors.hint_competitive", "en")
    finally:
        await client.close()


@pytest.mark.e2e
async def test_the_pages_hint_button_answers_in_a_line_and_marks_the_card(
    db: Database, browser: Any
) -> None:
    served = Served(quick_hub(db))
    served.service.hints.budget = 0.02
    await served.start()
    try:
        table = await opened(
            served.service,
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ANA,
            host_name=MEMBERS[ANA],
            variant=Variant.HABANERO,
            options=Options(competitive=False),
            language="en",
        )
        await served.service.start(table.id, ANA)
        await settle(served.service, table)
        page = await open_page(browser, served, ANA)
        await page.click("button.declare.hint")
        await page.wait_for_function(
            "document.querySelector('#notice').textContent.trim().startsWith('💡')"
        )
        hinted = await page.eval_on_selector_all(
            "button.card.hinted", "bs => bs.map(b => b.dataset.card)"
        )
        seat = table.seat_of(ANA)
        assert seat is not None and table.deal is not None
        legal = {CODES[a.arg] for a in table.deal.legal_actions() if a.kind is Kind.PLAY}
        assert len(hinted) <= 1 and set(hinted) <= legal
        occupant = table.seats[seat]
        assert occupant is not None and occupant.hints == 1
    finally:
        await served.stop()
