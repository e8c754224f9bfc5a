"""Turns and robots: which robot has something to do now, what it chooses (from its seat's
view alone, on a worker process or thread: :mod:`thinking`), and the stand-in that plays
for a member out of time."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.ai import Level, choose_action
from bot.engine import Action, Deal, Kind, SeatView, seat_view

from .model import STAND_IN_ROBOT, Table
from .play import apply
from .turns import OPTIONAL, robot_on_turn

if TYPE_CHECKING:
    from .service import TableService

log = logging.getLogger(__name__)

AWAY_AFTER_MISSES = 2
"""Turns in a row a member may let run out before a robot keeps their seat until they are
back."""

Robot = Callable[[SeatView, Level, random.Random, float], Action | None]
"""Decides a robot's action from its seat's view alone (runs in a worker thread)."""


def default_robot(view: SeatView, level: Level, rng: random.Random, budget: float) -> Action | None:
    return choose_action(view, level, rng, budget)


def _rng(table: Table, deal: Deal, seat: int) -> random.Random:
    """A robot's randomness, from the table's seed and the moment alone (never the global
    ``random``): a pinned seed makes its robots as repeatable as their time budget allows."""
    return random.Random(f"{table.seed}:{table.deal_no}:{len(deal.actions)}:{seat}")


class Robots:
    """The robots of every table. It reads ``robot`` and ``think_budget`` from the service
    when a robot thinks, so that they may be swapped on a running service."""

    def __init__(self, service: TableService) -> None:
        self._service = service
        self.declined: dict[int, tuple[int, set[int]]] = {}
        """Robots that chose not to declare out of turn, per table: (actions so far, seats).
        Without it the table's clock would ask them again and again."""
        self.hurried = False
        """The bot is stopping: a search that starts from now on thinks 0 s."""

    def forget(self, table_id: int) -> None:
        self.declined.pop(table_id, None)

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
        table.add_log("tables.log.timeout", name=occupant.name)
        if occupant.missed >= AWAY_AFTER_MISSES:
            occupant.away = True
            occupant.robot = STAND_IN_ROBOT
            table.add_log("tables.log.away", name=occupant.name)
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
        view = seat_view(deal, seat)
        legal = set(view.legal)
        if not legal:
            return None
        service = self._service
        thinking = service.thinking
        rng = _rng(table, deal, seat)
        budget = thinking.budget(service.think_budget)
        if level is Level.HARD and service.robot is default_robot and thinking.in_processes:
            # the search holds a core for its budget: on a worker process, with its share
            action = await thinking.run(default_robot, view, level, rng, budget)
        else:
            action = await thinking.in_thread(self._think, view, level, rng, budget)
        if action is not None and action not in legal:
            log.warning("Robot chose %s, not legal at table %s; playing another", action, table.id)
            action = None
        if action is None and seat == deal.turn:
            plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
            action = plays[-1] if plays else None
        return action

    def _think(
        self, view: SeatView, level: Level, rng: random.Random, budget: float
    ) -> Action | None:
        """The robot's choice, on a worker thread. Whether the bot is stopping is read when
        it starts, not when it was queued: once it is, a search still waiting for a thread
        takes 0 s (one sampled deal), so that ``suspend`` need not wait for the queue of
        searches of every table in the middle of a move (100 s with 1,000 of them)."""
        return self._service.robot(view, level, rng, 0.0 if self.hurried else budget)
