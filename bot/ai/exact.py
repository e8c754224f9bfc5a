"""Exact play of the cards once nothing is left to draw, in every variant.

With every hand known and no stock, the rest of a deal is a game of perfect information:
``ExactSolver`` plays it out by alpha-beta search over bit masks (no ``Deal`` inside the
search), from a trick boundary or from the middle of a trick. The duty is the engine's
``playable`` with the table's options, as ``Deal`` asks it; a trick goes to the card that
``beats`` the others (``TAKERS``).

The value of a position is the points the side of a ``perspective`` seat takes from there
on: the card points of the tricks still to close (the cards already on the table
included) and the 10 of the last trick. Every other seat plays to keep that number low
(the paranoid reading); with two sides (habanero, pairs) that is the exact minimax value,
and the other side's value is the complement.

Cantes are not modelled: a cante is a declaration the engine rules on (the 40 first, a
suit sung once, the windows, the presets), and restating those rules inside the search
would make a second statement of them. The
search values card points and the last ten only; ``exact_finish`` plays the cards it
chooses through the engine, where declarations are made by ``playout_declaration`` as in
the robots' playouts, so the final result does include them. Nor is a running capote
(habanero): the play is legal, chosen for points.

The search: alpha-beta, the value of each root card found by null-window searches
(MTD(f)); a transposition table at trick boundaries keyed on every hand, one per leader,
storing a lower and an upper bound and the best lead. The tables of one perspective are
kept across calls (and across sampled deals with the same trump and table: a position
holds everything its future depends on), so the successive moves of one finish are
nearly free. Leads are tried the table's best first, then the weakest first, trumps
last; a follower throws its dearest cards when its side holds the trick, else its
cheapest, then takes the trick with its weakest winner. Zero-point cards of one suit
with nothing between them outside the hand (the card holding the trick counts) are
tried once; the last trick plays itself; a boundary stops at once when its window lies
outside the points still out less those the other side surely takes (trumps above all of
its opponents') or below those its own side surely takes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.engine.actions import Action, Kind
from bot.engine.cards import POINTS, SUIT_MASK, TAKERS
from bot.engine.deal import Deal
from bot.engine.duty import playable
from bot.engine.events import Phase
from bot.engine.options import StockDuty

from .declarations import declare_in_playout
from .solver import LAST_TRICK, Deadline, OutOfTime

CHECK_EVERY: Final = 1024
"""Trick boundaries searched between two readings of the deadline's clock."""
MAX_ENTRIES: Final = 500_000
"""Positions kept, all tables together (about 150 bytes each); past this many, the tables
are emptied before the next search."""
MAX_TABLES: Final = 8
"""Tables kept for distinct tables of play (trump, seating, options); the oldest goes."""

_FULL: Final = StockDuty.FULL
_PLAY: Final = Kind.PLAY
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
_POINT10: Final = tuple(sum(POINTS[c] for c in range(10) if x >> c & 1) for x in range(1024))
"""The points of the cards of one suit, as a 10-bit mask by strength."""


@dataclass(frozen=True, slots=True)
class _Table:
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


def _table_of(r: Deal) -> _Table:
    options = r.options
    first = r.leader
    seats = [first]
    s = r.next_seat[first]
    while s != first:
        seats.append(s)
        s = r.next_seat[s]
    return _Table(
        trump=r.trump,
        players=r.players,
        seats=tuple(sorted(seats)),
        next_seat=tuple(r.next_seat),
        side_of=tuple(r.side_of),
        sides=len(r.sides),
        undertrump=options.undertrump,
        spare=not options.beat_partner,
        overtrump=options.overtrump,
    )


Follow = Callable[[int, int, int, int, int, int, int, int, int], int]
"""``follow(seat, k, led, best, bseat, pts, rem, a, b)``: the value of a trick's middle
seat to play, its ``k``-th card (from 0); see ``_make_follow``."""
Close = Callable[[int, int, int, int, int, int, int, int], int]
"""``close(seat, led, best, bseat, pts, rem, a, b)``: the value of a trick's last seat to
play; see ``_make_close``."""
Boundary = Callable[[int, int, int, int], int]
"""``boundary(leader, rem, a, b)``: the value of a trick's lead; see ``_make_boundary``."""


