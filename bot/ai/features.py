"""What the policy network reads: one seat's view of a deal, and one candidate card.

A decision is encoded in two parts. The seat's **state** (``Public``): its own hand, the
trick so far, the cards gone, the cards other seats are known to hold (sung kings and
knights, the turned card), the suits each seat has shown it lacks, the stock, the scores,
the cantes and the table's rules. Each **candidate** card adds a few bits of its own.
Suits are turned so that trumps are always suit 0, and seats are counted from the viewer
in playing order: one network serves every trump suit and every seat.

A state is read either from a ``SeatView`` (``public_of_view``: a robot at a table, and the
training data) or straight from a full ``Deal`` for one seat (``public_of_deal``, where
building a whole view for every card would cost far more than choosing it). Both read
only that seat's hand and what is public; a test holds them equal. The playouts go one
step further (``playout_features``): what changes only with a trick or a cante is read
once a deal, and the compact parts are written without a ``Public`` in between; tests
hold them equal to ``parts`` of ``public_of_deal``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Final

# The network's matrices are small and the robots think one process a core: numpy's
# own threads would only fight them for it (set before numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from bot.engine.cards import HIGHER, KING, KNIGHT, PAIR_MASK, POINTS, beats, card, trick_best
from bot.engine.deal import Deal
from bot.engine.duty import duty_of
from bot.engine.options import Options, Scoring, StockDuty
from bot.engine.variants import Variant
from bot.engine.view import SeatView

FloatArray = npt.NDArray[np.float32]

_FULL: Final = (1 << 40) - 1
_VARIANTS: Final = (Variant.HABANERO, Variant.ARRASTRADO, Variant.INDIVIDUAL, Variant.PAIRS)
_DUTIES: Final = (StockDuty.FREE, StockDuty.TRUMP, StockDuty.FULL)

MASKS: Final = 9
"""The state's card masks: hand, trick, the partner's cards in the trick, the trick's best
card, gone, the turned card while it shows, and the known cards of the next three seats."""
SCALARS: Final = 49
STATE: Final = MASKS * 40 + SCALARS
CANDIDATE: Final = 40 + 8
FEATURES: Final = STATE + CANDIDATE
"""The length of one candidate's row: its decision's state, then its own part."""


def rotate(mask: int, trump: int) -> int:
    """``mask`` with suits turned so that ``trump`` becomes suit 0 (the next suit 1...)."""
    if not trump:
        return mask
    shift = 10 * trump
    return (mask >> shift | mask << (40 - shift)) & _FULL


def _rotate_card(c: int, trump: int) -> int:
    return (c // 10 - trump) % 4 * 10 + c % 10


@dataclass(frozen=True, slots=True)
class Public:
    """One seat's state for the network, suits not yet turned: card masks and numbers."""

    hand: int
    trick: tuple[int, ...]
    """The cards of the trick so far, in playing order."""
    partner_trick: int
    gone: int
    turned: int
    """The turned card while it lies face up, or -1."""
    known: tuple[int, int, int]
    """The cards known to be in the hands of the next three seats in playing order."""
    voids: tuple[int, int, int]
    """The suits (a 4-bit mask each) the next three seats have shown they lack."""
    trump: int
    variant: Variant
    players: int
    stock_left: int
    tricks_done: int
    hand_size: int
    my_score: int
    best_other: int
    sung: int
    """The suits sung so far (4 bits)."""
    i_sang: bool
    lost40: bool
    options: Options
    best_by_partner: bool
    best_by_rival: bool


def _voids(
    leaders_and_cards: list[tuple[int, tuple[int, ...]]], next_seat: tuple[int, ...] | list[int]
) -> dict[int, int]:
    """Each seat's suits shown lacking: it did not follow the suit led."""
    out: dict[int, int] = {}
    for leader, cards in leaders_and_cards:
        if not cards:
            continue
        led = cards[0] // 10
        seat = leader
        for c in cards[1:]:
            seat = next_seat[seat]
            if c // 10 != led:
                out[seat] = out.get(seat, 0) | 1 << led
    return out


def _following(seat: int, next_seat: tuple[int, ...] | list[int], players: int) -> list[int]:
    seats: list[int] = []
    s = seat
    while len(seats) < 3:
        s = next_seat[s]
        seats.append(s if len(seats) < players - 1 else -1)
    return seats


