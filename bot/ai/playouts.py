"""The hard robot's playouts: a sampled deal played to the end by the heuristic policy,
every hand known, its last tricks by the exact solver; and what a finished deal is worth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from bot.engine.actions import Action, Kind
from bot.engine.deal import Deal
from bot.engine.events import Phase

from .declarations import declare_in_playout
from .exact import ExactSolver, affordable
from .heuristic import playout_card
from .solver import Deadline, OutOfTime

MARGIN_WEIGHT: Final = 0.35
"""How much the point margin counts next to the result (a win is 1)."""


@dataclass(slots=True)
class Exact:
    """The exact ends of the playouts: once nothing is left to draw and at most ``tricks``
    tricks are left to play, every seat plays the exact solver's best card."""

    tricks: int
    solver: ExactSolver
    late: bool = False
    """The solver found the search's deadline passed (no need to read the clock again)."""

    def passed(self, deadline: Deadline) -> bool:
        return self.late or deadline.passed()


def playout(r: Deal, exact: Exact | None = None) -> None:
    """Play a full state to the end with the heuristic policy for every seat, or with
    ``exact`` the solver's cards at the end (the heuristic's again if it runs out of
    time)."""
    solving = False
    while not r.finished:
        if r.phase is Phase.AUCTION:
            r.apply(Action.simple(r.turn, Kind.PASS))
            continue
        if r.sing_side >= 0 and declare_in_playout(r):
            continue
        m = r.play_mask()
        seat = r.turn
        if not m & m - 1:
            c = m.bit_length() - 1
        elif (
            exact is not None
            and not exact.late
            and (solving or (not r.trick and affordable(r, exact.tricks * r.players)))
        ):
            solving = True
            try:
                c = exact.solver.best_card(r)
            except OutOfTime:
                exact.late = True
                c = playout_card(r, m)
        else:
            c = playout_card(r, m)
        r.apply(Action.play(seat, c))


def outcome_value(r: Deal, side: int) -> float:
    """The worth of a finished deal for ``side``: the result, with the margin as the
    tie-breaker; a habanero deal that decides nothing is worth its lead in the carry."""
    result = r.result
    assert result is not None
    scores = result.scores
    mine = scores[side]
    other = max(scores[s] for s in range(len(scores)) if s != side)
    return _value(result.winner, result.double, side, mine - other)


def _value(winner: int | None, double: bool, side: int, margin: int) -> float:
    if winner is None:
        return 0.8 * math.tanh(margin / 50.0)
    won = 1.0 if winner == side else -1.0
    if double:
        won *= 1.5
    return won + MARGIN_WEIGHT * math.tanh(margin / 60.0)
