"""What a seat can infer from its view, and full deals sampled consistent with it.

Everything here reads a ``SeatView`` only: the seat's own hand and what the table saw.
From the tricks it infers which cards a seat cannot hold (a seat that did not follow the
led suit has none of it; one that did not beat when the duty made it beat has nothing
higher), and it places the cards shown by cantes, exchanges and the turned card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.engine.actions import Kind
from bot.engine.cards import KING, KNIGHT, SUIT_OF, beats, card, cards_of, mask_of
from bot.engine.deal import Deal
from bot.engine.dealing import dealing_of
from bot.engine.duty import duty_of, duty_tiers
from bot.engine.events import exchange_card
from bot.engine.options import ExchangeWindow, Scoring, SingUntil, StockDuty, Variant
from bot.engine.variants import VARIANTS
from bot.engine.view import SeatView, determinize


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What ``seat`` knows of where the cards are.

    ``unseen``: cards in other hands or in the face-down stock, place unknown.
    ``known[s]``: cards certainly in seat ``s``'s hand (the seat's own hand for itself).
    ``void[s]``: cards seat ``s`` certainly does not hold now.
    ``limits[s]``: ``(mask, most)``: seat ``s`` holds at most ``most`` unseen cards of
    ``mask`` (habanero: what it lacked before drawing more cards).
    ``hidden[s]``: how many unseen cards seat ``s`` holds.
    ``stock_hidden``: face-down stock cards (habanero)."""

    seat: int
    players: int
    played: int
    unseen: int
    known: tuple[int, ...]
    void: tuple[int, ...]
    limits: tuple[tuple[tuple[int, int], ...], ...]
    hidden: tuple[int, ...]
    stock_hidden: int


def _initial_draw(view: SeatView) -> int:
    """The cards to draw before the first trick, the turned card included (0 without a
    stock)."""
    if not VARIANTS[view.variant].has_stock:
        return 0
    dealing = dealing_of(view.variant, view.options)
    return dealing.deck.bit_count() - view.players * dealing.hand_size


def all_tricks(view: SeatView) -> list[tuple[int, tuple[int, ...]]]:
    """(leader, cards) of every trick so far, the one on the table last."""
    out = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        out.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    return out


def _constraints(view: SeatView) -> list[tuple[int, int, int]]:
    """(seat, mask it lacked, trick index) from the duty in force at each play."""
    out: list[tuple[int, int, int]] = []
    trump = view.trump
    options = view.options
    side_of = view.side_of
    initial = _initial_draw(view)
    for index, (leader, cards) in enumerate(all_tricks(view)):
        order = view.order(leader)
        duty = duty_of(view.variant, options, initial - 2 * index)
        if duty is StockDuty.FREE or not cards:
            continue
        led = SUIT_OF[cards[0]]
        best, best_seat = cards[0], leader
        for k in range(1, len(cards)):
            seat = order[k]
            c = cards[k]
            spare = (
                not options.beat_partner
                and best_seat != seat
                and side_of[best_seat] == side_of[seat]
            )
            tiers = duty_tiers(led, best, trump, duty, options.undertrump, spare, options.overtrump)
            out += [(seat, mask, index) for mask in _lacked(tiers, c)]
            if beats(c, best, trump):
                best, best_seat = c, seat
    return out


def _lacked(tiers: tuple[int, ...], c: int) -> list[int]:
    """What playing ``c`` under a duty of ``tiers`` shows its seat lacked: every tier before
    the first that holds ``c``, each on its own (a seat that has drawn since may hold a few
    of one). A tier inside the next one lacked says nothing more and is left out."""
    before: list[int] = []
    for tier in tiers:
        if tier >> c & 1:
            break
        before.append(tier)
    return [tier for i, tier in enumerate(before) if i + 1 == len(before) or tier & ~before[i + 1]]