def public_of_view(view: SeatView) -> Public:
    """The state of the viewing seat, from its view."""
    seat = view.seat
    seating = view.seating
    next_seat = seating.next_seat
    side_of = seating.side_of
    mine = side_of[seat]
    others = _following(seat, next_seat, seating.players)
    shown: dict[int, int] = {}
    for s, c in view.shown:
        shown[s] = shown.get(s, 0) | 1 << c
    gone = 0
    for t in view.tricks:
        for c in t.cards:
            gone |= 1 << c
    if view.table_card is not None:
        gone |= 1 << view.table_card
    history = [(t.leader, t.cards) for t in view.tricks]
    history.append((view.leader, tuple(c for _, c in view.trick)))
    voids = _voids(history, next_seat)
    partner_trick = 0
    for s, c in view.trick:
        if s != seat and side_of[s] == mine:
            partner_trick |= 1 << c
    best_seat, _ = trick_best(view.trick, view.trump) if view.trick else (-1, -1)
    scores = view.scores
    return Public(
        hand=_mask(view.hand),
        trick=tuple(c for _, c in view.trick),
        partner_trick=partner_trick,
        gone=gone,
        turned=view.turned if view.turned_visible else -1,
        known=(
            shown.get(others[0], 0),
            shown.get(others[1], 0),
            shown.get(others[2], 0),
        ),
        voids=(voids.get(others[0], 0), voids.get(others[1], 0), voids.get(others[2], 0)),
        trump=view.trump,
        variant=view.variant,
        players=seating.players,
        stock_left=view.stock_left,
        tricks_done=len(view.tricks),
        hand_size=len(view.hand),
        my_score=scores[mine],
        best_other=max(x for i, x in enumerate(scores) if i != mine),
        sung=sum(1 << c.suit for c in view.cantes),
        i_sang=view.sang[seat],
        lost40=view.lost40,
        options=view.options,
        best_by_partner=best_seat >= 0 and best_seat != seat and side_of[best_seat] == mine,
        best_by_rival=best_seat >= 0 and side_of[best_seat] != mine,
    )


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _shown_of_deal(r: Deal) -> dict[int, int]:
    """What ``seat_view`` lists in ``shown``, read from the deal: sung kings and knights,
    the turned card taken by exchange or held by the dealer, and habanero's drawn turned
    card, while each is still in that hand."""
    hands = r.hands
    shown: dict[int, int] = {}
    for cante in r.cantes:
        for rank in (KING, KNIGHT):
            c = card(rank, cante.suit)
            if hands[cante.seat] >> c & 1:
                shown[cante.seat] = shown.get(cante.seat, 0) | 1 << c
    for exchange in r.exchanges:
        if hands[exchange.seat] >> exchange.took & 1:
            shown[exchange.seat] = shown.get(exchange.seat, 0) | 1 << exchange.took
    dealt = r.dealt
    if dealt.turned_in_hand and hands[dealt.dealer] >> dealt.turned & 1:
        shown[dealt.dealer] = shown.get(dealt.dealer, 0) | 1 << dealt.turned
    if r.variant.has_stock and not r.to_draw and r.tricks:
        last_draw = len(dealt.stock) // 2
        if len(r.tricks) > last_draw:
            seat = 1 - r.tricks[last_draw].winner
            turned = r.exchanges[-1].gave if r.exchanges else dealt.turned
            if hands[seat] >> turned & 1:
                shown[seat] = shown.get(seat, 0) | 1 << turned
    return shown


class Tricks:
    """What the finished tricks of one deal say, read once each (a playout asks at every
    card): the cards gone and the suits each seat has shown it lacks."""

    __slots__ = ("count", "gone", "voids")

    def __init__(self) -> None:
        self.count = 0
        self.gone = 0
        self.voids: dict[int, int] = {}

    def update(self, r: Deal) -> None:
        tricks = r.tricks
        if len(tricks) == self.count:
            return
        new = tricks[self.count :]
        for t in new:
            for c in t.cards:
                self.gone |= 1 << c
        for seat, suits in _voids([(t.leader, t.cards) for t in new], r.next_seat).items():
            self.voids[seat] = self.voids.get(seat, 0) | suits
        self.count = len(tricks)


