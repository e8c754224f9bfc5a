"""Play deals and games between robots, checking every answer against the view."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.ai import Level, choose_action
from bot.engine import Action, Deal, Game, Options, Variant, seat_view, shuffle_deal

BUDGET = 0.003
"""The hard robots' thinking budget in these games, in seconds of a ``CountingClock`` (a
millisecond a reading): a sampled deal or two a decision, the same on any machine."""


class CountingClock:
    """A clock for the robots that moves ``tick`` seconds each time it is read, and keeps
    its readings: their search then does the same work on any machine, however fast."""

    def __init__(self, tick: float = 0.001) -> None:
        self.tick = tick
        self.readings: list[float] = []

    def __call__(self) -> float:
        now = len(self.readings) * self.tick
        self.readings.append(now)
        return now


def ask(r: Deal, seat: int, level: Level, rng: random.Random, budget: float) -> Action | None:
    """The robot's action, checked against the view; it thinks on a ``CountingClock``."""
    view = seat_view(r, seat)
    action = choose_action(view, level, rng, budget, clock=CountingClock())
    if action is not None:
        assert action in view.legal, f"{level.value} chose {action}, not in the view's legal"
    return action


def play_deal(
    r: Deal, levels: Sequence[Level], rngs: Sequence[random.Random], budget: float = BUDGET
) -> None:
    """Ask the robots until the deal ends; seats off turn may declare first, the seat on
    turn must always do something."""
    steps = 0
    while not r.finished:
        steps += 1
        assert steps < 600, "the deal does not end"
        move(r, lambda seat: ask(r, seat, levels[seat], rngs[seat], budget))


def move(r: Deal, decide: Callable[[int], Action | None]) -> Action:
    """The next action of the deal, applied: a seat off turn that declares (asked in seat
    order), else the seat on turn, which must do something."""
    for seat in sorted({a.seat for a in r.legal_actions() if a.seat != r.turn}):
        action = decide(seat)
        if action is not None:
            r.apply(action)
            return action
    action = decide(r.turn)
    assert action is not None, f"seat {r.turn} is on turn and does nothing"
    r.apply(action)
    return action


def play_game(
    variant: Variant, options: Options, levels: Sequence[Level], seed: int, budget: float = BUDGET
) -> Game:
    """A whole game (several deals in habanero) between the given levels."""
    rng = random.Random(seed)
    seats = options.seats_at(variant)
    rngs = [random.Random(seed * 10 + seat) for seat in range(seats)]
    game = Game(variant, options, dealer=seed % seats)
    deals = 0
    while not game.finished:
        r = Deal(shuffle_deal(variant, options, game.dealer, rng, game.carry))
        play_deal(r, levels, rngs, budget)
        game.end_deal(r)
        deals += 1
        assert deals < 40, "the game does not end"
    return game
