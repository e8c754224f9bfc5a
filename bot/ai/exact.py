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
its opponents') or below those its own side surely takes. The nodes inside a trick, the
lead's search and the order of the moves are in ``alphabeta``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.engine.actions import Action, Kind
from bot.engine.cards import POINTS
from bot.engine.deal import Deal
from bot.engine.events import Phase

from .alphabeta import (
    Boundary,
    Env,
    Table,
    TableOfPlay,
    make_close,
    make_expand,
    make_follow,
    make_last_trick,
)
from .declarations import declare_in_playout
from .solver import LAST_TRICK, Deadline, OutOfTime

CHECK_EVERY: Final = 1024
"""Trick boundaries searched between two readings of the deadline's clock."""
MAX_ENTRIES: Final = 500_000
"""Positions kept, all tables together (about 150 bytes each); past this many, the tables
are emptied before the next search."""
MAX_TABLES: Final = 8
"""Tables kept for distinct tables of play (trump, seating, options); the oldest goes."""

_PLAY: Final = Kind.PLAY
_POINT10: Final = tuple(sum(POINTS[c] for c in range(10) if x >> c & 1) for x in range(1024))
"""The points of the cards of one suit, as a 10-bit mask by strength."""


def _table_of(r: Deal) -> TableOfPlay:
    options = r.options
    first = r.leader
    seats = [first]
    s = r.next_seat[first]
    while s != first:
        seats.append(s)
        s = r.next_seat[s]
    return TableOfPlay(
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


def _make_boundary(
    env: Env,
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
    last_trick = make_last_trick(env)
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

    def __init__(self, t: TableOfPlay, max_side: int, check: Callable[[], None]) -> None:
        env = Env(t, max_side)
        self.env = env
        self.entries: list[Table] = [{} for _ in t.next_seat]
        self.nodes = [0]
        link: list[Boundary] = []
        self.close = make_close(env, link)
        self.follow = make_follow(env, self.close)
        expand = make_expand(env, self.follow, self.close)
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
        self._searches: dict[tuple[TableOfPlay, int], _Search] = {}
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