def public_of_deal(r: Deal, seat: int, tricks: Tricks | None = None) -> Public:
    """The state of ``seat`` read from a full deal: its own hand and what is public only
    (``public_of_view(seat_view(r, seat))``, without building the view). ``tricks``, kept
    for one deal between calls, reads each finished trick once."""
    next_seat = r.next_seat
    side_of = r.side_of
    mine = side_of[seat]
    others = _following(seat, next_seat, r.players)
    shown = (
        _shown_of_deal(r)
        if r.cantes
        or r.exchanges
        or r.dealt.turned_in_hand
        or (r.variant.has_stock and not r.to_draw)
        else {}
    )
    if tricks is None:
        tricks = Tricks()
    tricks.update(r)
    gone = tricks.gone
    if r.table_card >= 0:
        gone |= 1 << r.table_card
    voids = tricks.voids
    if len(r.trick) > 1:
        voids = dict(voids)
        for s, suits in _voids([(r.leader, tuple(r.trick))], next_seat).items():
            voids[s] = voids.get(s, 0) | suits
    partner_trick = 0
    s = r.leader
    for c in r.trick:
        if s != seat and side_of[s] == mine:
            partner_trick |= 1 << c
        s = next_seat[s]
    best_seat = r.best_seat if r.trick else -1
    scores = [r.side_score(i) for i in range(len(r.sides))]
    hand = r.hands[seat]
    return Public(
        hand=hand,
        trick=tuple(r.trick),
        partner_trick=partner_trick,
        gone=gone,
        turned=r.turned_card if r.turned >= 0 or r.table_card >= 0 else -1,
        known=(shown.get(others[0], 0), shown.get(others[1], 0), shown.get(others[2], 0)),
        voids=(voids.get(others[0], 0), voids.get(others[1], 0), voids.get(others[2], 0)),
        trump=r.trump,
        variant=r.variant,
        players=r.players,
        stock_left=r.to_draw,
        tricks_done=len(r.tricks),
        hand_size=hand.bit_count(),
        my_score=scores[mine],
        best_other=max(x for i, x in enumerate(scores) if i != mine),
        sung=r.sung_mask,
        i_sang=r.sang[seat],
        lost40=r.lost40[seat],
        options=r.options,
        best_by_partner=best_seat >= 0 and best_seat != seat and side_of[best_seat] == mine,
        best_by_rival=best_seat >= 0 and side_of[best_seat] != mine,
    )


_BITS: Final = np.arange(40, dtype=np.uint64)


def unpack(masks: npt.NDArray[np.uint64]) -> FloatArray:
    """40-bit masks, any shape, as 0/1 floats with one more axis of 40."""
    return ((masks[..., None] >> _BITS) & np.uint64(1)).astype(np.float32)


_SUIT_BITS: Final = tuple(
    tuple(
        tuple(float((((v >> t) | (v << (4 - t))) & 15) >> s & 1) for s in range(4))
        for t in range(4)
    )
    for v in range(16)
)
"""A 4-bit mask of suits, turned so that trumps (the second index) are suit 0, as floats."""
_POSITION: Final = tuple(tuple(float(k == i) for i in range(4)) for k in range(4))
_DUTY: Final = {d: tuple(float(d is x) for x in _DUTIES) for d in _DUTIES}
_CONSTANT: dict[tuple[Variant, int, Options], tuple[float, ...]] = {}


def _constant(variant: Variant, players: int, o: Options) -> tuple[float, ...]:
    """The numbers that hold for a whole deal: the variant, the players, the rules."""
    key = (variant, players, o)
    found = _CONSTANT.get(key)
    if found is None:
        found = (
            *(float(variant is v) for v in _VARIANTS),
            *(float(players == n) for n in (2, 3, 4)),
            float(o.exchange),
            float(o.undertrump),
            float(o.overtrump),
            float(o.scoring is Scoring.SIXTY_FIVE),
            float(o.tute_allowed(variant)),
            float(o.beat_partner),
            float(o.deck == 36),
        )
        _CONSTANT[key] = found
    return found


def state_parts(p: Public) -> tuple[list[int], list[float]]:
    """The state's masks (suits turned) and its numbers, before unpacking."""
    t = p.trump
    trick = 0
    for c in p.trick:
        trick |= 1 << c
    best = trick_best(((0, c) for c in p.trick), t)[1] if p.trick else -1
    masks = [
        rotate(p.hand, t),
        rotate(trick, t),
        rotate(p.partner_trick, t),
        1 << _rotate_card(best, t) if best >= 0 else 0,
        rotate(p.gone, t),
        1 << _rotate_card(p.turned, t) if p.turned >= 0 else 0,
        rotate(p.known[0], t),
        rotate(p.known[1], t),
        rotate(p.known[2], t),
    ]
    v0, v1, v2 = p.voids
    numbers = [
        *_constant(p.variant, p.players, p.options),
        *_POSITION[len(p.trick)],
        *_SUIT_BITS[v0][t],
        *_SUIT_BITS[v1][t],
        *_SUIT_BITS[v2][t],
        *_SUIT_BITS[p.sung][t],
        *_DUTY[duty_of(p.variant, p.options, p.stock_left)],
        p.stock_left / 30.0,
        p.tricks_done / 13.0,
        p.hand_size / 13.0,
        p.my_score / 100.0,
        p.best_other / 100.0,
        math.tanh((p.my_score - p.best_other) / 50.0),
        float(p.i_sang),
        float(p.lost40),
        float(p.best_by_partner),
        float(p.best_by_rival),
        float(not p.stock_left and p.hand_size == 1),
        1.0,
    ]
    return masks, numbers


