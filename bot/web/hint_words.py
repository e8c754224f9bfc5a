"""The words of a hint (:mod:`bot.tables.hints`), from the message catalog, with nothing of
Discord in them: "💡 Play the 3 of cups: it wins the trick." Any presenter may use them
(plain text: a hint names cards and suits, never a name someone typed)."""

from __future__ import annotations

from typing import Any

from bot.engine import CODES, Kind
from bot.i18n import t
from bot.tables.hints import Hint

from .words import card_name, suit_text


def hint_line(hint: Hint, lang: str) -> str:
    """The hint in one line: what to do, why, and what the play keeps."""
    action = hint.action
    kind = action.kind
    key = kind.name.lower()
    params: dict[str, object] = {"target": hint.target}
    if kind is Kind.PLAY:
        params["card"] = card_name(action.arg, lang, the=True)
    elif kind is Kind.SING:
        params["points"] = 40 if action.arg == hint.trump else 20
        params["suit"] = suit_text(action.arg, lang)
    elif kind is Kind.BID:
        params["points"] = action.arg
    if hint.other >= 0:
        params["other"] = card_name(hint.other, lang, the=True)
        if kind is Kind.EXCHANGE:  # the turned card it takes
            params["card"] = params["other"]
    keeps = ""
    if hint.keeps >= 0:
        keeps = t("hints.keeps", lang, suit=suit_text(hint.keeps, lang))
    line = t(
        "hints.line",
        lang,
        do=t(f"hints.do.{key}", lang, **params),
        why=t(f"hints.why.{hint.why}", lang, **params),
        keeps=keeps,
    )
    return line if hint.counted else line + t("hints.again", lang)


def hint_message(hint: Hint, lang: str) -> dict[str, Any]:
    """The hint as the web table's socket sends it: its line, and the card it plays (the
    page marks it in the hand; None for a declaration)."""
    card = CODES[hint.action.arg] if hint.action.kind is Kind.PLAY else None
    return {"type": "hint", "text": hint_line(hint, lang), "card": card}


def hints_mark(count: int, lang: str) -> str:
    """Beside a player's name in a result: the hints they asked for ("💡 2"), or nothing."""
    return t("hints.mark", lang, count=count) if count > 0 else ""
