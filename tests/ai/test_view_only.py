"""The robots see a seat's view and nothing else: the view reaches no hidden state, and
two deals that look the same from a seat get the same answer from its robot."""

from __future__ import annotations

import dataclasses
import itertools
import random
from enum import Enum
from typing import Any

import pytest

from bot.ai import Level, choose_action
from bot.engine import (
    Action,
    Cante,
    Contract,
    Deal,
    DealtCards,
    Exchange,
    IllegalActionError,
    Kind,
    Options,
    Result,
    SeatView,
    Trick,
    Variant,
    seat_view,
    shuffle_deal,
)
from bot.engine.cards import mask_of

from .helpers import CountingClock, ask

IMMUTABLE_LEAVES = (int, float, str, bool, type(None), Enum)
FROZEN_RECORDS = (SeatView, Options, Trick, Cante, Exchange, Contract, Result, Action)


def walk(obj: Any, seen: set[int] | None = None) -> list[Any]:
    """Every object reachable from ``obj`` through its fields and items."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    found = [obj]
    if isinstance(obj, IMMUTABLE_LEAVES):
        return found
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            found += walk(getattr(obj, f.name), seen)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for item in obj:  # pyright: ignore[reportUnknownVariableType]
            found += walk(item, seen)
    elif isinstance(obj, dict):
        for key, value in obj.items():  # pyright: ignore[reportUnknownVariableType]
            found += walk(key, seen) + walk(value, seen)
    return found


def robot_steps(r: Deal, steps: int, seed: int) -> None:
    """At least ``steps`` actions by normal robots, then on to a seat with a choice."""
    rng = random.Random(seed)
    done = 0
    while done < steps or sum(a.kind is Kind.PLAY for a in r.legal_actions()) < 2:
        assert not r.finished
        action = ask(r, r.turn, Level.NORMAL, rng, 0.0)
        assert action is not None
        r.apply(action)
        done += 1


def replay(dealt: DealtCards, actions: list[Action]) -> Deal | None:
    r = Deal(dealt)
    try:
        for action in actions:
            r.apply(action)
    except IllegalActionError:
        return None
    return r


def twin(r: Deal, viewer: int) -> Deal:
    """The same actions on a deal where two cards the viewer cannot see change places:
    between two other hands, or between a hand and the face-down stock."""
    dealt = r.dealt
    played = {c for t in r.tricks for c in t.cards} | set(r.trick)
    shown = {c for _, c in seat_view(r, viewer).shown} | {dealt.turned}
    hidden = {
        seat: [c for c in dealt.hands[seat] if c not in played and c not in shown]
        for seat in range(r.n)
        if seat != viewer
    }
    places: list[tuple[int, int]] = [(s, c) for s, cards in hidden.items() for c in cards]
    places += [(-1, c) for c in r.stock]  # still face down
    for (s1, c1), (s2, c2) in itertools.combinations(places, 2):
        if s1 == s2 or c1 // 10 != c2 // 10:
            continue
        swap = {c1: c2, c2: c1}
        hands = tuple(tuple(swap.get(c, c) for c in hand) for hand in dealt.hands)
        stock = tuple(swap.get(c, c) for c in dealt.stock)
        other = replay(dataclasses.replace(dealt, hands=hands, stock=stock), list(r.actions))
        if other is not None:
            return other
    raise AssertionError("no twin deal found")


CASES = [(Variant.PAIRS, 13), (Variant.HABANERO, 9), (Variant.ARRASTRADO, 10)]


@pytest.mark.parametrize(("variant", "steps"), CASES, ids=[v.value for v, _ in CASES])
def test_the_view_reaches_no_round_and_no_hidden_card(variant: Variant, steps: int) -> None:
    r = Deal(shuffle_deal(variant, Options(), 1, random.Random(4)))
    robot_steps(r, steps, seed=4)
    for seat in range(r.n):
        view = seat_view(r, seat)
        objects = walk(view)
        for obj in objects:
            assert not isinstance(obj, (Deal, DealtCards)), "a view must not reach the deal"
            assert not isinstance(obj, (list, set, dict)), "a view holds only frozen data"
            assert isinstance(obj, IMMUTABLE_LEAVES + FROZEN_RECORDS + (tuple, frozenset))
        # the cards the view names: its own, the played, the shown and the turned card
        public = set(view.hand) | {c for t in view.tricks for c in t.cards}
        public |= {c for _, c in view.trick} | {c for _, c in view.shown} | {view.turned}
        public |= {c for e in view.exchanges for c in (e.gave, e.took)}
        public |= {a.arg for a in view.history + view.legal if a.kind.name == "PLAY"}
        if view.table_card is not None:
            public.add(view.table_card)
        hidden = mask_of(c for s in range(r.n) if s != seat for c in r.hand(s))
        hidden |= mask_of(r.stock)
        hidden &= ~mask_of({c for _, c in view.shown} | {view.turned})
        assert hidden, "the other seats hold cards this seat cannot see"
        assert not mask_of(public) & hidden, "a view names a hidden card"


@pytest.mark.parametrize(("variant", "steps"), CASES, ids=[v.value for v, _ in CASES])
@pytest.mark.parametrize("level", list(Level), ids=[lv.value for lv in Level])
def test_same_view_same_answer(variant: Variant, steps: int, level: Level) -> None:
    """Deals that differ only in cards this seat cannot see give equal views, and the
    robot (same seed) answers them alike: it cannot be reading the hidden cards."""
    r = Deal(shuffle_deal(variant, Options(), 1, random.Random(4)))
    robot_steps(r, steps, seed=4)
    viewer = r.turn
    other = twin(r, viewer)
    assert [other.hand(s) for s in range(r.n)] != [r.hand(s) for s in range(r.n)] or (
        other.stock != r.stock
    )
    view = seat_view(r, viewer)
    assert seat_view(other, viewer) == view
    assert sum(a.kind is Kind.PLAY for a in view.legal) >= 2, "a real choice"

    first = choose_action(view, level, random.Random(9), 0.05, clock=CountingClock())
    second = choose_action(
        seat_view(other, viewer), level, random.Random(9), 0.05, clock=CountingClock()
    )
    assert first is not None and first == second
