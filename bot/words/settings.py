"""A lobby's Settings form in words, the same in the chat and on the card table: the
table's title, each option's name, what it does, and each of its values (a turn's time,
a target's points, a deck...). What may change, and to what, is :mod:`bot.tables.form`'s."""

from __future__ import annotations

from bot.i18n import t
from bot.tables.views import TableView

from .amounts import seconds_text
from .refusals import option_name


def variant_name(table: TableView, lang: str) -> str:
    """The variant as the table plays it: "Arrastrado (4 players, the dealer sits out)" at
    a four-seat arrastrado table."""
    if len(table.seats) > table.variant.players:
        return t(f"variants.{table.variant.value}_seats", lang, seats=len(table.seats))
    return t(f"variants.{table.variant.value}", lang)


def variant_title(table: TableView, lang: str) -> str:
    return t("tables.title", lang, variant=variant_name(table, lang), id=table.id)


def value_label(name: str, typed: str, lang: str) -> str:
    """One value of an option in words: "2 min", "61 points", "36 cards, without the 2s"."""
    if name == "turn_time":
        return seconds_text(int(typed), lang)
    if name == "target":
        return t("settings.target.points", lang, points=typed)
    if name == "rules":  # a preset, as /tute new names and describes it
        return t(f"options.rules.{typed}", lang)
    return t(f"settings.{name}.{typed}", lang)


def saved_text(name: str, typed: str, lang: str) -> str:
    """What the form says once a value is saved: "Saved: Time per turn, 2 min."."""
    setting = option_name(name, lang)
    return t("settings.changed", lang, setting=setting, value=value_label(name, typed, lang))
