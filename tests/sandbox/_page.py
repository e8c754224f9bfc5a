"""Driving the sandbox in tests: its page, through the HTTP API the browser page uses, and a
real clock the test moves by hand."""

from __future__ import annotations

from typing import Any

from bot.sandbox.driver import PreviewPage, buttons, message_text
from tests.runtime import draw_seed

__all__ = [
    "FAST",
    "FakeTime",
    "PreviewPage",
    "button_ending",
    "buttons",
    "card_to_play",
    "message_text",
]

FAST: dict[str, Any] = {"robot_delay": 0, "think_budget": 0.02, "seeds": draw_seed}
"""Robots play at once (within the click that gives them the turn) and think briefly; the
tables' seeds are the test's (the same deals each run)."""


class FakeTime:
    """A stand-in for ``time.monotonic`` (the real clock the sandbox's clock follows) that
    moves only when the test moves it."""

    def __init__(self, seconds: float = 1000.0) -> None:
        self.seconds = seconds

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


def button_ending(message: dict[str, Any], suffix: str) -> str:
    return next(b["custom_id"] for b in buttons(message) if b["custom_id"].endswith(suffix))


def card_to_play(hand: dict[str, Any]) -> str | None:
    """The first card the hand allows (a card's code starts with its rank), else a
    declaration; None when nothing is enabled."""
    enabled = [
        b["custom_id"]
        for b in buttons(hand)
        if b["custom_id"].startswith("tute:h:") and not b["disabled"]
    ]
    cards = [c for c in enabled if c.rsplit(":", 1)[1][0].isdigit()]
    return (cards or enabled or [None])[0]
