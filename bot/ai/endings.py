"""Habanero's ends with both hands known (the stock drawn): the best card by exact search,
and whether a seat takes every trick left (a capote announced or broken)."""

from __future__ import annotations

from bot.engine.cards import beats, cards_of, mask_of
from bot.engine.view import SeatView

from .knowledge import Knowledge
from .solver import CapoteSolver, Deadline, OutOfTime, PointsSolver, follow_mask


def _two_hands(view: SeatView, know: Knowledge) -> tuple[int, int, int]:
    me = view.seat
    other = 1 - me
    mine = mask_of(view.hand)
    theirs = know.known[other] | know.unseen
    return me, mine, theirs


def capote_sweeps(view: SeatView, know: Knowledge, deadline: Deadline) -> bool:
    """Habanero with both hands known: whether this seat takes every remaining trick."""
    me, mine, theirs = _two_hands(view, know)
    solver = CapoteSolver(view.trump, deadline)
    try:
        if view.trick:
            seat, led = view.trick[0]
            if seat == me:
                return solver.lead_sweeps(mine | 1 << led, theirs, led)
            return any(
                solver.answer_sweeps(mine, theirs, led, d)
                for d in cards_of(follow_mask(mine, led, view.trump))
            )
        if view.turn == me:
            return solver.sweep_leading(mine, theirs)
        return solver.sweep_following(mine, theirs)
    except OutOfTime:
        return False


def exact_play(view: SeatView, know: Knowledge, deadline: Deadline) -> int | None:
    """Habanero, stock empty: the best card by exact search, or None out of time. With the
    total fixed, the most points is also the best result (the target, the carry)."""
    _, mine, theirs = _two_hands(view, know)
    if view.capote_seat is not None:
        return _capote_play(view, mine, theirs, deadline)
    solver = PointsSolver(view.trump, deadline)
    try:
        if view.trick:
            values = solver.follow_values(mine, theirs, view.trick[0][1])
        else:
            values = solver.lead_values(mine, theirs)
    except OutOfTime:
        return None
    return max(values, key=lambda c: (values[c], -(c % 10), -c))


def _capote_play(view: SeatView, mine: int, theirs: int, deadline: Deadline) -> int | None:
    """A capote is on: its announcer keeps every trick if it can, the other seat breaks it."""
    solver = CapoteSolver(view.trump, deadline)
    trump = view.trump
    announcer = view.capote_seat == view.seat
    try:
        if view.trick:
            led = view.trick[0][1]
            for d in cards_of(follow_mask(mine, led, trump)):
                if announcer:
                    if solver.answer_sweeps(mine, theirs, led, d):
                        return d
                elif beats(d, led, trump) or not solver.sweep_leading(theirs, mine ^ (1 << d)):
                    return d
            return None
        for c in cards_of(mine):
            if announcer:
                if solver.lead_sweeps(mine, theirs, c):
                    return c
            elif not _other_sweeps_after(solver, mine, theirs, c, trump):
                return c
    except OutOfTime:
        return None
    return None


def _other_sweeps_after(solver: CapoteSolver, mine: int, theirs: int, c: int, trump: int) -> bool:
    """After this seat leads ``c``, the other hand can still take every trick."""
    rest = mine ^ (1 << c)
    return any(
        solver.answer_sweeps(theirs, rest, c, d) for d in cards_of(follow_mask(theirs, c, trump))
    )
