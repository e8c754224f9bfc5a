"""The words of a hint (:mod:`bot.tables.hints`): "💡 Play the 3 of cups: it wins the
trick." (plain text: a hint names cards and suits, never a name someone typed)."""

from __future__ import annotations

from bot.engine import Kind
from bot.i18n import t
from bot.tables.hints import Hint

from .cards import card_name, suit_text


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
