"""The faults of the ``test_faults_*`` tests, and what keeps their games quick.

Discord failing under a game, end to end through SimCord: each error Discord answers with
(a closed DM, a missing permission, a deleted thread or message, an expired interaction, a
rate limit, an outage) on each kind of call a table makes (the table message's edit, a hand
sent or edited by DM, the game's thread, a click's or ``/tute new``'s answer); then a chaos
run that mixes them at random moments with restarts, and checks the ledger and the logs.

Whatever fails, the game finishes for everyone: the table message shows the end, every hand
ends without a card to click, and a restart finds the table where it was left.

To keep these many whole games quick (and the same on every run) the pictures are a tiny
constant PNG (the presenter attaches them just the same; the renderers have tests of their
own) and the robots play the easy level (no time-bound search: the same cards every run);
SimCord polls a settling bot more often in every test (``tests/conftest.py``).
"""

from __future__ import annotations

import fnmatch
import random
from dataclasses import dataclass
from typing import Any

import pytest
import simcord

from bot.ai import Level, choose_action
from bot.engine import Action, SeatView
from cogs.tables import pictures
from tests.runtime import robots_play

TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def easy_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    """Every robot plays the easy level: its choice depends on the table's seed alone."""
    del level
    return choose_action(view, Level.EASY, rng, budget)


@pytest.fixture(autouse=True)
def quick_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """(Autouse in each module that names it: ``quick_games = _faults.quick_games``.)"""
    for name in ("render_table", "render_summary"):
        monkeypatch.setattr(pictures, name, lambda scene: TINY_PNG)
    robots_play(easy_robot)


# ------------------------------------------------------------------ the faults


@dataclass(frozen=True, slots=True)
class Fault:
    """An error Discord answers a call with, ``times`` calls in a row."""

    status: int
    code: int
    message: str
    times: int = 1

    @property
    def retried(self) -> bool:
        """Whether it may work a little later (the presenter tries again)."""
        return self.status >= 500 or self.status == 429


FAULTS = {
    "closed-dm": Fault(403, 50007, "Cannot send messages to this user"),
    "no-permission": Fault(403, 50013, "Missing Permissions"),
    "unknown-channel": Fault(404, 10003, "Unknown Channel"),
    "unknown-message": Fault(404, 10008, "Unknown Message"),
    "unknown-interaction": Fault(404, 10062, "Unknown interaction"),
    "rate-limited": Fault(429, 0, "You are being rate limited."),
    "outage": Fault(500, 0, "Internal Server Error"),
    "rate-limited-x3": Fault(429, 0, "You are being rate limited.", times=3),
    "outage-x3": Fault(500, 0, "Internal Server Error", times=3),
}

KINDS = ("table_edit", "dm_send", "dm_edit", "thread_create", "click_answer", "command_answer")
"""The calls a fault is injected on: the table message's edit, a hand's first DM, a hand's
DM edit, the game's thread, the answer to a click in a hand, the answer to ``/tute new``."""

_ONLY_DMS = "Discord answers 50007 only to a message for a user (a DM)"
_ONLY_ANSWERS = "Discord answers 10062 only to an interaction's answer"
_NOT_ANSWERS = "an interaction's answer fails with 10062 or an outage, never with this"
_ONE_THREAD = "a table makes its thread once: a lasting fault fails that call, as one fault does"
NOT_APPLICABLE: dict[tuple[str, str], str] = {
    ("table_edit", "closed-dm"): _ONLY_DMS,
    ("table_edit", "unknown-interaction"): _ONLY_ANSWERS,
    ("dm_send", "unknown-message"): "a message being sent cannot be unknown (10008)",
    ("dm_send", "unknown-interaction"): _ONLY_ANSWERS,
    ("dm_edit", "unknown-interaction"): _ONLY_ANSWERS,
    ("thread_create", "closed-dm"): _ONLY_DMS,
    ("thread_create", "unknown-interaction"): _ONLY_ANSWERS,
    ("thread_create", "rate-limited-x3"): _ONE_THREAD,
    ("thread_create", "outage-x3"): _ONE_THREAD,
    **{
        (kind, name): _NOT_ANSWERS
        for kind in ("click_answer", "command_answer")
        for name in ("closed-dm", "no-permission", "unknown-channel", "unknown-message")
    },
}


def faults_for(kind: str) -> list[Any]:
    """The faults that can happen on one kind of call (the others, with the reason, are in
    ``NOT_APPLICABLE``)."""
    assert kind in KINDS
    return [
        pytest.param(fault, id=name)
        for name, fault in FAULTS.items()
        if (kind, name) not in NOT_APPLICABLE
    ]


@dataclass
class Injected:
    """A fault injected on the calls matching ``method`` and ``path`` (a glob), from the
    request log's ``cursor`` on; ``times`` None: for good (a message or thread deleted)."""

    env: simcord.Env
    method: str
    path: str
    fault: Fault
    times: int | None
    cursor: int

    @property
    def calls(self) -> int:
        """The matching calls the bot made since (the failed ones first)."""
        return sum(
            1
            for call in self.env.http_requests[self.cursor :]
            if call.method == self.method and fnmatch.fnmatch(call.path, self.path)
        )

    @property
    def failed(self) -> int:
        return self.calls if self.times is None else min(self.calls, self.times)

    @property
    def over(self) -> bool:
        """Whether a call went through after the fault (it lasted ``times`` calls)."""
        return self.times is not None and self.calls > self.times


FOR_GOOD = 0
"""``inject(times=FOR_GOOD)``: the fault never ends (what it says is gone stays gone)."""


def inject(
    env: simcord.Env, method: str, path: str, fault: Fault, *, times: int | None = None
) -> Injected:
    times = fault.times if times is None else (times or None)
    cursor = len(env.http_requests)
    env.inject_error(
        method, path, status=fault.status, code=fault.code, message=fault.message, times=times
    )
    return Injected(env, method, path, fault, times, cursor)
