"""What one seat may know of a deal: its own hand and what is public, nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import CODES, KING, KNIGHT, card
from .options import Options, Variant
from .round import Cante, Contract, Exchange, Phase, Result, Round, Trick


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view of a deal. Hidden cards of the other seats are absent by construction:
    only their number is known (``hand_sizes``); cards a seat has shown by singing are
    public and listed in ``shown``."""

    seat: int
    variant: Variant
    options: Options
    players: int
    sides: tuple[tuple[int, ...], ...]
    dealer: int
    phase: Phase
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    trump: int
    turned: int
    """The card that names trumps (in a hand when the variant deals it to the dealer)."""
    turned_visible: bool
    """The turned card still lies face up (under the stock, or on the table)."""
    turned_holder: int | None
    """The seat known to hold the turned card, while it has not been played."""
    table_card: int | None
    """Arrastrado with 40 cards: the card left on the table, out of play."""
    stock_left: int
    turn: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[Trick, ...]
    cantes: tuple[Cante, ...]
    shown: tuple[tuple[int, int], ...]
    """(seat, card) for every sung king and knight still in that seat's hand."""
    exchanges: tuple[Exchange, ...]
    card_points: tuple[int, ...]
    cante_points: tuple[int, ...]
    scores: tuple[int, ...]
    carry: tuple[int, int] | None
    capote_seat: int | None
    high_bid: int
    high_bidder: int | None
    contract: Contract | None
    legal: tuple[Action, ...]
    """The actions this seat may take now."""
    history: tuple[Action, ...]
    """Every action taken so far: all of them are public."""
    result: Result | None

    @property
    def my_side(self) -> int:
        return next(i for i, side in enumerate(self.sides) if self.seat in side)

    def codes(self) -> list[str]:
        return [CODES[c] for c in self.hand]


def _turned_drawer(round_: Round) -> tuple[int, int] | None:
    """Habanero: the loser of the trick that emptied the stock drew the turned card, face
    up for both; while it stays in that hand it is known."""
    if round_.variant is not Variant.HABANERO or round_.stock_left or not round_.tricks:
        return None
    last_draw = len(round_.deal.stock) // 2  # one trick per pair of cards drawn
    if len(round_.tricks) <= last_draw:
        return None
    seat = 1 - round_.tricks[last_draw].winner
    turned = round_.exchanges[-1].gave if round_.exchanges else round_.deal.turned
    return (seat, turned) if round_.hands[seat] >> turned & 1 else None


def seat_view(round_: Round, seat: int) -> SeatView:
    """The view of ``seat``: built field by field from public state and its own hand."""
    deal = round_.deal
    in_hand = deal.turned_in_hand
    holder: int | None = None
    if in_hand and round_.hands[deal.dealer] >> deal.turned & 1:
        holder = deal.dealer
    shown: list[tuple[int, int]] = []
    for cante in round_.cantes:
        for rank in (KING, KNIGHT):
            c = card(rank, cante.suit)
            if round_.hands[cante.seat] >> c & 1:
                shown.append((cante.seat, c))
    for exchange in round_.exchanges:  # the turned card taken by exchange is seen going in
        if round_.hands[exchange.seat] >> exchange.took & 1:
            shown.append((exchange.seat, exchange.took))
    if holder is not None:
        shown.append((holder, deal.turned))
    drawer = _turned_drawer(round_)
    if drawer is not None:
        shown.append(drawer)
    return SeatView(
        seat=seat,
        variant=round_.variant,
        options=round_.options,
        players=round_.n,
        sides=round_.sides,
        dealer=deal.dealer,
        phase=round_.phase,
        hand=tuple(round_.hand(seat)),
        hand_sizes=tuple(h.bit_count() for h in round_.hands),
        trump=round_.trump,
        turned=round_.turned_card,
        turned_visible=round_.turned >= 0 or round_.table_card >= 0,
        turned_holder=holder,
        table_card=round_.table_card if round_.table_card >= 0 else None,
        stock_left=round_.stock_left,
        turn=round_.turn,
        leader=round_.leader,
        trick=tuple(round_.trick_seats()),
        tricks=tuple(round_.tricks),
        cantes=tuple(round_.cantes),
        shown=tuple(shown),
        exchanges=tuple(round_.exchanges),
        card_points=tuple(round_.card_points),
        cante_points=tuple(round_.cante_points),
        scores=tuple(round_.side_score(s) for s in range(len(round_.sides))),
        carry=deal.carry,
        capote_seat=round_.capote_seat if round_.capote_seat >= 0 else None,
        high_bid=round_.high_bid,
        high_bidder=round_.high_bidder if round_.high_bidder >= 0 else None,
        contract=round_.contract,
        legal=tuple(a for a in round_.legal_actions() if a.seat == seat),
        history=tuple(round_.actions),
        result=round_.result,
    )
