"""``Result.from_json`` reads back what ``to_json`` wrote, over results of real deals."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.engine import (
    Action,
    Contract,
    Deal,
    End,
    Kind,
    Options,
    Result,
    Scoring,
    Variant,
    shuffle_deal,
)

CASES = [
    (Variant.HABANERO, Options()),
    (Variant.HABANERO, Options(scoring=Scoring.SIXTY_FIVE)),
    (Variant.ARRASTRADO, Options()),
    (Variant.ARRASTRADO, Options(plato=True, exchange=False)),
    (Variant.INDIVIDUAL, Options()),
    (Variant.PAIRS, Options()),
    (Variant.PAIRS, Options(scoring=Scoring.SIXTY_FIVE)),
]


def _choose(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action that sings whatever it can and seldom resigns, so the deals
    end in every way (tute, capote, claims, doubles) and not mostly by resigning."""
    for kind in (Kind.TUTE, Kind.SING):
        sung = [a for a in legal if a.kind is kind]
        if sung:
            return rng.choice(sung)
    kept = [a for a in legal if a.kind is not Kind.RESIGN]
    if not kept or rng.random() < 0.02:
        return rng.choice(legal)
    return rng.choice(kept)


def _random_result(variant: Variant, options: Options, seed: int) -> Result:
    rng = random.Random(seed)
    deal = Deal(shuffle_deal(variant, options, rng.randrange(variant.players), rng))
    while not deal.finished:
        deal.apply(_choose(list(deal.legal_actions()), rng))
    assert deal.result is not None
    return deal.result


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_result_round_trips_through_json(variant: Variant, options: Options) -> None:
    for seed in range(40):
        result = _random_result(variant, options, seed)
        data = json.loads(json.dumps(result.to_json()))
        back = Result.from_json(data)
        # to_json does not write by_seat: everything else comes back as it was
        assert back == replace(result, by_seat=None)
        assert back.to_json() == result.to_json()


HANDMADE = [
    Result(
        end=End.TUTE,
        sides=((0, 2), (1, 3)),
        card_points=(30, 0),
        cantes=(0, 0),
        last_trick=None,
        scores=(30, 0),
        winner=0,
        by_seat=2,
    ),
    Result(
        end=End.CLAIM,
        sides=((0,), (1,), (2,)),
        card_points=(70, 20, 10),
        cantes=(40, 0, 20),
        last_trick=0,
        scores=(120, 20, 30),
        winner=1,
        double=True,
        by_seat=1,
    ),
    Result(
        end=End.CARDS,
        sides=((0,), (1,), (2,)),
        card_points=(80, 20, 10),
        cantes=(0, 0, 0),
        last_trick=0,
        scores=(90, 20, 10),
        winner=0,
        contract=Contract(seat=0, points=80),
        contract_made=True,
        auction=True,
    ),
    Result(
        end=End.RESIGN,
        sides=((0, 2), (1, 3)),
        card_points=(0, 0),
        cantes=(0, 0),
        last_trick=None,
        scores=(0, 0),
        winner=1,
        by_seat=0,
    ),
]


@pytest.mark.parametrize("result", HANDMADE)
def test_handmade_results_round_trip(result: Result) -> None:
    """The kinds of result random play seldom reaches: tute, claim, a contract made."""
    back = Result.from_json(json.loads(json.dumps(result.to_json())))
    assert back == replace(result, by_seat=None)
    assert back.to_json() == result.to_json()


def test_round_trips_cover_every_kind_of_result() -> None:
    """The seeded deals end in several ways (with the handmade ones, every way)."""
    results = [
        _random_result(variant, options, seed) for variant, options in CASES for seed in range(40)
    ]
    assert {r.end for r in results + HANDMADE} == set(End)
    assert any(r.double for r in results)
    assert any(r.contract is not None and not r.contract_made for r in results)
    assert any(r.winner is None for r in results)
    assert any(r.last_trick is None for r in results)
    assert any(r.by_seat is not None for r in results)
