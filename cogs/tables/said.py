"""The sentence of each thing that happens at a table: a line of its log. The service names what happened (:mod:`bot.tables.events`); here, and
only here, each kind finds its words in the catalog, so a message can be reworded or renamed
without touching a table saved before."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.tables.events import Happened, LogEvent, Who
from bot.tables.views import TableView
from bot.words import card_name, suit_text
from cogs._base import shown_name

from .embeds import card_text
from .faces import NO_FACES, CardFaces

LOG_KEYS: dict[Happened, str] = {
    Happened.OPENED: "tables.log.opened",
    Happened.JOINED: "tables.log.joined",
    Happened.LEFT: "tables.log.left",
    Happened.NEW_HOST: "tables.log.new_host",
    Happened.LEFT_PLAYING: "tables.log.left_playing",
    Happened.ROBOT_ADDED: "tables.log.robot_added",
    Happened.ROBOT_REMOVED: "tables.log.robot_removed",
    Happened.CLOSED: "tables.log.closed",
    Happened.EXPIRED: "tables.log.expired",
    Happened.STARTED: "tables.log.started",
    Happened.BACK: "tables.log.back",
    Happened.VOTE: "tables.log.vote",
    Happened.CANCELLED: "tables.log.cancelled",
    Happened.SANG: "tables.log.sang",
    Happened.TRICK: "tables.log.trick",
    Happened.BID: "tables.log.bid",
    Happened.PASS: "tables.log.pass",
    Happened.TUTE: "tables.log.tute",
    Happened.EXCHANGE: "tables.log.exchange",
    Happened.PUT_UNDER: "tables.log.put_under",
    Happened.CAPOTE: "tables.log.capote",
    Happened.CLAIM: "tables.log.claim",
    Happened.RESIGN: "tables.log.resign",
    Happened.GAME_OVER: "tables.log.game_over",
    Happened.TIMEOUT: "tables.log.timeout",
    Happened.AWAY: "tables.log.away",
    Happened.ABANDONED: "tables.log.abandoned",
    Happened.PAUSED: "tables.log.paused",
    Happened.RESUMED: "tables.log.resumed",
    Happened.IDLE_CANCELLED: "tables.log.idle_cancelled",
}
"""Each line of the log, its sentence (one that lost a stake says so: ``_stake``)."""

CARDS_IN_WORDS: dict[Happened, str] = {
    Happened.EXCHANGE: "tables.log.swapped",
    Happened.PUT_UNDER: "tables.log.put_under",
}
"""The lines that name their cards in words, the card given (``card``) and the card taken
(``took``): "Ana swapped the 7 of swords for the turned card (the King of swords)". A swap
saved without its cards says only who made it (``LOG_KEYS``)."""


def who_text(who: Who, lang: str) -> str:
    """Who did it: a robot by its short name, a member by the name they had, escaped."""
    if who.robot is not None:
        return t("tables.robot_short", lang, number=who.robot)
    return shown_name(who.name)


def log_line(event: LogEvent, lang: str, faces: CardFaces = NO_FACES) -> str:
    params: dict[str, Any] = {}
    if event.who is not None:
        params["name"] = who_text(event.who, lang)
    if event.suit is not None:
        params["suit"] = suit_text(event.suit, lang)
    key = LOG_KEYS[event.what]
    if event.cards and event.what in CARDS_IN_WORDS:
        key = CARDS_IN_WORDS[event.what]
        named = (card_name(c, lang, the=True) for c in event.cards)
        params.update(zip(("card", "took"), named, strict=False))
    elif event.cards:
        params["cards"] = " ".join(card_text(c, lang, faces) for c in event.cards)
    if event.level is not None:
        params["level"] = t(f"robots.{event.level}", lang)
    for name in ("points", "votes", "needed", "stake"):
        value = getattr(event, name)
        if value is not None:
            params[name] = value
    return t(key + ("_stake" if event.stake else ""), lang, **params)


def log_lines(table: TableView, lang: str, last: int = 4, faces: CardFaces = NO_FACES) -> list[str]:
    """What happened last at the table, one line an event, newest last."""
    return [log_line(event, lang, faces) for event in table.log[-last:]]