def infer(view: SeatView) -> Knowledge:
    """Everything the seat can tell about the cards it cannot see."""
    n = view.players
    me = view.seat
    mine = mask_of(view.hand)
    played = 0
    for _, cards in all_tricks(view):
        played |= mask_of(cards)
    out = 0
    if view.table_card is not None:
        out |= 1 << view.table_card
    stocked = VARIANTS[view.variant].has_stock
    if stocked and view.stock_left > 0:
        out |= 1 << view.turned  # face up under the stock, drawn last
    if view.pending is not None:
        out |= 1 << view.pending[1]  # put under it, out of its holder's hand
    known = [0] * n
    known[me] = mine
    for seat, c in view.shown:
        if seat != me and not (played | mine) >> c & 1:
            known[seat] |= 1 << c
    known_all = 0
    for seat in range(n):
        if seat != me:
            known_all |= known[seat]
    unseen = dealing_of(view.variant, view.options).deck & ~mine & ~played & ~out & ~known_all
    hidden = [0 if s == me else max(0, view.hand_sizes[s] - known[s].bit_count()) for s in range(n)]
    stock_hidden = max(0, view.stock_left - 1) if stocked else 0
    void = [0] * n
    limits: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    initial = _initial_draw(view)
    done = len(view.tricks)
    for seat, mask, index in _constraints(view):
        if seat == me:
            continue
        drawn = 0
        if stocked:
            # cards drawn by this seat after that trick may be of the suit it lacked then
            drawn = sum(1 for j in range(index, done) if initial - 2 * j > 0)
        if drawn == 0:
            void[seat] |= mask
        else:
            limits[seat].append((mask, drawn))
    # when every unseen card is placed, they are known (habanero once the stock is empty)
    others = [s for s in range(n) if s != me and hidden[s]]
    if stock_hidden == 0 and len(others) == 1:
        known[others[0]] |= unseen
        hidden[others[0]] = 0
        unseen = 0
    for seat in range(n):
        void[seat] &= ~known[seat]
    return Knowledge(
        seat=me,
        players=n,
        played=played,
        unseen=unseen,
        known=tuple(known),
        void=tuple(void),
        limits=tuple(tuple(x) for x in limits),
        hidden=tuple(hidden),
        stock_hidden=stock_hidden,
    )


def _fits_limits(hand: int, limits: tuple[tuple[int, int], ...]) -> bool:
    return all((hand & mask).bit_count() <= most for mask, most in limits)


def sample_hands(know: Knowledge, rng: random.Random) -> tuple[list[int], list[int]]:
    """Hidden cards dealt at random consistent with ``know``: the hand mask of every seat
    (the viewer's own included) and the face-down stock, next card first."""
    n = know.players
    me = know.seat
    pool = cards_of(know.unseen)
    rng.shuffle(pool)
    hands = list(know.known)
    others = [s for s in range(n) if s != me and know.hidden[s]]
    constrained = any(know.void[s] or know.limits[s] for s in others)
    if not constrained:
        i = 0
        for s in others:
            k = know.hidden[s]
            hands[s] |= mask_of(pool[i : i + k])
            i += k
        return hands, pool[i:]
    for _ in range(40):
        dealt = _deal_constrained(know, pool, rng)
        if dealt is not None:
            hand_masks, stock = dealt
            for s in others:
                hands[s] |= hand_masks[s]
            return hands, stock
        rng.shuffle(pool)
    # the inferences contradict each other (a seat broke no rule we know of): drop them
    i = 0
    for s in others:
        k = know.hidden[s]
        hands[s] |= mask_of(pool[i : i + k])
        i += k
    return hands, pool[i:]


def _deal_constrained(
    know: Knowledge, pool: list[int], rng: random.Random
) -> tuple[list[int], list[int]] | None:
    """Deal the shuffled pool: the most constrained cards first, each to a seat that may
    take it, chosen in proportion to the room left; None on a dead end."""
    n = know.players
    me = know.seat
    room = [0 if s == me else know.hidden[s] for s in range(n)]
    stock_room = know.stock_hidden
    takers: list[tuple[int, int, list[int]]] = []
    for c in pool:
        seats = [s for s in range(n) if room[s] and not know.void[s] >> c & 1]
        takers.append((len(seats), c, seats))
    takers.sort(key=lambda t: t[0])  # stable: the shuffle breaks ties at random
    hands = [0] * n
    stock: list[int] = []
    for _, c, seats in takers:
        total = stock_room
        for s in seats:
            total += room[s]
        if total <= 0:
            return None
        pick = rng.randrange(total)
        if pick < stock_room:
            stock.append(c)
            stock_room -= 1
            continue
        pick -= stock_room
        chosen = -1
        for s in seats:
            if pick < room[s]:
                chosen = s
                break
            pick -= room[s]
        hands[chosen] |= 1 << c
        room[chosen] -= 1
    for s in range(n):
        if s != me and not _fits_limits(hands[s], know.limits[s]):
            return None
    rng.shuffle(stock)
    return hands, stock


def sample_world(view: SeatView, know: Knowledge, rng: random.Random) -> Deal:
    """A full deal consistent with the view, ready to be played on."""
    hands, stock = sample_hands(know, rng)
    return determinize(view, [cards_of(h) for h in hands], stock)


# ------------------------------------------------------------------ silences


@dataclass(frozen=True, slots=True)
class _Window:
    """A side's chance to declare after the trick it won (``trick``: its index)."""

    winner: int
    trick: int
    sung_before: int
    turned: int
    sang: bool
    exchanged: bool


