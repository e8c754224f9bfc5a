"""The web table's replays in headless Chromium: from the bar, a member's finished deal of
this server opens at its start, every hand shown; its steps go forward to the result and
back, the buttons stop at both ends, and a name is shown as typed; its Review steps to the
member's costliest decisions."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine import CODES, Variant
from bot.storage import Database
from bot.tables.replay import steps_of
from bot.tables.review import review_record
from tests.tables.test_replay import finished_record, store_deal
from tests.web.browser import GUILD, INIGO, MEMBERS, Served, open_waiting_page
from tests.web.browser import browser as browser  # the fixture
from tests.web.conftest import quick_hub

pytestmark = pytest.mark.e2e


@pytest.fixture
async def served(db: Database) -> AsyncIterator[Served]:
    served = Served(quick_hub(db))
    await served.start()
    yield served
    await served.stop()


async def _at(page: Any) -> int:
    return int(await page.evaluate("Number(document.getElementById('replay').dataset.step)"))


async def _go(page: Any, where: str) -> None:
    before = await _at(page)
    await page.click(f"button.replay-go[data-go={where}]")
    await page.wait_for_function(f"document.getElementById('replay').dataset.step !== '{before}'")


async def _disabled(page: Any) -> list[str]:
    return list(
        await page.evaluate(
            "[...document.querySelectorAll('button.replay-go:disabled')].map(b => b.dataset.go)"
        )
    )


async def test_a_deal_steps_through_in_the_page(served: Served, browser: Any) -> None:
    record = finished_record(Variant.PAIRS)
    table_id = await store_deal(
        served.service.db, record, finished=True, guild=GUILD, member=(INIGO, MEMBERS[INIGO])
    )
    steps = steps_of(record)
    page = await open_waiting_page(browser, served, INIGO)
    await page.click("#replays-open")
    deal = page.locator(f"button.replay-deal[data-table='{table_id}'][data-deal='0']")
    await deal.click()
    await page.wait_for_function("document.getElementById('replay').dataset.step === '0'")
    assert await _disabled(page) == ["first", "back"]
    shown = await page.evaluate(
        "[...document.querySelectorAll('.replay-seat')].map(s =>"
        " [...s.querySelectorAll('img')].map(i => i.dataset.card))"
    )
    assert shown == [[CODES[c] for c in hand] for hand in steps[0].hands]
    assert await page.locator(".replay-seat[data-seat='0'] .who").inner_text() == "Íñigo <b>"

    await _go(page, "next")
    trick = steps[1].trick
    assert trick is not None
    played = await page.evaluate(
        "[...document.querySelectorAll('#replay-trick img')].map(i => i.dataset.card)"
    )
    assert played == [CODES[card] for _, card in trick.cards]
    await _go(page, "last")
    assert await _at(page) == len(steps) - 1
    rows = await page.evaluate(
        "[...document.querySelectorAll('.replay-seat')].map(s => s.querySelectorAll('img').length)"
    )
    assert 0 not in rows  # the hands are played out: no empty rows
    last_trick = steps[-2].trick
    assert last_trick is not None
    shown_last = await page.evaluate(
        "[...document.querySelectorAll('#replay-trick img')].map(i => i.dataset.card)"
    )
    assert shown_last == [CODES[card] for _, card in last_trick.cards]
    assert await _disabled(page) == ["next", "last"]
    await _go(page, "back")
    assert await _at(page) == len(steps) - 2
    await _go(page, "first")
    assert await _at(page) == 0


async def test_a_deal_reviewed_in_the_page_steps_to_its_costliest_decision(
    served: Served, browser: Any
) -> None:
    record = finished_record(Variant.HABANERO)
    table_id = await store_deal(
        served.service.db, record, finished=True, guild=GUILD, member=(INIGO, MEMBERS[INIGO])
    )
    served.service.reviews.worlds = 2
    expected = review_record(json.dumps(record), 0, table_id, 0, worlds=2)
    costliest = expected.costliest()
    assert costliest
    page = await open_waiting_page(browser, served, INIGO)
    await page.click("#replays-open")
    await page.locator(f"button.replay-deal[data-table='{table_id}'][data-deal='0']").click()
    await page.wait_for_function("document.getElementById('replay').dataset.step === '0'")
    await page.click("#replay-review")
    await page.wait_for_selector("#replay-reviewed:not([hidden]) .review-step")
    steps = await page.evaluate(
        "[...document.querySelectorAll('.review-step')].map(b => Number(b.dataset.step))"
    )
    assert steps == [d.step for d in costliest]
    assert await page.locator("#replay-review").is_hidden()
    await page.locator(".review-step").first.click()
    await page.wait_for_function(
        f"document.getElementById('replay').dataset.step === '{costliest[0].step}'"
    )
