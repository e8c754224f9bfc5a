"""The exact solver of the card play: its values against plain minimax over the engine,
in every variant and with the duty's options varied; against ``PointsSolver`` in
habanero; finishing a deal through the engine; giving up on its deadline."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.exact import ExactSolver, affordable, exact_finish
from bot.ai.solver import Deadline, OutOfTime, PointsSolver
from bot.engine import Action, Deal, Kind, Variant, parse_options, shuffle_deal
from bot.engine.cards import POINTS, mask_points
from bot.engine.deal import LAST_TRICK_BONUS

from .helpers import CountingClock

NEVER = Deadline(float("inf"))

TABLES: list[tuple[Variant, dict[str, Any]]] = [
    (Variant.HABANERO, {}),
    (Variant.PAIRS, {}),
    (Variant.PAIRS, {"beat_partner": False}),
    (Variant.PAIRS, {"rules": "parejas"}),
    (Variant.PAIRS, {"undertrump": True}),
    (Variant.INDIVIDUAL, {}),
    (Variant.INDIVIDUAL, {"overtrump": False}),
    (Variant.ARRASTRADO, {}),
    (Variant.ARRASTRADO, {"deck": 36, "undertrump": True}),
    (Variant.ARRASTRADO, {"seats": 4}),
]


def endgame(variant: Variant, raw: dict[str, Any], seed: int, cards: int) -> Deal:
    """A deal played with random legal cards (no declarations) until nothing is left to
    draw and at most ``cards`` cards are in the hands: a trick boundary or the middle of a
    trick, as ``cards`` falls."""
    rng = random.Random(seed)
    options = parse_options(variant, raw)
    seats = options.seats_at(variant)
    r = Deal(shuffle_deal(variant, options, rng.randrange(seats), rng))
    while r.to_draw or sum(h.bit_count() for h in r.hands) > cards:
        plays = [a for a in r.legal_actions() if a.kind is Kind.PLAY]
        r.apply(rng.choice(plays))
    assert not r.finished
    return r


def points_from_here(r: Deal, side: int, memo: dict[tuple[Any, ...], int]) -> int:
    """Plain minimax over the engine (plays only): the card points and last ten ``side``
    takes from here when it maximises them and every other seat minimises them."""
    if r.result is not None:
        return LAST_TRICK_BONUS if r.result.last_trick == side else 0
    key = (tuple(r.hands), r.turn, tuple(r.trick))
    found = memo.get(key)
    if found is not None:
        return found
    values: list[int] = []
    for action in r.legal_actions():
        if action.kind is Kind.PLAY:
            after = r.copy()
            after.apply(action)
            gained = after.card_points[side] - r.card_points[side]
            values.append(gained + points_from_here(after, side, memo))
    value = max(values) if r.side_of[r.turn] == side else min(values)
    memo[key] = value
    return value


def brute_values(r: Deal, side: int) -> dict[int, int]:
    memo: dict[tuple[Any, ...], int] = {}
    out: dict[int, int] = {}
    for action in r.legal_actions():
        if action.kind is Kind.PLAY:
            after = r.copy()
            after.apply(action)
            gained = after.card_points[side] - r.card_points[side]
            out[action.arg] = gained + points_from_here(after, side, memo)
    return out


def playing_seats(r: Deal) -> list[int]:
    return [s for s in range(r.n) if r.side_of[s] >= 0]


@pytest.mark.parametrize(("variant", "raw"), TABLES)
def test_values_are_exact(variant: Variant, raw: dict[str, Any]) -> None:
    """Two to four tricks left, from a lead or mid-trick, for a random seat's side; one
    solver for all, so its tables serve deals and perspectives they were not filled for."""
    solver = ExactSolver(NEVER)
    players = parse_options(variant, raw).seats_at(variant)
    players = 3 if variant is Variant.ARRASTRADO else players
    rng = random.Random(f"{variant.value}{sorted(raw.items())}")
    for seed in range(20):
        r = endgame(variant, raw, rng.randrange(1 << 30), rng.randint(2 * players, 4 * players))
        perspective = rng.choice(playing_seats(r))
        side = r.side_of[perspective]
        expected = brute_values(r, side)
        assert solver.card_values(r, perspective) == expected, (seed, perspective)


@pytest.mark.parametrize(
    ("variant", "tricks"), [(Variant.HABANERO, 8), (Variant.PAIRS, 5), (Variant.ARRASTRADO, 6)]
)
def test_kept_tables_give_fresh_values(variant: Variant, tricks: int) -> None:
    """Along a deal played out, a solver that keeps its tables values every position as a
    new solver does: what it stored (bounds found in narrow windows) stays true."""
    players = 3 if variant is Variant.ARRASTRADO else variant.players
    r = endgame(variant, {}, 11, tricks * players)
    kept = ExactSolver(NEVER)
    while not r.finished:
        for seat in {r.turn, r.leader}:
            assert kept.card_values(r, seat) == ExactSolver(NEVER).card_values(r, seat)
        r.apply(Action.play(r.turn, kept.best_card(r)))


def test_equal_cards_get_equal_values() -> None:
    """Zero-point cards that play alike are searched once and valued alike."""
    r = endgame(Variant.PAIRS, {}, 5, 12)
    values = ExactSolver(NEVER).card_values(r)
    assert values == brute_values(r, r.side_of[r.turn])


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_points_solver_in_habanero(seed: int) -> None:
    """The whole endgame once the stock is empty (eight tricks): leading on even seeds,
    answering a lead on odd ones."""
    r = endgame(Variant.HABANERO, {}, seed, 16 - seed % 2)
    me = r.turn
    points = PointsSolver(r.trump, NEVER)
    if r.trick:
        expected = points.follow_values(r.hands[me], r.hands[1 - me], r.trick[0])
    else:
        expected = points.lead_values(r.hands[me], r.hands[1 - me])
    assert ExactSolver(NEVER).card_values(r) == expected
    assert ExactSolver(NEVER).card_values(r, 1 - me) == {
        c: sum_left(r) - v for c, v in expected.items()
    }


def sum_left(r: Deal) -> int:
    """Every point still to take: the hands, the table and the last ten."""
    return sum(mask_points(h) for h in r.hands) + sum(POINTS[c] for c in r.trick) + 10


@pytest.mark.parametrize(("variant", "raw"), TABLES)
def test_exact_finish_plays_the_best_cards(variant: Variant, raw: dict[str, Any]) -> None:
    """The engine takes every card (it refuses an illegal one) and ends the deal; with two
    sides each takes its exact value, with more the first seat takes at least its own
    (the others play for themselves, not against it)."""
    solver = ExactSolver(NEVER)
    for seed in range(3):
        r = endgame(variant, raw, 100 + seed, 15)
        seat = r.turn
        side = r.side_of[seat]
        best = solver.best_card(r)
        values = solver.card_values(r)
        assert values[best] == max(values.values())
        assert best == min((c for c in values if values[c] == values[best]), key=strength)
        before = r.card_points[side]
        exact_finish(r, NEVER, solver)
        assert r.finished and r.result is not None
        taken = r.card_points[side] - before
        taken += LAST_TRICK_BONUS if r.result.last_trick == side else 0
        if len(r.sides) == 2:
            assert taken == values[best]
        else:
            assert taken >= values[best]


def strength(c: int) -> tuple[int, int]:
    return (c % 10, c)


def test_exact_finish_sings() -> None:
    """Declarations go through ``playout_declaration``: a pair held to the end is sung once
    its side takes a trick."""
    sung = 0
    for seed in range(12):
        r = endgame(Variant.PAIRS, {}, 200 + seed, 20)
        exact_finish(r, NEVER)
        assert r.finished
        sung += len(r.cantes)
    assert sung > 0


def test_gives_up_past_its_deadline() -> None:
    r = endgame(Variant.PAIRS, {}, 7, 28)
    clock = CountingClock()
    solver = ExactSolver(Deadline(0.0005, clock))
    with pytest.raises(OutOfTime):
        solver.card_values(r)
    assert clock.readings
    with pytest.raises(OutOfTime):
        exact_finish(r.copy(), Deadline(0.0005, CountingClock()))


def test_affordable() -> None:
    r = endgame(Variant.PAIRS, {}, 3, 12)
    assert affordable(r, 12)
    assert not affordable(r, 11)
    stocked = Deal(
        shuffle_deal(Variant.HABANERO, parse_options(Variant.HABANERO, {}), 0, random.Random(1))
    )
    assert not affordable(stocked, 40)
    with pytest.raises(ValueError, match="nothing left to draw"):
        ExactSolver(NEVER).card_values(stocked)
