"""The card-location model: it loads, reads the view only, and favours the real deal."""

from __future__ import annotations

import json
import math
import random

from bot.ai import Level
from bot.ai.knowledge import infer, sample_world, silences
from bot.ai.locations import FEATURES, MODEL_PATH, VERSION, CardModel, Locations, models
from bot.engine import Deal, Kind, Options, Variant, seat_view, shuffle_deal

from .helpers import ask
from .test_view_only import robot_steps, twin


def test_the_model_file_covers_the_features_the_code_computes() -> None:
    data = json.loads(MODEL_PATH.read_text())
    assert data["version"] == VERSION
    assert data["features"] == list(FEATURES)
    pairs = data["variants"]["pairs"]
    assert len(pairs["weights"]) == len(FEATURES)
    assert pairs["games"] > 0 and "seed" in pairs
    assert 0 < pairs["exponent"] <= 2
    assert "pairs" in models()


def test_the_scores_depend_on_the_view_only() -> None:
    r = Deal(shuffle_deal(Variant.PAIRS, Options(), 1, random.Random(7)))
    robot_steps(r, 14, seed=7)
    viewer = r.turn
    other = twin(r, viewer)
    assert other.hands != r.hands
    scores = []
    for deal in (r, other):
        view = seat_view(deal, viewer)
        scores.append(CardModel.for_view(view, silences(view, infer(view))).scores)
    assert scores[0] and scores[0] == scores[1]


def test_a_variant_without_a_model_weighs_every_deal_the_same() -> None:
    r = Deal(shuffle_deal(Variant.ARRASTRADO, Options(), 0, random.Random(3)))
    robot_steps(r, 8, seed=3)
    view = seat_view(r, r.turn)
    know = silences(view, infer(view))
    locations = CardModel.for_view(view, know)
    if "arrastrado" not in models():
        assert not locations.active
        assert locations.weight(sample_world(view, know, random.Random(1))) == 1.0


def positions(seed: int) -> list[Deal]:
    """Copies of a pairs deal played by normal robots, at plays with a choice from the
    third trick on."""
    rng = random.Random(seed)
    r = Deal(shuffle_deal(Variant.PAIRS, Options(), seed % 4, rng))
    out: list[Deal] = []
    while not r.finished:
        for seat in sorted({a.seat for a in r.legal_actions() if a.seat != r.turn}):
            action = ask(r, seat, Level.NORMAL, rng, 0.0)
            if action is not None:
                r.apply(action)
                break
        else:
            plays = sum(a.kind is Kind.PLAY for a in r.legal_actions())
            if len(r.tricks) >= 2 and plays >= 2 and len(r.tricks) % 2 == 0:
                out.append(r.copy())
            action = ask(r, r.turn, Level.NORMAL, rng, 0.0)
            assert action is not None
            r.apply(action)
    return out


def test_the_real_deal_weighs_more_than_the_median_sampled_deal() -> None:
    above = total = 0
    for seed in range(500, 508):
        for r in positions(seed):
            view = seat_view(r, r.turn)
            know = silences(view, infer(view))
            locations: Locations = CardModel.for_view(view, know)
            if not locations.active:
                continue
            rng = random.Random(seed)
            weights = sorted(locations.weight(sample_world(view, know, rng)) for _ in range(21))
            assert all(w > 0 and math.isfinite(w) for w in weights)
            real = locations.weight(r)
            assert real > 0 and math.isfinite(real)
            above += real > weights[10]
            total += 1
    assert total >= 10
    assert above > 0.6 * total, (above, total)
