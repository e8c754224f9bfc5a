"""The web table in a real browser: the app served on a loopback port by the real table
service (a real SQLite file), and headless Chromium pages driven by Playwright, each logged
in as one member with the page's own sandbox login (``?user_id=``, the SDK's mock).

Chromium is the system's (Debian's ``chromium`` package, which ``.ci/run`` installs),
found and started as the sandbox's pictures do; without it the browser tests are
skipped."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any, Final

import pytest
from aiohttp import web

from bot.sandbox.pictures import CHROMIUM_ARGS, find_chromium
from bot.sandbox.web import SandboxAuth
from bot.web.app import make_app
from bot.web.hub import TableHub
from tests.tables._play import Clock

GUILD: Final = 1
CHANNEL: Final = 2
SECRET: Final = b"s" * 32
MEMBERS: Final = {10: "Ana", 11: "Luis", 12: "Eva", 13: "Íñigo <b>"}
ANA, LUIS, EVA, INIGO = MEMBERS
NOW: Final = 1_900_000_000.0


class Served:
    """The web table's app on 127.0.0.1, over one table service; it can stop and start
    again on the same port (the bot restarting), with a new service on the same file."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self.service = hub.service
        self.port = 0
        self.clock = Clock(NOW)
        """The app's and the logins' time, which a test may move."""
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def page_url(self, user_id: int, language: str = "en") -> str:
        return f"{self.url}/?user_id={user_id}&lang={language}"

    async def start(self) -> None:
        auth = SandboxAuth(clock=self.clock)
        auth.admit(MEMBERS, channel_id=CHANNEL, guild_id=GUILD)
        app = make_app(hub=self.hub, secret=SECRET, clock=self.clock, auth=auth)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def restart(self, hub: TableHub) -> None:
        """The bot stops (every socket told it goes away) and comes back with ``hub`` (its
        service on the same file)."""
        await self.stop()
        self.hub = hub
        self.service = hub.service
        await self.start()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    path = find_chromium()
    if path is None:
        pytest.skip("needs Chromium: apt-get install chromium")
    playwright_api = pytest.importorskip("playwright.async_api")
    async with playwright_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(path), args=list(CHROMIUM_ARGS)
        )
        try:
            yield launched
        finally:
            await launched.close()


async def open_page(
    browser: Any,
    served: Served,
    user_id: int,
    *,
    width: int = 390,
    height: int = 780,
    language: str = "en",
    state: str = "playing",
) -> Any:
    """A tab of the card table for ``user_id``, once its socket shows the table (``state``
    "no_table": once it says no table plays in the channel)."""
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = await context.new_page()
    await page.goto(served.page_url(user_id, language))
    await page.wait_for_function(f"document.body.dataset.state === {state!r}")
    return page


async def open_waiting_page(browser: Any, served: Served, user_id: int, **options: Any) -> Any:
    """A tab in a channel where no table plays: once it offers to open one."""
    page = await open_page(browser, served, user_id, state="no_table", **options)
    await page.locator("button.open").first.wait_for(state="visible")
    return page


LOBBY_BUTTONS: Final = (
    "[...document.querySelectorAll('#lobby:not([hidden]) button.lobby:not([hidden])')]"
    ".map(b => b.dataset.do)"
)
"""The lobby's buttons a page shows now (their ``data-do``), in order."""


async def lobby_buttons(page: Any) -> list[str]:
    return list(await page.evaluate(LOBBY_BUTTONS))


async def wait_lobby_buttons(page: Any, *shown: str) -> None:
    """Until the page shows exactly these lobby buttons (in the page's order)."""
    wanted = json.dumps(list(shown), separators=(",", ":"))
    await page.wait_for_function(f"JSON.stringify({LOBBY_BUTTONS}) === {wanted!r}")
