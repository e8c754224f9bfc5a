"""What the tests' tables run on (``bot.tables.runtime.Runtime``), built by each test and
handed to the service or the bot, never patched into a module: its clock, how its tables
wait, the seeds of its tables (:class:`Seeds`, one sequence per test) and its robot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator

import discord

from bot.engine.game import first_dealer
from bot.tables.runtime import SEED_BITS, Robot, Runtime, default_robot

DAILY_KEY = "k" * 64
"""The daily deals' key in every test: the same deals each run."""


def host_leads(start: int = 1) -> Iterator[int]:
    """Table seeds whose first dealer is the last seat at any table size (2, 3 or 4), so
    that the host, in seat 1, leads; from ``start`` on."""
    seed = start
    while True:
        if all(first_dealer(seed, seats) == seats - 1 for seats in (2, 3, 4)):
            yield seed
        seed += 1


class Seeds:
    """The seeds of the tables a test opens: by default from a fixed list in which the host
    leads the first trick; ``pin`` gives every table from now on one seed, ``draw_from``
    draws them from a generator of the test's own. The runs are the same every time."""

    def __init__(self) -> None:
        listed = host_leads()
        self._next: Callable[[], int] = lambda: next(listed)

    def __call__(self) -> int:
        return self._next()

    def pin(self, seed: int) -> None:
        self._next = lambda: seed

    def draw_from(self, bits: Callable[[int], int]) -> None:
        """From a generator's ``getrandbits``, as the bot draws them from ``secrets``."""
        self._next = lambda: bits(SEED_BITS)


_seeds = [Seeds()]
_robots: list[Robot] = [default_robot]


def seeds() -> Seeds:
    """The seeds of the test running (a fresh sequence per test: ``tests/conftest.py``)."""
    return _seeds[-1]


def new_seeds() -> Seeds:
    """A fresh sequence for the test about to run, whose robots are the bot's own until it
    says otherwise (:func:`robots_play`)."""
    _seeds[:] = [Seeds()]
    _robots[:] = [default_robot]
    return _seeds[-1]


def robots_play(robot: Robot) -> None:
    """The robots of every runtime this test builds from now on (a bot it restarts too)."""
    _robots[:] = [robot]


def draw_seed() -> int:
    """The next seed of the test running (a runtime's ``seeds``)."""
    return seeds()()


def table_runtime(
    clock: Callable[[], float] | None = None,
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    robot: Robot | None = None,
) -> Runtime:
    """A runtime for a test's service or bot: ``clock`` (Discord's, SimCord's when it runs,
    by default), the test's seeds, the daily deals' fixed key, ``robot`` (the test's robots,
    :func:`robots_play`, by default)."""
    return Runtime(
        clock=clock or (lambda: discord.utils.utcnow().timestamp()),
        sleep=sleep,
        seeds=draw_seed,
        keys=lambda: DAILY_KEY,
        robot=robot or _robots[-1],
    )
