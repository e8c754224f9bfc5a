"""The words of a hint (:mod:`bot.tables.hints`): "💡 Play the 3 of cups: it wins the
trick." (plain text: a hint names cards and suits, never a name someone typed), and of a
review's decisions (:mod:`bot.tables.review`), which give the better choice its hint's
reason."""

from __future__ import annotations

from bot.engine import Action, Kind
from bot.i18n import t
from bot.tables.hints import Hint

from .cards import card_name, suit_text


def _params(action: Action, hint: Hint, lang: str) -> dict[str, object]:
    kind = action.kind
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
    elif kind is Kind.EXCHANGE:
        params["card"] = t("review.turned", lang)
    return params


def do_text(action: Action, hint: Hint, lang: str) -> str:
    """What ``action`` does, in the hints' words ("Play the 3 of cups"), read with the
    decision's ``hint`` (the trump, the target, the turned card)."""
    return t(f"hints.do.{action.kind.name.lower()}", lang, **_params(action, hint, lang))


def why_text(hint: Hint, lang: str) -> tuple[str, str]:
    """Why the hint's action is good, and what it keeps for a cante ("" for nothing)."""
    params = _params(hint.action, hint, lang)
    keeps = ""
    if hint.keeps >= 0:
        keeps = t("hints.keeps", lang, suit=suit_text(hint.keeps, lang))
    return t(f"hints.why.{hint.why}", lang, **params), keeps


def hint_line(hint: Hint, lang: str) -> str:
    """The hint in one line: what to do, why, and what the play keeps."""
    why, keeps = why_text(hint, lang)
    line = t("hints.line", lang, do=do_text(hint.action, hint, lang), why=why, keeps=keeps)
    return line if hint.counted else line + t("hints.again", lang)
