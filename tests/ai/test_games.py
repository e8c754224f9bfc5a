"""Robots of every level play whole games of every variant and option set to the end,
always choosing an action the view offers."""

from __future__ import annotations

import pytest

from bot.ai import Level
from bot.engine import (
    DealScore,
    ExchangeWindow,
    Options,
    Preset,
    Scoring,
    SingUntil,
    StockDuty,
    Variant,
    parse_options,
)
from bot.engine.options import preset_applies

from .helpers import play_game

OPTION_SETS: list[tuple[Variant, Options]] = [
    (Variant.HABANERO, Options()),
    (Variant.HABANERO, Options(stock_duty=StockDuty.TRUMP, allow_tute=True)),
    (Variant.HABANERO, Options(stock_duty=StockDuty.FULL, capote=False, exchange=False)),
    (Variant.HABANERO, Options(scoring=Scoring.SIXTY_FIVE, rounds=2)),
    (Variant.ARRASTRADO, Options()),
    (Variant.ARRASTRADO, Options(deck=36)),
    (Variant.ARRASTRADO, Options(plato=True)),
    (Variant.ARRASTRADO, Options(plato=True, exchange=False, deck=36)),
    (Variant.INDIVIDUAL, Options()),
    (Variant.INDIVIDUAL, Options(undertrump=True, allow_tute=False)),
    (Variant.PAIRS, Options()),
    (Variant.PAIRS, Options(beat_partner=False, undertrump=True)),
    (Variant.PAIRS, Options(scoring=Scoring.SIXTY_FIVE, rounds=2)),
    (Variant.HABANERO, Options(exchange_window=ExchangeWindow.BEFORE_DRAW, rounds=2)),
    (Variant.ARRASTRADO, Options(seats=4, rounds=2)),
    (Variant.ARRASTRADO, Options(seats=4, plato=True, auto_exchange=False)),
    (Variant.INDIVIDUAL, Options(overtrump=False, sing_until=SingUntil.NEXT_TRICK, rounds=2)),
    (Variant.HABANERO, Options(deal_score=DealScore.PER_DEAL, rounds=2)),
]

PRESET_CASES = [
    (variant, parse_options(variant, {"rules": preset.value}))
    for preset in Preset
    for variant in Variant
    if preset is not Preset.STANDARD and preset_applies(variant, preset)
]

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)


def _name(case: tuple[Variant, Options]) -> str:
    variant, options = case
    changed = ",".join(f"{k}={v}" for k, v in options.to_dict().items())
    return f"{variant.value}[{changed}]"


@pytest.mark.parametrize("case", OPTION_SETS, ids=[_name(c) for c in OPTION_SETS])
def test_mixed_levels_play_a_whole_game(case: tuple[Variant, Options]) -> None:
    variant, options = case
    levels = [LEVELS[(seat + 2) % 3] for seat in range(options.seats_at(variant))]
    game = play_game(variant, options, levels, seed=7)
    assert game.finished and game.winner is not None


@pytest.mark.parametrize("case", PRESET_CASES, ids=[_name(c) for c in PRESET_CASES])
def test_robots_play_a_whole_game_under_each_preset(case: tuple[Variant, Options]) -> None:
    variant, options = case
    seats = options.seats_at(variant)
    levels = [LEVELS[(seat + 1) % 3] for seat in range(seats)]
    game = play_game(variant, options, levels, seed=5)
    assert game.finished and game.winner is not None


@pytest.mark.parametrize("level", LEVELS, ids=[lv.value for lv in LEVELS])
@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_each_level_alone_plays_a_whole_game(variant: Variant, level: Level) -> None:
    game = play_game(variant, Options(), [level] * variant.players, seed=11)
    assert game.finished


@pytest.mark.parametrize("seed", range(3))
def test_habanero_games_to_the_target_with_claims(seed: int) -> None:
    """Several deals with the carry: claims are offered from the second deal on."""
    game = play_game(Variant.HABANERO, Options(), [Level.HARD, Level.NORMAL], seed)
    assert game.finished
    assert all(r.winner is None for r in game.results[:-1])