class _Env:
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

    def __init__(self, t: _Table, max_side: int) -> None:
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


def _make_ordered(env: _Env) -> Callable[[int, int, bool, int, int], list[int]]:
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


def _make_last_trick(env: _Env) -> Callable[[int, int], int]:
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


def _make_close(env: _Env, boundary: list[Boundary]) -> Close:
    """The last seat of a trick; ``boundary[0]``, set once it exists, values the next lead.
    Values are the maximising side's; a seat of the other side works on them negated, so
    that every seat maximises."""
    hands = env.hands
    trump = env.trump
    takers = env.takers
    mine = env.mine
    sparing = env.sparing
    under, over = env.options
    last_trick = _make_last_trick(env)
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


def _make_follow(env: _Env, close: Close) -> Follow:
    """A seat of a trick neither first nor last; values as for ``_make_close``."""
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


def _sure(x: int, y: int, shift: int) -> int:
    """Points that the holder ``x`` of cards surely takes against ``y``: its trumps above
    every trump of ``y`` each take the trick they fall in (a trump is never thrown away:
    the highest trump of a trick takes it)."""
    xt = x >> shift & 1023
    yt = y >> shift & 1023
    if xt < yt:
        return 0
    n = yt.bit_length()
    return _POINT10[xt >> n << n]


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


def _make_expand(
    env: _Env, follow: Follow, close: Close
) -> Callable[[int, int, int, int, int, int, int, int, Table], int]:
    """The search of a lead not settled by the table: the next seat plays with ``follow``,
    or ``close`` with two seats. Values as for ``_make_close``."""
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


def _make_boundary(
    env: _Env,
    tables: list[Table],
    counter: list[int],
    check: Callable[[], None],
    expand: Callable[[int, int, int, int, int, int, int, int, Table], int],
) -> Boundary:
    """A trick's lead: the last trick played out, the bounds (points still out, trumps
    sure to take), the table of positions, else ``expand``."""
    hands = env.hands
    s0, s1, s2, s3 = env.key_seats
    mine = env.mine
    last_trick = _make_last_trick(env)
    bonus = LAST_TRICK
    shift = 10 * env.trump
    ours = [s for s in range(len(mine)) if mine[s]] + [len(mine)] * 2
    m0, m1 = ours[0], ours[1]

    def boundary(leader: int, rem: int, a: int, b: int) -> int:
        """The value of a trick boundary with ``leader`` to lead; ``rem``: the points in
        the hands."""
        counter[0] += 1
        if not counter[0] & (CHECK_EVERY - 1):
            check()
        hand = hands[leader]
        if not hand & (hand - 1):
            return last_trick(leader, rem)
        key = hands[s0] | hands[s1] << 40 | hands[s2] << 80 | hands[s3] << 120
        table = tables[leader]
        found = table.get(key)
        if found is None:
            every = hands[s0] | hands[s1] | hands[s2] | hands[s3]
            mine_ = hands[m0] | hands[m1]
            lo = _sure(mine_, every ^ mine_, shift)
            hi = rem + bonus - _sure(every ^ mine_, mine_, shift)
            first = -1
        else:
            lo, hi, first = found
        if lo >= b or lo == hi:
            return lo
        if hi <= a:
            return hi
        return expand(leader, rem, max(a, lo), min(b, hi), lo, hi, first, key, table)

    return boundary


