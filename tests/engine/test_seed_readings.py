"""The last readings of the seeds (RULES.md "House rules from the seeds"): the options
``overtrump``, ``sing_until`` and ``deal_score``, the presets per variant, and the settled
readings (one swap a deal, a tute and the plato contract, the first dealer, a habanero tie
over the target). Each case quotes the sentence it plays."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import (
    CODES,
    Action,
    Deal,
    DealScore,
    End,
    Game,
    IllegalActionError,
    Kind,
    OptionError,
    Options,
    Preset,
    SingUntil,
    Variant,
    arrastrado_payout,
    parse_options,
    shuffle_deal,
)
from bot.engine.dealing import DealError
from bot.engine.events import deal_winner
from bot.engine.game import first_dealer
from bot.engine.options import PRESET_VARIANTS, preset_applies
from bot.engine.record import parse_record

from .helpers import build, do, legal_of, legal_plays, play

# ------------------------------------------------------------------ overtrump

# seeds/002: "If the second player does not have any cards of the same suit but has one or
# more trump cards, one of these must be played." Pairs, oros trumps; seat 0 leads 4E,
# seat 1 (no espadas) trumps, seat 2 (no espadas) answers.
SEAT0 = "4E 5E 6E 7E 10E 11E 12E 1C 3C 12C"
SEAT1_REST = "5C 6C 7C 10C 11C 2B 4B 5B 6B"
SEAT2_REST = "2C 4C 7B 10B 11B 12B 1B 3B"

OVERTRUMP = [
    # (seat 1's trump, seat 2's trumps, overtrump, undertrump, what seat 2 may play)
    ("4O", "1O 2O", True, False, "1O"),  # the default: beat the trump when you can
    ("4O", "1O 2O", False, False, "1O 2O"),  # any trump will do
    ("6O", "2O 4O", True, False, "every card"),  # cannot overtrump: any card
    ("6O", "2O 4O", True, True, "2O 4O"),  # undertrump: still a trump
    ("6O", "2O 4O", False, False, "2O 4O"),  # any trump will do, even a lower one
    ("6O", "2O 4O", False, True, "2O 4O"),  # the parejas preset
]


@pytest.mark.parametrize(("trumped", "trumps", "over", "under", "expected"), OVERTRUMP)
def test_overtrump(trumped: str, trumps: str, over: bool, under: bool, expected: str) -> None:
    options = Options(overtrump=over, undertrump=under)
    seat2 = f"{trumps} {SEAT2_REST}".split()[:10]
    hands = {0: SEAT0, 1: f"{trumped} {SEAT1_REST}", 2: " ".join(seat2)}
    r = build(Variant.PAIRS, hands, "3O", dealer=3, options=options)
    play(r, "4E", trumped)
    allowed = legal_plays(r)
    if expected == "every card":
        assert allowed == set(seat2)
    else:
        assert allowed == set(expected.split())
        with pytest.raises(IllegalActionError) as refused:
            play(r, "3B")
        assert refused.value.reason == ("must_overtrump" if expected == "1O" else "must_trump")


def test_the_parejas_preset_plays_seed_002_duty() -> None:
    options = parse_options(Variant.PAIRS, {"rules": "parejas"})
    assert not options.overtrump and options.undertrump
    hands = {0: SEAT0, 1: f"6O {SEAT1_REST}", 2: f"2O 4O {SEAT2_REST}"}
    r = build(Variant.PAIRS, hands, "3O", dealer=3, options=options)
    play(r, "4E", "6O")
    assert legal_plays(r) == {"2O", "4O"}


# ----------------------------------------------------------------- sing_until

# habanero, oros trumps, dealer 0: seat 1 leads 1E and wins it; seat 0 holds low espadas
# and the ace of bastos, to take the second trick when seat 1 leads the 2B
LOW = "2E 4E 5E 6E 7E 1B 4B 5B"


def _after_first_trick(until: SingUntil) -> Deal:
    options = Options(sing_until=until)
    r = build(Variant.HABANERO, {1: "1E 12C 11C 2B 3C", 0: LOW}, "4O", dealer=0, options=options)
    play(r, "1E", "2E")
    return r


@pytest.mark.parametrize(
    ("until", "after_the_lead"), [(SingUntil.NEXT_CARD, False), (SingUntil.NEXT_TRICK, True)]
)
def test_sing_until(until: SingUntil, after_the_lead: bool) -> None:
    """seeds/004: "Canticles may be made at any moment, provided that the player has the
    required cards and has won the last trick"."""
    r = _after_first_trick(until)
    assert legal_of(r, Kind.SING) == {(1, 1)}  # copas, right after winning
    play(r, "2B")  # seat 1 leads
    assert (legal_of(r, Kind.SING) == {(1, 1)}) is after_the_lead
    if after_the_lead:
        do_sing = Action.sing(1, 1)
        r.apply(do_sing)
        assert r.cante_points == [0, 20] and r.turn == 0
    else:
        with pytest.raises(IllegalActionError) as refused:
            r.apply(Action.sing(1, 1))
        assert refused.value.reason == "sing_window"
    play(r, "1B")  # seat 0 takes the trick: the window is seat 0's now, with nothing to sing
    assert legal_of(r, Kind.SING) == set()
    if not after_the_lead:
        with pytest.raises(IllegalActionError) as refused:
            r.apply(Action.sing(1, 1))
        assert refused.value.reason == "sing_window"


