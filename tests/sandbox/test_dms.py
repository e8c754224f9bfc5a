"""Each member's DMs with the bot in the sandbox's page: ``/tute learn`` and ``/tute challenge
play`` send their lesson and their deal there, and the page shows them and clicks in them as
in the channel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.i18n import t
from bot.sandbox import open_sandbox
from bot.sandbox.dms import DM_PREFIX
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
