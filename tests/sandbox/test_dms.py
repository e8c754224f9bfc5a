"""Each member's DMs with the bot in the sandbox's page: ``/tute learn`` and ``/tute challenge
play`` send their lesson and their deal there, and the page shows them and clicks in them as
in the channel."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.i18n import t
from bot.sandbox import open_sandbox
from bot.sandbox.dms import DM_PREFIX
from bot.sandbox.launch import CARD_TABLE_FIELD
from bot.sandbox.page_script import PLACES_ID
from tests.sandbox._page import FAST, PreviewPage, buttons, card_to_play, message_text
from tests.web.browser import browser as browser  # the fixture

pytest.importorskip("markdown_it", reason="the sandbox's page needs simcord[preview]")


async def to_dms(page: PreviewPage, member_id: int) -> None:
    await page.act("viewer", viewer_id=f"{DM_PREFIX}{member_id}")


@pytest.mark.e2e
async def test_a_lesson_goes_on_in_the_viewers_dms(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.friends[0])
        await page.command("tute learn")
        await to_dms(page, box.friends[0].id)
        dm = box.friends[0].user.dm_channel
        assert page.state["channelId"] == str(dm.id)
        assert page.state["viewerId"] == str(box.friends[0].id)
        lesson = page.bot_messages()[-1]
        step = next(b for b in buttons(lesson) if b["custom_id"].startswith("tute:learn:"))
        before = message_text(lesson)
        await page.click(int(lesson["id"]), step["custom_id"])
        assert message_text(page.bot_messages()[-1]) != before, "the lesson went on"
        # back to the channel, as the same member
        await page.act("viewer", viewer_id=str(box.friends[0].id))
        assert page.state["channelId"] == str(box.channel.id)


@pytest.mark.e2e
async def test_the_daily_deal_is_played_in_the_dms(tmp_path: Path) -> None:
    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST) as box,
        aiohttp.ClientSession() as session,
    ):
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        await page.command("tute challenge play")
        await to_dms(page, box.you.id)
        hands = [m for m in page.bot_messages() if card_to_play(m) is not None]
        assert hands, "the deal's hand is in the DMs"
        hand = hands[-1]
        choice = card_to_play(hand)
        assert choice is not None
        receipt = await page.click(int(hand["id"]), choice)
        assert receipt["settlement"] == "settled"
        table = next(
            t for t in box.tables.tables.values() if t.channel_id == box.you.user.dm_channel.id
        )
        assert table.deal is not None and (table.deal.trick or table.deal.tricks), "it played"


@pytest.mark.e2e
async def test_in_the_browser_the_dms_are_one_click_away(tmp_path: Path, browser: Any) -> None:
    """In a browser, in Spanish: the bot's answer in the channel links to the DMs, and the
    link opens them in the page (not Discord's); the places above the channel switch."""
    from playwright.async_api import expect

    async with (
        open_sandbox(tmp_path / "sandbox.db", **FAST, language="es") as box,
        aiohttp.ClientSession() as session,
    ):
        tab = await browser.new_page()
        await tab.goto(box.url)
        await tab.wait_for_function("() => window.simcordPreview?.ready")
        page = PreviewPage(session, box.url)
        await page.open(box.you)
        await page.command("tute aprender")  # the tab is shown what it did
        # the line over the answer speaks Spanish too (SimCord's page writes "Alex used")
        header = tab.locator("#channel-message-list .message-interaction-header").last
        await expect(header).to_have_text(re.compile(r"^Alex usó /tute"))
        link = tab.locator("#channel-message-list a[href*='discord.com/channels/@me']").last
        await link.click()
        hash_is = "glyph => document.querySelector('.channel-hash')?.textContent === glyph"
        await tab.wait_for_function(hash_is, arg="@")
        composer = tab.locator("#channel-composer-input")
        said = t("sandbox.page.message_dm", "es", bot="Tute")
        await expect(composer).to_have_attribute("placeholder", said)
        await expect(tab.locator("#channel-message-list")).to_contain_text("Lección 1")
        await tab.locator(f"#{PLACES_ID} button[data-place='channel']").click()
        await tab.wait_for_function(hash_is, arg="#")


@pytest.mark.e2e
async def test_play_at_the_table_in_the_dms_opens_the_deals_own_table(tmp_path: Path) -> None:
    """The daily deal's Play at the table, pressed in the DMs, opens the card table on that
    deal (its hand and all), not on the server's channel; the address is the member's own."""
    async with (
        open_sandbox(tmp_path / "sandbox.db", web_port=0, **FAST) as box,
        aiohttp.ClientSession() as http,
    ):
        assert box.web is not None
        page = PreviewPage(http, box.url)
        await page.open(box.you)
        await page.command("tute challenge play")
        await to_dms(page, box.you.id)
        dm_id = box.you.user.dm_channel.id
        deal = next(t for t in box.tables.tables.values() if t.channel_id == dm_id)
        table_message = next(
            m for m in reversed(page.bot_messages()) if any(_web(b) for b in buttons(m))
        )
        play = next(b["custom_id"] for b in buttons(table_message) if _web(b))
        receipt = await page.click(int(table_message["id"]), play)
        url = receipt[CARD_TABLE_FIELD]
        query = parse_qs(urlsplit(url).query)
        assert query["user_id"] == [str(box.you.id)]

        async def log_in(user_id: int) -> aiohttp.ClientResponse:
            assert box.web is not None
            return await http.post(
                f"{box.web.origin}/api/token",
                json={
                    "code": "mock",
                    # the page's own, or the SDK mock's when the address names none
                    "instance_id": query.get("instance_id", ["mock-instance"])[0],
                    "user_id": str(user_id),
                    "key": box.web.key,
                },
            )

        answer = await log_in(box.you.id)
        assert answer.status == 200
        session = (await answer.json())["session"]
        async with http.ws_connect(f"{box.web.origin}/api/ws?session={session}") as ws:
            state = await ws.receive_json()
            assert state["type"] == "state", "the deal's table, not an offer of a new game"
            assert state["table"]["id"] == deal.id
            assert state["hand"]["seat"] == deal.seat_of(box.you.id)
            assert state["hand"]["cards"], "with the member's cards"
        other = await log_in(box.friends[0].id)
        assert other.status == 401, "another member has no place in Alex's DMs"


def _web(button: dict[str, Any]) -> bool:
    return str(button.get("custom_id", "")).endswith(":web")
