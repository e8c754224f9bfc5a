"""A hint (:mod:`bot.tables.hints`) as the web table's socket sends it; its words are
:func:`bot.words.hint_line`, the same as the chat's."""

from __future__ import annotations

from typing import Any

from bot.engine import CODES, Kind
from bot.tables.hints import Hint
from bot.words import hint_line


def hint_message(hint: Hint, lang: str) -> dict[str, Any]:
    """The hint as the web table's socket sends it: its line, and the card it plays (the
    page marks it in the hand; None for a declaration)."""
    card = CODES[hint.action.arg] if hint.action.kind is Kind.PLAY else None
    return {"type": "hint", "text": hint_line(hint, lang), "card": card}
