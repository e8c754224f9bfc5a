"""The nodes of the exact solver's alpha-beta search (``exact``), over bit masks.

Every function here is made by a ``make_`` function for one table of play and one
maximising side, bound to an ``Env`` whose hands each move changes and restores: ``close``
plays a trick's last seat, ``follow`` a seat neither first nor last, ``expand`` searches the
leads of a position the table of positions has not settled, and the last trick plays
itself. Values are the maximising side's; a seat of the other side works on them negated,
so that every seat maximises.

The order of the moves (``exact`` tells it) is made here, for a lead by ``_leads`` and
for a follower by ``_make_ordered``; the trick boundaries, their table and bounds, and
the root of a search are ``exact``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.engine.cards import POINTS, SUIT_MASK, TAKERS
from bot.engine.duty import playable
from bot.engine.options import StockDuty

from .solver import LAST_TRICK

_FULL: Final = StockDuty.FULL
_ZERO: Final = sum(1 << c for c in range(40) if not POINTS[c])
"""Cards worth nothing: the 2, 4, 5, 6 and 7 of each suit, next to each other in strength."""
_INF: Final = 1 << 20
"""Beyond any value: a node's best before its first move."""
_RANKS: Final = tuple(sum(1 << (s + i) for s in range(0, 40, 10)) for i in range(10))
_BY_POINTS: Final = (
    (_ZERO, _RANKS[5], _RANKS[6], _RANKS[7], _RANKS[8], _RANKS[9]),
    (_RANKS[9], _RANKS[8], _RANKS[7], _RANKS[6], _RANKS[5], _ZERO),
)
"""Cards by points, cheapest first ([False]) or dearest first ([True])."""


@dataclass(frozen=True, slots=True)
class TableOfPlay:
    """What the search of one deal's card play depends on besides the hands."""

    trump: int
    players: int
    seats: tuple[int, ...]
    """The seats that play, lowest first (in arrastrado with four, one sits out)."""
    next_seat: tuple[int, ...]
    side_of: tuple[int, ...]
    sides: int
    undertrump: bool
    spare: bool
    """``beat_partner`` is off: a seat need not beat its partner's card."""
    overtrump: bool


Follow = Callable[[int, int, int, int, int, int, int, int, int], int]
"""``follow(seat, k, led, best, bseat, pts, rem, a, b)``: the value of a trick's middle
seat to play, its ``k``-th card (from 0); see ``make_follow``."""
Close = Callable[[int, int, int, int, int, int, int, int], int]
"""``close(seat, led, best, bseat, pts, rem, a, b)``: the value of a trick's last seat to
play; see ``make_close``."""
Boundary = Callable[[int, int, int, int], int]
"""``boundary(leader, rem, a, b)``: the value of a trick's lead; see ``exact``."""


class Env:
    """What every function of one search reads: the hands (one mask per seat and a last
    slot always empty, changed and restored by every move) and the table of play, seen
    from the maximising side."""

    __slots__ = (
        "hands",
        "key_seats",
        "last_k",
        "mine",
        "next_seat",
        "options",
        "sparing",
        "takers",
        "trump",
    )

    def __init__(self, t: TableOfPlay, max_side: int) -> None:
        n_seats = len(t.next_seat)
        self.hands = [0] * (n_seats + 1)
        pad = list(t.seats) + [n_seats] * (4 - len(t.seats))
        self.key_seats = (pad[0], pad[1], pad[2], pad[3])
        self.trump = t.trump
        self.takers = TAKERS[t.trump]
        self.next_seat = t.next_seat
        self.mine = tuple(t.side_of[s] == max_side for s in range(n_seats))
        """``mine[seat]``: the seat plays for the maximising side."""
        self.last_k = t.players - 1
        side_of = t.side_of
        self.sparing = tuple(
            tuple(t.spare and b != s and side_of[b] == side_of[s] for s in range(n_seats))
            for b in range(n_seats)
        )
        """``sparing[holder][seat]``: ``seat`` need not beat its partner ``holder``."""
        self.options = (t.undertrump, t.overtrump)


def _collapse(legal: int, low: int, outside: int) -> int:
    """``legal`` less the zero-point cards (``low``, two or more) that play like a weaker
    one of the same hand: nothing of ``outside`` (the other hands, the card holding the
    trick) lies between them. Zero-point cards are next to each other in strength, so
    four steps up reach from any to any of its suit."""
    free = ~outside
    x = low << 1 & free
    x |= x << 1 & free
    x |= x << 1 & free
    x |= x << 1 & free
    return legal ^ (x & low)


