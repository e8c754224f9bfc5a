"""A tournament's tables that could not open (a failed save, a table that would not start):
tried again on a clock, after 1 s, 2 s, 4 s... at most a minute apart (as a table's clock
after a failed save), without waiting for another game to end: a final has no other game to
wait for. The tables a try opens are handed to the listeners (``on_opened``): where they
are is theirs to tell."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..clock import RETRY_FIRST, RETRY_MOST
from .tournament_state import Tournament

log = logging.getLogger(__name__)

Opened = Callable[[Tournament, tuple[int, ...]], Awaitable[None]]
"""Told which tables of a tournament opened late (on a try again), once."""


@dataclass(frozen=True, slots=True)
class Reopened:
    """What a try again did: the tournament, whether every table of its round in play is
    open now, and the tables this try opened."""

    tournament: Tournament
    all_open: bool
    opened: tuple[int, ...] = ()


Reopen = Callable[[int], Awaitable[Reopened | None]]
"""Open what is missing of a tournament's round in play, under its lock (None: it no longer
runs)."""


def retry_delay(failures: int) -> float:
    """The wait before the next try after ``failures`` in a row (1 or more)."""
    return min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MOST)


class Retries:
    """One loop per tournament while a table of its round is missing."""

    def __init__(self, reopen: Reopen, sleep: Callable[[float], Awaitable[None]]) -> None:
        self._reopen = reopen
        self._sleep = sleep
        self.listeners: list[Opened] = []
        self.loops: dict[int, asyncio.Task[None]] = {}

    def start(self, tournament_id: int) -> None:
        """Try again later; a loop under way goes on."""
        loop = self.loops.get(tournament_id)
        if loop is not None and not loop.done():
            return
        self.loops[tournament_id] = asyncio.get_running_loop().create_task(
            self._run(tournament_id), name=f"tournament-{tournament_id}-retry"
        )

    def stop(self) -> None:
        for loop in self.loops.values():
            loop.cancel()
        self.loops.clear()

    async def _run(self, tournament_id: int) -> None:
        failures = 0
        while True:
            failures += 1
            await self._sleep(retry_delay(failures))
            try:
                found = await self._reopen(tournament_id)
            except Exception:
                log.exception("Tournament %s: its tables could not be opened", tournament_id)
                continue
            if found is None:
                return
            if found.opened:
                await self._tell(found.tournament, found.opened)
            if found.all_open:
                return

    async def _tell(self, tour: Tournament, table_ids: tuple[int, ...]) -> None:
        for listener in self.listeners:
            try:
                await listener(tour, table_ids)
            except Exception:
                log.exception("Tournament %s: its late tables could not be told", tour.id)
