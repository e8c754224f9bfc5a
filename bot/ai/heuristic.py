"""The heuristic player: one look at the trick, the cards still out and the hand.

Every legal card gets a value in points: what the trick is likely to bring the seat's side
(the chance of taking it, from which later seats may still beat the card), minus what the
card is worth kept for later (trumps, masters, cards of a cante still to sing, the trump 7
that can be exchanged). ``choose_card`` plays for the normal robot, with beliefs drawn
from the view; ``playout_card`` is the same policy for a full state where every hand is
known, as in the sampled deals of the hard robot's playouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine.actions import Action, Kind
from bot.engine.cards import (
    HIGHER,
    KINGS_MASK,
    KNIGHTS_MASK,
    PAIR_MASK,
    POINTS,
    RANK_OF,
    SUIT_MASK,
    beats,
    card,
    mask_of,
    trick_best,
)
from bot.engine.options import Scoring, StockDuty, Variant
from bot.engine.round import EXCHANGE_BY_SEVEN, EXCHANGE_BY_TWO, Round
from bot.engine.view import SeatView

from .knowledge import Knowledge

FREE: Final = 0
TRUMP_DUTY: Final = 1
FULL: Final = 2

TUTE_BONUS: Final = 300.0
_STRENGTH: Final = tuple(c % 10 for c in range(40))


class Beliefs:
    """Where the cards a seat cannot see may be, for one decision: ``known[s]`` the cards
    certainly in seat ``s``'s hand, ``pool[s]`` the unseen cards it may hold and
    ``hidden[s]`` how many of those it holds; ``outside`` every card the other seats hold
    or may hold, the stock included. Each seat's hand is taken as a uniform draw from its
    pool."""

    __slots__ = ("hidden", "known", "outside", "pool")

    def __init__(
        self, known: Sequence[int], pool: Sequence[int], hidden: Sequence[int], outside: int
    ) -> None:
        self.known = known
        self.pool = pool
        self.hidden = hidden
        self.outside = outside

    def p_any(self, seat: int, mask: int) -> float:
        """The chance that ``seat`` holds a card of ``mask``."""
        if self.known[seat] & mask:
            return 1.0
        return 1.0 - self._none(seat, mask)

    def p_none(self, seat: int, mask: int) -> float:
        """The chance that ``seat`` holds no card of ``mask``."""
        if self.known[seat] & mask:
            return 0.0
        return self._none(seat, mask)

    def _none(self, seat: int, mask: int) -> float:
        pool = self.pool[seat]
        k = (pool & mask).bit_count()
        if not k:
            return 1.0
        h = self.hidden[seat]
        u = pool.bit_count()
        if h > u - k:
            return 0.0
        p = 1.0
        for i in range(h):
            p *= (u - k - i) / (u - i)
        return p


def beliefs_of(know: Knowledge) -> Beliefs:
    n = know.players
    pool = [0 if s == know.seat else know.unseen & ~know.void[s] for s in range(n)]
    outside = know.unseen
    for s in range(n):
        if s != know.seat:
            outside |= know.known[s]
    return Beliefs(know.known, pool, know.hidden, outside)


@dataclass(frozen=True, slots=True)
class Situation:
    """The facts one card choice depends on. ``duty``: FREE, TRUMP_DUTY or FULL;
    ``cantes_on``: a trick won now may be followed by a cante; ``sung``: the suits sung
    (bits); ``swap_card``: a trump 7 or 2 that may still be exchanged, worth ``swap_gain``."""

    seat: int
    n: int
    side_of: Sequence[int]
    leader: int
    trick: Sequence[int]
    best: int
    best_seat: int
    trump: int
    legal: int
    hand: int
    duty: int
    last: bool
    cantes_on: bool
    sung: int
    lost40: bool
    tute_on: bool
    swap_card: int
    swap_gain: float


def _p_beat(b: Beliefs, seat: int, x: int, led: int, trump: int, duty: int) -> float:
    """The chance that ``seat``, still to play, can beat ``x`` holding the trick."""
    trumps = SUIT_MASK[trump]
    xs = x // 10
    if duty == FREE or (duty == TRUMP_DUTY and led != trump):
        m = HIGHER[x]
        if xs != trump:
            m |= trumps
        return b.p_any(seat, m)
    if duty == TRUMP_DUTY:
        return b.p_any(seat, HIGHER[x])
    if xs == led:
        p = b.p_any(seat, HIGHER[x])
        if led != trump and p < 1.0:
            p += b.p_none(seat, SUIT_MASK[led]) * b.p_any(seat, trumps)
        return p if p < 1.0 else 1.0
    return b.p_none(seat, SUIT_MASK[led]) * b.p_any(seat, HIGHER[x])


def _pair_values(st: Situation) -> list[tuple[int, float]]:
    """(pair mask, cante value) for each cante the seat holds and may still sing."""
    out: list[tuple[int, float]] = []
    if not st.cantes_on:
        return out
    hand = st.hand
    for suit in range(4):
        pair = PAIR_MASK[suit]
        if hand & pair == pair and not st.sung >> suit & 1:
            if suit == st.trump:
                if not st.lost40:
                    out.append((pair, 40.0))
            else:
                out.append((pair, 20.0))
    return out


def choose_card(st: Situation, b: Beliefs) -> int:
    """The card to play: the legal card of highest value."""
    legal = st.legal
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    trump = st.trump
    seat = st.seat
    n = st.n
    side_of = st.side_of
    my = side_of[seat]
    trick = st.trick
    pos = len(trick)
    later = (
        [(st.leader + k) % n for k in range(pos + 1, n)]
        if pos
        else [(seat + k) % n for k in range(1, n)]
    )
    led = trick[0] // 10 if pos else -1
    tp = 0
    for c in trick:
        tp += POINTS[c]
    if st.last:
        tp += 10
    extra = 2 * len(later)
    pairs = _pair_values(st)
    pair_cards = 0
    for pair, _ in pairs:
        pair_cards |= pair
    tute_cards = 0
    if st.tute_on:
        if st.hand & KINGS_MASK == KINGS_MASK:
            tute_cards |= KINGS_MASK
        if st.hand & KNIGHTS_MASK == KNIGHTS_MASK:
            tute_cards |= KNIGHTS_MASK
    outside = b.outside
    duty = st.duty
    best_value = -1e9
    best_card = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        suit = c // 10
        # who holds the trick once c is down
        if not pos:
            hc, hs, lead_suit = c, seat, suit
        elif beats(c, st.best, trump):
            hc, hs, lead_suit = c, seat, led
        else:
            hc, hs, lead_suit = st.best, st.best_seat, led
        if side_of[hs] == my:
            p = 1.0
            for s in later:
                if side_of[s] != my:
                    p *= 1.0 - _p_beat(b, s, hc, lead_suit, trump, duty)
                    if p <= 0.0:
                        break
        else:
            p = 0.0
            for s in later:
                if side_of[s] == my:
                    q = 0.6 * _p_beat(b, s, hc, lead_suit, trump, duty)
                    if q > p:
                        p = q
        # what c is worth kept
        if suit == trump:
            keep = 4.0 + 0.9 * _STRENGTH[c]
        elif not HIGHER[c] & outside:
            keep = 2.5
        else:
            keep = 0.0
        bonus = 0.0
        if pair_cards >> c & 1:
            for pair, value in pairs:
                if pair >> c & 1:
                    keep += 0.5 * value
                elif value > bonus:
                    bonus = value
        else:
            for _, value in pairs:
                if value > bonus:
                    bonus = value
        if tute_cards:
            if tute_cards >> c & 1:
                keep += TUTE_BONUS
            else:
                bonus = TUTE_BONUS
        if c == st.swap_card:
            keep += st.swap_gain
        stake = tp + POINTS[c] + extra
        value = p * (stake + bonus) - (1.0 - p) * stake - keep - 0.01 * _STRENGTH[c]
        if value > best_value:
            best_value = value
            best_card = c
    return best_card


def _can_beat(hand: int, x: int, led: int, trump: int, duty: int) -> int:
    """Whether a known hand, still to play, can beat ``x`` holding the trick (nonzero)."""
    if duty == FREE or (duty == TRUMP_DUTY and led != trump):
        if x // 10 == trump:
            return hand & HIGHER[x]
        return hand & (HIGHER[x] | SUIT_MASK[trump])
    if duty == TRUMP_DUTY:
        return hand & HIGHER[x]
    if x // 10 == led:
        if hand & HIGHER[x]:
            return 1
        return led != trump and not hand & SUIT_MASK[led] and hand & SUIT_MASK[trump]
    return not hand & SUIT_MASK[led] and hand & HIGHER[x]


def playout_card(r: Round, legal: int) -> int:
    """``choose_card`` for the seat on turn of a full state, every hand known: the
    policy of the hard robot's playouts, written out for speed."""
    seat = r.turn
    hands = r.hands
    hand = hands[seat]
    trump = r.trump
    n = r.n
    side_of = r.side_of
    my = side_of[seat]
    trick = r.trick
    pos = len(trick)
    leader = r.leader
    later = (
        [(leader + k) % n for k in range(pos + 1, n)]
        if pos
        else [(seat + k) % n for k in range(1, n)]
    )
    led = trick[0] // 10 if pos else -1
    to_draw = r.to_draw
    options = r.options
    habanero = r.variant is Variant.HABANERO
    duty = _duty(r.variant, options.stock_duty, to_draw)
    tp = 0
    for c in trick:
        tp += POINTS[c]
    if not to_draw and not hand & (hand - 1):
        tp += 10
    extra = 2 * len(later)
    outside = 0
    for s in range(n):
        if s != seat:
            outside |= hands[s]
    if to_draw:
        outside |= mask_of(r.stock)
    pairs: list[tuple[int, float]] = []
    pair_cards = 0
    if options.scoring is not Scoring.SIXTY_FIVE and (not habanero or to_draw > 2):
        sung = r.sung_mask
        for suit in range(4):
            pair = PAIR_MASK[suit]
            if hand & pair == pair and not sung >> suit & 1:
                if suit != trump:
                    pairs.append((pair, 20.0))
                    pair_cards |= pair
                elif not r.lost40[seat]:
                    pairs.append((pair, 40.0))
                    pair_cards |= pair
    tute_cards = 0
    if options.allow_tute and not r.sang[seat]:
        if hand & KINGS_MASK == KINGS_MASK:
            tute_cards |= KINGS_MASK
        if hand & KNIGHTS_MASK == KNIGHTS_MASK:
            tute_cards |= KNIGHTS_MASK
    swap_card = -1
    swap_gain = 0.0
    if habanero and to_draw and options.exchange:
        swap_card, swap_gain = _swap(r.variant, True, r.turned, trump, hand)
    best = r.best_card
    best_seat = r.best_seat
    best_value = -1e9
    best_card = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        suit = c // 10
        if not pos:
            hc, hs, lead_suit = c, seat, suit
        elif beats(c, best, trump):
            hc, hs, lead_suit = c, seat, led
        else:
            hc, hs, lead_suit = best, best_seat, led
        if side_of[hs] == my:
            p = 1.0
            for s in later:
                if side_of[s] != my and _can_beat(hands[s], hc, lead_suit, trump, duty):
                    p = 0.0
                    break
        else:
            p = 0.0
            for s in later:
                if side_of[s] == my and _can_beat(hands[s], hc, lead_suit, trump, duty):
                    p = 0.6
        if suit == trump:
            keep = 4.0 + 0.9 * _STRENGTH[c]
        elif not HIGHER[c] & outside:
            keep = 2.5
        else:
            keep = 0.0
        bonus = 0.0
        for pair, value in pairs:
            if pair >> c & 1:
                keep += 0.5 * value
            elif value > bonus:
                bonus = value
        if tute_cards:
            if tute_cards >> c & 1:
                keep += TUTE_BONUS
            else:
                bonus = TUTE_BONUS
        if c == swap_card:
            keep += swap_gain
        stake = tp + POINTS[c] + extra
        value = p * (stake + bonus) - (1.0 - p) * stake - keep - 0.01 * _STRENGTH[c]
        if value > best_value:
            best_value = value
            best_card = c
    return best_card