def _make_ordered(env: Env) -> Callable[[int, int, bool, int, int], list[int]]:
    hands = env.hands
    s0, s1, s2, s3 = env.key_seats
    zero = _ZERO

    def ordered(legal: int, wins: int, friendly: bool, hand: int, best: int) -> list[int]:
        """The cards of ``legal`` (two or more) to try at a follower holding ``hand``, one
        of each set that plays alike: those that do not take the trick, the dearest first
        if the seat's side holds it (points to the side), else the cheapest first; then
        those that take it (``wins``), the weakest first. Under full duty the legal cards
        are mostly all of one kind or the other."""
        low = legal & zero
        if low & (low - 1):
            free = ~((hands[s0] | hands[s1] | hands[s2] | hands[s3]) ^ hand | 1 << best)
            x = low << 1 & free
            x |= x << 1 & free
            x |= x << 1 & free
            x |= x << 1 & free
            legal ^= x & low
            wins &= legal
        moves: list[int] = []
        m = legal ^ wins
        if not m or (legal.bit_length() - 1) // 10 == ((legal & -legal).bit_length() - 1) // 10:
            if friendly:  # one suit, where strength follows points: the dearest loser first
                while m:
                    c = m.bit_length() - 1
                    moves.append(c)
                    m ^= 1 << c
                m = wins
            else:
                m = legal
        else:
            for g in _BY_POINTS[friendly]:
                x = m & g
                while x:
                    low = x & -x
                    moves.append(low.bit_length() - 1)
                    x ^= low
            m = wins
        while m:
            low = m & -m
            moves.append(low.bit_length() - 1)
            m ^= low
        return moves

    return ordered


def make_last_trick(env: Env) -> Callable[[int, int], int]:
    hands = env.hands
    takers = env.takers
    nxt = env.next_seat
    mine = env.mine
    others = env.last_k
    bonus = LAST_TRICK

    def last_trick(leader: int, rem: int) -> int:
        """One card in each hand: the trick plays itself; ``rem``: their points."""
        best = hands[leader].bit_length() - 1
        bseat = s = leader
        for _ in range(others):
            s = nxt[s]
            c = hands[s].bit_length() - 1
            if takers[best] >> c & 1:
                best = c
                bseat = s
        return rem + bonus if mine[bseat] else 0

    return last_trick


def make_close(env: Env, boundary: list[Boundary]) -> Close:
    """The last seat of a trick; ``boundary[0]``, set once it exists, values the next lead.
    Values are the maximising side's; a seat of the other side works on them negated, so
    that every seat maximises."""
    hands = env.hands
    trump = env.trump
    takers = env.takers
    mine = env.mine
    sparing = env.sparing
    under, over = env.options
    last_trick = make_last_trick(env)
    ordered = _make_ordered(env)
    points = POINTS
    full = _FULL
    bonus = LAST_TRICK

    def close(
        seat: int, led: int, best: int, bseat: int, pts: int, rem: int, a: int, b: int
    ) -> int:
        """``seat`` plays the trick's last card; ``rem``: the points still in the hands;
        the value counts the trick's ``pts`` already on the table."""
        hand = hands[seat]
        take = takers[best]
        maxing = mine[seat]
        left = hand.bit_count() - 1
        if left:
            legal = playable(hand, led, best, trump, full, under, sparing[bseat][seat], over)
            moves = (
                ordered(legal, legal & take, mine[bseat] == maxing, hand, best)
                if legal & (legal - 1)
                else (legal.bit_length() - 1,)
            )
        else:
            moves = (hand.bit_length() - 1,)
        value = -_INF
        lo, hi = (a, b) if maxing else (-b, -a)
        search = boundary[0]
        for c in moves:
            pc = points[c]
            ns = seat if take >> c & 1 else bseat
            g = pts + pc if mine[ns] else 0
            hands[seat] = hand ^ 1 << c
            if left > 1:
                v = g + search(ns, rem - pc, a - g, b - g)
            elif left:
                v = g + last_trick(ns, rem - pc)
            else:
                v = g + bonus if mine[ns] else 0
            hands[seat] = hand
            if not maxing:
                v = -v
            if v > value:
                value = v
                if v > lo:
                    if v >= hi:
                        break
                    lo = v
                    a, b = (lo, hi) if maxing else (-hi, -lo)
        return value if maxing else -value

    return close