def test_the_window_until_the_next_trick_needs_the_pair_still_held() -> None:
    r = _after_first_trick(SingUntil.NEXT_TRICK)
    play(r, "12C")  # the king led: the pair is gone
    assert legal_of(r, Kind.SING) == set()


def test_a_window_until_the_next_trick_is_only_for_cantes() -> None:
    """The exchange stays "before leading the next" (RULES.md): only the cantes wait."""
    options = Options(sing_until=SingUntil.NEXT_TRICK)
    r = build(Variant.HABANERO, {1: "1E 12C 11C 2B 7O", 0: LOW}, "10O", dealer=0, options=options)
    play(r, "1E", "2E")
    assert legal_of(r, Kind.EXCHANGE) == {(1, -1)}
    play(r, "2B")
    assert legal_of(r, Kind.EXCHANGE) == set() and legal_of(r, Kind.SING) == {(1, 1)}
    with pytest.raises(IllegalActionError) as refused:
        do(r, 1, Kind.EXCHANGE)
    assert refused.value.reason == "exchange_before_lead"


def test_havanian_sings_until_the_trick_ends_and_refuses_in_words() -> None:
    options = parse_options(Variant.HABANERO, {"rules": "havanian"})
    r = build(Variant.HABANERO, {1: "1E 12C 11C 2B", 0: LOW}, "4O", dealer=0, options=options)
    play(r, "1E", "2E", "2B", "1B")  # seat 0 wins the second trick
    with pytest.raises(IllegalActionError) as refused:
        r.apply(Action.sing(1, 1))
    assert refused.value.reason == "sing_window_trick"
    assert "until the next trick ends" in str(refused.value)


# ----------------------------------------------------------------- deal_score


def _random_deal(options: Options, seed: int, carry: tuple[int, int] | None = None) -> Deal:
    rng = random.Random(seed)
    r = Deal(shuffle_deal(Variant.HABANERO, options, seed % 2, rng, carry))
    while not r.finished:
        legal = r.legal_actions()
        assert all(a.kind is not Kind.CLAIM for a in legal)
        r.apply(rng.choice([a for a in legal if a.kind in (Kind.PLAY, Kind.SING)]))
    return r


def test_per_deal_each_deal_is_a_round_won_by_the_higher_score() -> None:
    """seeds/000: "The player that has more points (calculating the value of the cards
    gotten) wins the round." No target, no carry, no claim."""
    options = Options(deal_score=DealScore.PER_DEAL, rounds=3)
    game = Game(Variant.HABANERO, options)
    below = 0
    for seed in range(40):
        r = _random_deal(options, seed)
        result = r.result
        assert result is not None and result.end is End.CARDS and result.winner is not None
        loser = 1 - result.winner
        assert result.scores[result.winner] >= result.scores[loser]
        below += result.scores[result.winner] < 101
        if not game.finished:
            game.end_deal(r)
            assert game.carry is None
    assert below, "some deals are won under 101: there is no target"
    assert game.finished and max(game.rounds_won) == 3


