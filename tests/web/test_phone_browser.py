"""The card table's page on a phone (360 and 390 px wide) and a desktop, in English and
Spanish: the top seat stands clear of the empty felt, the score shows each name whole and
the clock does not cover it; every card shown is named in the page's language."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine import CODES, Options, Variant
from bot.sandbox.web_pictures import tap_a_card
from bot.storage import Database
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.words.cards import card_name
from tests.tables._play import opened
from tests.tables.test_replay import finished_record, store_deal
from tests.tables.test_service import settle
from tests.web.browser import ANA, CHANNEL, GUILD, MEMBERS, Served, open_page, open_waiting_page
from tests.web.browser import browser as browser  # the fixture
from tests.web.conftest import quick_hub

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("TUTE_PHONE_SHOTS")
"""A folder (there already) to save each page's picture in, when set, to look at them."""


@pytest.fixture
async def served(db: Database) -> AsyncIterator[Served]:
    served = Served(quick_hub(db))
    await served.start()
    yield served
    await served.stop()


async def _with_robots(service: TableService, variant: Variant, language: str) -> Table:
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name=MEMBERS[ANA],
        variant=variant,
        options=Options(),
        language=language,
    )
    while None in table.seats:
        await service.add_robot(table.id, ANA)
    await service.start(table.id, ANA)
    await settle(service, table)
    return table


async def _shot(page: Any, name: str) -> None:
    if SHOTS:
        await page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


@pytest.mark.parametrize("variant", [Variant.PAIRS, Variant.HABANERO])
@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_phone_shows_the_cards_and_the_whole_score(
    served: Served, browser: Any, language: str, variant: Variant
) -> None:
    await _with_robots(served.service, variant, language)
    for width, height in ((360, 740), (390, 780), (1280, 800)):
        page = await open_page(browser, served, ANA, width=width, height=height, language=language)
        await page.wait_for_selector("button.card")
        await page.wait_for_function(
            "[...document.querySelectorAll('#hand img')].every(i => i.complete)"
        )
        await _shot(page, f"play-{variant.value}-{language}-{width}")
        rows = await page.evaluate(
            """() => {
              const tops = [...document.querySelectorAll('button.card img')]
                .map(i => i.getBoundingClientRect())
                .map(r => ({top: Math.round(r.top), height: r.height}));
              const byRow = [...new Set(tops.map(t => t.top))].sort((a, b) => a - b);
              // a raised card (one you may play) sits 14 px higher in its row
              const starts = byRow.filter((t, i) => i === 0 || t - byRow[i - 1] > 20);
              return {starts, height: tops[0].height};
            }"""
        )
        for upper, lower in zip(rows["starts"], rows["starts"][1:], strict=False):
            shown = (lower - upper) / rows["height"]
            assert shown > 0.95, (language, width, rows)  # the first row is not half hidden
        box = await page.evaluate(
            """() => {
              const seat = document.querySelector('.seat.at-top');
              const bar = document.getElementById('bar').getBoundingClientRect();
              const r = seat.getBoundingClientRect();
              const felt = document.getElementById('felt').getBoundingClientRect();
              const top = Math.max(r.top, bar.bottom, felt.top, 0);
              return {visible: Math.max(0, r.bottom - top) / r.height};
            }"""
        )
        assert box["visible"] > 0.95, (language, width, box)
        cut = await page.evaluate(
            """() => [...document.querySelectorAll('#scores .who, #scores .points')]
                 .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""
        )
        assert cut == [], (language, width)
        overlap = await page.evaluate(
            """() => {
              const clock = document.getElementById('clock');
              if (clock.hidden) return [];
              const c = clock.getBoundingClientRect();
              return [...document.querySelectorAll('#scores .side')].filter(s => {
                const r = s.getBoundingClientRect();
                return r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom;
              }).map(s => s.textContent);
            }"""
        )
        assert overlap == [], (language, width)
        await page.context.close()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_card_shown_is_named_in_the_page_language(
    served: Served, browser: Any, language: str
) -> None:
    await _with_robots(served.service, Variant.HABANERO, language)
    page = await open_page(browser, served, ANA, width=390, language=language)
    async with asyncio.timeout(60):
        while not await page.evaluate("!document.getElementById('last-trick').hidden"):
            if not await tap_a_card(page):
                await asyncio.sleep(0.05)
    names = {code: card_name(card, language) for card, code in enumerate(CODES)}
    await page.click("#last-trick")
    await page.wait_for_selector("#last:not([hidden]) img")
    unnamed = await page.evaluate(
        """names => {
          const bad = [];
          for (const img of document.querySelectorAll('img[data-card], #felt img, #hand img')) {
            if (img.closest('[aria-hidden="true"]')) continue;
            const code = img.dataset.card ?? img.dataset.last
              ?? img.getAttribute('src').split('/').pop().split('.')[0];
            if (code === 'back') continue;
            const named = img.closest('button.card')?.getAttribute('aria-label') ?? img.alt;
            if (named !== names[code]) bad.push([code, named]);
          }
          return bad;
        }""",
        names,
    )
    assert unnamed == []
    hand = await page.evaluate(
        "[...document.querySelectorAll('button.card')].map(b => [b.dataset.card, b.ariaLabel])"
    )
    assert hand and all(label == names[code] for code, label in hand)
    toggle = await page.get_attribute("#last-trick", "aria-label")
    last = await page.evaluate("[...document.querySelectorAll('#last img')].map(i => i.alt)")
    assert toggle is not None and last and all(name in toggle for name in last)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_replay_fits_a_phone_and_ends_on_the_last_trick(
    served: Served, browser: Any, language: str
) -> None:
    record = finished_record(Variant.PAIRS)
    table_id = await store_deal(
        served.service.db, record, finished=True, guild=GUILD, member=(ANA, MEMBERS[ANA])
    )
    for width, height in ((360, 740), (390, 780), (1280, 800)):
        page = await open_waiting_page(
            browser, served, ANA, width=width, height=height, language=language
        )
        await page.click("#replays-open")
        await page.click(f"button.replay-deal[data-table='{table_id}'][data-deal='0']")
        await page.wait_for_function("document.getElementById('replay').dataset.step === '0'")
        for _ in range(3):
            await page.click("button.replay-go[data-go=next]")
        await page.wait_for_function("document.getElementById('replay').dataset.step === '3'")
        await _settled(page)
        await _shot(page, f"replay-{language}-{width}")
        wide = await page.evaluate("document.getElementById('replay').scrollWidth")
        assert wide <= width
        await page.click("button.replay-go[data-go=last]")
        await page.wait_for_function("document.getElementById('replay').dataset.step !== '3'")
        await _settled(page)
        await _shot(page, f"replay-end-{language}-{width}")
        assert await page.locator("#replay-trick img").count() > 0
        await page.context.close()


async def _settled(page: Any) -> None:
    await page.wait_for_function("[...document.images].every(i => i.complete)")
