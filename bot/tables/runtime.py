"""What the tables run on that comes from outside the process, built once at start-up (the
composition root, ``bot.app``) and never swapped: the wall clock, how the tables' clocks
wait, where a table's seed and the daily deals' key come from, and how a robot chooses.

A test or the sandbox builds its own (a simulated clock, fixed seeds, a robot of its
choosing) and hands it to the service; nothing patches a module to change them."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.ai import Level, Searched, choose_action
from bot.engine import Action, SeatView

Robot = Callable[[SeatView, Level, random.Random, float], Action | None]
"""How a robot chooses: its view of the deal, its level, its randomness and its budget (in
seconds) -> its action (None: nothing to do)."""


def default_robot(view: SeatView, level: Level, rng: random.Random, budget: float) -> Action | None:
    return choose_action(view, level, rng, budget)


def searched_robot(
    view: SeatView,
    level: Level,
    seed: str,
    budget: float,
    due: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[Action | None, int]:
    """``default_robot``'s choice, and how many deals its search sampled (for the figures).
    ``due``: when its table wants the choice, on ``clock`` (``time.monotonic``: one clock
    for every process of the machine): a search that waited for a worker until close to then thinks
    only what is left, down to one sampled deal, so that a machine short of cores never
    keeps a table waiting much past its robot's delay."""
    if due is not None:
        budget = max(0.0, min(budget, due - clock()))
    searched = Searched()
    rng = random.Random(seed)
    return choose_action(view, level, rng, budget, searched=searched), searched.worlds


SEED_BITS = 62
"""A table's seed: 62 random bits (stored as a signed 64-bit integer)."""


def fresh_seed() -> int:
    """A table's seed, from the system's source of randomness."""
    return secrets.randbits(SEED_BITS)


def fresh_key() -> str:
    """A secret key of 256 bits, in hex (the daily deals' own, drawn once per database)."""
    return secrets.token_hex(32)


@dataclass(frozen=True, slots=True)
class Runtime:
    clock: Callable[[], float]
    """The wall clock, in seconds since the epoch."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    """How the tables' clocks wait (a turn, a robot's pause, a retry); the sandbox and the
    tests wait on their simulated clock."""
    seeds: Callable[[], int] = fresh_seed
    """The seed of each new table: its shuffles and its robots' randomness."""
    keys: Callable[[], str] = fresh_key
    """The daily deals' secret key, the first time a database needs one."""
    robot: Robot = default_robot
    """How a robot chooses its action."""
