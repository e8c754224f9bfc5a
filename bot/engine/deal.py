"""A deal: who holds what, the turned card and the stock, shuffled from a seed or given."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import CODES, DECK36, FULL_DECK, N_CARDS, cards_of, display_order
from .options import Options, Variant


class DealError(ValueError):
    """Cards that do not make a deal of this variant."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal. ``stock`` is face down, the next card to draw first; ``turned``
    is in the dealer's hand where the variant says so, else on the table (under the stock).
    ``carry`` is each side's score from earlier deals of the same habanero game."""

    variant: Variant
    options: Options
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    turned: int
    stock: tuple[int, ...] = ()
    carry: tuple[int, int] | None = None

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def turned_in_hand(self) -> bool:
        return any(self.turned in hand for hand in self.hands)


_DECKS: dict[int, tuple[int, ...]] = {m: tuple(cards_of(m)) for m in (FULL_DECK, DECK36)}


def deck_mask(variant: Variant, options: Options) -> int:
    return DECK36 if variant is Variant.ARRASTRADO and options.deck == 36 else FULL_DECK


def hand_size(variant: Variant, options: Options) -> int:
    if variant is Variant.HABANERO:
        return 8
    if variant is Variant.ARRASTRADO:
        return 12 if options.deck == 36 else 13
    return 10


def turned_in_dealer_hand(variant: Variant, options: Options) -> bool:
    if variant is Variant.HABANERO:
        return False
    if variant is Variant.ARRASTRADO:
        return options.deck == 36
    return True


def shuffle_deal(
    variant: Variant,
    options: Options,
    dealer: int,
    rng: random.Random,
    carry: tuple[int, int] | None = None,
) -> Deal:
    """Shuffle with ``rng`` and deal one card at a time from the seat after the dealer."""
    n = variant.players
    deck = list(_DECKS[deck_mask(variant, options)])
    rng.shuffle(deck)
    size = hand_size(variant, options)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    if turned_in_dealer_hand(variant, options):
        turned = deck[size * n - 1]  # the dealer's last card
        rest: list[int] = []
    else:
        turned = deck[size * n]
        rest = deck[size * n + 1 :]
    return Deal(
        variant=variant,
        options=options,
        dealer=dealer,
        hands=tuple(tuple(display_order(h)) for h in hands),
        turned=turned,
        stock=tuple(rest) if variant is Variant.HABANERO else (),
        carry=carry,
    )


def _add_once(seen: int, cards: Iterable[int]) -> int:
    for c in cards:
        if seen >> c & 1:
            raise DealError(f"card {CODES[c]} appears twice")
        seen |= 1 << c
    return seen


def _dealt_cards(deal: Deal) -> int:
    """Every card the deal holds, each once (hands of the right size, the turned card where
    the variant puts it, the stock), as a mask."""
    size = hand_size(deal.variant, deal.options)
    seen = 0
    for seat, hand in enumerate(deal.hands):
        if len(hand) != size:
            raise DealError(f"seat {seat} must hold {size} cards, not {len(hand)}")
        seen = _add_once(seen, hand)
    if not 0 <= deal.turned < N_CARDS:
        raise DealError("the turned card is missing")
    in_hand = seen >> deal.turned & 1
    if turned_in_dealer_hand(deal.variant, deal.options):
        if deal.turned not in deal.hands[deal.dealer]:
            raise DealError("the turned card must be the dealer's last card, in the dealer's hand")
    elif in_hand:
        raise DealError("the turned card lies on the table in this variant, not in a hand")
    else:
        seen |= 1 << deal.turned
    return _add_once(seen, deal.stock)


def check_deal(deal: Deal) -> None:
    """Refuse a deal whose cards are not exactly this variant's deck, dealt its way."""
    variant, options = deal.variant, deal.options
    n = variant.players
    if not 0 <= deal.dealer < n:
        raise DealError(f"dealer must be a seat from 0 to {n - 1}")
    if len(deal.hands) != n:
        raise DealError(f"{variant.value} has {n} hands, not {len(deal.hands)}")
    seen = _dealt_cards(deal)
    if variant is not Variant.HABANERO and deal.stock:
        raise DealError("only habanero has a stock")
    if deal.carry is not None and variant is not Variant.HABANERO:
        raise DealError("only habanero carries scores between deals")
    expected = deck_mask(variant, options)
    if seen != expected:
        missing = bin(expected & ~seen).count("1")
        extra = bin(seen & ~expected).count("1")
        raise DealError(
            f"the deal must hold the deck exactly once ({missing} missing, {extra} extra)"
        )
