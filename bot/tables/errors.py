"""Refusals the table service gives a user: a stable code and its parameters (the Discord
side words each as ``tables.errors.<code>``)."""

from __future__ import annotations

from typing import Any

from bot.engine import IllegalActionError


class TableError(Exception):
    """Something a user asked that the table cannot do. ``key`` is its stable code (the
    Discord side says it with ``tables.errors.<key>``); ``params`` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    @classmethod
    def illegal(cls, error: IllegalActionError) -> TableError:
        """What the rules refused, in the catalog's words (``tables.errors.illegal.*``)."""
        params = {k: v for k, v in error.params.items() if isinstance(v, int)}
        return cls(f"illegal.{error.reason}", **params)


class SaveFailed(TableError):
    """The database refused a change (a full disk, a locked file...): nothing of it was
    kept, in the database or in memory, and the user may try again."""

    def __init__(self) -> None:
        super().__init__("save_failed")
