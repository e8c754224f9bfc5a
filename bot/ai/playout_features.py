"""The policy network's features as the playouts read them: straight from a full deal,
what changes only with a trick or a cante read once (``Reader``, kept for each deal), and
without a ``features.Public`` in between. What they give is ``features.parts`` of
``features.public_of_deal``, bit for bit: tests hold them equal on every variant.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt

from bot.engine.cards import HIGHER, KING, KNIGHT, PAIR_MASK, POINTS, SUIT_MASK, TAKERS, card
from bot.engine.deal import Deal

from .features import (
    _DUTY,
    _FULL,
    _POSITION,
    _SUIT_BITS,
    CANDIDATE,
    MASKS,
    SCALARS,
    FloatArray,
    Parts,
    Tricks,
    _constant,
    _following,
    _rotate_card,
)

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
