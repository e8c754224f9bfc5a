"""What a table service runs on, and what its concerns (``persistence``, ``robots``,
``clock``) read from it when they need it: the database, the presenter, the clocks, the
robots. The service is one (:class:`Surroundings` is its base): a test or the sandbox may
swap any of these on a running service, and every concern hears it, without any concern
knowing the service's commands."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.ai import Level
from bot.engine import Action, SeatView
from bot.storage import Database

from .model import Table
from .thinking import Thinking
from .views import Show

log = logging.getLogger(__name__)

Robot = Callable[[SeatView, Level, random.Random, float], Action | None]
"""How a robot chooses: its view of the deal, its level, its randomness and its budget (in
seconds) -> its action (None: nothing to do)."""


@dataclass(frozen=True, slots=True)
class LostTable:
    """A table that could not be restored after a start (a damaged row, a log that does not
    replay): set aside as cancelled, its stakes returned. Its players are told where it
    played."""

    table_id: int
    guild_id: int
    channel_id: int
    refunded: dict[int, int]
    """user id -> chips given back."""


class Presenter(Protocol):
    """What shows a table to people (the Discord adapter, or a test double): it renders
    what the service says to redraw, never the table itself."""

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None: ...

    async def table_lost(self, lost: LostTable) -> None: ...


class Presenters:
    """Several presenters as one: the Discord messages and the web table's sockets both
    show every change. One that fails does not keep the others from showing it; its
    failure is logged (each presenter answers for its own messages)."""

    def __init__(self, *presenters: Presenter) -> None:
        self.presenters = list(presenters)

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        await self._each(lambda p: p.refresh(show, skip_seat=skip_seat))

    async def table_lost(self, lost: LostTable) -> None:
        await self._each(lambda p: p.table_lost(lost))

    async def _each(self, call: Callable[[Presenter], Awaitable[None]]) -> None:
        done = await asyncio.gather(*(call(p) for p in self.presenters), return_exceptions=True)
        for presenter, result in zip(self.presenters, done, strict=True):
            if isinstance(result, Exception):
                log.error("%s could not show a change", type(presenter).__name__, exc_info=result)
            elif isinstance(result, BaseException):
                raise result


class Surroundings:
    """What the table service runs on (set by its ``__init__``)."""

    db: Database
    presenter: Presenter
    clock: Callable[[], float]
    """The wall clock, in seconds since the epoch."""
    sleep: Callable[[float], Awaitable[None]]
    """How the tables' clocks wait; the sandbox waits on its simulated clock instead."""
    robot: Robot
    robot_delay: float
    lobby_timeout: float
    idle_timeout: float
    think_budget: float
    thinking: Thinking
    """Where hard robots search: worker processes or threads."""
    tables: dict[int, Table]
    """The tables this process runs, by id."""
    owns: Callable[[int], bool]
    """Whether a server's tables run in this process (:mod:`bot.tables.cluster`)."""
