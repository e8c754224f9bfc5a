"""Pictures of the card table (the Activity's page) as the sandbox serves it: a pairs game
of you and three robots, opened in the simulated channel and played from the page in the
system's Chromium, photographed on a phone and on a desktop while a trick is on the table
and it is your turn."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Final

from bot.i18n import Language
from bot.tables.model import Status

from .pictures import CHROMIUM_ARGS, button_id, scratch_sandbox
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


def web_files(language: Language) -> tuple[str, ...]:
    return tuple(f"web-{language}-{width}.png" for width, _ in WEB_WIDTHS)


async def _open_pairs_table(sandbox: Sandbox) -> int:
    """A pairs table in #tute, you and three robots, started: its id."""
    new = await sandbox.you.slash(sandbox.channel, "tute new", variant="pairs")
    lobby = new.response
    assert lobby is not None
    table_id = int(button_id(lobby.message, ":start").split(":")[2])
    for _ in range(3):
        await sandbox.you.click(lobby, custom_id=button_id(lobby.message, ":robot"))
    await sandbox.you.click(lobby, custom_id=button_id(lobby.message, ":start"))
    return table_id


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
        await page.wait_for_function(MY_TURN, timeout=30_000)
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
    table_id = await _open_pairs_table(sandbox)
    url = sandbox.web_url(sandbox.you)
    assert url is not None
    saved: list[Path] = []
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
                await page.wait_for_function("document.body.dataset.state === 'playing'")
                pages.append(page)
            await _good_moment(pages[0], sandbox, table_id)
            for page, name in zip(pages, web_files(language), strict=True):
                await page.wait_for_function(MY_TURN)
                path = out_dir / name
                await page.screenshot(path=str(path))
                saved.append(path)
        finally:
            await browser.close()
    return saved


async def web_screenshots(
    out_dir: Path, chromium: Path, *, language: Language = "en", think_budget: float = 0.1
) -> list[Path]:
    """A sandbox of its own (a temporary database, robots without delay) serving the card
    table on a free port, in ``language``."""
    async with scratch_sandbox(language, think_budget, web_port=0) as sandbox:
        sandbox.clock.start()
        return await take_web_screenshots(sandbox, out_dir, chromium, language)