def make_follow(env: Env, close: Close) -> Follow:
    """A seat of a trick neither first nor last; values as for ``make_close``."""
    hands = env.hands
    trump = env.trump
    takers = env.takers
    nxt = env.next_seat
    mine = env.mine
    sparing = env.sparing
    under, over = env.options
    last_k = env.last_k
    ordered = _make_ordered(env)
    points = POINTS
    full = _FULL

    def follow(
        seat: int, k: int, led: int, best: int, bseat: int, pts: int, rem: int, a: int, b: int
    ) -> int:
        """``seat`` plays the trick's card number ``k`` (from 0), a later seat plays the
        last; ``rem``: the points still in the hands; the value counts the trick's ``pts``
        already on the table."""
        hand = hands[seat]
        take = takers[best]
        maxing = mine[seat]
        if hand & (hand - 1):
            legal = playable(hand, led, best, trump, full, under, sparing[bseat][seat], over)
            moves = (
                ordered(legal, legal & take, mine[bseat] == maxing, hand, best)
                if legal & (legal - 1)
                else (legal.bit_length() - 1,)
            )
        else:
            moves = (hand.bit_length() - 1,)
        nseat = nxt[seat]
        nk = k + 1
        then = close if nk == last_k else None
        value = -_INF
        lo, hi = (a, b) if maxing else (-b, -a)
        for c in moves:
            pc = points[c]
            hands[seat] = hand ^ 1 << c
            if take >> c & 1:
                nb = c
                ns = seat
            else:
                nb = best
                ns = bseat
            if then is None:
                v = follow(nseat, nk, led, nb, ns, pts + pc, rem - pc, a, b)
            else:
                v = then(nseat, led, nb, ns, pts + pc, rem - pc, a, b)
            hands[seat] = hand
            if not maxing:
                v = -v
            if v > value:
                value = v
                if v > lo:
                    if v >= hi:
                        break
                    lo = v
                    a, b = (lo, hi) if maxing else (-hi, -lo)
        return value if maxing else -value

    return follow


def _leads(hand: int, outside: int, first: int, trumps: int) -> list[int]:
    """The cards to lead, in the order to try them: the table's best first, then the
    weakest first, trumps last, one of each set of zero-point cards that play alike."""
    low = hand & _ZERO
    if low & (low - 1):
        hand = _collapse(hand, low, outside)
    moves: list[int] = []
    if first >= 0 and hand >> first & 1:
        moves.append(first)
        hand ^= 1 << first
    m = hand & ~trumps
    while m:
        low = m & -m
        moves.append(low.bit_length() - 1)
        m ^= low
    m = hand & trumps
    while m:
        low = m & -m
        moves.append(low.bit_length() - 1)
        m ^= low
    return moves


Table = dict[int, tuple[int, int, int]]
"""Positions at a trick's lead (every hand, one table per leader): the value's lower and
upper bounds and the best lead."""


def make_expand(
    env: Env, follow: Follow, close: Close
) -> Callable[[int, int, int, int, int, int, int, int, Table], int]:
    """The search of a lead not settled by the table: the next seat plays with ``follow``,
    or ``close`` with two seats. Values as for ``make_close``."""
    hands = env.hands
    nxt = env.next_seat
    duo = env.last_k == 1
    s0, s1, s2, s3 = env.key_seats
    mine = env.mine
    points = POINTS
    trumps = SUIT_MASK[env.trump]

    def expand(
        leader: int, rem: int, a: int, b: int, lo: int, hi: int, first: int, key: int, table: Table
    ) -> int:
        """Search the leads in the window (``a``, ``b``) and store what it proves beside
        the bounds ``lo``, ``hi`` known before."""
        hand = hands[leader]
        maxing = mine[leader]
        value = -_INF
        move = -1
        sa, sb = (a, b) if maxing else (-b, -a)
        wa, wb = sa, sb
        outside = (hands[s0] | hands[s1] | hands[s2] | hands[s3]) ^ hand
        for c in _leads(hand, outside, first, trumps):
            hands[leader] = hand ^ 1 << c
            pc = points[c]
            v = (
                close(nxt[leader], c // 10, c, leader, pc, rem - pc, a, b)
                if duo
                else follow(nxt[leader], 1, c // 10, c, leader, pc, rem - pc, a, b)
            )
            hands[leader] = hand
            if not maxing:
                v = -v
            if v > value:
                value = v
                move = c
                if v > wa:
                    if v >= wb:
                        break
                    wa = v
                    a, b = (wa, wb) if maxing else (-wb, -wa)
        if value <= sa:  # failed low for the seat to lead
            lo, hi = (lo, value) if maxing else (-value, hi)
        elif value >= sb:
            lo, hi = (value, hi) if maxing else (lo, -value)
        else:
            lo = hi = value if maxing else -value
        table[key] = (lo, hi, move)
        return value if maxing else -value

    return expand
