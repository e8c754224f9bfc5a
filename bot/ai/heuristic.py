"""The heuristic player: one look at the trick, the cards still out and the hand.

Every legal card gets a value in points: what the trick is likely to bring the seat's side
(the chance of taking it, from which later seats may still beat the card), minus what the
card is worth kept for later (trumps, masters, cards of a cante still to sing, the trump 7
that can be exchanged). ``choose_card`` plays for the normal robot, with beliefs drawn
from the view; ``playout_card`` is the same policy for a full state where every hand is
known, as in the sampled deals of the hard robot's playouts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine.actions import Kind
from bot.engine.cards import (
    HIGHER,
    KINGS_MASK,
    KNIGHTS_MASK,
    PAIR_MASK,
    POINTS,
    TAKERS,
    beats,
    mask_of,
    trick_best,
)
from bot.engine.deal import Deal
from bot.engine.duty import duty_of, duty_tiers, playable
from bot.engine.events import exchange_card
from bot.engine.options import Scoring, StockDuty
from bot.engine.variants import VARIANTS, Variant, seating
from bot.engine.view import SeatView

from .knowledge import Knowledge

TUTE_BONUS: Final = 300.0
_STRENGTH: Final = tuple(c % 10 for c in range(40))
_NO_CANTES: Final[tuple[int, Sequence[float]]] = (0, (0.0, 0.0, 0.0, 0.0))
_NO_BONUS: Final[tuple[Sequence[float], float]] = ((0.0, 0.0, 0.0, 0.0), 0.0)
_NO_SWAP: Final[tuple[int, float]] = (-1, 0.0)

Chance = Callable[[int, int, int], float]
"""``chance(card, seat, led)``: the chance that the choosing seat's side takes the trick
that ``card``, played by ``seat``, holds once the choosing seat has played."""


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

    def p_take(self, seat: int, tiers: tuple[int, ...], over: int) -> float:
        """The chance that ``seat``, still to play, can take the trick with a card of
        ``over``: the duty makes it play from the first of ``tiers`` it holds a card of, so
        add up, tier by tier, holding none of the earlier ones and a taker in this one
        (each taken apart from the other, the belief's usual shortcut)."""
        p = 0.0
        earlier = 0
        for tier in tiers:
            mask = tier & over & ~earlier
            if mask:
                p += (self.p_none(seat, earlier) if earlier else 1.0) * self.p_any(seat, mask)
                if p >= 1.0:
                    return 1.0
            earlier |= tier
        return p

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


@dataclass(slots=True)
class Situation:
    """The facts one card choice depends on, read from a seat's view (``view_situation``)
    or from a full state (``round_situation``). ``rivals`` and ``partners``: the seats of
    each kind still to play to the trick after this one; ``duty``: the duty in force;
    ``last``: the trick is the last one; ``cantes``: the cards of the cantes the seat holds
    and may still sing after winning this trick, with each suit's value; ``tute_cards``:
    the four kings or knights it may still declare; ``swap_card``: a trump 7 or 2 that may
    still be exchanged, worth ``swap_gain``. Not frozen: the playouts build one for every
    card they choose."""

    seat: int
    side_of: Sequence[int]
    rivals: Sequence[int]
    partners: Sequence[int]
    trick: Sequence[int]
    best: int
    best_seat: int
    trump: int
    legal: int
    duty: StockDuty
    undertrump: bool
    overtrump: bool
    last: bool
    cantes: tuple[int, Sequence[float]]
    tute_cards: int
    swap_card: int
    swap_gain: float


def choose_card(st: Situation, b: Beliefs) -> int:
    """The card to play: the legal card of highest value, with beliefs about the hands."""
    legal = st.legal
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    return _best_card(st, b.outside, _BelievedHands(st, b).chance)


def playout_card(r: Deal, legal: int) -> int:
    """``choose_card`` for the seat on turn of a full state, every hand known: the policy
    of the hard robot's playouts, where the chance of taking a trick is 0 or 1."""
    st = round_situation(r, legal)
    hands = r.hands
    outside = 0
    for s in range(r.n):
        if s != st.seat:
            outside |= hands[s]
    if r.to_draw:
        outside |= mask_of(r.stock)
    return _best_card(st, outside, _KnownHands(st, hands).chance)


def blind_card(r: Deal, legal: int) -> int:
    """``choose_card`` for the seat on turn of a full state as if it saw only its own hand
    and the table: every other hand a uniform draw from the cards that seat cannot see.
    What a seat would play by this policy, for weighing sampled deals by their plays."""
    st = round_situation(r, legal)
    hands = r.hands
    outside = 0
    hidden = [0] * r.n
    for s in range(r.n):
        if s != st.seat:
            outside |= hands[s]
            hidden[s] = hands[s].bit_count()
    if r.to_draw:
        outside |= mask_of(r.stock)
    pool = [0 if s == st.seat else outside for s in range(r.n)]
    b = Beliefs([0] * r.n, pool, hidden, outside)
    return _best_card(st, outside, _BelievedHands(st, b).chance)


class _BelievedHands:
    """The chance of taking the trick, from beliefs about the hands still to play."""

    __slots__ = ("b", "st")

    def __init__(self, st: Situation, b: Beliefs) -> None:
        self.st = st
        self.b = b

    def chance(self, card: int, seat: int, led: int) -> float:
        st = self.st
        b = self.b
        tiers = duty_tiers(led, card, st.trump, st.duty, st.undertrump, False, st.overtrump)
        over = TAKERS[st.trump][card]
        if st.side_of[seat] == st.side_of[st.seat]:  # it holds unless a rival can take it
            p = 1.0
            for s in st.rivals:
                p *= 1.0 - b.p_take(s, tiers, over)
                if p <= 0.0:
                    break
            return p
        p = 0.0  # a partner may still take it; discounted, as it plays its own hand
        for s in st.partners:
            q = 0.6 * b.p_take(s, tiers, over)
            if q > p:
                p = q
        return p


class _KnownHands:
    """The same with every hand known (a playout's): whether a seat can take the trick is
    what ``playable`` lets it play."""

    __slots__ = ("hands", "st")

    def __init__(self, st: Situation, hands: Sequence[int]) -> None:
        self.st = st
        self.hands = hands

    def chance(self, card: int, seat: int, led: int) -> float:
        st = self.st
        hands = self.hands
        over = TAKERS[st.trump][card]
        if st.side_of[seat] == st.side_of[st.seat]:
            for s in st.rivals:
                if (
                    playable(
                        hands[s], led, card, st.trump, st.duty, st.undertrump, False, st.overtrump
                    )
                    & over
                ):
                    return 0.0
            return 1.0
        for s in st.partners:
            if (
                playable(hands[s], led, card, st.trump, st.duty, st.undertrump, False, st.overtrump)
                & over
            ):
                return 0.6
        return 0.0


def _best_card(st: Situation, outside: int, chance: Chance) -> int:
    """The legal card of highest value: what the trick is likely to bring the side (won
    or lost, with the cante or tute a won trick lets it declare), less what the card is
    worth kept: a trump, a master (nothing ``outside`` beats it), a card of a cante still
    to sing or of a tute, the trump 7 or 2 that may be exchanged."""
    trump, seat, trick, best = st.trump, st.seat, st.trick, st.best
    pos = len(trick)
    led = trick[0] // 10 if pos else -1
    stake_base = 2 * (len(st.rivals) + len(st.partners)) + (10 if st.last else 0)
    for c in trick:  # the points in the trick, the two of a later card, the last ten
        stake_base += POINTS[c]
    cante_cards, cante_value = st.cantes
    bonus_without, bonus_any = _best_other_cantes(cante_value) if cante_cards else _NO_BONUS
    tute_cards, swap_card = st.tute_cards, st.swap_card
    under = -1.0  # the chance with any card that leaves the trick where it is
    best_value = -1e9
    best_card = -1
    m = st.legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        suit = c // 10
        if not pos:
            p = chance(c, seat, suit)
        elif beats(c, best, trump):
            p = chance(c, seat, led)
        else:
            if under < 0.0:
                under = chance(best, st.best_seat, led)
            p = under
        if suit == trump:
            keep = 4.0 + 0.9 * _STRENGTH[c]
        elif not HIGHER[c] & outside:
            keep = 2.5
        else:
            keep = 0.0
        if cante_cards >> c & 1:  # playing it breaks its own cante; the best other one stays
            keep += 0.5 * cante_value[suit]
            bonus = bonus_without[suit]
        else:
            bonus = bonus_any
        if tute_cards:
            if tute_cards >> c & 1:
                keep += TUTE_BONUS
            else:
                bonus = TUTE_BONUS
        if c == swap_card:
            keep += st.swap_gain
        stake = stake_base + POINTS[c]
        value = p * (stake + bonus) - (1.0 - p) * stake - keep - 0.01 * _STRENGTH[c]
        if value > best_value:
            best_value = value
            best_card = c
    return best_card


def _best_other_cantes(values: Sequence[float]) -> tuple[Sequence[float], float]:
    """For each suit, the best cante of another suit (a card breaks its own suit's cante
    only), and the best of all."""
    without = [max(v for other, v in enumerate(values) if other != suit) for suit in range(4)]
    return without, max(values)


# ------------------------------------------------------------------ situations


def _cantes(
    hand: int, trump: int, sung: int, lost40: bool, variant: Variant, scoring: Scoring, to_draw: int
) -> tuple[int, Sequence[float]]:
    """The cantes ``hand`` holds and may sing after a trick won now: their cards, and each
    suit's value (40 in trumps unless lost, 20, or 0)."""
    if not hand >> 1 & hand & KNIGHTS_MASK:  # no knight with its king: the usual case
        return _NO_CANTES
    if not _cantes_on(variant, scoring, to_draw):
        return _NO_CANTES
    values = [0.0, 0.0, 0.0, 0.0]
    cards = 0
    for suit in range(4):
        pair = PAIR_MASK[suit]
        if hand & pair == pair and not sung >> suit & 1:
            if suit != trump:
                values[suit] = 20.0
                cards |= pair
            elif not lost40:
                values[suit] = 40.0
                cards |= pair
    return cards, values


def _tute_cards(hand: int) -> int:
    """The four kings or four knights ``hand`` holds, for a seat that may declare tute."""
    cards = 0
    if hand & KINGS_MASK == KINGS_MASK:
        cards |= KINGS_MASK
    if hand & KNIGHTS_MASK == KNIGHTS_MASK:
        cards |= KNIGHTS_MASK
    return cards


def _swap(exchange: bool, under_stock: int, trump: int, hand: int) -> tuple[int, float]:
    """The trump 7 (or 2) in hand that may still be exchanged for the turned card lying
    under the stock (``under_stock``, -1 when none lies there), and what that is worth."""
    if under_stock < 0 or not exchange:
        return _NO_SWAP
    mine = exchange_card(under_stock, trump)
    if mine < 0 or not hand >> mine & 1:
        return _NO_SWAP
    return mine, 2.0 + POINTS[under_stock] + 0.5 * _STRENGTH[under_stock]


def _cantes_on(variant: Variant, scoring: Scoring, to_draw: int) -> bool:
    """A trick won now could still be followed by a cante: not under sixty-five, and with
    a stock only while a draw is still to come after this trick."""
    if scoring is Scoring.SIXTY_FIVE:
        return False
    return not VARIANTS[variant].has_stock or to_draw > 2


def _later(
    seat: int, played: int, side_of: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats still to play to a trick after ``seat``, which plays its card number
    ``played`` (0 for the lead), in playing order: (rivals, partners)."""
    seats = len(side_of)
    players = sum(1 for side in side_of if side >= 0)  # a dealer sitting out plays no card
    later: list[int] = []
    s = seat
    while len(later) < players - played - 1:
        s = (s + 1) % seats
        if side_of[s] >= 0:
            later.append(s)
    rivals = tuple(s for s in later if side_of[s] != side_of[seat])
    return rivals, tuple(s for s in later if side_of[s] == side_of[seat])


_LATER: Final = {
    side_of: [
        [_later(seat, played, side_of) for played in range(len(side_of))]
        for seat in range(len(side_of))
    ]
    for side_of in {rules.side_of for rules in VARIANTS.values()}
    | {seating(Variant.ARRASTRADO, 4, dealer).side_of for dealer in range(4)}
}
"""``_later`` for every seating of the registry, looked up for every card chosen."""


def view_situation(view: SeatView) -> Situation:
    """The situation of the viewing seat, from its view."""
    hand = mask_of(view.hand)
    legal = 0
    for a in view.legal:
        if a.kind is Kind.PLAY:
            legal |= 1 << a.arg
    trick = [c for _, c in view.trick]
    best_seat, best = trick_best(view.trick, view.trump)
    options = view.options
    side_of = view.side_of
    rivals, partners = _LATER[side_of][view.seat][len(trick)]
    # while the stock has cards, the turned card lies under it (once exchanged, one swap a
    # deal: the 7 left there is taken by nobody)
    under = view.turned if view.stock_left and not view.exchanges else -1
    swap_card, swap_gain = _swap(options.exchange, under, view.trump, hand)
    sung = 0
    for cante in view.cantes:
        sung |= 1 << cante.suit
    return Situation(
        view.seat,
        side_of,
        rivals,
        partners,
        trick,
        best,
        best_seat,
        view.trump,
        legal,
        duty_of(view.variant, options, view.stock_left),
        options.undertrump,
        options.overtrump,
        not view.stock_left and len(view.hand) == 1,
        _cantes(
            hand, view.trump, sung, view.lost40, view.variant, options.scoring, view.stock_left
        ),
        _tute_cards(hand) if options.allow_tute and not view.sang[view.seat] else 0,
        swap_card,
        swap_gain,
    )


def round_situation(r: Deal, legal: int) -> Situation:
    """The situation of the seat on turn of a full state (a playout's), where ``legal`` is
    its play mask."""
    seat = r.turn
    hand = r.hands[seat]
    options = r.options
    to_draw = r.to_draw
    trump = r.trump
    rivals, partners = _LATER[r.side_of][seat][len(r.trick)]
    # the cheap tests first, here: a playout builds a situation for every card it chooses
    swap_card, swap_gain = (
        _swap(options.exchange, r.turned, trump, hand)
        if r.turned >= 0 and not r.exchanges
        else _NO_SWAP
    )
    tute_on = bool(options.allow_tute) and not r.sang[seat]
    return Situation(
        seat,
        r.side_of,
        rivals,
        partners,
        r.trick,
        r.best_card,
        r.best_seat,
        trump,
        legal,
        r.duty,
        options.undertrump,
        options.overtrump,
        not to_draw and not hand & (hand - 1),
        _cantes(hand, trump, r.sung_mask, r.lost40[seat], r.variant, options.scoring, to_draw)
        if hand >> 1 & hand & KNIGHTS_MASK
        else _NO_CANTES,
        _tute_cards(hand) if tute_on else 0,
        swap_card,
        swap_gain,
    )


def normal_card(view: SeatView, know: Knowledge) -> int:
    return choose_card(view_situation(view), beliefs_of(know))
