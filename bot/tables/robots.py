"""Turns and robots: which robot has something to do now, what it chooses (from its seat's
view alone, on a worker process or thread: :mod:`thinking`), and the stand-in that plays
for a member out of time.

A robot thinks while it waits: its decision starts when the table's clock is set for it
(``think_ahead``), and when the clock rings the decision already under way is used if
nothing moved in between. The table waits for the longer of the robot's delay and its
search, not for the two one after the other."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from enum import Enum

from bot.ai import Level
from bot.engine import Action, Deal, Kind, SeatView, seat_view

from .events import Happened, LogEvent
from .model import STAND_IN_ROBOT, Table
from .play import apply
from .runtime import Robot, default_robot
from .runtime import searched_robot as searched_robot
from .surroundings import Surroundings
from .turns import OPTIONAL, robot_on_turn, turn_fallback

log = logging.getLogger(__name__)

AWAY_AFTER_MISSES = 2
"""Turns in a row a member may let run out before a robot keeps their seat until they are
back."""
"""Decides a robot's action from its seat's view alone (runs in a worker thread)."""


class _Failed(Enum):
    """An early decision that failed (logged): the robot decides again on time."""

    FAILED = "failed"


_FAILED = _Failed.FAILED

_Answer = Action | _Failed | None
"""What an early decision came to: an action, none (the robot lets it pass), or _FAILED."""


@dataclass(frozen=True)
class _Early:
    """A robot's decision started ahead of its table's clock, and the moment it is for."""

    key: tuple[int, int, int]
    """(actions of the deal so far, deal number, seat)."""
    deal: Deal
    level: Level
    robot: Robot
    task: asyncio.Task[_Answer]

    def is_for(self, table: Table, deal: Deal, seat: int, level: Level, robot: Robot) -> bool:
        return (
            self.key == _moment(table, deal, seat)
            and self.deal is deal
            and self.level is level
            and self.robot is robot
        )


def _moment(table: Table, deal: Deal, seat: int) -> tuple[int, int, int]:
    return (len(deal.actions), table.deal_no, seat)


def _seed(table: Table, deal: Deal, seat: int) -> str:
    """The seed of a robot's randomness, from the table's seed and the moment alone (never
    the global ``random``): a pinned seed makes its robots as repeatable as their time
    budget allows. A few bytes to send to a worker, where a generator is thousands."""
    return f"{table.seed}:{table.deal_no}:{len(deal.actions)}:{seat}"


class Robots:
    """The robots of every table. It reads ``robot`` and ``think_budget`` from the service
    when a robot thinks, so that they may be swapped on a running service."""

    def __init__(self, service: Surroundings) -> None:
        self._service = service
        self.declined: dict[int, tuple[int, set[int]]] = {}
        """Robots that chose not to declare out of turn, per table: (actions so far, seats).
        Without it the table's clock would ask them again and again."""
        self.hurried = False
        """The bot is stopping: a search that starts from now on thinks 0 s."""
        self.early: dict[int, _Early] = {}
        """Per table, the decision a robot started when the table's clock was set for it."""

    def forget(self, table_id: int) -> None:
        self.declined.pop(table_id, None)
        self.drop_early(table_id)

    def think_ahead(self, table: Table, deal: Deal, seat: int | None) -> None:
        """The table's clock is set for ``seat`` (None: for no robot): its robot starts
        deciding now, from its seat's view as it is now, so that the decision is ready when
        the clock rings (``_choose`` takes it then if nothing moved). A decision already
        under way for this same moment goes on; one for another moment is dropped."""
        occupant = table.seats[seat] if seat is not None else None
        if seat is None or occupant is None or self.hurried:
            self.drop_early(table.id)
            return
        level = occupant.robot or STAND_IN_ROBOT
        robot = self._service.robot
        early = self.early.get(table.id)
        if early is not None and early.is_for(table, deal, seat, level, robot):
            return
        self.drop_early(table.id)
        view = seat_view(deal, seat)
        if not view.legal:
            return
        task = asyncio.create_task(
            self._decide_early(table.id, view, level, _seed(table, deal, seat)),
            name=f"table-{table.id}-robot-{seat}",
        )
        self.early[table.id] = _Early(_moment(table, deal, seat), deal, level, robot, task)

    def drop_early(self, table_id: int) -> None:
        """Forget a table's early decision: cancelled if its search has not started yet
        (one that has runs out its budget, and its answer is thrown away)."""
        early = self.early.pop(table_id, None)
        if early is not None:
            early.task.cancel()

    def drop_all_early(self) -> None:
        """The bot is stopping: no clock will ring for the early decisions."""
        for table_id in list(self.early):
            self.drop_early(table_id)

    async def _decide_early(
        self, table_id: int, view: SeatView, level: Level, seed: str
    ) -> _Answer:
        """An early decision. Its failure is logged here, as the clock logs a robot's run that
        fails, and the robot decides again when the clock rings."""
        try:
            return await self._search(view, level, seed, self._service.robot_delay)
        except Exception:
            log.exception("A robot's early decision failed at table %s", table_id)
            return _FAILED

    def to_act(self, table: Table, deal: Deal) -> int | None:
        """A seat played by a robot that has something to do now: the seat on turn first,
        then a robot that may declare out of turn (a partner's cante, capote). None while
        the game is paused."""
        if table.paused_until is not None:
            return None
        turn = deal.turn
        if robot_on_turn(table, deal):
            return turn
        legal = deal.legal_actions()
        seats = {a.seat for a in legal if a.kind is not Kind.RESIGN}
        passed = self._passed(table, deal)
        for seat in sorted(seats - passed):
            occupant = table.seats[seat]
            if (
                seat != turn
                and occupant is not None
                and occupant.robot_plays
                and any(a.seat == seat and a.kind in OPTIONAL for a in legal)
            ):
                return seat
        return None

    def _passed(self, table: Table, deal: Deal) -> set[int]:
        """The robots that declined to declare since the deal's last action."""
        declined = self.declined.get(table.id)
        return declined[1] if declined and declined[0] == len(deal.actions) else set[int]()

    async def play_run(self, table: Table) -> list[Action]:
        """A run of robot actions, shown as one change: it stops when a human is to play,
        or at the end of a trick (so people can follow, trick by trick)."""
        deal = table.deal
        assert deal is not None
        done: list[Action] = []
        tricks_at_start = len(deal.tricks)
        while not deal.finished:
            seat = self.to_act(table, deal)
            if seat is None:
                break
            occupant = table.seats[seat]
            assert occupant is not None
            action = await self._choose(table, deal, seat, occupant.robot or STAND_IN_ROBOT)
            if action is None:
                if seat == deal.turn:
                    raise RuntimeError("a robot on turn found nothing to play")
                self.declined[table.id] = (
                    len(deal.actions),
                    self._passed(table, deal) | {seat},
                )
                continue
            apply(table, deal, action)
            done.append(action)
            if len(deal.tricks) > tricks_at_start and not deal.trick:
                break
        return done

    async def stand_in(self, table: Table) -> list[Action]:
        """The human on turn ran out of time: the normal robot plays for them; after two
        such turns in a row a robot takes the seat until they click "I'm back"."""
        deal = table.deal
        assert deal is not None
        seat = deal.turn
        occupant = table.seats[seat]
        assert occupant is not None
        occupant.missed += 1
        table.add_log(LogEvent(Happened.TIMEOUT, occupant.who))
        if occupant.missed >= AWAY_AFTER_MISSES:
            occupant.away = True
            occupant.robot = STAND_IN_ROBOT
            table.add_log(LogEvent(Happened.AWAY, occupant.who))
        done: list[Action] = []
        while not deal.finished and deal.turn == seat:
            action = await self._choose(table, deal, seat, STAND_IN_ROBOT)
            if action is None:
                break
            apply(table, deal, action)
            done.append(action)
        table.turn_deadline = None
        return done

    async def _choose(self, table: Table, deal: Deal, seat: int, level: Level) -> Action | None:
        """The robot's action: the decision it started when the clock was set for this very
        moment (``think_ahead``) if there is one, else one it makes now. Either way it is
        checked against the rules as they are now."""
        early = self.early.pop(table.id, None)
        view = seat_view(deal, seat)
        legal = set(view.legal)
        if not legal:
            if early is not None:
                early.task.cancel()
            return None
        action: _Answer = _FAILED
        if early is not None:
            if early.is_for(table, deal, seat, level, self._service.robot):
                action = await self._early_answer(early.task)
            else:
                early.task.cancel()
        if action is _FAILED:
            action = await self._search(view, level, _seed(table, deal, seat), 0.0)
        if action is not None and action not in legal:
            log.warning("Robot chose %s, not legal at table %s; playing another", action, table.id)
            action = None
        if action is None and seat == deal.turn:
            action = turn_fallback(view)
        return action

    async def _early_answer(self, task: asyncio.Task[_Answer]) -> _Answer:
        """What an early decision came to. Cancelled on its own (the worker processes were
        shut down under it), it failed; cancelling this run cancels it too."""
        try:
            return await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
            return _FAILED

    async def _search(
        self, view: SeatView, level: Level, seed: str, wanted_in: float
    ) -> Action | None:
        """The robot's search, with the budget of one more search now, wanted in
        ``wanted_in`` seconds (its robot's delay, or now) or once its budget is spent."""
        service = self._service
        thinking = service.thinking
        budget = thinking.budget(service.think_budget)
        metrics = service.metrics
        began = metrics.timer()
        if level is Level.HARD and service.robot is default_robot and thinking.in_processes:
            # the search holds a core for its budget: on a worker process, with its share,
            # and done by the time its table wants it however long it waits for a worker
            due = time.monotonic() + max(wanted_in, budget)
            action, worlds = await thinking.run(searched_robot, view, level, seed, budget, due)
        else:
            action, worlds = await thinking.in_thread(self._think, view, level, seed, budget)
        if worlds is not None:
            thinking.searched(worlds)
        metrics.robot_thought(metrics.timer() - began, worlds)
        return action

    def _think(
        self, view: SeatView, level: Level, seed: str, budget: float
    ) -> tuple[Action | None, int | None]:
        """The robot's choice, on a worker thread, and the deals it sampled (None: a robot
        that does not say, swapped in for ``default_robot``). Whether the bot is stopping is read when
        it starts, not when it was queued: once it is, a search still waiting for a thread
        takes 0 s (one sampled deal), so that ``suspend`` need not wait for the queue of
        searches of every table in the middle of a move (100 s with 1,000 of them)."""
        robot = self._service.robot
        budget = 0.0 if self.hurried else budget
        if robot is not default_robot:
            return robot(view, level, random.Random(seed), budget), None
        return searched_robot(view, level, seed, budget)
