"""What one seat may know of a deal: its own hand and what is public, nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import Action
from .cards import KING, KNIGHT, PAIR_MASK, card, cards_of, mask_of, trick_best
from .deal import Deal
from .dealing import DealtCards
from .declarations import declares_anytime
from .duty import duty_of
from .events import Cante, Contract, Exchange, Phase, Result, Trick
from .options import Options
from .variants import Seating, Variant, seating


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
    sing_side: int | None
    """The side that may sing now: ``window_side``, or with ``sing_until: next_trick`` the
    last trick's winner until the next trick is complete."""
    window_used: bool
    """That side has already sung (or declared) after this trick."""
    capote_open: bool
    sang: tuple[bool, ...]
    """Which seats have sung a cante (they can no longer declare tute)."""
    lost40: bool
    """This seat sang a 20 while holding the 40, and lost the 40."""
    window_sang: tuple[int, ...]
    """The seats that have sung after this trick (``pairs_sing: each``)."""
    drawn: int
    """The card this seat drew last (habanero), or -1."""
    turned_drawn: int | None
    """Habanero: the seat that drew the turned card, once the stock is empty."""
    pending: tuple[int, int] | None
    """``exchange_window: announce``: (seat, card) of a trump 7 (or 2) put under the
    turned card, waiting for that seat's next win; public, and out of its hand."""
    passed: tuple[bool, ...]
    """The seats out of the plato auction."""
    legal: tuple[Action, ...]
    """The actions this seat may take now."""
    history: tuple[Action, ...]
    """Every action taken so far: all of them are public."""
    result: Result | None

    @property
    def my_side(self) -> int:
        """This seat's side, or -1 for a dealer who sits the deal out."""
        return next((i for i, side in enumerate(self.sides) if self.seat in side), -1)

    @property
    def seating(self) -> Seating:
        """Who plays this deal, in which order (``Deal``'s seating)."""
        return seating(self.variant, self.players, self.dealer)

    @property
    def side_of(self) -> tuple[int, ...]:
        """Each seat's side (-1 for a dealer who sits out)."""
        return self.seating.side_of

    def order(self, leader: int) -> tuple[int, ...]:
        """The seats that play a trick led by ``leader``, in playing order."""
        seats = [leader]
        following = self.seating.next_seat
        while len(seats) < self.seating.players:
            seats.append(following[seats[-1]])
        return tuple(seats)

    @property
    def sits_out(self) -> bool:
        """This seat deals and sits the deal out (arrastrado with four at the table)."""
        return self.my_side < 0


def _turned_drawer(deal: Deal) -> tuple[int, int] | None:
    """Habanero: the loser of the trick that emptied the stock drew the turned card, face
    up for both; while it stays in that hand it is known."""
    if not deal.variant.has_stock or deal.stock_left or not deal.tricks:
        return None
    last_draw = len(deal.dealt.stock) // 2  # one trick per pair of cards drawn
    if len(deal.tricks) <= last_draw:
        return None
    seat = 1 - deal.tricks[last_draw].winner
    turned = deal.exchanges[-1].gave if deal.exchanges else deal.dealt.turned
    return (seat, turned) if deal.hands[seat] >> turned & 1 else None


