"""What a table service runs on, and what its concerns (``persistence``, ``robots``,
``clock``) read from it when they need it: the database, the presenters, the runtime (its
clocks, its robot). The service is one (:class:`Surroundings` is its base), built once with
all of them (the composition root, ``bot.app``); nothing is swapped on a running service,
and no concern knows the service's commands."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.metrics import Metrics
from bot.storage import Database

from .model import Table
from .runtime import Robot as Robot
from .runtime import Runtime
from .thinking import Thinking
from .views import Show

log = logging.getLogger(__name__)


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
    """What shows a table to people (Discord's messages, the card table's sockets, a test
    double): the service publishes each saved change to every presenter it was built with
    (``Surroundings.publish``); a presenter renders what it is told to redraw, for whoever
    the audience rule lets see it, never the table itself."""

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None: ...

    async def table_lost(self, lost: LostTable) -> None: ...


class Surroundings:
    """What the table service runs on (set by its ``__init__``, once)."""

    db: Database
    presenters: tuple[Presenter, ...]
    """Who shows each saved change (``Surroundings.publish``)."""
    runtime: Runtime
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
    metrics: Metrics
    """The bot's figures: games finished, members' moves, saves, robots' thinking."""

    @property
    def clock(self) -> Callable[[], float]:
        """The wall clock, in seconds since the epoch."""
        return self.runtime.clock

    @property
    def sleep(self) -> Callable[[float], Awaitable[None]]:
        """How the tables' clocks wait (the sandbox's and the tests' on their own clock)."""
        return self.runtime.sleep

    @property
    def robot(self) -> Robot:
        return self.runtime.robot

    async def publish(self, news: Show | LostTable, *, skip_seat: int | None = None) -> None:
        """The one door out: every saved change (``Show``), whatever made it (a button, the
        card table, the clock, a robot, a forwarded click, a tournament), and every table
        lost at a start, is published here, once, to every presenter the service was built
        with, in the order given (the quick ones first: the card table's sockets, then
        Discord's messages); each shows it to whoever the audience rule lets see it.
        ``skip_seat``: the hand the request's own answer showed. A presenter that fails
        keeps neither the others from showing it nor the change from standing: it is
        logged, and the next change shows the table again."""
        for presenter in self.presenters:
            try:
                if isinstance(news, LostTable):
                    await presenter.table_lost(news)
                else:
                    await presenter.refresh(news, skip_seat=skip_seat)
            except Exception:
                what = news.table_id if isinstance(news, LostTable) else news.table.id
                log.exception("%s could not show table %s", type(presenter).__name__, what)
