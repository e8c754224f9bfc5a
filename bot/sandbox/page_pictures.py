"""Pictures of the sandbox's page itself, in the system's Chromium, as a newcomer meets it,
taken along the newcomer's walk that the tests check (``walk.py``): a table's Play at the
table, which opens the card table over the channel; their DMs with the bot with a lesson of
``/tute learn``, then with the daily deal of ``/tute challenge play``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import aiohttp

from bot.i18n import Language, t

from .driver import PreviewPage
from .page_script import CARD_TABLE_PANEL, PLACES_ID
from .server import PAGE_SIZE, Sandbox
from .walk import WALK, Seen, walk

PAGE_VIEW: Final = (PAGE_SIZE[0], 1000)
"""The page photographed (width, height)."""
LOADED: Final = (
    "() => window.simcordPreview?.ready && [...document.querySelectorAll('#channel-layout img')]"
    ".every((image) => image.style.visibility !== 'hidden')"
)
"""The page is up to date and shows every picture it has."""
BUTTONS: Final = "#channel-message-list button:not([disabled])"
"""The buttons of the messages shown."""


PICTURES: Final[dict[tuple[str, str | None], tuple[str, ...]]] = {
    ("new", None): ("play", "table"),
    ("learn", None): ("lesson",),
    ("challenge play", None): ("daily",),
}
"""The pictures taken at moments of the newcomer's walk (``walk.py``): the command, and the
button pressed after it (None: its answer). At ``/tute new``, the lobby's Play at the table,
then the card table it opens; at ``/tute learn``, the lesson in the DMs; at ``/tute challenge
play``, the daily deal there, your turn."""


def page_files(language: Language) -> tuple[str, ...]:
    """The pictures, in the walk's order: a lobby's Play at the table and the card table it
    opens, then the lesson and the daily deal in the DMs."""
    return tuple(
        f"page-{language}-{name}.png"
        for step in WALK
        for name in PICTURES.get((step.readme, None), ())
    )


async def take_page_screenshots(
    sandbox: Sandbox, out_dir: Path, browser: Any, language: Language
) -> list[Path]:
    """The page as Alex sees it (the sandbox's clock running), in ``language``, along the
    newcomer's walk: the walk runs the commands, the browser shows them to Alex."""
    context = await browser.new_context(viewport={"width": PAGE_VIEW[0], "height": PAGE_VIEW[1]})
    page = await context.new_page()
    await page.goto(sandbox.url)
    await page.wait_for_function(LOADED)
    saved: list[Path] = []

    async def shoot(name: str) -> None:
        await page.wait_for_function(LOADED)
        path = out_dir / f"page-{language}-{name}.png"
        await page.screenshot(path=str(path))
        saved.append(path)

    async def to(place: str, glyph: str) -> None:
        await page.locator(f"#{PLACES_ID} button[data-place='{place}']").click()
        await page.wait_for_function(
            "glyph => document.querySelector('.channel-hash')?.textContent === glyph", arg=glyph
        )

    async def watch(seen: Seen) -> None:
        names = PICTURES.get((seen.step.readme, None if seen.press is None else seen.press.name))
        if names == ("play", "table"):
            play = page.get_by_role("button", name=t("tables.btn.web", language)).last
            await play.wait_for()
            await latest(page)
            await shoot("play")
            await play.click()
            frame = page.frame_locator(f"#{CARD_TABLE_PANEL} iframe")
            await frame.locator("button.lobby").first.wait_for(timeout=30_000)
            await page.wait_for_timeout(500)
            await shoot("table")
            await page.locator(f"#{CARD_TABLE_PANEL} button").last.click()  # ✕
        elif names == ("lesson",):
            await to("dms", "@")
            await page.locator(BUTTONS).last.wait_for()
            await shoot("lesson")  # from its top: the lesson's heading
            await to("channel", "#")
        elif names == ("daily",):
            await to("dms", "@")
            table = max(sandbox.tables.tables)  # the daily deal's, the newest
            title = t("hand.title", language, id=table, deal=1).replace("**", "")
            await page.get_by_text(title).last.wait_for()
            await latest(page)
            await shoot("daily")
            await to("channel", "#")

    async with aiohttp.ClientSession() as session:
        walker = PreviewPage(session, sandbox.url)
        await walker.open(sandbox.you)
        await walk(sandbox, walker, watch)
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
