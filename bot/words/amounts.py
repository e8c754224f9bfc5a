"""Quantities in words, each written one way wherever it is shown: a time as "45 seconds",
"3 min", "1 min 30 s" or "1 hour" (the lobby, the Settings form, ``/tute config``, the
guide); numbers are grouped by :func:`bot.i18n.number`."""

from __future__ import annotations

from bot.i18n import t


def seconds_text(seconds: int, lang: str) -> str:
    """A time in words: "45 seconds", "2 min", "1 min 30 s", "1 hour"."""
    if seconds == 3600:
        return t("settings.turn_time.hour", lang)
    if seconds < 60:
        return t("settings.turn_time.seconds", lang, seconds=seconds)
    minutes, rest = divmod(seconds, 60)
    if rest:
        return t("settings.turn_time.minutes_seconds", lang, minutes=minutes, seconds=rest)
    return t("settings.turn_time.minutes", lang, minutes=minutes)