# ------------------------------------------------------------------ situations


def _swap(
    variant: Variant, exchange: bool, turned_under: int, trump: int, hand: int
) -> tuple[int, float]:
    """The trump 7 (or 2) in hand that may still be exchanged for the turned card."""
    if variant is not Variant.HABANERO or not exchange or turned_under < 0:
        return -1, 0.0
    rank = RANK_OF[turned_under]
    if rank in EXCHANGE_BY_SEVEN:
        mine = card(7, trump)
    elif rank in EXCHANGE_BY_TWO:
        mine = card(2, trump)
    else:
        return -1, 0.0
    if not hand >> mine & 1:
        return -1, 0.0
    return mine, 2.0 + POINTS[turned_under] + 0.5 * _STRENGTH[turned_under]


def _duty(variant: Variant, stock_duty: StockDuty, to_draw: int) -> int:
    if variant is Variant.HABANERO and to_draw:
        if stock_duty is StockDuty.FREE:
            return FREE
        if stock_duty is StockDuty.TRUMP:
            return TRUMP_DUTY
    return FULL


def _cantes_on(variant: Variant, scoring: Scoring, to_draw: int) -> bool:
    """A trick won now could still be followed by a cante."""
    if scoring is Scoring.SIXTY_FIVE:
        return False
    return variant is not Variant.HABANERO or to_draw > 2


