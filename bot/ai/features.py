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
step further (``parts_of_deals``): with a ``Reader`` kept for each deal, what changes only
with a trick or a cante is read once, and the compact parts are written without a
``Public`` in between; tests hold them equal to ``parts`` of ``public_of_deal``.
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

from bot.engine.cards import (
    HIGHER,
    KING,
    KNIGHT,
    PAIR_MASK,
    POINTS,
    SUIT_MASK,
    TAKERS,
    beats,
    card,
    trick_best,
)
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


def _rotate_suits(bits4: int, trump: int) -> int:
    return (bits4 >> trump | bits4 << (4 - trump)) & 15


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


_FLOAT: Final = (0.0, 1.0)
_CARD_FIXED: Final = tuple(
    tuple(
        (1 << _rotate_card(c, t), float(c // 10 == t), POINTS[c] / 11.0, (c % 10) / 9.0)
        for c in range(40)
    )
    for t in range(4)
)
"""Each card's own mask (turned) and the candidate numbers that depend only on the card
and the trump suit (the first index)."""


class Reader(Tricks):
    """A ``Tricks`` that also keeps, for one deal, what holds for the whole deal (the
    constant numbers, each seat's following seats), so that ``parts_of_deal`` reads a
    playout's decisions without building a ``Public`` each."""

    __slots__ = ("constant", "following", "score_key", "scores", "shown", "shown_key")

    def __init__(self, r: Deal) -> None:
        super().__init__()
        self.constant = _constant(r.variant, r.players, r.options)
        self.following = [_following(s, r.next_seat, r.players) for s in range(r.n)]
        self.shown_key = (-1, -1, -1, -1)
        self.shown: list[tuple[int, int]] = []
        self.score_key = (-1, -1)
        self.scores: list[tuple[float, float, float]] = []

    def shown_cards(self, r: Deal) -> list[tuple[int, int]]:
        """The (seat, card) pairs ``_shown_of_deal`` reads, each shown while still in
        that seat's hand: they change only with a cante, an exchange or a trick."""
        key = (len(r.cantes), len(r.exchanges), len(r.tricks), r.to_draw)
        if key != self.shown_key:
            self.shown_key = key
            out = [(c.seat, card(rank, c.suit)) for c in r.cantes for rank in (KING, KNIGHT)]
            out += [(e.seat, e.took) for e in r.exchanges]
            dealt = r.dealt
            if dealt.turned_in_hand:
                out.append((dealt.dealer, dealt.turned))
            if r.variant.has_stock and not r.to_draw and r.tricks:
                last_draw = len(dealt.stock) // 2
                if len(r.tricks) > last_draw:
                    turned = r.exchanges[-1].gave if r.exchanges else dealt.turned
                    out.append((1 - r.tricks[last_draw].winner, turned))
            self.shown = out
        return self.shown

    def side_scores(self, r: Deal) -> list[tuple[float, float, float]]:
        """Each side's score numbers (its own, the best other side's, their difference
        squashed): they change only with a trick or a cante."""
        key = (len(r.tricks), len(r.cantes))
        if key != self.score_key:
            self.score_key = key
            scores = [r.side_score(i) for i in range(len(r.sides))]
            out: list[tuple[float, float, float]] = []
            for mine, my_score in enumerate(scores):
                best_other = max(x for i, x in enumerate(scores) if i != mine)
                out.append(
                    (
                        my_score / 100.0,
                        best_other / 100.0,
                        math.tanh((my_score - best_other) / 50.0),
                    )
                )
            self.scores = out
        return self.scores


def decision_parts(
    r: Deal, seat: int, reader: Reader, masks: list[int], numbers: list[float]
) -> Context:
    """Append ``seat``'s state to the flat lists of ``parts``: what ``state_parts`` gives
    for ``public_of_deal(r, seat, reader)``, read straight from the deal (a test holds
    them equal); the answer is what its candidates' numbers read (``candidates_of``)."""
    next_seat = r.next_seat
    side_of = r.side_of
    mine = side_of[seat]
    o0, o1, o2 = reader.following[seat]
    hands = r.hands
    k0 = k1 = k2 = 0
    for s, c in reader.shown_cards(r):
        if hands[s] >> c & 1:
            if s == o0:
                k0 |= 1 << c
            elif s == o1:
                k1 |= 1 << c
            elif s == o2:
                k2 |= 1 << c
    reader.update(r)
    gone = reader.gone
    if r.table_card >= 0:
        gone |= 1 << r.table_card
    voids = reader.voids
    trick = r.trick
    leader = r.leader
    trick_mask = 0
    partner_trick = 0
    if trick:
        led = trick[0] // 10
        if len(trick) > 1:
            voids = dict(voids)
        s = leader
        for c in trick:
            bit = 1 << c
            trick_mask |= bit
            if s != seat and side_of[s] == mine:
                partner_trick |= bit
            if c // 10 != led:
                voids[s] = voids.get(s, 0) | 1 << led
            s = next_seat[s]
        best = r.best_card
        best_seat = r.best_seat
    else:
        led = best = best_seat = -1
    my_score, best_other, lead = reader.side_scores(r)[mine]
    hand = hands[seat]
    hand_size = hand.bit_count()
    t = r.trump
    turned = r.turned_card if r.turned >= 0 or r.table_card >= 0 else -1
    fixed = _CARD_FIXED[t]
    if t:  # ``rotate``, inline
        down = 10 * t
        up = 40 - down
        masks += (
            (hand >> down | hand << up) & _FULL,
            (trick_mask >> down | trick_mask << up) & _FULL,
            (partner_trick >> down | partner_trick << up) & _FULL,
            fixed[best][0] if best >= 0 else 0,
            (gone >> down | gone << up) & _FULL,
            fixed[turned][0] if turned >= 0 else 0,
            (k0 >> down | k0 << up) & _FULL,
            (k1 >> down | k1 << up) & _FULL,
            (k2 >> down | k2 << up) & _FULL,
        )
    else:
        masks += (
            hand,
            trick_mask,
            partner_trick,
            1 << best if best >= 0 else 0,
            gone,
            1 << turned if turned >= 0 else 0,
            k0,
            k1,
            k2,
        )
    stock_left = r.to_draw
    sung = r.sung_mask
    numbers += reader.constant
    numbers += _POSITION[len(trick)]
    numbers += _SUIT_BITS[voids.get(o0, 0)][t]
    numbers += _SUIT_BITS[voids.get(o1, 0)][t]
    numbers += _SUIT_BITS[voids.get(o2, 0)][t]
    numbers += _SUIT_BITS[sung][t]
    numbers += _DUTY[r.duty]  # kept by the deal: duty_of(variant, options, stock_left)
    numbers += (
        stock_left / 30.0,
        len(r.tricks) / 13.0,
        hand_size / 13.0,
        my_score,
        best_other,
        lead,
        float(r.sang[seat]),
        float(r.lost40[seat]),
        float(best_seat >= 0 and best_seat != seat and side_of[best_seat] == mine),
        float(best_seat >= 0 and side_of[best_seat] != mine),
        float(not stock_left and hand_size == 1),
        1.0,
    )
    pairs, single = _pairs_and_singles(hand, sung)
    return (
        t,
        TAKERS[t][best] if best >= 0 else _FULL,
        SUIT_MASK[led] if led >= 0 else 0,
        _FULL & ~(hand | gone | trick_mask),
        pairs,
        single,
    )


def _pairs_and_singles(hand: int, sung: int) -> tuple[int, int]:
    """The kings and knights of the unsung pairs in ``hand``, and its cards alone in their
    suit, as masks."""
    pairs = 0
    single = 0
    for suit in range(4):
        pair = PAIR_MASK[suit]
        if hand & pair == pair and not sung >> suit & 1:
            pairs |= pair
        of_suit = hand & SUIT_MASK[suit]
        if of_suit and not of_suit & of_suit - 1:
            single |= of_suit
    return pairs, single


Context = tuple[int, int, int, int, int, int]
"""What a decision's candidates' numbers read: the trump suit, then as card masks the
cards that beat the trick's best, the suit led, the cards neither in hand, gone nor in
the trick, the kings and knights of the unsung pairs in hand, the cards alone in their
suit in hand."""


def candidates_of(
    context: Context, cards: list[int], cand_masks: list[int], cand_numbers: list[float]
) -> None:
    """``candidate_parts`` of ``cards``, appended flat (one decision, in Python)."""
    t, takers, led_suit, outside, pairs, single = context
    fixed = _CARD_FIXED[t]
    f = _FLOAT
    for c in cards:
        bit, is_trump, points, rank = fixed[c]
        cand_masks.append(bit)
        cand_numbers += (
            f[takers >> c & 1],
            is_trump,
            f[led_suit >> c & 1],
            points,
            rank,
            f[not HIGHER[c] & outside],
            f[pairs >> c & 1],
            f[single >> c & 1],
        )


_CARD_TABLE: Final = np.array(
    [[_CARD_FIXED[t][c][1:] for c in range(40)] for t in range(4)], dtype=np.float32
)
"""``_CARD_FIXED``'s numbers as floats: trump suit, card, (is trump, points, rank)."""
_ROTATED: Final = np.array(
    [[_rotate_card(c, t) for c in range(40)] for t in range(4)], dtype=np.uint64
)
_HIGHER: Final = np.array(HIGHER, dtype=np.uint64)
_ONE: Final = np.uint64(1)


def _candidate_arrays(
    contexts: list[int], cards: list[int], owner: npt.NDArray[np.intp]
) -> tuple[npt.NDArray[np.uint64], FloatArray]:
    """``candidates_of`` for a whole batch at once: the candidates' masks and numbers."""
    ctx = np.array(contexts, dtype=np.uint64).reshape(-1, 6)[owner]
    c = np.array(cards, dtype=np.uint64)
    trump = ctx[:, 0].astype(np.intp)
    ci = c.astype(np.intp)
    fixed = _CARD_TABLE[trump, ci]
    out = np.empty((len(cards), CANDIDATE - 40), dtype=np.float32)
    out[:, 0] = ctx[:, 1] >> c & _ONE
    out[:, 1] = fixed[:, 0]
    out[:, 2] = ctx[:, 2] >> c & _ONE
    out[:, 3] = fixed[:, 1]
    out[:, 4] = fixed[:, 2]
    out[:, 5] = _HIGHER[ci] & ctx[:, 3] == 0
    out[:, 6] = ctx[:, 4] >> c & _ONE
    out[:, 7] = ctx[:, 5] >> c & _ONE
    return _ONE << _ROTATED[trump, ci], out


def parts_of_deals(decisions: list[tuple[Deal, Reader, list[int]]]) -> Parts:
    """``parts`` of each deal's seat on turn choosing among its cards, read from the deals
    (``Reader`` kept for each deal between calls): equal to ``parts`` of their ``Public``s."""
    masks: list[int] = []
    numbers: list[float] = []
    contexts: list[int] = []
    cards_of: list[int] = []
    owner: list[int] = []
    for d, (r, reader, cards) in enumerate(decisions):
        contexts += decision_parts(r, r.turn, reader, masks, numbers)
        cards_of += cards
        owner += [d] * len(cards)
    n = len(decisions)
    owners = np.array(owner, dtype=np.intp)
    cand_masks, cand_numbers = _candidate_arrays(contexts, cards_of, owners)
    return Parts(
        np.array(masks, dtype=np.uint64).reshape(n, MASKS),
        np.array(numbers, dtype=np.float32).reshape(n, SCALARS),
        cand_masks,
        cand_numbers,
        owners,
    )
