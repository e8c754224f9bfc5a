"""The hard robot reads the other seats' plays: a sampled deal weighs more when the plays
the table saw make sense with its cards, and the weighing reads nothing but the view and
the sampled deal."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.ai import Level
from bot.ai.inference import PlayModel
from bot.ai.knowledge import infer, sample_world, silences
from bot.ai.search import READING, hard_action
from bot.engine import Deal, Kind, Options, Variant, seat_view, shuffle_deal

from .helpers import CountingClock, ask
from .test_view_only import robot_steps, twin


def decisions(variant: Variant, seed: int, level: Level = Level.NORMAL) -> list[Deal]:
    """Copies of a deal played by robots at every decision with a choice of cards."""
    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, Options(), seed % 2, rng))
    out: list[Deal] = []
    while not r.finished:
        acted = False
        for seat in sorted({a.seat for a in r.legal_actions() if a.seat != r.turn}):
            action = ask(r, seat, level, rng, 0.0)
            if action is not None:
                r.apply(action)
                acted = True
                break
        if acted:
            continue
        if sum(a.kind is Kind.PLAY for a in r.legal_actions()) >= 2:
            out.append(r.copy())
        action = ask(r, r.turn, level, rng, 0.0)
        assert action is not None
        r.apply(action)
    return out


WEIGHED = [v for v in Variant if not v.has_stock]


@pytest.mark.parametrize("variant", WEIGHED, ids=[v.value for v in WEIGHED])
def test_the_start_of_the_deal_is_rebuilt_from_the_hands_and_the_plays(variant: Variant) -> None:
    """Given the real hands, the deal rebuilt at its first card replays the whole history
    to the same hands: what the weighing asks of each play is asked of the real cards."""
    rebuilt = 0
    for seed in range(3):
        for r in decisions(variant, seed):
            view = seat_view(r, r.turn)
            model = PlayModel(view)
            if not model.active:
                continue
            start = model.start_of(r.copy())
            assert start is not None
            for action in view.history:
                start.apply(action)
            assert start.hands == r.hands
            assert start.card_points == r.card_points
            rebuilt += 1
    assert rebuilt >= 20


@pytest.mark.parametrize("variant", WEIGHED, ids=[v.value for v in WEIGHED])
def test_the_real_deal_weighs_more_than_the_sampled_ones(variant: Variant) -> None:
    """Against robots that play by the policy, the real hands explain their plays at least
    as well as most deals drawn from what the seat knows, and better than half of them
    more often than not (weights drawn at random would do neither)."""
    at_least = better = total = 0
    for seed in range(4):
        for r in decisions(variant, seed)[4::3]:
            view = seat_view(r, r.turn)
            model = PlayModel(view)
            if not model.active:
                continue
            know = silences(view, infer(view))
            rng = random.Random(2)
            median = statistics.median(
                model.weight(sample_world(view, know, rng)) for _ in range(24)
            )
            real = model.weight(r.copy())
            at_least += real >= median
            better += real > median
            total += 1
    assert total >= 20
    assert at_least >= 0.75 * total
    assert better >= 0.45 * total


def test_habanero_deals_are_not_weighed() -> None:
    """With a stock the plays say too little to this policy: every deal counts the same."""
    for r in decisions(Variant.HABANERO, 1)[3::4]:
        view = seat_view(r, r.turn)
        model = PlayModel(view)
        assert not model.active
        know = silences(view, infer(view))
        assert model.weight(sample_world(view, know, random.Random(3))) == 1.0


def test_the_reading_search_answers_alike_whatever_the_hidden_cards() -> None:
    """The weighing reads the view only: twin deals that differ in cards the seat cannot
    see get the same answer from the search that weighs (same seed, counting clock)."""
    r = Deal(shuffle_deal(Variant.PAIRS, Options(), 1, random.Random(4)))
    robot_steps(r, 13, seed=4)
    viewer = r.turn
    other = twin(r, viewer)
    view = seat_view(r, viewer)
    assert seat_view(other, viewer) == view
    assert PlayModel(view).active
    answers = [
        hard_action(seat_view(d, viewer), random.Random(9), 0.05, CountingClock(), style=READING)
        for d in (r, other)
    ]
    assert answers[0] is not None and answers[0] == answers[1]
