"""The robots' one entry point: the action a seat takes now, from its own view only."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from enum import Enum

from bot.engine.actions import Action, Kind
from bot.engine.events import Phase
from bot.engine.view import SeatView

from .declarations import bidding, normal_bid, wanted_declaration
from .endings import capote_sweeps
from .heuristic import normal_card
from .knowledge import infer
from .search import Searched, hard_action
from .solver import Deadline


class Level(str, Enum):
    """How well a robot plays. EASY: a random legal card, though it still sings, exchanges
    and declares. NORMAL: one look at the trick, with what it remembers of the cards played
    and the suits each seat has shown it lacks. HARD: search over the deals that agree with
    its view and with what the silences say (a side that won a trick and sang nothing holds
    no pair it could sing), its playouts ending with exact play of the last tricks; exact
    once habanero's stock is empty."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def choose_action(
    view: SeatView,
    level: Level,
    rng: random.Random,
    budget: float = 0.4,
    clock: Callable[[], float] = time.perf_counter,
    searched: Searched | None = None,
) -> Action | None:
    """The action this seat takes now, always one of ``view.legal``; None when it has
    nothing to do (no legal action, or only declarations it does not want, such as a
    resignation or a capote it cannot make while another seat is to play).

    Declarations come first: call again until the seat plays a card or returns None.
    ``budget`` bounds the thinking time in seconds of ``clock`` (the hard level uses it; a
    test may give a counter for a clock, so that the search does not depend on the
    machine's speed). A search adds the deals it sampled to ``searched``."""
    if not view.legal:
        return None
    if level is Level.HARD:
        return hard_action(view, rng, budget, clock, searched)
    if level is Level.NORMAL:
        return _normal_action(view)
    return _easy_action(view, rng)


def _easy_action(view: SeatView, rng: random.Random) -> Action | None:
    declaration = wanted_declaration(view)
    if view.phase is Phase.AUCTION:
        if declaration is not None or not bidding(view):
            return declaration
        return next(a for a in view.legal if a.kind is Kind.PASS)
    if declaration is not None:
        return declaration
    plays = [a for a in view.legal if a.kind is Kind.PLAY]
    return rng.choice(plays) if plays else None


def _normal_action(view: SeatView) -> Action | None:
    if view.phase is Phase.AUCTION:
        declaration = wanted_declaration(view)  # the turned card taken during the auction
        if declaration is not None or not bidding(view):
            return declaration
        return normal_bid(view)
    know = infer(view)
    announce = next((a for a in view.legal if a.kind is Kind.CAPOTE), None)
    if announce is not None and not know.unseen and capote_sweeps(view, know, Deadline(math.inf)):
        return announce
    declaration = wanted_declaration(view)
    if declaration is not None:
        return declaration
    if not any(a.kind is Kind.PLAY for a in view.legal):
        return None
    return Action.play(view.seat, normal_card(view, know))
