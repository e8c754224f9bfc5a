"""What a lesson of the tutorial is made of: a deal of the engine dealt from fixed hands, and
a script of the robots' plays and the learner's steps, each step with the one move it
teaches and a word for each other move the learner may try. Nothing here decides what is
legal: the deal does (``Deal.refusal``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from bot.engine import CODES, Action, DealtCards, Kind, Variant, parse_card, parse_options
from bot.engine.cards import display_order
from bot.engine.deal import Deal
from bot.engine.dealing import dealing_of
from bot.engine.variants import TurnedCard

LEARNER: Final = 0
FAST_FORWARD_TRIES: Final = 20_000
"""Positions :func:`fast_forward` looks at before it gives up on a lesson's deal."""
"""The learner's seat in every lesson; the others are robots."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the learner does. ``expected`` is the move the step teaches (None: a page
    to read, the cards with their order and points, answered by Next); ``wrong`` names the word (a catalog suffix) for a legal move
    that misses the goal, by the move's code; any other legal miss gets ``otherwise``. A move
    the rules refuse is answered with the engine's reason instead."""

    expected: Action | None
    wrong: Mapping[str, str] = field(default_factory=dict[str, str])
    otherwise: str = "wrong"


Move = Action | Step


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson: its name (the catalog's ``learn.<name>.*``), its deal, and its script in
    the order things happen at the table."""

    name: str
    dealt: DealtCards
    script: tuple[Move, ...]

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(m for m in self.script if isinstance(m, Step))


def play(seat: int, code: str) -> Action:
    return Action.play(seat, parse_card(code))


def sing(suit: str) -> Action:
    return Action.sing(LEARNER, "OCEB".index(suit))


def exchange() -> Action:
    return Action.simple(LEARNER, Kind.EXCHANGE)


def fixed_deal(
    variant: Variant,
    *,
    dealer: int,
    hands: Sequence[str],
    turned: str,
    stock: str = "",
) -> DealtCards:
    """A deal from the hands as written (codes separated by spaces), each filled up to its
    size from the cards no one named, in the deck's order, seat by seat; then the stock:
    ``stock``'s cards first (the first is drawn first), then the rest. Where the turned card
    stays in the dealer's hand, it is the dealer's and counts among their cards."""
    options = parse_options(variant, None)
    dealing = dealing_of(variant, options)
    named = [[parse_card(c) for c in h.split()] for h in hands]
    turn = parse_card(turned)
    if dealing.turned is TurnedCard.IN_HAND and turn not in named[dealer]:
        named[dealer].append(turn)
    top = [parse_card(c) for c in stock.split()]
    used = {c for h in named for c in h} | set(top) | {turn}
    rest = [c for c in range(len(CODES)) if c not in used]
    full: list[tuple[int, ...]] = []
    for hand in named:
        need = dealing.hand_size - len(hand)
        hand = hand + rest[:need]
        rest = rest[need:]
        full.append(tuple(display_order(hand)))
    return DealtCards(
        variant=variant,
        options=options,
        dealer=dealer,
        hands=tuple(full),
        turned=turn,
        stock=tuple(top + rest) if variant.has_stock else (),
    )


def fast_forward(
    dealt: DealtCards,
    before: Sequence[Move],
    keep: Mapping[int, str],
    *,
    until_cards: int | None = 0,
    leader: int | None = None,
) -> tuple[Action, ...]:
    """The plays that bring ``dealt``, after ``before``, to the position a lesson goes on
    from: each seat plays a legal card it need not ``keep`` (codes by seat; the weakest that still
    leads there, searched depth first), with no
    declarations, until the stock is empty, a trick just over (led next by ``leader``, where
    named) and each hand holds at most ``until_cards`` more than its kept cards (None: any). The engine chooses among its legal plays
    only, so the position is reached by the rules; a position it cannot reach is a mistake
    in the lesson, raised."""
    deal = Deal(dealt)
    for move in before:
        action = move if isinstance(move, Action) else move.expected
        if action is not None:
            deal.apply(action)
    kept = {seat: {parse_card(c) for c in codes.split()} for seat, codes in keep.items()}

    def reached(deal: Deal) -> bool:
        if deal.trick or deal.stock_left or leader not in (None, deal.turn):
            return False
        return until_cards is None or all(
            bin(deal.hands[s]).count("1") <= len(kept.get(s, ())) + until_cards
            for s in range(deal.n)
        )

    budget = [FAST_FORWARD_TRIES]

    def search(deal: Deal, plays: list[Action]) -> list[Action] | None:
        if reached(deal):
            return plays
        budget[0] -= 1
        if deal.finished or budget[0] < 0:
            return None
        seat = deal.turn
        free = [
            a
            for a in deal.legal_actions()
            if a.kind is Kind.PLAY and a.seat == seat and a.arg not in kept.get(seat, ())
        ]
        for choice in sorted(free, key=lambda a: (a.arg % 10, a.arg // 10)):
            after = deal.copy()
            after.apply(choice)
            found = search(after, [*plays, choice])
            if found is not None:
                return found
        return None

    found = search(deal, [])
    if found is None:
        raise ValueError("no plays reach the lesson's position without a kept card")
    return tuple(found)
