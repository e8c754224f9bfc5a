"""Pictures of the sandbox's page itself, in the system's Chromium, as a newcomer meets it:
their DMs with the bot with a lesson of ``/tute learn``, then with the daily deal of
``/tute challenge play``; then a table's Play at the table, which opens the card table over
the channel."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from bot.i18n import Language, t

from .page_script import CARD_TABLE_PANEL, PLACES_ID
from .server import PAGE_SIZE, Sandbox

PAGE_VIEW: Final = (PAGE_SIZE[0], 1000)
"""The page photographed (width, height)."""
LOADED: Final = (
    "() => window.simcordPreview?.ready && [...document.querySelectorAll('#channel-layout img')]"
    ".every((image) => image.style.visibility !== 'hidden')"
)
"""The page is up to date and shows every picture it has."""
BUTTONS: Final = "#channel-message-list button:not([disabled])"
"""The buttons of the messages shown."""


def page_files(language: Language) -> tuple[str, ...]:
    """The pictures, in order: the lesson and the daily deal in the DMs, a lobby's Play at
    the table, and the card table it opens."""
    return tuple(f"page-{language}-{name}.png" for name in ("lesson", "daily", "play", "table"))


async def take_page_screenshots(
    sandbox: Sandbox, out_dir: Path, browser: Any, language: Language
) -> list[Path]:
    """The page as Alex sees it (the sandbox's clock running), in ``language``."""
    context = await browser.new_context(viewport={"width": PAGE_VIEW[0], "height": PAGE_VIEW[1]})
    page = await context.new_page()
    await page.goto(sandbox.url)
    await page.wait_for_function(LOADED)
    names = iter(page_files(language))
    saved: list[Path] = []

    async def shoot() -> None:
        await page.wait_for_function(LOADED)
        path = out_dir / next(names)
        await page.screenshot(path=str(path))
        saved.append(path)

    you, channel = sandbox.you, sandbox.channel

    async def slash(command: str, **options: Any) -> Any:
        async with sandbox.clock.gate:  # between two ticks of the clock
            return await you.slash(channel, command, **options)

    await slash("tute learn")
    await page.locator(f"#{PLACES_ID} button[data-place='dms']").click()
    await page.wait_for_function(
        "() => document.querySelector('.channel-hash')?.textContent === '@'"
    )
    await page.locator(BUTTONS).last.wait_for()
    await shoot()
    shown = await page.locator(BUTTONS).count()
    await slash("tute challenge play")
    await page.wait_for_function(
        f"n => document.querySelectorAll({BUTTONS!r}).length !== n", arg=shown
    )
    await page.wait_for_timeout(1000)  # a tick or two: the robots' first plays
    await latest(page)
    await shoot()
    await page.locator(f"#{PLACES_ID} button[data-place='channel']").click()
    await page.wait_for_function(
        "() => document.querySelector('.channel-hash')?.textContent === '#'"
    )
    await slash("tute new", variant="habanero")
    play = page.get_by_role("button", name=t("tables.btn.web", language)).last
    await play.wait_for()
    await latest(page)
    await shoot()
    await play.click()
    frame = page.frame_locator(f"#{CARD_TABLE_PANEL} iframe")
    await frame.locator("button.lobby").first.wait_for(timeout=30_000)
    await page.wait_for_timeout(500)
    await shoot()
    await context.close()
    return saved


async def latest(page: Any) -> None:
    """The page shows its newest messages (it offers to jump to them when they came while
    it showed older ones)."""
    jump = page.locator("#new-messages")
    if await jump.is_visible():
        await jump.click()
        await jump.wait_for(state="hidden")
    await page.locator("#channel-timeline").evaluate(
        "(log) => { log.scrollTop = log.scrollHeight; }"
    )
