"""Build deals by hand for rule tests: name the cards that matter, the rest is filled in."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.engine import (
    Action,
    Deal,
    Kind,
    Options,
    Scoring,
    StockDuty,
    Variant,
    parse_card,
    parse_suit,
    shuffle_deal,
)
from bot.engine.cards import cards_of
from bot.engine.dealing import DealtCards, dealing_of
from bot.engine.variants import TurnedCard


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
) -> Deal:
    """A deal where ``hands`` names some cards of some seats (seat -> "1O 3O ..."), the
    turned card and the first cards of the stock; the rest of the deck fills the gaps in
    card order. The turned card goes to the dealer where the variant deals it there."""
    options = options or Options()
    n = options.seats_at(variant)
    dealing = dealing_of(variant, options)
    given = [cards(hands.get(seat, "")) for seat in range(n)]
    turned_card = parse_card(turned)
    if dealing.turned is TurnedCard.IN_HAND and turned_card not in given[dealer]:
        given[dealer].append(turned_card)
    stock_cards = cards(stock)
    used = {c for h in given for c in h} | {turned_card} | set(stock_cards)
    rest = [c for c in cards_of(dealing.deck) if c not in used]
    for seat, hand in enumerate(given):
        size = 0 if n > variant.players and seat == dealer else dealing.hand_size
        while len(hand) < size:
            hand.append(rest.pop(0))
    if variant.has_stock:
        stock_cards += rest
    dealt = DealtCards(
        variant,
        options,
        dealer,
        tuple(tuple(h) for h in given),
        turned_card,
        tuple(stock_cards),
        carry,
    )
    return Deal(dealt)


def play(deal: Deal, *codes: str) -> None:
    """Play these cards, each by the seat on turn."""
    for code in codes:
        deal.apply(Action.play(deal.turn, parse_card(code)))


def sing(deal: Deal, seat: int, suit: str) -> None:
    deal.apply(Action.sing(seat, parse_suit(suit)))


def do(deal: Deal, seat: int, kind: Kind) -> None:
    deal.apply(Action.simple(seat, kind))


def legal_plays(deal: Deal) -> set[str]:
    return {a.to_json()["play"] for a in deal.legal_actions() if a.kind is Kind.PLAY}


def legal_of(deal: Deal, kind: Kind) -> set[tuple[int, int]]:
    return {(a.seat, a.arg) for a in deal.legal_actions() if a.kind is kind}


DUTY_CASES: list[tuple[Variant, Options]] = [
    (Variant.HABANERO, Options(stock_duty=StockDuty.FREE)),
    (Variant.HABANERO, Options(stock_duty=StockDuty.TRUMP, allow_tute=True)),
    (Variant.HABANERO, Options(stock_duty=StockDuty.FULL, exchange=False)),
    (Variant.HABANERO, Options(stock_duty=StockDuty.FULL, scoring=Scoring.SIXTY_FIVE)),
    (Variant.ARRASTRADO, Options()),
    (Variant.ARRASTRADO, Options(deck=36, undertrump=True)),
    (Variant.ARRASTRADO, Options(plato=True)),
    (Variant.INDIVIDUAL, Options()),
    (Variant.INDIVIDUAL, Options(undertrump=True)),
    (Variant.PAIRS, Options()),
    (Variant.PAIRS, Options(beat_partner=False)),
    (Variant.PAIRS, Options(beat_partner=False, undertrump=True)),
]
"""Every variant, every ``stock_duty``, and the options that change the duty."""


def random_states(variant: Variant, options: Options, seed: int) -> Iterator[Deal]:
    """A seeded random deal, stopped at every card to play: mostly plays, now and then a
    declaration (never one that ends the deal)."""
    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, options, rng.randrange(variant.players), rng))
    while not r.finished:
        legal = r.legal_actions()
        if legal[0].kind is Kind.PLAY:
            yield r
        keep = [
            a
            for a in legal
            if a.kind not in (Kind.PLAY, Kind.TUTE, Kind.CLAIM, Kind.RESIGN, Kind.CAPOTE)
        ]
        plays = [a for a in legal if a.kind is Kind.PLAY or a.kind is Kind.PASS]
        r.apply(rng.choice(keep if keep and rng.random() < 0.5 else plays))
