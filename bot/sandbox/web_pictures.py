"""Pictures of the card table (the Activity's page) as the sandbox serves it, in the
system's Chromium: on a phone, the channel with no table and the offer to open one, then
the pairs lobby opened from there with three robots seated; then the game played from the
page, on a phone and on a desktop while a trick is on the table and it is your turn."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from bot.i18n import Language
from bot.tables.model import Status

from .page_pictures import page_files, take_page_screenshots
from .pictures import CHROMIUM_ARGS, scratch_sandbox
from .server import Sandbox

WEB_WIDTHS: Final = ((360, 720), (1280, 800))
"""The pages photographed (width, height): a phone and a desktop."""
PLAYABLE: Final = "button.card[data-playable='1']"
"""A card of the hand that may be played (when its player's turn comes)."""
MY_TURN: Final = (
    "document.body.dataset.seat !== '' && document.querySelector("
    "`.seat[data-seat='${document.body.dataset.seat}']`)?.dataset.turn === '1'"
)
"""True in the page when its player is to play."""
MY_TURN_OR_OVER: Final = f"({MY_TURN}) || document.body.dataset.status !== 'playing'"
"""Its player is to play, or the game is over (a claim or a capote can end it early)."""

Shoot = Callable[[Any], Awaitable[None]]


def web_files(language: Language) -> tuple[str, ...]:
    """The pictures, in order: the open screen and the lobby on a phone, then the game on
    each page of WEB_WIDTHS; then the sandbox's page (:func:`page_files`)."""
    return (
        f"web-{language}-open.png",
        f"web-{language}-lobby.png",
        *(f"web-{language}-{width}.png" for width, _ in WEB_WIDTHS),
        *page_files(language),
    )


async def _open_from_the_page(page: Any, sandbox: Sandbox, shoot: Shoot) -> int:
    """The phone's page opens a pairs table (no table plays in #tute yet), seats three
    robots and starts: the table's id."""
    await page.wait_for_selector("button.open[data-variant='pairs']")
    await shoot(page)
    await page.locator("button.open[data-variant='pairs']").click()
    await page.wait_for_selector("button.lobby[data-do='robot']")
    (table,) = sandbox.tables.tables.values()
    for _ in range(3):
        await page.locator("button.lobby[data-do='robot']").click()
        # one tap, one action: the page takes the next once the table's answer came
        await page.wait_for_selector("button.lobby.sent", state="detached")
    await page.wait_for_selector("button.lobby[data-do='robot']", state="hidden")
    await shoot(page)
    await page.locator("button.lobby[data-do='start']").click()
    return table.id


async def tap_a_card(page: Any) -> bool:
    """Tap the first card the page offers, if it is its player's turn, and wait until the
    card has left the hand (the table took it). False when it is not their turn."""
    if not await page.evaluate(MY_TURN):
        return False
    code = await page.evaluate(f"document.querySelector(\"{PLAYABLE}\")?.dataset.card ?? ''")
    if not code:
        return False
    # by its card, not by an element: the page redraws the hand as the table changes
    await page.locator(f"button.card[data-card='{code}']").click()
    await page.wait_for_function(
        f"!document.querySelector(\"button.card[data-card='{code}']\")"
        " || document.body.dataset.status !== 'playing'"
    )
    return True


async def _good_moment(page: Any, sandbox: Sandbox, table_id: int) -> None:
    """Tap cards until it is your turn with two cards or more on the table, after two
    tricks (or the deal is about to end)."""
    table = sandbox.tables.get(table_id)
    for _ in range(40):
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        deal = table.deal
        if table.status is not Status.PLAYING or deal is None:
            return
        if (len(deal.trick) >= 2 and len(deal.tricks) >= 2) or len(deal.hand(deal.turn)) <= 2:
            return
        await tap_a_card(page)


async def take_web_screenshots(
    sandbox: Sandbox, out_dir: Path, chromium: Path, language: Language
) -> list[Path]:
    from playwright.async_api import async_playwright

    assert sandbox.web is not None
    await asyncio.to_thread(out_dir.mkdir, parents=True, exist_ok=True)
    url = sandbox.web_url(sandbox.you)
    assert url is not None
    saved: list[Path] = []
    names = iter(web_files(language)[: -len(page_files(language))])

    async def shoot(page: Any) -> None:
        path = out_dir / next(names)
        await page.screenshot(path=str(path))
        saved.append(path)

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(chromium), args=list(CHROMIUM_ARGS), headless=True
        )
        try:
            pages = []
            for width, height in WEB_WIDTHS:
                context = await browser.new_context(viewport={"width": width, "height": height})
                page = await context.new_page()
                await page.goto(url)
                pages.append(page)
            table_id = await _open_from_the_page(pages[0], sandbox, shoot)
            for page in pages:
                await page.wait_for_function("document.body.dataset.status === 'playing'")
            await _good_moment(pages[0], sandbox, table_id)
            for page in pages:
                await page.wait_for_function(MY_TURN_OR_OVER)
                await shoot(page)
        finally:
            await browser.close()
    return saved


async def web_screenshots(
    out_dir: Path, chromium: Path, *, language: Language = "en", think_budget: float = 0.1
) -> list[Path]:
    """A sandbox of its own (a temporary database, robots without delay) serving the card
    table on a free port, in ``language``; then another one for the pictures of its page."""
    async with scratch_sandbox(language, think_budget, web_port=0) as sandbox:
        sandbox.clock.start()
        saved = await take_web_screenshots(sandbox, out_dir, chromium, language)
    from playwright.async_api import async_playwright

    async with (
        scratch_sandbox(language, think_budget, web_port=0) as sandbox,
        async_playwright() as playwright,
    ):
        sandbox.clock.start()
        browser = await playwright.chromium.launch(
            executable_path=str(chromium), args=list(CHROMIUM_ARGS), headless=True
        )
        try:
            saved += await take_page_screenshots(sandbox, out_dir, browser, language)
        finally:
            await browser.close()
    return saved
