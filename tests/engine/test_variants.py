"""The variant registry says what RULES.md's table of variants says, and a deal dealt by it
holds its whole deck."""

from __future__ import annotations

import random

import pytest

from bot.engine import OptionError, Options, Variant, parse_options, shuffle_deal
from bot.engine.variants import VARIANTS, TurnedCard, sides_of

# variant: players, sides, {deck: (hand size, where the turned card lies)}
TABLE = {
    Variant.HABANERO: (2, ((0,), (1,)), {40: (8, TurnedCard.UNDER_STOCK)}),
    Variant.ARRASTRADO: (
        3,
        ((0,), (1,), (2,)),
        {40: (13, TurnedCard.ON_TABLE), 36: (12, TurnedCard.IN_HAND)},
    ),
    Variant.INDIVIDUAL: (4, ((0,), (1,), (2,), (3,)), {40: (10, TurnedCard.IN_HAND)}),
    Variant.PAIRS: (4, ((0, 2), (1, 3)), {40: (10, TurnedCard.IN_HAND)}),
}


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_the_registry_is_the_table_of_rules(variant: Variant) -> None:
    players, sides, dealings = TABLE[variant]
    rules = VARIANTS[variant]
    assert variant.players == rules.players == players
    assert sides_of(variant) == rules.sides == sides
    assert all(s in sides[rules.side_of[s]] for s in range(players))
    assert variant.has_stock == (variant is Variant.HABANERO)
    assert Options().tute_allowed(variant) == (variant is not Variant.HABANERO)
    assert {deck: (d.hand_size, d.turned) for deck, d in rules.dealings.items()} == dealings
    for deck, dealing in rules.dealings.items():
        assert dealing.deck.bit_count() == deck
        dealt = shuffle_deal(variant, Options(deck=deck), 0, random.Random(deck))
        cards = {c for hand in dealt.hands for c in hand} | set(dealt.stock) | {dealt.turned}
        assert len(cards) == deck
        assert dealt.turned_in_hand == (dealing.turned is TurnedCard.IN_HAND)


def test_a_deck_the_variant_does_not_deal_is_refused() -> None:
    assert parse_options(Variant.ARRASTRADO, {"deck": 36}).deck == 36
    with pytest.raises(OptionError, match="option deck 36 exists only in arrastrado"):
        parse_options(Variant.PAIRS, {"deck": 36})
