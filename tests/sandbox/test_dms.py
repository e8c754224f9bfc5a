"""Each member's DMs with the bot in the sandbox's page: ``/tute learn`` and ``/tute challenge
play`` send their lesson and their deal there, and the page shows them and clicks in them as
in the channel."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from bot.sandbox import open_sandbox
from bot.sandbox.dms import DM_PREFIX
from tests.sandbox._page import FAST, PreviewPage, buttons, card_to_play, message_text

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
