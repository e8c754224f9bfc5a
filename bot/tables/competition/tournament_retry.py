"""A tournament's tables that could not open (a failed save, a table that would not start),
or whose opening its channel could not be told: tried again on a clock, after 1 s, 2 s,
4 s... at most a minute apart (as a table's clock after a failed save), without waiting for
another game to end: a final has no other game to wait for."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..clock import RETRY_FIRST, RETRY_MOST
from .tournament_state import Tournament

log = logging.getLogger(__name__)

Opened = Callable[[Tournament, tuple[int, ...]], Awaitable[None]]
"""Told which tables of a tournament opened and are still to be told in its channel; it
reports those it told with ``TournamentService.told``."""

Reopen = Callable[[int], Awaitable[tuple[Tournament, bool] | None]]
"""Open what is missing of a tournament's round in play, under its lock: the tournament and
whether every table is open now (None: it no longer runs)."""


def retry_delay(failures: int) -> float:
    """The wait before the next try after ``failures`` in a row (1 or more)."""
    return min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MOST)


class Retries:
    """One loop per tournament while a table of its round is missing or untold."""

    def __init__(self, reopen: Reopen, sleep: Callable[[float], Awaitable[None]]) -> None:
        self._reopen = reopen
        self._sleep = sleep
        self.listeners: list[Opened] = []
        self.to_tell: dict[int, set[int]] = {}
        """Tables opened (by a try again, or whose post failed) that the channel must be
        told of, by tournament."""
        self.loops: dict[int, asyncio.Task[None]] = {}

    def start(self, tournament_id: int, tell: set[int] | None = None) -> None:
        """Try again later (``tell``: tables the channel is still to be told of); a loop
        under way goes on."""
        if tell:
            self.to_tell.setdefault(tournament_id, set()).update(tell)
        loop = self.loops.get(tournament_id)
        if loop is not None and not loop.done():
            return
        self.loops[tournament_id] = asyncio.get_running_loop().create_task(
            self._run(tournament_id), name=f"tournament-{tournament_id}-retry"
        )

    def told(self, tournament_id: int, table_ids: set[int]) -> None:
        left = self.to_tell.get(tournament_id)
        if left is not None:
            left -= table_ids
            if not left:
                del self.to_tell[tournament_id]

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
                self.to_tell.pop(tournament_id, None)
                return
            tour, all_open = found
            untold = self.to_tell.get(tournament_id)
            if untold:
                await self._tell(tour, tuple(sorted(untold)))
            if all_open and not self.to_tell.get(tournament_id):
                return

    async def _tell(self, tour: Tournament, table_ids: tuple[int, ...]) -> None:
        for listener in self.listeners:
            try:
                await listener(tour, table_ids)
            except Exception:
                log.exception("Tournament %s: its open tables could not be told", tour.id)
