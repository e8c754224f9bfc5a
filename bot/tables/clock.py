"""A table's clock: one timer per table for whatever comes next (the lobby's expiry, a
robot's move, a member's turn, the end of a pause), the turn clock itself, the pause while
every member is away, and the tries again, further apart, after a failed save."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from enum import Enum, auto
from typing import Protocol

from bot.engine import Deal

from .model import Status, Table
from .turns import human_may_declare

log = logging.getLogger(__name__)

LOBBY_TIMEOUT = 15 * 60.0
ROBOT_DELAY = 1.2
DECLARE_GRACE = 4.0
"""Extra seconds a robot waits to lead while a human partner may still sing."""
IDLE_TIMEOUT = 15 * 60.0
"""How long a game waits, paused, for one of its members to come back."""
RETRY_FIRST = 1.0
RETRY_MOST = 60.0
"""A clock whose save failed tries again after 1 s, 2 s, 4 s... at most a minute apart."""

_EARLY = 0.001
"""A timer that rings this little before its time counts as on time: its wait was worked
out from the clock, and the two need not agree to the microsecond."""


class Due(Enum):
    """What a table's clock found to do when it rang."""

    LOBBY_EXPIRED = auto()
    PAUSE_OVER = auto()
    ROBOTS = auto()
    TURN_OVER = auto()


class Timekeeping(Protocol):
    """What the clocks read from the service (:class:`surroundings.Surroundings`), each time
    they need it: this much only, so that the clock stands below the service and the robots
    it wakes."""

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def sleep(self) -> Callable[[float], Awaitable[None]]: ...

    @property
    def robot_delay(self) -> float: ...

    @property
    def tables(self) -> Mapping[int, Table]: ...


class RobotsOnTurn(Protocol):
    """What the clocks ask the robots (:class:`robots.Robots`): who acts now, and to start
    or drop the decision a timer is set for."""

    def to_act(self, table: Table, deal: Deal) -> int | None: ...

    def think_ahead(self, table: Table, deal: Deal, seat: int | None) -> None: ...

    def drop_early(self, table_id: int) -> None: ...

    def drop_all_early(self) -> None: ...


class Clocks:
    """The timers of every table. They ring ``ring(table_id)``; what is due then is the
    service's to do, under the table's lock.

    It reads ``clock``, ``sleep`` and ``robot_delay`` from the service each time, so that
    a test or the sandbox may swap them on a running service."""

    def __init__(
        self,
        service: Timekeeping,
        robots: RobotsOnTurn,
        ring: Callable[[int], Awaitable[None]],
    ) -> None:
        self._service = service
        self._robots = robots
        self._ring = ring
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.retries: dict[int, int] = {}
        """Failed saves in a row of a table's clock: its next try waits longer."""
        self.stopped = False
        """The bot is stopping: no timer starts or rings any more."""

    def stop_all(self) -> None:
        """The bot is stopping: every timer stops, and with them the robots' decisions
        started for them (a run under way has taken its own already)."""
        self.stopped = True
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        self._robots.drop_all_early()

    def stop(self, table: Table) -> None:
        timer = self.timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def rang(self, table_id: int) -> None:
        """The table's timer rang and runs its change now: out of ``timers``, so that
        stopping every clock (``stop_all``) lets that change finish."""
        self.timers.pop(table_id, None)

    def forget(self, table_id: int) -> None:
        self.retries.pop(table_id, None)

    def schedule(self, table: Table, *, delay: float | None = None) -> None:
        """One timer per table: the lobby's expiry, a robot's move, a human's turn, the end
        of a pause; or, after a failed save, the next try (``delay``)."""
        if self.stopped:
            return
        self.stop(table)
        if delay is None:
            when = self._next_wake(table)
            if when is None:
                return
            delay = max(when - self._service.clock(), 0.0)
        self.timers[table.id] = asyncio.create_task(
            self._wake(table.id, delay), name=f"table-{table.id}-clock"
        )

    def _next_wake(self, table: Table) -> float | None:
        """When the table's clock rings next. A robot it is set for starts deciding now."""
        service = self._service
        now = service.clock()
        if table.status is Status.LOBBY:
            return table.lobby_deadline
        deal = table.deal
        if table.status is not Status.PLAYING or deal is None or deal.finished:
            self._robots.drop_early(table.id)
            return None
        seat = self._robots.to_act(table, deal)  # (none while paused)
        self._robots.think_ahead(table, deal, seat)  # it thinks while the clock runs
        if table.paused_until is not None:
            return table.paused_until
        if seat is not None:
            delay = service.robot_delay
            if human_may_declare(table, deal):
                delay += DECLARE_GRACE
            return now + delay
        return table.turn_deadline

    def due(self, table: Table) -> Due | None:
        """What the clock has to do now (None: nothing yet, the timer is set again)."""
        now = self._service.clock()
        if table.status is Status.LOBBY:
            return Due.LOBBY_EXPIRED if now + _EARLY >= table.lobby_deadline else None
        deal = table.deal
        assert deal is not None
        if table.paused_until is not None:
            return Due.PAUSE_OVER if now + _EARLY >= table.paused_until else None
        if self._robots.to_act(table, deal) is not None:
            return Due.ROBOTS
        if table.turn_deadline is not None and now + _EARLY >= table.turn_deadline:
            return Due.TURN_OVER
        return None

    async def _wake(self, table_id: int, delay: float) -> None:
        try:
            if delay > 0:
                await self._service.sleep(delay)
            if self.stopped:
                return
            await self._ring(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("The clock of table %s failed", table_id)
            self._retry_later(table_id)

    def _retry_later(self, table_id: int) -> None:
        """The clock's change could not be made (its save failed): the table is as it was;
        try again a little later, and later still after each failure."""
        table = self._service.tables.get(table_id)
        if table is None or not table.status.is_open:
            return
        tries = self.retries.get(table_id, 0) + 1
        self.retries[table_id] = tries
        self.schedule(table, delay=min(RETRY_FIRST * 2 ** (tries - 1), RETRY_MOST))
