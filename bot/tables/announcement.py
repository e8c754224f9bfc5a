"""What happened to a table as a whole: a deal's end, a pause, the lobby closing, the game
cancelled. The table's own message says each (its status, its log): nothing is said in a
message apart, so a game leaves its channel clean, with the table's message, its deals'
summaries and the result. A click's answer may read them (a vote that turned out a leave).

Its own module because every concern of the service may announce something and the façade
hands them on with what to redraw. Like the log's events (:mod:`events`), an announcement
names what happened, never a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .events import Who
from .summary import DealSummary


class Said(Enum):
    """What happened to the table."""

    CLOSED_BY_HOST = "closed_by_host"
    CLOSED_EMPTY = "closed_empty"
    EXPIRED = "expired"
    PAUSED = "paused"
    IDLE_CANCELLED = "idle_cancelled"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"
    """The last member left a game in play (``stake``: what they lost)."""
    DEAL_OVER = "deal_over"
    """A deal ended (``summary``)."""
    GAME_OVER = "game_over"
    """The game ended (``winner``: the side)."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """What happened, with who did it and its numbers."""

    what: Said
    who: Who | None = None
    minutes: int | None = None
    until: int | None = None
    """When a paused game is cancelled if nobody comes back (seconds since the epoch)."""
    stake: int = 0
    summary: DealSummary | None = field(default=None, compare=False)
    winner: int | None = None
