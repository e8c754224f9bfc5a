"""The event loop's lag: a task that sleeps a second at a time and measures how late it
wakes. A loop held by a long step (a picture drawn on it, a slow query) wakes it late, and
every interaction waits that long too."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

LAG_EVERY = 1.0
"""Seconds between two measures."""


class LoopLag:
    def __init__(
        self,
        observe: Callable[[float], None],
        *,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
        every: float = LAG_EVERY,
    ) -> None:
        """``observe``: told each lag, in seconds; ``clock`` and ``sleep``: the loop's (the
        runtime's: the tests' and the sandbox's are simulated)."""
        self.observe = observe
        self.clock = clock
        self.sleep = sleep
        self.every = every
        self._task: asyncio.Task[None] | None = None

    async def once(self) -> float:
        """One measure: how much later than asked one sleep woke."""
        start = self.clock()
        await self.sleep(self.every)
        lag = max(0.0, self.clock() - start - self.every)
        self.observe(lag)
        return lag

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag")

    async def _run(self) -> None:
        while True:
            await self.once()

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
