"""Build deals by hand for rule tests: name the cards that matter, the rest is filled in."""

from __future__ import annotations

from bot.engine import Action, Kind, Options, Round, Variant, parse_card, parse_suit
from bot.engine.cards import cards_of
from bot.engine.deal import Deal, deck_mask, hand_size, turned_in_dealer_hand


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def build(
    variant: Variant,
    hands: dict[int, str],
    turned: str,
    *,
    dealer: int = 0,
    options: Options | None = None,
    stock: str = "",
    carry: tuple[int, int] | None = None,
) -> Round:
    """A deal where ``hands`` names some cards of some seats (seat -> "1O 3O ..."), the
    turned card and the first cards of the stock; the rest of the deck fills the gaps in
    card order. The turned card goes to the dealer where the variant deals it there."""
    options = options or Options()
    n = variant.players
    size = hand_size(variant, options)
    given = [cards(hands.get(seat, "")) for seat in range(n)]
    turned_card = parse_card(turned)
    if turned_in_dealer_hand(variant, options) and turned_card not in given[dealer]:
        given[dealer].append(turned_card)
    stock_cards = cards(stock)
    used = {c for h in given for c in h} | {turned_card} | set(stock_cards)
    rest = [c for c in cards_of(deck_mask(variant, options)) if c not in used]
    for hand in given:
        while len(hand) < size:
            hand.append(rest.pop(0))
    if variant is Variant.HABANERO:
        stock_cards += rest
    deal = Deal(
        variant,
        options,
        dealer,
        tuple(tuple(h) for h in given),
        turned_card,
        tuple(stock_cards),
        carry,
    )
    return Round(deal)


def play(round_: Round, *codes: str) -> None:
    """Play these cards, each by the seat on turn."""
    for code in codes:
        round_.apply(Action.play(round_.turn, parse_card(code)))


def sing(round_: Round, seat: int, suit: str) -> None:
    round_.apply(Action.sing(seat, parse_suit(suit)))


def do(round_: Round, seat: int, kind: Kind) -> None:
    round_.apply(Action.simple(seat, kind))


def legal_plays(round_: Round) -> set[str]:
    return {a.to_json()["play"] for a in round_.legal_actions() if a.kind is Kind.PLAY}


def legal_of(round_: Round, kind: Kind) -> set[tuple[int, int]]:
    return {(a.seat, a.arg) for a in round_.legal_actions() if a.kind is kind}