def seat_view(deal: Deal, seat: int) -> SeatView:
    """The view of ``seat``: built field by field from public state and its own hand."""
    dealt = deal.dealt
    in_hand = dealt.turned_in_hand
    holder: int | None = None
    if in_hand and deal.hands[dealt.dealer] >> dealt.turned & 1:
        holder = dealt.dealer
    shown: list[tuple[int, int]] = []
    for cante in deal.cantes:
        for rank in (KING, KNIGHT):
            c = card(rank, cante.suit)
            if deal.hands[cante.seat] >> c & 1:
                shown.append((cante.seat, c))
    for exchange in deal.exchanges:  # the turned card taken by exchange is seen going in
        if deal.hands[exchange.seat] >> exchange.took & 1:
            shown.append((exchange.seat, exchange.took))
    if holder is not None:
        shown.append((holder, dealt.turned))
    drawer = _turned_drawer(deal)
    if drawer is not None:
        shown.append(drawer)
    return SeatView(
        seat=seat,
        variant=deal.variant,
        options=deal.options,
        players=deal.n,
        sides=deal.sides,
        dealer=dealt.dealer,
        phase=deal.phase,
        hand=tuple(deal.hand(seat)),
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        trump=deal.trump,
        turned=deal.turned_card,
        turned_visible=deal.turned >= 0 or deal.table_card >= 0,
        turned_holder=holder,
        table_card=deal.table_card if deal.table_card >= 0 else None,
        stock_left=deal.stock_left,
        turn=deal.turn,
        leader=deal.leader,
        trick=tuple(deal.trick_seats()),
        tricks=tuple(deal.tricks),
        cantes=tuple(deal.cantes),
        shown=tuple(shown),
        exchanges=tuple(deal.exchanges),
        card_points=tuple(deal.card_points),
        cante_points=tuple(deal.cante_points),
        scores=tuple(deal.side_score(s) for s in range(len(deal.sides))),
        carry=dealt.carry,
        capote_seat=deal.capote_seat if deal.capote_seat >= 0 else None,
        high_bid=deal.high_bid,
        high_bidder=deal.high_bidder if deal.high_bidder >= 0 else None,
        contract=deal.contract,
        window_side=deal.window_side if deal.window_side >= 0 else None,
        window_seat=deal.window_seat if deal.window_side >= 0 else None,
        sing_side=deal.sing_side if deal.sing_side >= 0 else None,
        window_used=deal.window_used,
        capote_open=deal.capote_open,
        sang=tuple(deal.sang),
        lost40=deal.lost40[seat],
        window_sang=tuple(s for s in range(deal.n) if deal.window_sang >> s & 1),
        drawn=deal.last_drawn[seat],
        turned_drawn=deal.turned_drawn if deal.turned_drawn >= 0 else None,
        pending=(deal.pending_seat, deal.pending) if deal.pending >= 0 else None,
        passed=tuple(deal.passed),
        legal=tuple(a for a in deal.legal_actions() if a.seat == seat),
        history=tuple(deal.actions),
        result=deal.result,
    )


def determinize(view: SeatView, hands: Sequence[Iterable[int]], stock: Sequence[int] = ()) -> Deal:
    """A full state consistent with ``view``: the other seats hold ``hands`` (the viewer's
    own entry is ignored: it keeps its real hand) and ``stock`` is the face-down stock, next
    card to draw first. For robots that search over the cards they cannot see."""
    r = Deal.__new__(Deal)
    variant = view.variant
    held = [mask_of(h) for h in hands]
    held[view.seat] = mask_of(view.hand)
    turned_under_stock = variant.has_stock and view.stock_left > 0
    r.dealt = DealtCards(
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
    seats = r.dealt.seating
    r.n = view.players
    r.players = seats.players
    r.next_seat = seats.next_seat
    r.sides = view.sides
    r.side_of = seats.side_of
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
    r.sing_side = view.sing_side if view.sing_side is not None else -1
    r.window_used = view.window_used
    r.capote_open = view.capote_open
    r.capote_seat = view.capote_seat if view.capote_seat is not None else -1
    r.exchanges = list(view.exchanges)
    r.high_bid = view.high_bid
    r.high_bidder = view.high_bidder if view.high_bidder is not None else -1
    r.passed = list(view.passed)
    r.window_sang = sum(1 << s for s in view.window_sang)
    r.last_drawn = [view.drawn if s == view.seat else -1 for s in range(r.n)]
    r.turned_drawn = view.turned_drawn if view.turned_drawn is not None else -1
    r.pending, r.pending_seat = (view.pending[1], view.pending[0]) if view.pending else (-1, -1)
    r.contract = view.contract
    r.actions = list(view.history)
    r.result = view.result
    r.phase = view.phase
    r._pm = -1  # pyright: ignore[reportPrivateUsage]
    r.anytime = declares_anytime(variant, view.options, r.turned, r.table_card)
    return r
