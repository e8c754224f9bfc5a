"""What robots declare: the 40 first, the exchange, tute, claims, bids; and None when
there is nothing they want to do."""

from __future__ import annotations

import random

import pytest

from bot.ai import Level, choose_action
from bot.engine import Action, Deal, Kind, Options, Scoring, Variant, seat_view
from tests.engine.helpers import build, play

from .helpers import CountingClock

OROS, COPAS = 0, 1
LEVELS = list(Level)


def decide(r: Deal, seat: int, level: Level) -> Action | None:
    return choose_action(seat_view(r, seat), level, random.Random(1), 0.05, clock=CountingClock())


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_the_40_is_sung_before_the_20(level: Level) -> None:
    r = build(Variant.HABANERO, {1: "1B 12C 11C 12O 11O", 0: "2B"}, "4O", dealer=0)
    play(r, "1B", "2B")
    assert decide(r, 1, level) == Action.sing(1, OROS)
    r.apply(Action.sing(1, OROS))
    action = decide(r, 1, level)
    assert action is not None and action.kind is Kind.PLAY  # one cante per trick won


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_exchange_comes_first_and_may_complete_a_40(level: Level) -> None:
    # the turned 12O goes to the holder of the 7O, who holds the 11O: then the 40
    r = build(Variant.HABANERO, {1: "1B 7O 11O", 0: "2B"}, "12O", dealer=0)
    play(r, "1B", "2B")
    assert decide(r, 1, level) == Action.simple(1, Kind.EXCHANGE)
    r.apply(Action.simple(1, Kind.EXCHANGE))
    assert decide(r, 1, level) == Action.sing(1, OROS)


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_tute_is_declared_at_once(level: Level) -> None:
    hands = {0: "1E 12O 12C 12E 12B", 1: "2E", 2: "4E", 3: "5E"}
    r = build(Variant.INDIVIDUAL, hands, "2O", dealer=3)
    play(r, "1E", "2E", "4E", "5E")
    assert decide(r, 0, level) == Action.simple(0, Kind.TUTE)


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_a_claim_is_made_once_the_target_is_reached(level: Level) -> None:
    r = build(Variant.HABANERO, {1: "1B 3B", 0: "2B 4B"}, "4O", dealer=0, carry=(40, 85))
    play(r, "1B", "2B")
    assert Action.simple(1, Kind.CLAIM) in seat_view(r, 1).legal
    action = decide(r, 1, level)
    assert action is not None and action.kind is Kind.PLAY  # 85 + 11: a claim would lose
    r = build(Variant.HABANERO, {1: "1B 3B", 0: "2B 4B"}, "4O", dealer=0, carry=(40, 95))
    play(r, "1B", "2B")
    assert seat_view(r, 1).scores[1] >= 101
    assert decide(r, 1, level) == Action.simple(1, Kind.CLAIM)


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_no_cante_and_no_resignation_in_sixty_five_by_default(level: Level) -> None:
    """In sixty-five a cante only raises the singer's own bar, and with one round to win
    resigning gains nothing."""
    options = Options(scoring=Scoring.SIXTY_FIVE)
    r = build(Variant.HABANERO, {1: "1B 12C 11C", 0: "2B"}, "4O", dealer=0, options=options)
    play(r, "1B", "2B")
    action = decide(r, 1, level)
    assert action is not None and action.kind is Kind.PLAY
    # before the first lead seat 0 may resign (dealt under 10 card points), but it is
    # not its turn: it does nothing
    low = "2B 4B 5B 6B 7B 2C 4C 5C"
    r = build(Variant.HABANERO, {0: low, 1: "1B"}, "4O", dealer=0, options=options)
    assert Action.simple(0, Kind.RESIGN) in seat_view(r, 0).legal
    assert decide(r, 0, level) is None


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_nothing_to_do_is_none(level: Level) -> None:
    r = build(Variant.PAIRS, {}, "2O", dealer=0)
    assert not seat_view(r, 2).legal
    assert decide(r, 2, level) is None


def test_plato_bids_with_a_strong_hand_and_passes_with_a_weak_one() -> None:
    options = Options(plato=True)
    strong = "1O 3O 12O 11O 10O 7O 1C 3C 1E 3E 1B 3B 12C"
    r = build(Variant.ARRASTRADO, {1: strong}, "2O", dealer=0, options=options)
    assert r.turn == 1
    for level in (Level.NORMAL, Level.HARD):
        action = decide(r, 1, level)
        assert action is not None and action.kind is Kind.BID and action.arg == 101
    weak = "2C 4C 5C 6C 7C 2E 4E 5E 6E 7E 2B 4B 5B"
    r = build(Variant.ARRASTRADO, {1: weak}, "2O", dealer=0, options=options)
    for level in LEVELS:
        assert decide(r, 1, level) == Action.simple(1, Kind.PASS)


def test_plato_a_fair_hand_does_not_bid_a_contract_it_rarely_makes() -> None:
    """Three aces, two threes and a pair (strength 141): such hands take 101 points about
    one time in three (``benchmarks/plato_bids.py``)."""
    options = Options(plato=True)
    fair = "1O 3O 12O 1C 3C 12E 11E 1B 5C 6B 7B 2B 4B"
    r = build(Variant.ARRASTRADO, {1: fair}, "2O", dealer=0, options=options)
    for level in (Level.NORMAL, Level.HARD):
        assert decide(r, 1, level) == Action.simple(1, Kind.PASS)


def test_plato_outbid_past_its_hand_the_robot_passes() -> None:
    options = Options(plato=True)
    strong = "1O 3O 12O 11O 10O 7O 1C 3C 1E 3E 1B 3B 12C"
    r = build(Variant.ARRASTRADO, {0: strong}, "2O", dealer=1, options=options)
    assert r.turn == 2
    r.apply(Action.bid(2, 101))
    for level in (Level.NORMAL, Level.HARD):
        action = decide(r, 0, level)
        assert action is not None and action.kind is Kind.BID and action.arg == 102
    r.apply(Action.bid(0, 102))
    r.apply(Action.bid(1, 200))
    r.apply(Action.simple(2, Kind.PASS))
    assert r.turn == 0  # outbid, seat 0 may raise again, and does not
    for level in LEVELS:
        assert decide(r, 0, level) == Action.simple(0, Kind.PASS)


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
def test_during_the_auction_a_robot_takes_the_turned_card_out_of_its_turn(level: Level) -> None:
    """Arrastrado without the automatic exchange: the holder of the trump 7 takes the
    turned ace during the auction, bidding or not; out of its turn it does nothing else."""
    options = Options(plato=True, auto_exchange=False)
    r = build(Variant.ARRASTRADO, {1: "7B"}, "1B", dealer=2, options=options)
    assert r.turn == 0
    assert decide(r, 1, level) == Action.simple(1, Kind.EXCHANGE)
    r.apply(Action.simple(1, Kind.EXCHANGE))
    assert decide(r, 1, level) is None  # seat 0 is to bid
