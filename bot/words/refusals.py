"""Why the table refuses something, in words."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine import SUITS
from bot.engine.cards import RANK_OF
from bot.i18n import t

from .cards import card_name, suit_text


def refusal_text(key: str, params: Mapping[str, object], lang: str, *, symbol: bool = True) -> str:
    """Why the table refuses something (``tables.errors.<key>``, or the full key), its cards
    and suits named in words (``symbol`` False: a suit without its symbol); the other
    parameters as they are."""
    if not key.startswith("tables.errors."):
        key = f"tables.errors.{key}"
    shown = dict(params)
    for name in ("card", "beat"):
        value = shown.get(name)
        if isinstance(value, int) and 0 <= value < len(RANK_OF):
            shown[name] = card_name(value, lang, the=True)
    suit = shown.get("suit")
    if isinstance(suit, int) and 0 <= suit < len(SUITS):
        shown["suit"] = suit_text(suit, lang, symbol=symbol)
    if isinstance(shown.get("variant"), str):
        shown["variant"] = t(f"variants.short.{shown['variant']}", lang)
    if isinstance(shown.get("preset"), str):
        shown["preset"] = t(f"house.preset.{shown['preset']}", lang)
    try:
        return t(key, lang, **shown)
    except (KeyError, IndexError, ValueError):
        # a key or a parameter this side does not know: the message still says something
        return t("tables.errors.malformed", lang)