def test_per_deal_has_no_target_and_no_carry() -> None:
    with pytest.raises(OptionError, match="per-deal"):
        parse_options(Variant.HABANERO, {"deal_score": "per_deal", "target": 120})
    with pytest.raises(OptionError, match="habanero"):
        parse_options(Variant.PAIRS, {"deal_score": "per_deal"})
    dealt = shuffle_deal(
        Variant.HABANERO, Options(deal_score=DealScore.PER_DEAL), 0, random.Random(1)
    )
    with pytest.raises(DealError, match="per-deal"):
        Deal(replace(dealt, carry=(50, 60)))


@pytest.mark.parametrize(
    ("options", "scores", "trick_sides", "winner"),
    [
        # "if both players get more than 100 points, the players with the highest amount
        # wins" (seeds/004); equal scores go to the player who took the last trick (RULES.md)
        (Options(), (110, 105), (1, 0, 1), 0),
        (Options(), (105, 105), (0, 1, 0), 0),
        (Options(), (105, 105), (1, 0, 1), 1),
        (Options(), (90, 40), (0, 0, 0), None),
        # per deal: the higher score, a tie to the last trick
        (Options(deal_score=DealScore.PER_DEAL), (70, 60), (1, 1, 1), 0),
        (Options(deal_score=DealScore.PER_DEAL), (65, 65), (0, 0, 1), 1),
    ],
)
def test_habanero_deal_winner(
    options: Options, scores: tuple[int, int], trick_sides: tuple[int, ...], winner: int | None
) -> None:
    last = trick_sides[-1]
    sang = (frozenset[int](), frozenset[int]())
    assert deal_winner(Variant.HABANERO, options, scores, last, sang, trick_sides) == winner


# -------------------------------------------------------------------- presets

PRESET_READINGS = [
    # seeds/001, arrastrado: "they must sing the 40 before 20"
    (Variant.ARRASTRADO, Preset.FOURNIER, {"forty_first": "strict", "auto_exchange": False}),
    # seeds/001's other variants: "Even if a player declares 20, he can sing 20 or 40 later"
    (Variant.HABANERO, Preset.FOURNIER, {"forty_first": "free"}),
    (Variant.PAIRS, Preset.FOURNIER, {"forty_first": "free", "pairs_sing": "each"}),
    # seeds/000: "3 players: 12 cards (36-card-deck. All the 2s are removed)"
    (Variant.ARRASTRADO, Preset.ONLINE, {"deck": 36, "forty_first": "strict"}),
    # seeds/000: "The player that has more points ... wins the round"
    (Variant.HABANERO, Preset.ONLINE, {"deal_score": "per_deal", "sing_drawn": False}),
    # seeds/003: "bei 4 Mitspielern immer von der höchsten zur niedrigsten ... zuerst
    # cuarenta und danach ist erst veinte möglich"
    (Variant.PAIRS, Preset.SIXTY_FIVE, {"forty_first": "strict", "scoring": "sixty-five"}),
    (Variant.HABANERO, Preset.SIXTY_FIVE, {"forty_first": "lose", "stock_duty": "full"}),
    # seeds/002: "if ... has one or more trump cards, one of these must be played"
    (Variant.PAIRS, Preset.PAREJAS, {"overtrump": False, "undertrump": True}),
    # seeds/004: "only the obligation to assist (... a trump if the opponent has used
    # another trump)"; "after winning one trick and before taking a new card"; "Canticles
    # may be made at any moment ... and has won the last trick"
    (
        Variant.HABANERO,
        Preset.HAVANIAN,
        {"stock_duty": "trump", "exchange_window": "before_draw", "sing_until": "next_trick"},
    ),
]


