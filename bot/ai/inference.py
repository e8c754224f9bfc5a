"""Inference from the plays: how well a sampled deal explains what the other seats did.

A sampled deal (``knowledge.sample_world``) agrees with every rule the table saw: the
suits a seat lacked, the pairs a quiet side did not hold. It does not yet say whether the
seats would have played as they did with those cards. ``PlayModel`` replays the deal from
its first card with the sampled hands and asks, at each play of another seat that had a
real choice, what the robots' own card policy would have played there, seeing only its
hand and the table (``heuristic.blind_card``): every play it would not have made
multiplies the deal's weight by ``MISS``. The
search then counts each deal by its weight, so deals in which the others' plays make sense
count more than deals in which they look like mistakes.

It reads the view and the sampled deal only: the weight of a deal depends on its cards
and on the public history, never on the cards the seat cannot see in the real deal.

The hands at the start of the deal are the sampled hands with the cards each seat played.
Habanero is not weighed: with a stock, a seat's plays say too little of its hand to this
policy (``benchmarks/card_locations.py``: weighed deals place fewer hidden cards right than
plain ones), and the hands change with every draw. Nor is a plato auction.
"""

from __future__ import annotations

import math
from typing import Final

from bot.engine.actions import Action, IllegalActionError, Kind
from bot.engine.cards import POINTS, beats, cards_of
from bot.engine.deal import Deal
from bot.engine.dealing import DealtCards
from bot.engine.events import Phase
from bot.engine.view import SeatView

from .heuristic import blind_card

MISS: Final = 0.3
"""The weight a deal keeps for each play the policy would not have made: about how much
less likely an unexpected play is than the expected one."""
_LOG_MISS: Final = math.log(MISS)


class PlayModel:
    """The weight of sampled deals for one decision of ``view``'s seat."""

    __slots__ = ("_history", "_me", "_played", "_view", "active")

    def __init__(self, view: SeatView) -> None:
        self._view = view
        self._me = view.seat
        self._history = view.history
        self._played = _played(view)
        self.active = _supported(view) and any(
            a.kind is Kind.PLAY and a.seat != view.seat for a in view.history
        )

    def weight(self, world: Deal) -> float:
        """``MISS`` to the number of the other seats' plays the policy would not have made
        with the hands of ``world``; 1.0 when the deal cannot be rebuilt."""
        return MISS ** self.misses(world)

    def log_weight(self, world: Deal) -> float:
        """The log of ``weight``."""
        return self.misses(world) * _LOG_MISS

    def misses(self, world: Deal) -> int:
        """The other seats' plays the policy would not have made with ``world``'s hands."""
        if not self.active:
            return 0
        start = self.start_of(world)
        if start is None:
            return 0
        return _replay(start, self._history, self._me)

    def start_of(self, world: Deal) -> Deal | None:
        """The deal at its first card with ``world``'s hands, or None."""
        view = self._view
        hands: list[int] = []
        for s in range(view.players):
            hands.append(world.hands[s] | self._played[s])
        for e in reversed(view.exchanges):  # undo each exchange, the last first
            hands[e.seat] = hands[e.seat] & ~(1 << e.took) | 1 << e.gave
        turned = view.exchanges[0].took if view.exchanges else view.turned
        dealt = DealtCards(
            view.variant,
            view.options,
            view.dealer,
            tuple(tuple(cards_of(h)) for h in hands),
            turned,
            (),
            view.carry,
        )
        try:
            return Deal(dealt, check=False)
        except (IllegalActionError, ValueError, IndexError):
            return None


def _supported(view: SeatView) -> bool:
    """Whether the start of the deal can be rebuilt from the view."""
    if view.phase is Phase.AUCTION or view.contract is not None or view.options.plato:
        return False
    return not view.variant.has_stock


def _played(view: SeatView) -> list[int]:
    """For each seat, the cards it has played or given in an exchange."""
    out = [0] * view.players
    for action in view.history:
        if action.kind is Kind.PLAY:
            out[action.seat] |= 1 << action.arg
    for e in view.exchanges:
        out[e.seat] |= 1 << e.gave
    return out


def _replay(r: Deal, history: tuple[Action, ...], me: int) -> int:
    misses = 0
    try:
        for action in history:
            if action.kind is Kind.PLAY and action.seat != me:
                m = r.play_mask()
                if m & (m - 1):
                    guess = blind_card(r, m)
                    if guess != action.arg and not _alike(r, guess, action.arg):
                        misses += 1
            r.apply(action)
    except IllegalActionError:
        return 0
    return misses


def _alike(r: Deal, a: int, b: int) -> bool:
    """Two cards that do the same on this trick: same suit and points, and both take it
    or neither does."""
    if a // 10 != b // 10 or POINTS[a] != POINTS[b]:
        return False
    if not r.trick:
        return False
    best, trump = r.best_card, r.trump
    return beats(a, best, trump) == beats(b, best, trump)
