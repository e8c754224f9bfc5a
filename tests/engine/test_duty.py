"""The duty when playing a card (RULES.md "Playing a card: the duty"), case by case."""

from __future__ import annotations

import random

import pytest

from bot.engine import Deal, IllegalActionError, Kind, Options, StockDuty, Variant, seat_view
from bot.engine.cards import SUIT_MASK, mask_of, parse_card, parse_suit, trick_best
from bot.engine.duty import duty_of, duty_tiers, playable
from bot.engine.variants import VARIANTS

from .helpers import DUTY_CASES, build, legal_plays, play, random_states

# Individual and pairs: seat 0 leads (dealer 3), trumps are bastos (the dealer holds 2B).
# Each case: the cards played before the tested seat, its whole hand, the legal plays.
FULL_DUTY = [
    ("beat the led card when you can", ["3O"], "1O 12O 4O 1C 5B 6C 7C 10C 11C 12C", {"1O"}),
    ("follow low when you cannot beat", ["1O"], "3O 4O 1C 5B 6C 7C 10C 11C 12C 3C", {"3O", "4O"}),
    (
        "beat the highest of the led suit",
        ["10O", "3O"],
        "12O 1O 4C 5C 6C 7C 10C 11C 12C 3C",
        {"1O"},
    ),
    (
        "follow freely once someone trumped",
        ["3O", "4B"],
        "1O 4O 5B 6C 7C 10C 11C 12C 3C 1C",
        {"1O", "4O"},
    ),
    (
        "no led suit: any trump when none is down",
        ["3O"],
        "1C 5B 7B 6C 7C 10C 11C 12C 3C 4C",
        {"5B", "7B"},
    ),
    (
        "no led suit: overtrump when a trump is down",
        ["3O", "5B"],
        "1C 4B 7B 6C 7C 10C 11C 12C 3C 5C",
        {"7B"},
    ),
    ("trumps led: beat the highest trump", ["5B"], "4B 7B 1O 6C 7C 10C 11C 12C 3C 5C", {"7B"}),
    (
        "trumps led: any trump when none beats",
        ["1B"],
        "4B 7B 1O 6C 7C 10C 11C 12C 3C 5C",
        {"4B", "7B"},
    ),
    ("nothing of either: any card", ["3O"], "1C 6C 7C 10C 11C 12C 3C 5C 4C 1E", "ALL"),
]


@pytest.mark.parametrize("variant", [Variant.INDIVIDUAL, Variant.PAIRS])
@pytest.mark.parametrize(
    ("name", "before", "hand", "expected"), FULL_DUTY, ids=[c[0] for c in FULL_DUTY]
)
def test_full_duty(
    variant: Variant, name: str, before: list[str], hand: str, expected: set[str] | str
) -> None:
    tested = len(before)
    hands = dict(enumerate(before))
    hands[tested] = hand
    deal = build(variant, hands, "2B", dealer=3)
    play(deal, *before)
    assert deal.turn == tested
    legal = legal_plays(deal)
    assert legal == (set(hand.split()) if expected == "ALL" else expected), name


def test_cannot_overtrump_frees_you_by_default() -> None:
    deal = build(
        Variant.INDIVIDUAL,
        {0: "3O", 1: "7B", 2: "4B 1C 6C 7C 10C 11C 12C 3C 5C 4C"},
        "2B",
        dealer=3,
    )
    play(deal, "3O", "7B")
    assert legal_plays(deal) == {"4B", "1C", "6C", "7C", "10C", "11C", "12C", "3C", "5C", "4C"}


def test_undertrump_option_forces_a_lower_trump() -> None:
    options = Options(undertrump=True)
    hands = {0: "3O", 1: "7B", 2: "4B 1C 6C 7C 10C 11C 12C 3C 5C 4C"}
    deal = build(Variant.INDIVIDUAL, hands, "2B", dealer=3, options=options)
    play(deal, "3O", "7B")
    assert legal_plays(deal) == {"4B"}


