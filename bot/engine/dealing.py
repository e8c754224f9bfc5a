"""The dealt cards: who holds what, the turned card and the stock, shuffled from a seed or
given."""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass
from typing import Final, Protocol

from .cards import CODES, N_CARDS, cards_of, display_order
from .options import DealScore, Options, Scoring
from .variants import VARIANTS, Dealing, Seating, TurnedCard, Variant, seating


class DealError(ValueError):
    """Cards that do not make a deal of this variant."""


@dataclass(frozen=True, slots=True)
class DealtCards:
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
    def turned_in_hand(self) -> bool:
        return dealing_of(self.variant, self.options).turned is TurnedCard.IN_HAND

    @property
    def seating(self) -> Seating:
        """Who plays this deal (arrastrado with four at the table: not the dealer)."""
        return seating(self.variant, self.options.seats_at(self.variant), self.dealer)


def dealing_of(variant: Variant, options: Options) -> Dealing:
    """How this table's deck is dealt in ``variant``: the cards, the hand size, where the
    turned card lies."""
    return VARIANTS[variant].dealing(options.deck)


_DECKS: Final = {
    d.deck: tuple(cards_of(d.deck)) for rules in VARIANTS.values() for d in rules.dealings.values()
}


class Shuffler(Protocol):
    """What shuffles a deck in place: a ``random.Random`` (the older shuffle) or a
    :class:`bot.engine.shuffle.CommittedShuffle`."""

    def shuffle(self, x: MutableSequence[int], /) -> None: ...


def deck_order(variant: Variant, options: Options) -> list[int]:
    """The deck before it is shuffled: suits O, C, E, B, each from its weakest card to its
    strongest (2, 4, 5, 6, 7, 10, 11, 12, 3, 1; no 2s in a deck of 36)."""
    return list(_DECKS[dealing_of(variant, options).deck])


def shuffle_deal(
    variant: Variant,
    options: Options,
    dealer: int,
    rng: Shuffler,
    carry: tuple[int, int] | None = None,
) -> DealtCards:
    """Shuffle with ``rng`` and deal one card at a time from the seat after the dealer (a
    dealer who sits out gets none)."""
    seats = seating(variant, options.seats_at(variant), dealer)
    n = seats.players
    dealing = dealing_of(variant, options)
    deck = deck_order(variant, options)
    rng.shuffle(deck)
    size = dealing.hand_size
    hands: list[list[int]] = [[] for _ in range(seats.seats)]
    seat = seats.next_seat[dealer]
    for i in range(size * n):
        hands[seat].append(deck[i])
        seat = seats.next_seat[seat]
    if dealing.turned is TurnedCard.IN_HAND:
        turned = deck[size * n - 1]  # the dealer's last card
        rest: list[int] = []
    else:
        turned = deck[size * n]
        rest = deck[size * n + 1 :]
    return DealtCards(
        variant=variant,
        options=options,
        dealer=dealer,
        hands=tuple(tuple(display_order(h)) for h in hands),
        turned=turned,
        stock=tuple(rest) if variant.has_stock else (),
        carry=carry,
    )


def _add_once(seen: int, cards: Iterable[int]) -> int:
    for c in cards:
        if seen >> c & 1:
            raise DealError(f"card {CODES[c]} appears twice")
        seen |= 1 << c
    return seen


def _dealt_cards(dealt: DealtCards) -> int:
    """Every card the deal holds, each once (hands of the right size, the turned card where
    the variant puts it, the stock), as a mask."""
    dealing = dealing_of(dealt.variant, dealt.options)
    out = dealt.seating.out
    seen = 0
    for seat, hand in enumerate(dealt.hands):
        size = 0 if seat == out else dealing.hand_size
        if len(hand) != size:
            if seat == out:
                raise DealError(f"seat {seat} deals and sits out: its hand must be empty")
            raise DealError(f"seat {seat} must hold {size} cards, not {len(hand)}")
        seen = _add_once(seen, hand)
    if not 0 <= dealt.turned < N_CARDS:
        raise DealError("the turned card is missing")
    in_hand = seen >> dealt.turned & 1
    if dealing.turned is TurnedCard.IN_HAND:
        if dealt.turned not in dealt.hands[dealt.dealer]:
            raise DealError("the turned card must be the dealer's last card, in the dealer's hand")
    elif in_hand:
        raise DealError("the turned card lies on the table in this variant, not in a hand")
    else:
        seen |= 1 << dealt.turned
    return _add_once(seen, dealt.stock)


def check_deal(dealt: DealtCards) -> None:
    """Refuse a deal whose cards are not exactly this variant's deck, dealt its way."""
    variant, options = dealt.variant, dealt.options
    n = options.seats_at(variant)
    if not 0 <= dealt.dealer < n:
        raise DealError(f"dealer must be a seat from 0 to {n - 1}")
    if len(dealt.hands) != n:
        raise DealError(f"{variant.value} has {n} hands, not {len(dealt.hands)}")
    seen = _dealt_cards(dealt)
    if not variant.has_stock and dealt.stock:
        raise DealError("only habanero has a stock")
    if dealt.carry is not None and variant is not Variant.HABANERO:
        raise DealError("only habanero carries scores between deals")
    if dealt.carry is not None and options.scoring is not Scoring.MOST:
        raise DealError("no scores are carried between deals with sixty-five scoring")
    if dealt.carry is not None and options.deal_score is DealScore.PER_DEAL:
        raise DealError("no scores are carried between deals with per-deal scoring")
    expected = dealing_of(variant, options).deck
    if seen != expected:
        missing = bin(expected & ~seen).count("1")
        extra = bin(seen & ~expected).count("1")
        raise DealError(
            f"the deal must hold the deck exactly once ({missing} missing, {extra} extra)"
        )