@pytest.mark.parametrize(("variant", "preset", "expected"), PRESET_READINGS)
def test_each_preset_plays_its_seed(
    variant: Variant, preset: Preset, expected: dict[str, object]
) -> None:
    options = parse_options(variant, {"rules": preset.value})
    for name, value in expected.items():
        got = getattr(options, name)
        assert getattr(got, "value", got) == value, name
    # the record of such a table reads back the same
    assert parse_options(variant, options.to_dict(variant=variant)) == options


@pytest.mark.parametrize(
    ("variant", "preset"),
    [(v, p) for p in PRESET_VARIANTS for v in Variant if v not in PRESET_VARIANTS[p]],
)
def test_a_preset_of_one_variant_is_refused_elsewhere(variant: Variant, preset: Preset) -> None:
    assert not preset_applies(variant, preset)
    with pytest.raises(OptionError, match=f"preset {preset.value} exists only in"):
        parse_options(variant, {"rules": preset.value})


def test_a_record_with_a_preset_of_another_variant_is_invalid() -> None:
    r = build(Variant.HABANERO, {}, "4O")
    record = {
        "variant": "habanero",
        "options": {"rules": "parejas"},
        "dealer": 0,
        "hands": [[CODES[c] for c in h] for h in r.dealt.hands],
        "stock": [CODES[c] for c in r.dealt.stock],
        "turned": "4O",
        "actions": [],
    }
    with pytest.raises(ValueError, match="parejas"):
        parse_record(record)


@pytest.mark.parametrize(("rounds", "valid"), [(1, True), (6, True), (9, True), (10, False)])
def test_rounds_go_to_nine(rounds: int, valid: bool) -> None:
    """seeds/002: "three and six point games are the most common"."""
    if valid:
        assert parse_options(Variant.PAIRS, {"rounds": rounds}).rounds == rounds
    else:
        with pytest.raises(OptionError, match="1 to 9"):
            parse_options(Variant.PAIRS, {"rounds": rounds})


# ------------------------------------------------------------- settled readings


def _plato_tute(bids: list[Action]) -> Deal:
    """Arrastrado with the plato, dealer 0: seat 1 holds the four kings and the ace of
    espadas, and declares tute after winning the first trick."""
    hands = {1: "12O 12C 12E 12B 1E", 2: "2E", 0: "4E"}
    r = build(Variant.ARRASTRADO, hands, "4O", dealer=0, options=Options(plato=True))
    for bid in bids:
        r.apply(bid)
    play(r, "1E")
    follow = sorted(legal_plays(r))[0]
    play(r, follow)
    play(r, sorted(legal_plays(r))[0])
    assert r.tricks[0].winner == 1
    do(r, 1, Kind.TUTE)
    return r


def test_a_tute_by_the_bidder_makes_the_contract() -> None:
    """ "A tute ends the deal as a win of its declarer: declared by the bidder it makes the
    contract" (RULES.md)."""
    r = _plato_tute([Action.bid(1, 101), Action.simple(2, Kind.PASS), Action.simple(0, Kind.PASS)])
    result = r.result
    assert result is not None and result.end is End.TUTE
    assert result.contract_made is True
    assert result.to_json()["contract"] == {"seat": 1, "points": 101, "made": True}
    payout = arrastrado_payout(result, pot=300)
    assert payout.seats == (-200, 400 + 300, -200) and payout.pot == -300


def test_a_tute_by_anyone_else_breaks_the_contract() -> None:
    r = _plato_tute([Action.simple(1, Kind.PASS), Action.bid(2, 101), Action.simple(0, Kind.PASS)])
    result = r.result
    assert result is not None and result.contract_made is False
    payout = arrastrado_payout(result, pot=300)
    assert payout.seats == (200, 200, -400 - 300) and payout.pot == 300


def test_the_first_dealer_is_drawn_from_the_seed() -> None:
    """seeds/000: "the player that is the hand is chosen by automatic drawing lots"."""
    for seats in (2, 3, 4):
        drawn = [first_dealer(seed, seats) for seed in range(200)]
        assert set(drawn) == set(range(seats))
        assert drawn == [first_dealer(seed, seats) for seed in range(200)]
