"""What one seat may know of a deal: its own hand and what is public, nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import Action, Kind
from .cards import KING, KNIGHT, PAIR_MASK, card, cards_of, mask_of, trick_best
from .deal import Deal
from .duty import duty_of
from .options import Options
from .round import Cante, Contract, Exchange, Phase, Result, Round, Trick
from .variants import VARIANTS, Variant


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
    window_side: int | None
    """The side that has just won a trick and may declare before the next card."""
    window_seat: int | None
    window_used: bool
    """That side has already sung (or declared) after this trick."""
    capote_open: bool
    sang: tuple[bool, ...]
    """Which seats have sung a cante (they can no longer declare tute)."""
    lost40: bool
    """This seat sang a 20 while holding the 40, and lost the 40."""
    legal: tuple[Action, ...]
    """The actions this seat may take now."""
    history: tuple[Action, ...]
    """Every action taken so far: all of them are public."""
    result: Result | None

    @property
    def my_side(self) -> int:
        return VARIANTS[self.variant].side_of[self.seat]


def _turned_drawer(round_: Round) -> tuple[int, int] | None:
    """Habanero: the loser of the trick that emptied the stock drew the turned card, face
    up for both; while it stays in that hand it is known."""
    if not round_.variant.has_stock or round_.stock_left or not round_.tricks:
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
        window_side=round_.window_side if round_.window_side >= 0 else None,
        window_seat=round_.window_seat if round_.window_side >= 0 else None,
        window_used=round_.window_used,
        capote_open=round_.capote_open,
        sang=tuple(round_.sang),
        lost40=round_.lost40[seat],
        legal=tuple(a for a in round_.legal_actions() if a.seat == seat),
        history=tuple(round_.actions),
        result=round_.result,
    )


def determinize(view: SeatView, hands: Sequence[Iterable[int]], stock: Sequence[int] = ()) -> Round:
    """A full state consistent with ``view``: the other seats hold ``hands`` (the viewer's
    own entry is ignored: it keeps its real hand) and ``stock`` is the face-down stock, next
    card to draw first. For robots that search over the cards they cannot see."""
    r = Round.__new__(Round)
    variant = view.variant
    held = [mask_of(h) for h in hands]
    held[view.seat] = mask_of(view.hand)
    turned_under_stock = variant.has_stock and view.stock_left > 0
    r.deal = Deal(
        variant,
        view.options,
        view.dealer,
        tuple(tuple(cards_of(m)) for m in held),
        view.turned,
        tuple(stock),
        view.carry,
    )
    r.variant = variant
    r.options = view.options
    r.n = view.players
    r.sides = view.sides
    r.side_of = VARIANTS[variant].side_of
    r.hands = held
    r.trump = view.trump
    r.turned = view.turned if turned_under_stock else -1
    r.stock = list(reversed(stock))
    r.to_draw = view.stock_left
    r.duty = duty_of(variant, view.options, view.stock_left)
    r.finished = view.phase is Phase.FINISHED
    r.table_card = view.table_card if view.table_card is not None else -1
    r.leader = view.leader
    r.turn = view.turn
    r.trick = [c for _, c in view.trick]
    r.best_seat, r.best_card = trick_best(view.trick, view.trump)
    r.tricks = list(view.tricks)
    r.card_points = list(view.card_points)
    r.cante_points = list(view.cante_points)
    r.cantes = list(view.cantes)
    r.sung_mask = sum(1 << c.suit for c in view.cantes)
    pair40 = PAIR_MASK[view.trump]
    r.lost40 = [
        view.lost40
        if s == view.seat
        else any(c.seat == s and c.points == 20 for c in view.cantes) and held[s] & pair40 == pair40
        for s in range(r.n)
    ]
    r.sang = list(view.sang)
    r.window_side = view.window_side if view.window_side is not None else -1
    r.window_seat = view.window_seat if view.window_seat is not None else -1
    r.window_used = view.window_used
    r.capote_open = view.capote_open
    r.capote_seat = view.capote_seat if view.capote_seat is not None else -1
    r.exchanges = list(view.exchanges)
    r.high_bid = view.high_bid
    r.high_bidder = view.high_bidder if view.high_bidder is not None else -1
    r.auction_count = sum(1 for a in view.history if a.kind in (Kind.BID, Kind.PASS))
    r.contract = view.contract
    r.actions = list(view.history)
    r.result = view.result
    r.phase = view.phase
    r._pm = -1  # pyright: ignore[reportPrivateUsage]
    return r
