"""Exact play of a two-hand endgame with both hands known (habanero once the stock is empty).

Both hands play under full duty, as the engine's ``playable`` says. Values are the card
points still to win plus the 10 of the last trick; with the total fixed, more points for
one hand is never worse for it, so the best points are also the best chance of reaching
the target.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.engine.cards import POINTS, beats, mask_points
from bot.engine.duty import playable
from bot.engine.options import StockDuty

LAST_TRICK: Final = 10
_CHECK_EVERY: Final = 1024


class OutOfTime(Exception):
    """The solver ran past its deadline."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """When a search must stop, read on its own clock: the robots' thinking time is an
    input, like their randomness, so a test can hand them a counter for a clock and get
    the same search on any machine."""

    at: float
    clock: Callable[[], float] = time.perf_counter

    def passed(self) -> bool:
        return self.clock() > self.at


_FULL: Final = StockDuty.FULL


def follow_mask(hand: int, led: int, trump: int) -> int:
    """What the other hand may play on ``led``: with two hands the card led holds the
    trick."""
    return playable(hand, led // 10, led, trump, _FULL)


def _bits_strong_first(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


class PointsSolver:
    """Best points for the hand to lead, by memoised minimax; one instance per position.
    It gives up (``OutOfTime``) once ``deadline`` has passed."""

    def __init__(self, trump: int, deadline: Deadline) -> None:
        self.trump = trump
        self.deadline = deadline
        self.memo: dict[tuple[int, int], int] = {}
        self.nodes = 0

    def lead(self, lead_hand: int, follow_hand: int, remaining: int) -> int:
        """Points the leader takes from here, ``remaining`` being every point still to win
        (the 10 of the last trick included)."""
        if not lead_hand:
            return remaining
        key = (lead_hand, follow_hand)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if not self.nodes % _CHECK_EVERY and self.deadline.passed():
            raise OutOfTime
        trump = self.trump
        best = -1
        for c in _bits_strong_first(lead_hand):
            worst = 1 << 30
            rest_lead = lead_hand ^ (1 << c)
            pc = POINTS[c]
            for d in _bits_strong_first(playable(follow_hand, c // 10, c, trump, _FULL)):
                pts = pc + POINTS[d]
                after = remaining - pts
                rest_follow = follow_hand ^ (1 << d)
                if beats(d, c, trump):
                    value = after - self.lead(rest_follow, rest_lead, after)
                else:
                    value = pts + self.lead(rest_lead, rest_follow, after)
                if value < worst:
                    worst = value
                    if worst <= best:
                        break
            if worst > best:
                best = worst
        self.memo[key] = best
        return best

    def lead_values(self, lead_hand: int, follow_hand: int) -> dict[int, int]:
        """For each card the leader may lead: the points the leader then takes."""
        remaining = mask_points(lead_hand | follow_hand) + LAST_TRICK
        out: dict[int, int] = {}
        trump = self.trump
        for c in _bits_strong_first(lead_hand):
            worst = 1 << 30
            rest_lead = lead_hand ^ (1 << c)
            for d in _bits_strong_first(follow_mask(follow_hand, c, trump)):
                pts = POINTS[c] + POINTS[d]
                after = remaining - pts
                rest_follow = follow_hand ^ (1 << d)
                if beats(d, c, trump):
                    value = after - self.lead(rest_follow, rest_lead, after)
                else:
                    value = pts + self.lead(rest_lead, rest_follow, after)
                worst = min(worst, value)
            out[c] = worst
        return out

    def follow_values(self, follow_hand: int, lead_hand: int, led: int) -> dict[int, int]:
        """For each legal answer to ``led``: the points the follower then takes (the led
        card is already out of ``lead_hand``)."""
        remaining = mask_points(lead_hand | follow_hand) + POINTS[led] + LAST_TRICK
        out: dict[int, int] = {}
        for d in _bits_strong_first(follow_mask(follow_hand, led, self.trump)):
            pts = POINTS[led] + POINTS[d]
            after = remaining - pts
            rest_follow = follow_hand ^ (1 << d)
            if beats(d, led, self.trump):
                out[d] = pts + self.lead(rest_follow, lead_hand, after)
            else:
                out[d] = after - self.lead(lead_hand, rest_follow, after)
        return out


class CapoteSolver:
    """Whether one hand can take every remaining trick (capote); it gives up as
    ``PointsSolver`` does."""

    def __init__(self, trump: int, deadline: Deadline) -> None:
        self.trump = trump
        self.deadline = deadline
        self.memo: dict[tuple[int, int], bool] = {}
        self.nodes = 0

    def sweep_leading(self, mine: int, other: int) -> bool:
        """``mine`` leads and must win every trick."""
        if not mine:
            return True
        key = (mine, other)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if not self.nodes % _CHECK_EVERY and self.deadline.passed():
            raise OutOfTime
        result = any(self.lead_sweeps(mine, other, c) for c in _bits_strong_first(mine))
        self.memo[key] = result
        return result

    def lead_sweeps(self, mine: int, other: int, c: int) -> bool:
        """Leading ``c`` keeps every trick whatever the other hand answers."""
        rest = mine ^ (1 << c)
        for d in _bits_strong_first(playable(other, c // 10, c, self.trump, _FULL)):
            if beats(d, c, self.trump):
                return False
            if not self.sweep_leading(rest, other ^ (1 << d)):
                return False
        return True

    def answer_sweeps(self, mine: int, other_rest: int, led: int, d: int) -> bool:
        """Answering ``led`` with ``d`` wins this trick and every later one."""
        if not beats(d, led, self.trump):
            return False
        return self.sweep_leading(mine ^ (1 << d), other_rest)

    def sweep_following(self, mine: int, other: int) -> bool:
        """The other hand leads now; ``mine`` must win this trick and every later one."""
        if not mine:
            return True
        for c in _bits_strong_first(other):
            rest = other ^ (1 << c)
            if not any(
                self.answer_sweeps(mine, rest, c, d)
                for d in _bits_strong_first(follow_mask(mine, c, self.trump))
            ):
                return False
        return True
