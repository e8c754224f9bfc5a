"""Where the robots think. A hard robot's search holds a core for its whole budget, so the
searches run in a pool of worker processes, one per core, off the event loop and out of its
GIL; where processes cannot be used (a platform without them, a pool that broke) or are not
wanted (``processes=0``: tests, the sandbox), in threads. Only a seat's own view crosses to a
worker, as it is pickled: the view of one seat, never the deal.

When more searches wait than there are workers, each one gets a fair share of the budget
(the workers divided among those waiting), so that the queue drains in about one budget:
a busy server's robots think less each, rather than keep their tables waiting.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final, ParamSpec, TypeVar

log = logging.getLogger(__name__)

MIN_BUDGET: Final = 0.02
"""Seconds a search gets however busy the machine is: enough for a few sampled deals."""

P = ParamSpec("P")
T = TypeVar("T")


def _ready() -> None:
    """A worker's first task: import the robots once, before the first search needs them."""
    import bot.ai  # noqa: F401


class Thinking:
    """The workers the robots think on, and the share of the budget each search gets."""

    def __init__(self, processes: int | None = 0) -> None:
        """``processes``: how many worker processes (None: one per core; 0: threads)."""
        self.processes = (os.cpu_count() or 1) if processes is None else max(0, processes)
        self._pool: Executor | None = None
        self._broken = False
        self.waiting = 0
        """Searches handed to the workers and not over yet."""
        self.searches = 0
        self.worlds = 0
        """Searches of the default robots that sampled deals (not those solved exactly or
        with one card worth trying), and the deals they sampled in all (the figures of
        ``benchmarks/tables_load.py``)."""

    @property
    def workers(self) -> int:
        """How many searches run at once (threads: the processes there would be)."""
        return self.processes or (os.cpu_count() or 1)

    @property
    def in_processes(self) -> bool:
        return self.processes > 0 and not self._broken

    def budget(self, base: float) -> float:
        """The budget of one more search: all of ``base`` while a worker is free for it; a
        fair share once more searches wait than there are workers (at least MIN_BUDGET)."""
        if base <= 0:
            return 0.0
        waiting = self.waiting + 1
        if waiting <= self.workers:
            return base
        return max(min(base, MIN_BUDGET), base * self.workers / waiting)

    def searched(self, worlds: int) -> None:
        """One more search of the default robots, that sampled ``worlds`` deals."""
        if worlds:
            self.searches += 1
            self.worlds += worlds

    def start(self) -> None:
        """Start the worker processes now, so that the first search does not wait for them."""
        pool = self._process_pool()
        if pool is not None:
            for _ in range(self.processes):
                pool.submit(_ready)

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args)`` on a worker: a process when there are any (``work`` and its
        arguments must then be picklable), else a thread."""
        self.waiting += 1
        try:
            pool = self._process_pool()
            if pool is not None:
                loop = asyncio.get_running_loop()
                try:
                    return await loop.run_in_executor(pool, _call, work, args, kwargs)
                except BrokenProcessPool:
                    log.exception("The robots' worker processes broke; they think in threads now")
                    self._broken = True
                    self._shutdown()
            return await asyncio.to_thread(work, *args, **kwargs)
        finally:
            self.waiting -= 1

    async def in_thread(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args)`` on a thread of this process (a robot that cannot cross to a
        process, or a quick one), counted among the searches waiting all the same."""
        self.waiting += 1
        try:
            return await asyncio.to_thread(work, *args, **kwargs)
        finally:
            self.waiting -= 1

    def close(self) -> None:
        """Stop the worker processes; a search still queued is dropped (its table's robot
        plays when the bot is back)."""
        self._shutdown()

    def _process_pool(self) -> Executor | None:
        if not self.in_processes:
            return None
        if self._pool is None:
            try:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=context)
            except (OSError, NotImplementedError, ValueError) as error:
                log.warning("No worker processes for the robots (%s): threads instead", error)
                self._broken = True
                return None
        return self._pool

    def _shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _call(work: Callable[..., T], args: tuple[object, ...], kwargs: dict[str, object]) -> T:
    return work(*args, **kwargs)
