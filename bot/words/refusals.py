"""Why the table refuses something, in words: one sentence builder for the chat, the card
table and the lessons."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.engine import SUITS
from bot.engine.cards import RANK_OF
from bot.i18n import CATALOGS, number, t

from .cards import card_name, suit_text

CHIPS = ("bet", "chips", "fee", "stake", "amount", "balance", "pot")
"""A refusal's parameters that are amounts of chips."""


def option_name(name: str, lang: str) -> str:
    """An option's one name in words, wherever it is shown (the lobby, the Settings form,
    the guide): "Time per turn", "The 40 first"; the name typed in ``/tute new`` otherwise."""
    key = f"settings.{name}.label"
    return t(key, lang) if key in CATALOGS["en"] else option_label(name, lang)


def option_label(name: str, lang: str) -> str:
    """An option's name as the user knows it: the name ``/tute new`` gives it in their
    language, or (a house rule, typed in ``house``) its own."""
    key = f"options.{name}.name"
    return t(key, lang) if key in CATALOGS["en"] else name


def variants_text(variants: list[str], lang: str) -> str:
    """Variants named in a sentence: "habanero or pairs"."""
    names = [t(f"variants.short.{v}", lang) for v in variants]
    if len(names) < 2:
        return "".join(names)
    return t("common.either", lang, first=", ".join(names[:-1]), last=names[-1])


def refusal_text(
    key: str,
    params: Mapping[str, object],
    lang: str,
    *,
    symbol: bool = True,
    typed: Callable[[str], str] = str,
) -> str:
    """Why the table refuses something (``tables.errors.<key>``, or the full key) in words:
    its cards and suits named (``symbol`` False: a suit without its symbol), an option by the
    name the user knows, variants in a sentence, a preset by its name, and what a member
    typed as ``typed`` shows it (the chat escapes it; the page inserts text as text). A key
    or a parameter this side does not know still says something: "did not understand"."""
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
    for name in CHIPS:  # amounts of chips, grouped as the language groups numbers
        value = shown.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            shown[name] = number(value, lang)
    if "option" in shown:
        shown["option"] = option_label(str(shown["option"]), lang)
    if "typed" in shown:
        shown["typed"] = typed(str(shown["typed"]))
    try:
        if isinstance(shown.get("variant"), str):
            shown["variant"] = t(f"variants.short.{shown['variant']}", lang)
        variants = shown.get("variants")
        if isinstance(variants, list | tuple):
            shown["variants"] = variants_text([str(v) for v in variants], lang)
        if isinstance(shown.get("preset"), str):
            shown["preset"] = t(f"house.preset.{shown['preset']}", lang)
        return t(key, lang, **shown)
    except (KeyError, IndexError, ValueError):
        # a key or a parameter this side does not know: the message still says something
        return t("tables.errors.malformed", lang)