class _Search:
    """The search for one table of play and one maximising side: the caller sets
    ``hands``, every move restores them; ``after`` values a card played at the root."""

    __slots__ = ("boundary", "close", "entries", "env", "follow", "nodes")

    def __init__(self, t: _Table, max_side: int, check: Callable[[], None]) -> None:
        env = _Env(t, max_side)
        self.env = env
        self.entries: list[Table] = [{} for _ in t.next_seat]
        self.nodes = [0]
        link: list[Boundary] = []
        self.close = _make_close(env, link)
        self.follow = _make_follow(env, self.close)
        expand = _make_expand(env, self.follow, self.close)
        self.boundary = _make_boundary(env, self.entries, self.nodes, check, expand)
        link.append(self.boundary)

    @property
    def hands(self) -> list[int]:
        return self.env.hands

    def maxing(self, seat: int) -> bool:
        return self.env.mine[seat]

    def after(self, root: _Root, c: int, a: int, b: int) -> int:
        """The value once the seat on turn at ``root`` plays ``c``, searched in the window
        (``a``, ``b``)."""
        env = self.env
        hands = env.hands
        seat = root.seat
        hand = hands[seat]
        hands[seat] = hand ^ 1 << c
        try:
            return self._after(root, c, a, b)
        finally:
            hands[seat] = hand

    def _after(self, root: _Root, c: int, a: int, b: int) -> int:
        env = self.env
        seat, k, led, best, bseat = root.seat, root.k, root.led, root.best, root.bseat
        pc = POINTS[c]
        p = root.pts + pc
        rem = root.rem - pc
        if k == 0:
            led = c // 10
        if k == 0 or env.takers[best] >> c & 1:
            best = c
            bseat = seat
        nseat = env.next_seat[seat]
        if k + 1 < env.last_k:
            return self.follow(nseat, k + 1, led, best, bseat, p, rem, a, b)
        if k + 1 == env.last_k:
            return self.close(nseat, led, best, bseat, p, rem, a, b)
        gain = p if env.mine[bseat] else 0
        if not env.hands[bseat]:
            return gain + LAST_TRICK if env.mine[bseat] else 0
        return gain + self.boundary(bseat, rem, a - gain, b - gain)


def _representatives(legal: int, outside: int) -> dict[int, int]:
    """Each card of ``legal`` mapped to the weakest card it plays alike: zero-point cards
    of one suit with no card of ``outside`` (the other hands, the card holding the trick)
    ranked between them."""
    out: dict[int, int] = {}
    previous = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if (
            previous >= 0
            and previous // 10 == c // 10
            and not POINTS[c]
            and not POINTS[previous]
            and not outside & ((1 << c) - (2 << previous))
        ):
            out[c] = out[previous]
        else:
            out[c] = c
        previous = c
    return out


@dataclass(frozen=True, slots=True)
class _Root:
    """The position a search starts from: the seat on turn, the trick so far, the points
    in the hands and on the table."""

    seat: int
    k: int
    led: int
    best: int
    bseat: int
    pts: int
    rem: int
    legal: dict[int, int]

    @property
    def total(self) -> int:
        return self.rem + self.pts + LAST_TRICK


def _root(r: Deal) -> _Root:
    if r.to_draw or r.phase is not Phase.PLAY:
        raise ValueError("the exact solver needs cards in play and nothing left to draw")
    seat = r.turn
    hand = r.hands[seat]
    rem = 0
    everything = 0
    for h in r.hands:
        everything |= h
    m = everything
    while m:
        low = m & -m
        rem += POINTS[low.bit_length() - 1]
        m ^= low
    trick = r.trick
    outside = everything ^ hand
    if trick:
        outside |= 1 << r.best_card
        return _Root(
            seat,
            len(trick),
            trick[0] // 10,
            r.best_card,
            r.best_seat,
            sum(POINTS[c] for c in trick),
            rem,
            _representatives(r.play_mask(), outside),
        )
    return _Root(seat, 0, -1, -1, -1, 0, rem, _representatives(hand, outside))