@pytest.mark.parametrize(("beat_partner", "expected"), [(True, {"1O"}), (False, {"1O", "2O"})])
def test_beat_partner_option(beat_partner: bool, expected: set[str]) -> None:
    # seat 0 leads 3O, seat 1 plays 4O: partner 0 holds the trick when seat 2 plays
    options = Options(beat_partner=beat_partner)
    hands = {0: "3O", 1: "4O", 2: "1O 2O 1C 6C 7C 10C 11C 12C 3C 5C"}
    deal = build(Variant.PAIRS, hands, "2B", dealer=3, options=options)
    play(deal, "3O", "4O")
    assert legal_plays(deal) == expected


def test_beat_partner_off_still_beats_an_opponent() -> None:
    options = Options(beat_partner=False)
    hands = {0: "4O", 1: "3O", 2: "1O 2O 1C 6C 7C 10C 11C 12C 3C 5C"}
    deal = build(Variant.PAIRS, hands, "2B", dealer=3, options=options)
    play(deal, "4O", "3O")
    assert legal_plays(deal) == {"1O"}


def test_arrastrado_full_duty_with_three() -> None:
    # trumps bastos (7B turned on the table: the holder of the 2B... no, of the 7B? the turned
    # card is a 7, so the holder of the 2B takes it); seat 1 has no oros and must trump
    hand1 = "1C 4B 6B 6C 7C 10C 11C 12C 3C 5C 4C 1E 3E"
    deal = build(Variant.ARRASTRADO, {0: "3O", 1: hand1}, "7B", dealer=2)
    play(deal, "3O")
    assert legal_plays(deal) == {"4B", "6B"}
    play(deal, "6B")
    hand2 = deal.hand(2)
    assert deal.turn == 2 and len(hand2) == 13


def test_illegal_card_is_refused_with_the_rule_in_words() -> None:
    deal = build(
        Variant.INDIVIDUAL, {0: "3O", 1: "1O 4O 1C 5B 6C 7C 10C 11C 12C 3C"}, "2B", dealer=3
    )
    play(deal, "3O")
    with pytest.raises(IllegalActionError, match="must beat 3O with a higher oros") as err:
        play(deal, "4O")
    assert err.value.reason == "must_beat"
    with pytest.raises(IllegalActionError, match="must follow oros"):
        play(deal, "1C")
    with pytest.raises(IllegalActionError, match="does not hold 1E"):
        play(deal, "1E")


def test_overtrump_refusal_names_the_trump() -> None:
    hands = {0: "3O", 1: "5B", 2: "1C 4B 7B 6C 7C 10C 11C 12C 3C 5C"}
    deal = build(Variant.INDIVIDUAL, hands, "2B", dealer=3)
    play(deal, "3O", "5B")
    with pytest.raises(IllegalActionError, match="must beat 5B with a higher bastos"):
        play(deal, "4B")


def test_not_your_turn() -> None:
    deal = build(Variant.INDIVIDUAL, {1: "1O"}, "2B", dealer=3)
    from bot.engine import Action, parse_card

    with pytest.raises(IllegalActionError, match="seat 0's turn") as err:
        deal.apply(Action.play(1, parse_card("1O")))
    assert err.value.reason == "not_your_turn"


# Habanero, seat 1 leads (dealer 0), trumps oros (turned 4O under the stock)
@pytest.mark.parametrize(
    ("duty", "led", "hand", "expected"),
    [
        (StockDuty.FREE, "1O", "3O 1C 2C 4C 5C 6C 7C 10C", "ALL"),
        (StockDuty.FREE, "1C", "3C 2C 4B 5B 6B 7B 10B 11B", "ALL"),
        (StockDuty.TRUMP, "5O", "3O 12O 2C 4C 5C 6C 7C 10C", {"3O", "12O"}),
        (StockDuty.TRUMP, "5O", "1C 2C 4C 5C 6C 7C 10C 11C", "ALL"),
        (StockDuty.TRUMP, "5C", "3C 12O 2B 4B 5B 6B 7B 10B", "ALL"),
        (StockDuty.FULL, "5C", "3C 2C 12O 4B 5B 6B 7B 10B", {"3C"}),
        (StockDuty.FULL, "5C", "12O 2B 4B 5B 6B 7B 10B 11B", {"12O"}),
    ],
)
def test_habanero_stock_duty(
    duty: StockDuty, led: str, hand: str, expected: set[str] | str
) -> None:
    deal = build(
        Variant.HABANERO, {1: led, 0: hand}, "4O", dealer=0, options=Options(stock_duty=duty)
    )
    play(deal, led)
    assert legal_plays(deal) == (set(hand.split()) if expected == "ALL" else expected)