def view_situation(view: SeatView) -> Situation:
    """The situation of the viewing seat, from its view."""
    hand = mask_of(view.hand)
    legal = 0
    for a in view.legal:
        if a.kind is Kind.PLAY:
            legal |= 1 << a.arg
    trick = [c for _, c in view.trick]
    best_seat, best = trick_best(view.trick, view.trump)
    side_of = tuple(
        next(i for i, side in enumerate(view.sides) if s in side) for s in range(view.players)
    )
    habanero = view.variant is Variant.HABANERO
    under = view.turned if habanero and view.stock_left else -1
    swap_card, swap_gain = _swap(view.variant, view.options.exchange, under, view.trump, hand)
    sung = 0
    for cante in view.cantes:
        sung |= 1 << cante.suit
    return Situation(
        view.seat,
        view.players,
        side_of,
        view.leader,
        trick,
        best,
        best_seat,
        view.trump,
        legal,
        hand,
        _duty(view.variant, view.options.stock_duty, view.stock_left),
        not view.stock_left and len(view.hand) == 1,
        _cantes_on(view.variant, view.options.scoring, view.stock_left),
        sung,
        view.lost40,
        bool(view.options.allow_tute) and not view.sang[view.seat],
        swap_card,
        swap_gain,
    )


# ---------------------------------------------------------------- declarations


