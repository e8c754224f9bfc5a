"""The deal so far, as everybody saw it happen: each trick over (who led, each card with who
played it, who took it and its points), and the cantes and the swap of the turned card
where they came. Only what was done in the open: the cards played, the cantes, the swap;
never a hand.

Built by replaying the deal's actions from its dealt cards (a deal keeps its tricks and
cantes, not when each cante or swap came between them).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Cante, Deal, Exchange, Trick
from bot.engine.cards import POINTS

from .errors import TableError
from .model import Status, Table


@dataclass(frozen=True, slots=True)
class PastTrick:
    """A trick over: its number (1 the first), its cards as (seat, card) in the order they
    were played (the leader's first), who took it and its card points."""

    number: int
    cards: tuple[tuple[int, int], ...]
    winner: int
    points: int

    @property
    def leader(self) -> int:
        return self.cards[0][0]


Happening = PastTrick | Cante | Exchange
"""A moment of the deal: a trick over, a cante sung, the turned card taken by a swap."""


@dataclass(frozen=True, slots=True)
class DealHistory:
    """The deal in play so far, in the order it happened, oldest first."""

    table_id: int
    deal_no: int
    trump: int
    happened: tuple[Happening, ...]

    @property
    def tricks(self) -> tuple[PastTrick, ...]:
        return tuple(h for h in self.happened if isinstance(h, PastTrick))


def past_trick(deal: Deal, number: int, trick: Trick) -> PastTrick:
    """A trick of ``deal``, each card with the seat that played it."""
    seats = [trick.leader]
    for _ in trick.cards[1:]:
        seats.append(deal.next_seat[seats[-1]])
    cards = tuple(zip(seats, trick.cards, strict=True))
    return PastTrick(number, cards, trick.winner, sum(POINTS[c] for c in trick.cards))


def deal_history(table: Table) -> DealHistory:
    """The deal in play at ``table`` so far; refused where no deal is in play."""
    deal = table.deal
    if table.status is not Status.PLAYING or deal is None:
        raise TableError("not_playing")
    again = Deal(deal.dealt, check=False)
    happened: list[Happening] = list(again.exchanges)  # arrastrado: the swap at the deal
    for action in deal.actions:
        tricks, cantes, swaps = len(again.tricks), len(again.cantes), len(again.exchanges)
        again.apply(action)
        happened += [
            past_trick(again, i + 1, again.tricks[i]) for i in range(tricks, len(again.tricks))
        ]
        happened += again.exchanges[swaps:]  # at the win it waited for, after the trick
        happened += again.cantes[cantes:]
    return DealHistory(table.id, table.deal_no, deal.trump, tuple(happened))
