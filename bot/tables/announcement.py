"""What the service asks to be said in a table's channel, apart from redrawing the table.

Its own module because every concern of the service may announce something (a deal's end,
a pause, the lobby closing) and the façade hands them on to the presenter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Announcement:
    """A message of its own in the table's channel: the game paused or cancelled, the final result, the
    lobby closing. ``key`` names it in the catalog; the presenter renders it."""

    key: str
    params: dict[str, Any] = field(default_factory=dict[str, Any])
