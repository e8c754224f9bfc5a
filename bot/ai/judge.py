"""The judge of a decision: what each choice a seat had was worth, in points, from its own
view only.

Every legal choice (the cards that play alike counted once, the bids narrowed to the one
made, the lowest and a pass) is played on the same deals sampled from the seat's view, as
the hard robot samples them (``knowledge.sample_world``, with what the silences say), and
played out by the robots' playout policy with the exact ends of the hard search. A choice
is worth the mean points its seat's side ends the deal with, less the mean of every side's
(``margin``). The budget is a count of sampled deals, never a time: the same view, the same
seed and the same count give the same values on any machine, under any load.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from bot.engine.actions import Action, Kind
from bot.engine.deal import Deal
from bot.engine.view import SeatView

from .exact import ExactSolver
from .knowledge import infer, sample_world, silences
from .search import EXACT_TRICKS, Exact, alike, playout
from .solver import Deadline

JUDGE_WORLDS: Final = 32
"""Sampled deals each decision of a review is judged on (``benchmarks/review.py`` measures
the time a review takes with it)."""


@dataclass(frozen=True, slots=True)
class Judged:
    """The choices of one decision and the mean points (``margin``) each led to; ``chosen`` the
    index of the choice the seat made (among ``choices``)."""

    choices: tuple[Action, ...]
    values: tuple[float, ...]
    chosen: int

    @property
    def best(self) -> int:
        """The choice worth the most (the first of equals)."""
        top = 0
        for i, value in enumerate(self.values):
            if value > self.values[top] + 1e-9:
                top = i
        return top

    @property
    def cost(self) -> float:
        """Points the choice made lost to the best one (never below 0)."""
        return max(0.0, self.values[self.best] - self.values[self.chosen])


def choices_of(view: SeatView, made: Action, played: int) -> tuple[list[Action], int]:
    """The choices worth judging at ``view`` and the index of ``made`` among them: every
    legal action, but one card of each set that plays alike (``search.distinct_cards``,
    ``made``'s own set standing for it; ``played``: the cards gone, as the seat knows them)
    and, of the bids, the one made and the lowest."""
    legal = list(view.legal)
    plays = [a.arg for a in legal if a.kind is Kind.PLAY]
    same: dict[int, int] = {}
    if plays:
        same = alike(view, played, plays)
        if made.kind is Kind.PLAY:  # the card made stands for the cards like it
            stand = same[made.arg]
            same = {c: made.arg if r == stand else r for c, r in same.items()}
    bids = [a.arg for a in legal if a.kind is Kind.BID]
    lowest = min(bids) if bids else -1
    out: list[Action] = []
    for a in legal:
        if a.kind is Kind.PLAY and same.get(a.arg, a.arg) != a.arg:
            continue
        if a.kind is Kind.BID and a.arg != lowest and a != made:
            continue
        out.append(a)
    if made not in out:
        out.append(made)
    return out, out.index(made)


def margin(r: Deal, side: int) -> float:
    """The worth of a finished deal for ``side`` in points: its score less the mean of every
    side's (its own included), so that a point taken from another side counts one point
    (with two sides, half the difference of their scores)."""
    result = r.result
    assert result is not None
    scores = result.scores
    return scores[side] - sum(scores) / len(scores)


def judge(view: SeatView, made: Action, seed: str, worlds: int = JUDGE_WORLDS) -> Judged:
    """The worth of every choice at ``view`` on ``worlds`` deals sampled with ``seed``."""
    inferred = infer(view)
    choices, chosen = choices_of(view, made, inferred.played)
    if len(choices) == 1:
        return Judged(tuple(choices), (0.0,), 0)
    rng = random.Random(seed)
    know = silences(view, inferred)
    side = view.my_side
    forever = Deadline(math.inf)
    tricks = EXACT_TRICKS[view.variant]
    exact = Exact(tricks, ExactSolver(forever)) if tricks else None
    sums = [0.0] * len(choices)
    for _ in range(max(1, worlds)):
        world = sample_world(view, know, rng)
        for i, choice in enumerate(choices):
            r = world.copy()
            r.apply(choice)
            playout(r, exact)
            sums[i] += margin(r, side)
    n = max(1, worlds)
    return Judged(tuple(choices), tuple(s / n for s in sums), chosen)
