"""What the service asks to be said in a table's channel, apart from redrawing the table.

Its own module because every concern of the service may announce something (a deal's end,
a pause, the lobby closing) and the façade hands them on to the presenter. Like the log's
events (:mod:`events`), an announcement names what happened, never a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .events import Who
from .model import DealSummary


class Said(Enum):
    """What is said in a table's channel, in a message of its own."""

    CLOSED_BY_HOST = "closed_by_host"
    CLOSED_EMPTY = "closed_empty"
    EXPIRED = "expired"
    PAUSED = "paused"
    IDLE_CANCELLED = "idle_cancelled"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"
    """The last member left a game in play (``stake``: what they lost)."""
    DEAL_OVER = "deal_over"
    """A deal ended (``summary``): the table message shows it, nothing is said apart."""
    GAME_OVER = "game_over"
    """The game ended (``winner``: the side): the table message shows it too."""


SHOWN_IN_THE_TABLE = frozenset({Said.DEAL_OVER, Said.GAME_OVER})
"""What the table message itself shows: never said apart."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """A message of its own in the table's channel: the game paused or cancelled, the lobby
    closing; or what the table message shows (a deal's end, the game's)."""

    what: Said
    who: Who | None = None
    minutes: int | None = None
    until: int | None = None
    """When a paused game is cancelled if nobody comes back (seconds since the epoch)."""
    stake: int = 0
    summary: DealSummary | None = field(default=None, compare=False)
    winner: int | None = None
