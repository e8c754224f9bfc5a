"""End of a deal, its winner, games over several rounds, chips and experience."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import (
    BetSplit,
    End,
    Game,
    Options,
    Result,
    Scoring,
    Variant,
    arrastrado_payout,
    experience,
    split_bet,
)
from bot.engine.deal import Deal
from bot.engine.events import Contract, deal_winner

from .helpers import build, legal_plays, play

MOST = Options()
SIXTY_FIVE = Options(scoring=Scoring.SIXTY_FIVE)
N = frozenset[int]()


@pytest.mark.parametrize(
    ("variant", "options", "scores", "last", "sang", "trick_sides", "winner"),
    [
        # most points wins; a tie goes to the tied side that won the later trick
        (Variant.PAIRS, MOST, [80, 70], 1, [N, N], [0, 1], 0),
        (Variant.PAIRS, MOST, [75, 75], 1, [N, N], [0, 1], 1),
        (Variant.ARRASTRADO, MOST, [50, 50, 30], 2, [N, N, N], [0, 1, 0, 2], 0),
        (Variant.ARRASTRADO, MOST, [50, 50, 30], 2, [N, N, N], [0, 1, 2], 1),
        # habanero: the target decides; both over, the higher; neither, nobody yet
        (Variant.HABANERO, MOST, [101, 29], 0, [N, N], [0], 0),
        (Variant.HABANERO, MOST, [110, 105], 1, [N, N], [1], 0),
        (Variant.HABANERO, MOST, [100, 70], 0, [N, N], [0], None),
        (Variant.HABANERO, Options(target=60), [65, 65], 1, [N, N], [0, 1], 1),
        # sixty-five: more than 65 of 130; 65-65 to the last trick; raised bars
        (Variant.PAIRS, SIXTY_FIVE, [66, 64], 0, [N, N], [0], 0),
        (Variant.PAIRS, SIXTY_FIVE, [64, 66], 0, [N, N], [0], 1),
        (Variant.PAIRS, SIXTY_FIVE, [65, 65], 1, [N, N], [1], 1),
        (Variant.PAIRS, SIXTY_FIVE, [65, 65], 0, [N, N], [0], 0),
        (Variant.PAIRS, SIXTY_FIVE, [84, 46], 0, [frozenset({40}), N], [0], 1),
        (Variant.PAIRS, SIXTY_FIVE, [85, 45], 0, [frozenset({40}), N], [0], 0),
        (Variant.HABANERO, SIXTY_FIVE, [74, 56], 0, [frozenset({20}), N], [0], 1),
        (Variant.HABANERO, SIXTY_FIVE, [75, 55], 0, [frozenset({20}), N], [0], 0),
        (Variant.HABANERO, SIXTY_FIVE, [70, 60], 1, [frozenset({40}), N], [1], 0),
        # both the 40 and a 20 sung: the bar is 85, met at exactly 85
        (Variant.PAIRS, SIXTY_FIVE, [85, 45], 0, [frozenset({20, 40}), N], [0], 0),
        (Variant.PAIRS, SIXTY_FIVE, [84, 46], 0, [frozenset({20, 40}), N], [0], 1),
        # the last-trick side that misses its bar loses whatever the other scored
        (Variant.PAIRS, SIXTY_FIVE, [80, 50], 0, [frozenset({40}), N], [0], 1),
    ],
)
def test_deal_winner(
    variant: Variant,
    options: Options,
    scores: list[int],
    last: int,
    sang: list[frozenset[int]],
    trick_sides: list[int],
    winner: int | None,
) -> None:
    assert deal_winner(variant, options, scores, last, sang, trick_sides) == winner


def _play_out(variant: Variant, options: Options, seed: int) -> Result:
    from bot.engine import Deal, shuffle_deal

    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, options, 0, rng))
    while not r.finished:
        plays = sorted(legal_plays(r))
        play(r, rng.choice(plays))
    assert r.result is not None
    return r.result


def test_sixty_five_scores_leave_out_cantes_and_double_over_101() -> None:
    for seed in range(40):
        result = _play_out(Variant.PAIRS, SIXTY_FIVE, seed)
        assert result.scores[0] + result.scores[1] == 130
        assert result.double is (result.winner is not None and result.scores[result.winner] > 101)


LOW_HAND = "2O 4O 5O 6O 7O 2C 4C 5C 10C 11C"  # 5 card points


def test_a_hand_dealt_under_ten_points_may_resign_before_the_first_lead() -> None:
    from bot.engine import Action, Kind

    r = build(
        Variant.PAIRS,
        {0: "1E 3E 12E", 1: LOW_HAND},
        "2E",
        dealer=3,
        options=replace(SIXTY_FIVE, rounds=2),
    )
    resigners = {a.seat for a in r.legal_actions() if a.kind is Kind.RESIGN}
    assert 1 in resigners and 0 not in resigners
    r.apply(Action.simple(1, Kind.RESIGN))
    result = r.result
    assert result is not None and result.end is End.RESIGN and result.winner == 0
    assert result.scores == (0, 0) and not result.double


def test_nobody_resigns_once_a_card_is_played() -> None:
    from bot.engine import Action, IllegalActionError, Kind

    r = build(Variant.PAIRS, {0: "1E", 1: LOW_HAND}, "2E", dealer=3, options=SIXTY_FIVE)
    play(r, "1E")
    assert not [a for a in r.legal_actions() if a.kind is Kind.RESIGN]
    with pytest.raises(IllegalActionError, match="before the first lead"):
        r.apply(Action.simple(1, Kind.RESIGN))


def test_resigning_is_judged_on_the_hand_dealt_not_on_tricks() -> None:
    from bot.engine import Action, IllegalActionError, Kind

    r = build(Variant.HABANERO, {1: "1O 3O 12O"}, "2E", dealer=0, options=SIXTY_FIVE)
    assert {a.seat for a in r.legal_actions() if a.kind is Kind.RESIGN} <= {0}
    with pytest.raises(IllegalActionError, match="10 card points or more"):
        r.apply(Action.simple(1, Kind.RESIGN))


def test_game_rounds_and_dealer_rotation() -> None:
    game = Game(Variant.INDIVIDUAL, Options(rounds=2))
    rng = random.Random(5)
    dealers = []
    while not game.finished:
        r = Deal(game.deal_for(rng))
        dealers.append(r.dealt.dealer)
        assert r.leader == (r.dealt.dealer + 1) % 4
        while not r.finished:
            play(r, sorted(legal_plays(r))[0])
        game.end_deal(r)
    assert dealers == [i % 4 for i in range(len(dealers))]
    assert max(game.rounds_won) == 2 and sum(game.rounds_won) == len(dealers)


def test_habanero_carry_until_the_target() -> None:
    game = Game(Variant.HABANERO, Options(target=200))
    rng = random.Random(1)
    r = Deal(game.deal_for(rng))
    assert r.dealt.carry is None
    while not r.finished:
        play(r, sorted(legal_plays(r))[0])
    first = game.end_deal(r)
    assert first.winner is None  # 130 points cannot reach 200 without cantes
    assert game.carry == first.scores
    r2 = Deal(game.deal_for(rng))
    assert r2.dealt.carry == first.scores and r2.dealt.dealer == 1
    while not r2.finished:
        play(r2, sorted(legal_plays(r2))[0])
    second = game.end_deal(r2)
    assert sum(second.scores) == sum(first.scores) + 130 + sum(second.cantes)


def test_sixty_five_double_counts_two_rounds() -> None:
    rng = random.Random(0)
    doubles = 0
    for _ in range(30):
        game = Game(Variant.PAIRS, Options(scoring=Scoring.SIXTY_FIVE, rounds=5))
        r = Deal(game.deal_for(rng))
        while not r.finished:
            play(r, rng.choice(sorted(legal_plays(r))))
        before = list(game.rounds_won)
        result = game.end_deal(r)
        assert result.winner is not None
        gained = game.rounds_won[result.winner] - before[result.winner]
        assert gained == (2 if result.scores[result.winner] > 101 else 1)
        doubles += gained == 2
    assert doubles > 0


def _result(
    end: End,
    scores: list[int],
    cantes: list[int],
    winner: int,
    contract: Contract | None = None,
    made: bool | None = None,
) -> Result:
    return Result(
        end,
        ((0,), (1,), (2,)),
        tuple(scores),
        tuple(cantes),
        2,
        tuple(scores),
        winner,
        contract=contract,
        contract_made=made,
    )


def test_arrastrado_payments() -> None:
    assert arrastrado_payout(_result(End.CARDS, [90, 30, 10], [0, 0, 0], 0)).seats == (
        200,
        -100,
        -100,
    )
    assert arrastrado_payout(_result(End.CARDS, [101, 20, 9], [0, 0, 0], 0)).seats == (
        400,
        -200,
        -200,
    )
    # seat 1 sang a 40 and a 20: 60 from each opponent
    assert arrastrado_payout(_result(End.CARDS, [90, 80, 10], [0, 60, 0], 0)).seats == (
        200 - 60,
        -100 + 120,
        -100 - 60,
    )
    assert arrastrado_payout(_result(End.TUTE, [10, 0, 0], [0, 0, 0], 0)).seats == (400, -200, -200)


def test_plato_contract_made_and_failed() -> None:
    made = arrastrado_payout(
        _result(End.CARDS, [120, 10, 0], [0, 0, 0], 0, Contract(0, 110), True), pot=300
    )
    assert made.seats == (400 + 300, -200, -200) and made.pot == -300
    failed = arrastrado_payout(
        _result(End.CARDS, [100, 30, 0], [0, 0, 0], 0, Contract(0, 110), False), pot=300
    )
    assert failed.seats == (-400 - 300, 200, 200) and failed.pot == 300
    for payout in (made, failed):
        assert sum(payout.seats) + payout.pot + payout.bank == 0


def test_bet_with_the_bank_rake() -> None:
    # four stakes of 100, won by a pair: 300 after the rake, 150 each
    assert split_bet(400, 2) == BetSplit(share=150, bank=100)
    # two stakes, won alone
    assert split_bet(200, 1) == BetSplit(share=150, bank=50)
    # won by robots (or by members who all left): everything to the bank
    assert split_bet(100, 0) == BetSplit(share=0, bank=100)
    # what cannot be shared evenly goes to the bank: 225 after the rake, 112 each
    assert split_bet(300, 2) == BetSplit(share=112, bank=76)
    with pytest.raises(ValueError, match="cannot split"):
        split_bet(-100, 1)


@pytest.mark.parametrize("takers", [0, 1, 2, 3])
def test_a_bet_split_keeps_every_chip(takers: int) -> None:
    for staked in range(0, 1_000, 7):
        split = split_bet(staked, takers)
        assert split.share * takers + split.bank == staked
        assert split.share >= 0 and split.bank >= staked * 25 // 100


def test_experience() -> None:
    assert experience(Variant.HABANERO, MOST, 0, ((0,), (1,))) == (20, 5)
    assert experience(Variant.ARRASTRADO, MOST, 2, ((0,), (1,), (2,))) == (5, 5, 30)
    assert experience(Variant.PAIRS, MOST, 1, ((0, 2), (1, 3))) == (5, 20, 5, 20)
    assert experience(Variant.PAIRS, Options(rounds=3), 1, ((0, 2), (1, 3))) == (25, 40, 25, 40)
    assert experience(Variant.PAIRS, Options(competitive=False), 1, ((0, 2), (1, 3))) == (
        0,
        0,
        0,
        0,
    )
