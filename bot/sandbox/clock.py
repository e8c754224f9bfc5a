"""The sandbox's clock: SimCord's clock moved along with real time, and the page's clicks
taking turns with its ticks."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import simcord
from simcord.preview import Preview

from .localized import options_as_declared

log = logging.getLogger(__name__)

TICK: Final = 0.2
"""Real seconds between two moves of the simulated clock."""


class SandboxClock:
    """Moves SimCord's clock along with real time, so turn clocks, robots' waits and lobby
    expiry happen as they would on Discord (SimCord's time only moves when told to).

    ``real_time`` is the real clock it follows (seconds, from any origin: ``time.monotonic``
    unless a test brings one of its own), and ``since`` the moment of that clock at which
    SimCord's clock was set to the real date (the clock's creation when not given): the
    first tick catches up on the time since then.
    """

    def __init__(
        self,
        env: simcord.Env,
        preview: Preview,
        *,
        tick: float = TICK,
        real_time: Callable[[], float] = time.monotonic,
        since: float | None = None,
        locale: str = "en-US",
        gate: asyncio.Lock | None = None,
    ) -> None:
        self.env = env
        self.preview = preview
        self.locale = locale
        """The page's Discord locale: a command run from it names its options in it."""
        self.tick = tick
        self.real_time = real_time
        self._last = real_time() if since is None else since
        self._gate = gate or asyncio.Lock()
        self.gate = self._gate
        """Taken by whatever acts in SimCord (a tick, a click, the card table's action)."""
        self._published = len(env.http_requests)
        self._task: asyncio.Task[None] | None = None
        self._serialize_page_actions()

    def _serialize_page_actions(self) -> None:
        # SimCord internals: the preview's server hands every action of the page to
        # Preview._action. SimCord refuses an action while another operation (a clock tick)
        # runs, and the page would show it as failed, so actions and ticks take turns.
        act: Callable[[str | None, Any], Awaitable[dict[str, Any]]] = self.preview._action

        async def action_after_tick(context_id: str | None, body: Any) -> dict[str, Any]:
            async with self._gate:
                acting = self._page_of(context_id)
                try:
                    body = _on_the_page_as_it_is(acting, body)
                    body = options_as_declared(self.preview, acting, body, self.locale)
                    return await act(context_id, body)
                finally:
                    # The acting page is up to date; the others (another tab) are shown
                    # what the action did now.
                    if len(self.env.http_requests) != self._published:
                        self._republish_all_but(acting)
                    self._published = len(self.env.http_requests)

        self.preview._action = action_after_tick

    def _page_of(self, context_id: str | None) -> Any:
        """SimCord internals: the preview's page (one per tab) a context id names; None when
        it names none (SimCord then refuses the action itself)."""
        try:
            return self.preview._get_page(context_id)
        except Exception:
            return None

    def _republish_all_but(self, acting: Any) -> None:
        """SimCord internals: SimCord publishes an action's outcome to the acting page only,
        so a second tab would not show it until the clock found something new."""
        pages: dict[str, Any] = self.preview._pages
        for page in tuple(pages.values()):
            if page is not acting and page.id in pages:
                self.preview._publish(page, reason="refresh")

    def start(self) -> None:
        """Tick every ``tick`` real seconds until :meth:`stop`."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="sandbox-clock")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            await self.catch_up()

    async def catch_up(self) -> None:
        """One tick: move SimCord's clock by the real time since the last one, and show in
        the open pages what the bot did on its own meanwhile (a robot played, a clock ran
        out)."""
        async with self._gate:
            now = self.real_time()
            try:
                await self.env.advance_time(max(0.0, now - self._last))
            except simcord.SetupError:
                # Another SimCord operation is running (a script's click): next tick.
                return
            except Exception:
                # Most likely the bot took longer than SETTLE_TIMEOUT: what it did is kept
                # and the rest settles with the next operation. The clock goes on.
                log.warning("The sandbox's clock could not move on", exc_info=True)
            self._last = now
            if len(self.env.http_requests) != self._published:
                try:
                    await self.preview.refresh()
                except simcord.SetupError:
                    return
                self._published = len(self.env.http_requests)


def _on_the_page_as_it_is(page: Any, body: Any) -> Any:
    """A click made on the page as it was published before the latest republish (a tick
    showed a robot's play, another tab acted) is made on the page as it is now.

    SimCord internals: it refuses an action against an older publication ("stale-revision")
    and the page shows nothing, so a click made during a republish was lost in silence. The
    bot checks every click against the table as it is (an old button is answered with why
    it no longer applies), so the click goes on; a button no longer on the page is still
    refused by SimCord."""
    revision = body.get("published_revision") if isinstance(body, dict) else None
    if page is None or type(revision) is not int or not 0 < revision < page.revision:
        return body
    return {**body, "published_revision": page.revision}
