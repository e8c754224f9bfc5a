"""Inference from the plays: how well a sampled deal explains what the other seats did.

A sampled deal (``knowledge.sample_world``) agrees with every rule the table saw: the
suits a seat lacked, the pairs a quiet side did not hold. It does not yet say whether the
seats would have played as they did with those cards. ``PlayModel`` replays the deal from
its first card with the sampled hands and asks, at each play of another seat that had a
real choice, what the robots' own playout policy (``playout_card``) would have played
there: every play it would not have made multiplies the deal's weight by ``MISS``. The
search then counts each deal by its weight, so deals in which the others' plays make sense
count more than deals in which they look like mistakes.

It reads the view and the sampled deal only: the weight of a deal depends on its cards
and on the public history, never on the cards the seat cannot see in the real deal.

The hands at the start of the deal are rebuilt from the sampled hands and the cards each
seat played; with a stock (habanero) the cards each seat drew are placed too, at random
among the orders that let every card be in hand when it was played. A view this cannot
rebuild (a plato auction, an exchange announced under the stock) is not weighed: every
deal counts the same, as before.
"""

from __future__ import annotations

import random
from typing import Final

from bot.engine.actions import Action, IllegalActionError, Kind
from bot.engine.cards import KING, KNIGHT, POINTS, beats, card, mask_of
from bot.engine.deal import Deal
from bot.engine.dealing import DealtCards, dealing_of
from bot.engine.events import Phase
from bot.engine.options import ExchangeWindow
from bot.engine.view import SeatView

from .heuristic import blind_card

MISS: Final = 0.3
"""The weight a deal keeps for each play the policy would not have made: about how much
less likely an unexpected play is than the expected one."""

_NEVER: Final = 1 << 20


class PlayModel:
    """The weight of sampled deals for one decision of ``view``'s seat."""

    __slots__ = ("_draws", "_history", "_me", "_played", "_rng", "_view", "active")

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        self._view = view
        self._me = view.seat
        self._rng = rng
        self._history = view.history
        played = _due(view)
        self._played = played
        self._draws = _draw_rounds(view)
        self.active = _supported(view) and any(
            a.kind is Kind.PLAY and a.seat != view.seat for a in view.history
        )

    def weight(self, world: Deal) -> float:
        """``MISS`` to the number of the other seats' plays the policy would not have made
        with the hands of ``world``; 1.0 when the deal cannot be rebuilt."""
        if not self.active:
            return 1.0
        start = self.start_of(world)
        if start is None:
            return 1.0
        return _replay(start, self._history, self._me)

    def start_of(self, world: Deal) -> Deal | None:
        """The deal at its first card with ``world``'s hands, or None."""
        view = self._view
        hands: list[int] = []
        for s in range(view.players):
            held = world.hands[s] | mask_of(self._played[s])
            hands.append(held)
        for e in reversed(view.exchanges):  # undo each exchange, the last first
            hands[e.seat] = hands[e.seat] & ~(1 << e.took) | 1 << e.gave
        stock: list[int] = []
        if self._draws:
            built = self._undraw(hands, world)
            if built is None:
                return None
            stock = built
        turned = view.exchanges[0].took if view.exchanges else view.turned
        dealt = DealtCards(
            view.variant,
            view.options,
            view.dealer,
            tuple(tuple(sorted(_bits(h))) for h in hands),
            turned,
            tuple(stock),
            view.carry,
        )
        try:
            return Deal(dealt, check=False)
        except (IllegalActionError, ValueError, IndexError):
            return None

    def _undraw(self, hands: list[int], world: Deal) -> list[int] | None:
        """Take out of ``hands`` the cards drawn so far, at random among the orders that
        fit the plays, and return the stock as dealt (the next card to draw first)."""
        view = self._view
        rounds = self._draws
        drawn: list[list[int]] = [[-1, -1] for _ in rounds]
        for s in range(2):
            due = self._played[s]
            mine = hands[s]
            for k in range(len(rounds) - 1, -1, -1):
                c = self._pick(mine, due, k + 1)
                if c < 0:
                    return None
                mine &= ~(1 << c)
                drawn[k][0 if s == rounds[k] else 1] = c
            hands[s] = mine
        size = dealing_of(view.variant, view.options).hand_size
        if any(h.bit_count() != size for h in hands):
            return None
        stock = [c for pair in drawn for c in pair]
        stock += reversed(world.stock)  # world.stock pops its next card from the end
        return stock

    def _pick(self, mine: int, due: dict[int, int], needed_from: int) -> int:
        """A card of ``mine`` not needed before trick ``needed_from``, at random."""
        fits = [c for c in _bits(mine) if due.get(c, _NEVER) >= needed_from]
        if not fits:
            return -1
        return fits[self._rng.randrange(len(fits))]


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _supported(view: SeatView) -> bool:
    """Whether the start of the deal can be rebuilt from the view."""
    if view.phase is Phase.AUCTION or view.contract is not None or view.options.plato:
        return False
    if view.pending is not None:
        return False
    if view.variant.has_stock:  # once the stock is empty every card is known
        return view.stock_left > 0 and view.options.exchange_window is not ExchangeWindow.ANNOUNCE
    return True


def _due(view: SeatView) -> list[dict[int, int]]:
    """For each seat, the cards it played, sang or gave in an exchange, each with the
    number of tricks complete when it last needed the card in hand: a card drawn after
    the trick of that index came too late."""
    n = view.players
    out: list[dict[int, int]] = [{} for _ in range(n)]
    players = view.seating.players
    plays = 0
    for action in view.history:
        kind = action.kind
        if kind is Kind.PLAY:
            out[action.seat].setdefault(action.arg, plays // players)
            plays += 1
        elif kind is Kind.SING:
            done = plays // players
            for c in (card(KING, action.arg), card(KNIGHT, action.arg)):
                out[action.seat].setdefault(c, done)
        elif kind is Kind.EXCHANGE:
            for e in view.exchanges:
                if e.seat == action.seat:
                    out[e.seat].setdefault(e.gave, plays // players)
    return out


def _draw_rounds(view: SeatView) -> list[int]:
    """Habanero: the winner of each trick after which both seats drew, in order."""
    if not view.variant.has_stock:
        return []
    initial = (
        dealing_of(view.variant, view.options).deck.bit_count()
        - 2 * dealing_of(view.variant, view.options).hand_size
    )
    rounds: list[int] = []
    for k, trick in enumerate(view.tricks):
        if initial - 2 * k <= 0:
            break
        rounds.append(trick.winner)
    return rounds


def _replay(r: Deal, history: tuple[Action, ...], me: int) -> float:
    weight = 1.0
    try:
        for action in history:
            if action.kind is Kind.PLAY and action.seat != me:
                m = r.play_mask()
                if m & (m - 1):
                    guess = blind_card(r, m)
                    if guess != action.arg and not _alike(r, guess, action.arg):
                        weight *= MISS
            r.apply(action)
    except IllegalActionError:
        return 1.0
    return weight


def _alike(r: Deal, a: int, b: int) -> bool:
    """Two cards that do the same on this trick: same suit and points, and both take it
    or neither does."""
    if a // 10 != b // 10 or POINTS[a] != POINTS[b]:
        return False
    if not r.trick:
        return False
    best, trump = r.best_card, r.trump
    return beats(a, best, trump) == beats(b, best, trump)