def candidate_parts(p: Public, cards: list[int]) -> list[list[float]]:
    """The candidate cards' own numbers (each card is one more mask, turned)."""
    t = p.trump
    trick = p.trick
    best = trick_best(((0, x) for x in trick), t)[1] if trick else -1
    outside = _FULL & ~(p.hand | p.gone)
    for x in trick:
        outside &= ~(1 << x)
    led = trick[0] // 10 if trick else -1
    hand = p.hand
    sung = p.sung
    out: list[list[float]] = []
    for c in cards:
        suit = c // 10
        pair = PAIR_MASK[suit]
        out.append(
            [
                float(best < 0 or beats(c, best, t)),
                float(suit == t),
                float(suit == led),
                POINTS[c] / 11.0,
                (c % 10) / 9.0,
                float(not HIGHER[c] & outside),
                float(bool(pair >> c & 1) and hand & pair == pair and not sung >> suit & 1),
                float((hand & (0x3FF << 10 * suit)).bit_count() == 1),
            ]
        )
    return out


@dataclass(frozen=True, slots=True)
class Parts:
    """Decisions in the compact form the data files keep: each state's masks (turned,
    ``MASKS`` a row) and numbers, each candidate's card mask and numbers, and the
    decision each candidate belongs to (``owner``, in order)."""

    state_masks: npt.NDArray[np.uint64]
    state_numbers: FloatArray
    cand_masks: npt.NDArray[np.uint64]
    cand_numbers: FloatArray
    owner: npt.NDArray[np.intp]

    def states(self) -> FloatArray:
        """The states' rows: ``STATE`` floats each."""
        n = len(self.state_masks)
        bits = unpack(self.state_masks).reshape(n, MASKS * 40)
        return np.concatenate([bits, self.state_numbers], axis=1)

    def candidates(self) -> FloatArray:
        """The candidates' own rows: ``CANDIDATE`` floats each."""
        return np.concatenate([unpack(self.cand_masks), self.cand_numbers], axis=1)

    def rows(self) -> FloatArray:
        """Each candidate's whole row (its state's, then its own): ``FEATURES`` floats."""
        return np.concatenate([self.states()[self.owner], self.candidates()], axis=1)


def parts(decisions: list[tuple[Public, list[int]]]) -> Parts:
    """Many decisions, each a state and its candidate cards, in compact form."""
    masks: list[list[int]] = []
    numbers: list[list[float]] = []
    cand_masks: list[int] = []
    cand_numbers: list[list[float]] = []
    owner: list[int] = []
    for d, (p, cards) in enumerate(decisions):
        state_masks, state_numbers = state_parts(p)
        masks.append(state_masks)
        numbers.append(state_numbers)
        cand_masks.extend(1 << _rotate_card(c, p.trump) for c in cards)
        cand_numbers.extend(candidate_parts(p, cards))
        owner.extend([d] * len(cards))
    return Parts(
        np.array(masks, dtype=np.uint64).reshape(len(masks), MASKS),
        np.array(numbers, dtype=np.float32).reshape(len(numbers), SCALARS),
        np.array(cand_masks, dtype=np.uint64),
        np.array(cand_numbers, dtype=np.float32).reshape(len(cand_numbers), CANDIDATE - 40),
        np.array(owner, dtype=np.intp),
    )


def encode(p: Public, cards: list[int]) -> FloatArray:
    """The rows of ``cards``, the candidates of one decision: ``FEATURES`` floats each."""
    return parts([(p, cards)]).rows()


_SUIT_GROUPS: Final = MASKS * 40 + len(_constant(Variant.PAIRS, 4, Options())) + 4
"""Where the state's four 4-bit suit masks start (three seats' voids, the suits sung)."""


def relabelled(order: tuple[int, int, int]) -> npt.NDArray[np.intp]:
    """Columns of the rows (``FEATURES``) that give a position's rows with the suits other
    than trumps relabelled, suit ``order[i]`` (1 to 3, suits turned) becoming suit
    ``1 + i``: ``rows[:, relabelled(order)]``. Those three suits play alike, so each order
    is the same decision again (the trainer's six for one)."""
    new_of = [0, *(1 + order.index(s) for s in (1, 2, 3))]
    cols = np.arange(FEATURES)
    for block in (*range(0, MASKS * 40, 40), STATE):
        for s in range(4):
            cols[block + new_of[s] * 10 : block + new_of[s] * 10 + 10] = range(
                block + s * 10, block + s * 10 + 10
            )
    for g in range(_SUIT_GROUPS, _SUIT_GROUPS + 16, 4):
        for s in range(4):
            cols[g + new_of[s]] = g + s
    return cols