class ExactSolver:
    """Exact card play of deals with nothing left to draw; the tables it fills are kept
    for its later calls. It gives up (``OutOfTime``) once ``deadline`` has passed."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self._searches: dict[tuple[_Table, int], _Search] = {}
        self._nodes = 0

    @property
    def nodes(self) -> int:
        """Trick boundaries searched so far (table hits included)."""
        return self._nodes + sum(s.nodes[0] for s in self._searches.values())

    def _check(self) -> None:
        if self.deadline.passed():
            raise OutOfTime

    def _search(self, r: Deal, perspective: int) -> tuple[_Search, bool]:
        """The search for ``perspective``'s side, loaded with ``r``'s hands, and whether
        its values are the other side's (two sides share one table)."""
        t = _table_of(r)
        side = r.side_of[perspective]
        if side < 0:
            raise ValueError(f"seat {perspective} does not play this deal")
        flip = t.sides == 2 and side != 0
        if flip:
            side = 0
        key = (t, side)
        search = self._searches.get(key)
        if search is None:
            if len(self._searches) >= MAX_TABLES:
                oldest = next(iter(self._searches))
                self._nodes += self._searches.pop(oldest).nodes[0]
            search = self._searches[key] = _Search(t, side, self._check)
        if sum(len(e) for s in self._searches.values() for e in s.entries) > MAX_ENTRIES:
            for s in self._searches.values():
                for e in s.entries:
                    e.clear()
        hands = search.hands
        for seat, h in enumerate(r.hands):
            hands[seat] = h
        return search, flip

    def card_values(self, r: Deal, perspective: int | None = None) -> dict[int, int]:
        """For each legal card of the seat on turn: the points its side (or
        ``perspective``'s side) takes from here on if that card is played and everyone then
        plays best, the cards on the table and the last ten included. Raises OutOfTime."""
        root = _root(r)
        search, flip = self._search(r, root.seat if perspective is None else perspective)
        total = root.total
        values: dict[int, int] = {}
        guess = total // 2
        for c, same in root.legal.items():
            if same != c:
                values[c] = values[same]
                continue
            guess = _mtdf(search, root, c, guess, 0, total)
            values[c] = total - guess if flip else guess
        return values

    def best_card(self, r: Deal) -> int:
        """The card the seat on turn plays for its own side's most points; among equals
        the weakest. Raises OutOfTime."""
        root = _root(r)
        search, _ = self._search(r, root.seat)
        maxing = search.maxing(root.seat)
        total = root.total
        cards = sorted(set(root.legal.values()), key=lambda c: (c % 10, c))
        best = cards[0]
        best_v = _mtdf(search, root, best, total // 2, 0, total)
        for c in cards[1:]:
            if maxing:  # a lower bound past the best so far: then its exact value
                v = search.after(root, c, best_v, best_v + 1)
                if v > best_v:
                    best, best_v = c, _mtdf(search, root, c, v, v, total)
            else:
                v = search.after(root, c, best_v - 1, best_v)
                if v < best_v:
                    best, best_v = c, _mtdf(search, root, c, v, 0, v)
        return best


def _mtdf(search: _Search, root: _Root, c: int, guess: int, lo: int, hi: int) -> int:
    """The exact value of playing ``c`` at ``root``, known to lie in [``lo``, ``hi``], by
    null-window searches from ``guess``."""
    g = min(max(guess, lo), hi)
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search.after(root, c, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


def affordable(r: Deal, max_cards: int) -> bool:
    """Whether ``r`` is for the exact solver: cards in play, nothing left to draw, and at
    most ``max_cards`` cards in the hands."""
    return not r.finished and not r.to_draw and sum(h.bit_count() for h in r.hands) <= max_cards


def exact_finish(r: Deal, deadline: Deadline, solver: ExactSolver | None = None) -> None:
    """Play ``r`` (nothing left to draw) to the end: every seat plays the solver's best
    card for its own side, declarations by ``playout_declaration`` as in the playouts
    (``search.playout``).
    A ``solver`` given is kept (its tables serve the next finish) and its deadline
    becomes ``deadline``. Raises OutOfTime."""
    if solver is None:
        solver = ExactSolver(deadline)
    else:
        solver.deadline = deadline
    while not r.finished:
        if r.sing_side >= 0 and declare_in_playout(r):
            continue
        m = r.play_mask()
        seat = r.turn
        c = solver.best_card(r) if m & m - 1 else m.bit_length() - 1
        r.apply(Action.play(seat, c))