def _closed_windows(view: SeatView) -> list[_Window]:
    """Every window to declare that closed (the next card was played, or with
    ``sing_until: next_trick`` the next trick completed), oldest first."""
    n = view.seating.players  # the cards of a trick
    closes_at = n - 1 if view.options.sing_until is SingUntil.NEXT_TRICK else 0
    windows: list[_Window] = []
    plays = 0
    sung = 0
    turned = view.exchanges[0].took if view.exchanges else view.turned
    open_at: tuple[int, int, int, int] | None = None  # winner, trick, sung, turned
    sang = exchanged = False
    for action in view.history:
        kind = action.kind
        if kind is Kind.PLAY:
            if open_at is not None and plays % n == closes_at:
                windows.append(_Window(*open_at, sang=sang, exchanged=exchanged))
                open_at = None
            plays += 1
            if plays % n == 0 and plays // n <= len(view.tricks):
                t = plays // n - 1
                open_at = (view.tricks[t].winner, t, sung, turned)
                sang = exchanged = False
        elif kind is Kind.SING:
            sang = True
            sung |= 1 << action.arg
        elif kind is Kind.EXCHANGE:
            exchanged = True
            turned = -1  # one swap a deal: nothing is exchanged any more
    return windows


def silences(view: SeatView, know: Knowledge) -> Knowledge:
    """``know`` with what the seats that kept quiet did not hold: a side that won a trick
    and sang nothing held no pair of a suit still unsung (every robot sings when it can,
    and so do players, the 40 first); a habanero trick winner that did not exchange held no
    trump 7 (or 2) to exchange. Only for the hand a seat still holds with nothing drawn
    since (a card drawn later may have made the pair)."""
    me = view.seat
    n = view.players
    options = view.options
    habanero = view.variant is Variant.HABANERO
    # a pair just drawn may not be singable (``sing_drawn``); an exchange may wait for a
    # later window or be announced at any time (``exchange_window``)
    singing = options.scoring is not Scoring.SIXTY_FIVE and (options.sing_drawn or not habanero)
    swapping = options.exchange and options.exchange_window is ExchangeWindow.BEFORE_LEAD
    initial = _initial_draw(view)
    done = len(view.tricks)
    played_by: dict[int, tuple[int, int]] = {}  # card: (seat, trick index)
    for index, (leader, cards) in enumerate(all_tricks(view)):
        order = view.order(leader)
        for k, c in enumerate(cards):
            played_by[c] = (order[k], index)
    mine = mask_of(view.hand)
    void = list(know.void)
    limits = [list(x) for x in know.limits]
    side_of = view.side_of
    for w in _closed_windows(view):
        drew = any(initial - 2 * j > 0 for j in range(w.trick + 1, done))
        if drew or (habanero and initial - 2 * (w.trick + 1) <= 0):
            continue  # cards drawn since, or no declaring once the stock is gone
        if singing and not w.sang:
            for seat in view.sides[side_of[w.winner]]:
                if seat != me:
                    _no_pairs(seat, w, played_by, mine, know, void, limits)
        if habanero and swapping and not w.exchanged and w.winner != me:
            e = exchange_card(w.turned, view.trump)
            if e >= 0 and e not in played_by and not mine >> e & 1:
                void[w.winner] |= 1 << e
    for seat in range(n):
        void[seat] &= ~know.known[seat]
    return replace(know, void=tuple(void), limits=tuple(tuple(x) for x in limits))


def _no_pairs(
    seat: int,
    w: _Window,
    played_by: dict[int, tuple[int, int]],
    mine: int,
    know: Knowledge,
    void: list[int],
    limits: list[list[tuple[int, int]]],
) -> None:
    """``seat`` held no pair of a suit unsung at window ``w``: say what that leaves."""
    for suit in range(4):
        if w.sung_before >> suit & 1:
            continue
        king, knight = card(KING, suit), card(KNIGHT, suit)
        if (mine >> king | mine >> knight) & 1:
            continue
        held: list[int] = []  # of the two, those the seat certainly held at the window
        free: list[int] = []
        for c in (king, knight):
            where = played_by.get(c)
            if where is None:
                if know.known[seat] >> c & 1:
                    held.append(c)
                else:
                    free.append(c)
            elif where[0] == seat and where[1] > w.trick:
                held.append(c)
            # else: out of its hand at the window (played before, or by another seat)
        if len(held) + len(free) < 2:
            continue
        if len(held) == 2:
            continue  # a contradiction: it may not sing as we think; say nothing
        if held:
            void[seat] |= 1 << free[0]
        else:
            limits[seat].append((1 << king | 1 << knight, 1))