@pytest.mark.parametrize(
    ("trick", "trump", "holder"),
    [
        # (cards in play order, trump suit letter, index of the card holding the trick)
        (["4O"], "B", 0),
        (["4O", "1O"], "B", 1),  # the ace beats the four of its suit
        (["3O", "12O"], "B", 0),  # the three beats the king
        (["1O", "2B"], "B", 1),  # any trump beats a card that is not one
        (["2B", "1O"], "B", 0),  # a card of another suit never beats a trump
        (["1O", "2C", "1E"], "B", 0),  # discards of other suits do not take the trick
        (["1O", "2B", "4B", "3O"], "B", 2),  # the higher trump holds
        (["5E", "6E", "7E", "3E"], "E", 3),  # trump led: highest trump
    ],
)
def test_who_holds_a_trick(trick: list[str], trump: str, holder: int) -> None:
    seat_cards = [(seat, parse_card(code)) for seat, code in enumerate(trick)]
    assert trick_best(seat_cards, parse_suit(trump)) == seat_cards[holder]


def test_an_empty_trick_has_no_holder() -> None:
    assert trick_best([], 0) == (-1, -1)


def _legal_mask(r: Deal) -> int:
    return mask_of(a.arg for a in r.legal_actions() if a.kind is Kind.PLAY)


@pytest.mark.parametrize(
    ("variant", "options"), DUTY_CASES, ids=[f"{v.value}-{o.to_dict()}" for v, o in DUTY_CASES]
)
def test_the_duty_functions_agree_with_legal_actions(variant: Variant, options: Options) -> None:
    """The fast form (``playable``) and the plain one (``duty_tiers``: play from the first
    set you hold), fed only what the seat on turn sees, allow exactly the cards of
    ``legal_actions()``, in seeded random states."""
    states = 0
    for seed in range(25):
        for r in random_states(variant, options, seed):
            view = seat_view(r, r.turn)
            hand = mask_of(view.hand)
            led = view.trick[0][1] // 10 if view.trick else -1
            best_seat, best = trick_best(view.trick, view.trump)
            side_of = VARIANTS[variant].side_of
            spare = (
                not view.options.beat_partner
                and best_seat not in (-1, view.seat)
                and side_of[best_seat] == side_of[view.seat]
            )
            duty = duty_of(variant, view.options, view.stock_left)
            args = (led, best, view.trump, duty, view.options.undertrump, spare)
            legal = _legal_mask(r)
            assert playable(hand, *args) == legal
            first = next(hand & tier for tier in duty_tiers(*args) if hand & tier)
            assert first == legal
            states += 1
    assert states > 200


@pytest.mark.parametrize("duty", list(StockDuty), ids=[d.value for d in StockDuty])
def test_playable_is_the_first_tier_the_hand_meets(duty: StockDuty) -> None:
    """Every trick a deal can show (the best card of the suit led or a trump), every
    option, random hands: the fast form and the tiers say the same."""
    rng = random.Random(duty.value)
    for trump in range(4):
        for led in range(4):
            for best in range(40):
                if best // 10 not in (led, trump):
                    continue
                for undertrump in (False, True):
                    for spare in (False, True):
                        args = (led, best, trump, duty, undertrump, spare)
                        tiers = duty_tiers(*args)
                        assert tiers[-1] == (1 << 40) - 1
                        for _ in range(12):
                            hand = mask_of(rng.sample(range(40), rng.randrange(1, 14)))
                            hand &= ~(1 << best)
                            if not hand:
                                continue
                            first = next(hand & t for t in tiers if hand & t)
                            assert playable(hand, *args) == first, (args, hand)
    assert playable(SUIT_MASK[0], -1, -1, 0, duty) == SUIT_MASK[0]  # the lead: any card