def wanted_declaration(view: SeatView) -> Action | None:
    """The declaration every robot makes when it may: tute, a claim that holds, the
    exchange, then a cante (the 40 first). Capote, resigning and bidding are decided
    elsewhere."""
    singing = view.options.scoring is not Scoring.SIXTY_FIVE
    sings: list[Action] = []
    exchange: Action | None = None
    for a in view.legal:
        kind = a.kind
        if kind is Kind.TUTE:
            return a
        if kind is Kind.CLAIM and view.scores[view.my_side] >= view.options.target:
            return a
        if kind is Kind.EXCHANGE:
            exchange = a
        elif kind is Kind.SING and singing:
            sings.append(a)
    if exchange is not None:
        return exchange
    if sings:
        return max(sings, key=lambda a: (a.arg == view.trump, -a.arg))
    return None


def playout_declaration(r: Round, acts: list[Action]) -> Action | None:
    """The same policy inside a playout, from the full state."""
    sings: list[Action] = []
    exchange: Action | None = None
    singing = r.options.scoring is not Scoring.SIXTY_FIVE
    for a in acts:
        kind = a.kind
        if kind is Kind.PLAY:
            continue
        if kind is Kind.TUTE:
            return a
        if kind is Kind.CLAIM and r.side_score(r.side_of[a.seat]) >= r.options.target:
            return a
        if kind is Kind.EXCHANGE:
            exchange = a
        elif kind is Kind.SING and singing:
            sings.append(a)
    if exchange is not None:
        return exchange
    if sings:
        return max(sings, key=lambda a: (a.arg == r.trump, -a.arg))
    return None


def hand_strength(hand: Sequence[int], trump: int, n: int) -> float:
    """A rough count of the points a hand should take in arrastrado."""
    mask = mask_of(hand)
    value = 0.0
    for c in hand:
        value += POINTS[c]
        if c // 10 == trump:
            value += 7.0 + _STRENGTH[c]
        elif _STRENGTH[c] == 9:
            value += 6.0
    for suit in range(4):
        if mask & PAIR_MASK[suit] == PAIR_MASK[suit]:
            value += 40.0 if suit == trump else 20.0
    return value * 3.0 / n


def normal_bid(view: SeatView) -> Action:
    """Bid the lowest contract with a strong hand, else pass."""
    passing = next(a for a in view.legal if a.kind is Kind.PASS)
    bids = [a for a in view.legal if a.kind is Kind.BID]
    if not bids:
        return passing
    lowest = min(bids, key=lambda a: a.arg)
    if hand_strength(view.hand, view.trump, view.players) >= lowest.arg + 25:
        return lowest
    return passing


def normal_card(view: SeatView, know: Knowledge) -> int:
    return choose_card(view_situation(view), beliefs_of(know))
