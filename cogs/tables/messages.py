"""The messages of a table as Discord payloads: the lobby, the table message, a deal's
summary and a hand, built from the service's views and where the table's messages live
(:class:`Place`); and what each message last showed, so that a message is edited only when
what it shows changes.

The table and the hand are drawn with layout components (:mod:`layouts`). Their pictures
are not drawn here: ``*_files`` say what to draw, and the presenter has them drawn off the
event loop (:mod:`drawing`), only once a message is to be sent."""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any

import discord

from bot.engine import Variant
from bot.i18n import t
from bot.tables.model import Status
from bot.tables.summary import DealSummary
from bot.tables.views import HandView, TableView

from . import embeds as ui
from . import layouts, pictures
from .buttons import TEAMS, HandButton, LobbyButton, LobbyOp
from .faces import NO_FACES, CardFaces
from .places import Place

Payload = dict[str, Any]

TOO_OLD_TO_EDIT = 30046
MOVE_ON_AFTER = datetime.timedelta(minutes=50)
"""Discord limits edits of messages older than an hour (30046): a message edited all game
long (the table, a hand in the DMs) moves to a fresh one before that, once in 50 minutes
(one call more in that time, not one a deal)."""


def too_old(message_id: int) -> bool:
    """Whether a message is near the hour after which Discord limits its edits."""
    return discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > MOVE_ON_AFTER


def as_new_message(payload: Payload) -> Payload:
    """An edit's payload as one for a new message: files instead of attachments."""
    new = dict(payload)
    new["files"] = new.pop("attachments", [])
    return new


def _embeds(payload: Payload) -> list[discord.Embed]:
    if "embeds" in payload:
        return list(payload["embeds"])
    embed = payload.get("embed")
    return [embed] if isinstance(embed, discord.Embed) else []


def _components(payload: Payload) -> list[dict[str, Any]]:
    view = payload.get("view")
    if isinstance(view, discord.ui.View | discord.ui.LayoutView):
        return view.to_components()
    return []


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, the ones inside containers and rows too, in order."""
    for component in components:
        yield component
        yield from _walk(component.get("components", []))
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def digest(payload: Payload) -> str:
    parts = [json.dumps([e.to_dict() for e in _embeds(payload)], sort_keys=True)]
    parts.append(json.dumps(_components(payload), sort_keys=True))
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


def hand_digest(payload: Payload, *, away: bool, deal: int) -> str:
    """What a hand lets its player do in deal ``deal``: its buttons, where a disabled
    button's trick does not count (it cannot be clicked). A DM is edited only when this
    changes (or the player goes away or comes back, or a new deal begins), not each time a
    card is played elsewhere: the table shows that, and the hand's text says only what stays
    true until its buttons change. The deal counts by itself: a hand played out and the hand
    of the next deal, which its player sits out, have no button either."""
    components = _components(payload)
    colour = next((c.get("accent_color") for c in _walk(components) if c.get("type") == 17), None)
    hands = _hand_buttons(payload)
    parts = [f"{away}|{colour}|{deal}"]
    for button in _walk(components):
        if button.get("type") != 2:
            continue
        custom_id = str(button.get("custom_id", ""))
        hand = hands.get(custom_id)
        if button.get("disabled") and hand is not None:
            custom_id = f"{hand.table_id}:{hand.deal_no}:{hand.code}"
        parts.append(f"{custom_id}|{button.get('label')}|{button.get('style')}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def _hand_buttons(payload: Payload) -> dict[str, HandButton]:
    """The cards and declarations of a hand's payload, by custom_id."""
    view = payload.get("view")
    if not isinstance(view, discord.ui.View | discord.ui.LayoutView):
        return {}
    return {b.custom_id: b for b in view.walk_children() if isinstance(b, HandButton)}


def has_buttons(payload: Payload) -> bool:
    return bool(_hand_buttons(payload))


class MessageKind(Enum):
    """Which of a table's messages: the lobby, the table in play, a seat's hand, a deal's
    summary."""

    LOBBY = auto()
    TABLE = auto()
    HAND = auto()
    SUMMARY = auto()


@dataclass(frozen=True, slots=True)
class MessageKey:
    """One message of a table, as :class:`Shown` remembers what it showed."""

    table_id: int
    kind: MessageKind
    seat: int | None = None
    """The seat of a hand."""
    deal_no: int | None = None
    """The deal of a summary."""

    @classmethod
    def lobby(cls, table_id: int) -> MessageKey:
        return cls(table_id, MessageKind.LOBBY)

    @classmethod
    def table(cls, table_id: int) -> MessageKey:
        return cls(table_id, MessageKind.TABLE)

    @classmethod
    def hand(cls, table_id: int, seat: int) -> MessageKey:
        return cls(table_id, MessageKind.HAND, seat=seat)

    @classmethod
    def summary(cls, table_id: int, deal_no: int) -> MessageKey:
        return cls(table_id, MessageKind.SUMMARY, deal_no=deal_no)


class Shown:
    """What each message of a table last showed (a digest of it), so nothing is sent twice;
    and the summary picture of each table, drawn once per deal."""

    def __init__(self) -> None:
        self.digests: dict[MessageKey, str] = {}
        self.buttons: dict[tuple[int, int], bool] = {}
        """Whether the hand last shown to a seat had buttons (cards or declarations)."""
        self._summaries: dict[int, tuple[tuple[int, str], bytes, str]] = {}
        """The last summary picture of each table: (deal, language), PNG, alt text."""

    def hand_shown(
        self, table_id: int, seat: int, payload: Payload, *, away: bool, deal: int
    ) -> None:
        self.digests[MessageKey.hand(table_id, seat)] = hand_digest(payload, away=away, deal=deal)
        self.buttons[(table_id, seat)] = has_buttons(payload)

    def forget_hand(self, table_id: int, seat: int) -> None:
        """A hand shown in an answer that did not reach Discord: the next refresh sends it."""
        self.digests.pop(MessageKey.hand(table_id, seat), None)
        self.buttons.pop((table_id, seat), None)

    def forget_table(self, table_id: int) -> None:
        for key in [k for k in self.digests if k.table_id == table_id]:
            del self.digests[key]
        for seat in [k for k in self.buttons if k[0] == table_id]:
            del self.buttons[seat]
        self._summaries.pop(table_id, None)

    def summary_picture(self, table: TableView, summary: DealSummary, lang: str) -> discord.File:
        """The summary's picture, drawn once per deal (the table message carries it along
        through the next deal)."""
        key = (summary.deal_no, lang)
        cached = self._summaries.get(table.id)
        if cached is None or cached[0] != key:
            png, alt = pictures.summary_png(table, summary, lang)
            cached = (key, png, alt)
            self._summaries[table.id] = cached
        _, png, alt = cached
        return pictures.as_file(png, pictures.SUMMARY_FILE, alt)


# ----------------------------------------------------------------------- the lobby


def lobby_payload(table: TableView, place: Place, *, web: bool = False) -> Payload:
    """The lobby; ``web``: the bot serves the web table, which its Play at the table button
    opens (while the lobby fills, and once the game plays)."""
    lang = table.language
    return {
        "embed": ui.lobby_embed(table, place, lang),
        "view": lobby_buttons(table, place, lang, web=web),
    }


def lobby_buttons(
    table: TableView, place: Place, lang: str, *, web: bool = False
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if web and table.status in (Status.LOBBY, Status.PLAYING):
        label = t("tables.btn.web", lang)
        success = discord.ButtonStyle.success
        view.add_item(LobbyButton(table.id, LobbyOp.WEB, label=label, style=success, row=2))
    if table.status is not Status.LOBBY:
        link = ui.game_link(table, place)
        if link and table.status is Status.PLAYING:
            view.add_item(discord.ui.Button(label=t("tables.btn.follow", lang), url=link))
        return view
    full = not table.free_seats()
    success, danger = discord.ButtonStyle.success, discord.ButtonStyle.danger
    if table.variant is Variant.PAIRS:
        for team in (0, 1):
            label = t("tables.btn.team", lang, team="AB"[team])
            view.add_item(
                LobbyButton(table.id, TEAMS[team], label=label, style=success, disabled=full, row=0)
            )
    else:
        label = t("tables.btn.join", lang)
        view.add_item(
            LobbyButton(table.id, LobbyOp.JOIN, label=label, style=success, disabled=full, row=0)
        )
    view.add_item(LobbyButton(table.id, LobbyOp.LEAVE, label=t("tables.btn.leave", lang), row=0))
    # the host's form of the table's options (anybody else is told it is the host's)
    label = t("tables.btn.settings", lang)
    view.add_item(LobbyButton(table.id, LobbyOp.SETTINGS, label=label, emoji="⚙️", row=0))
    view.add_item(
        LobbyButton(
            table.id, LobbyOp.ROBOT, label=t("tables.btn.robot", lang), disabled=full, row=1
        )
    )
    has_robot = any(s is not None and s.is_robot for s in table.seats)
    label = t("tables.btn.unrobot", lang)
    view.add_item(
        LobbyButton(table.id, LobbyOp.UNROBOT, label=label, disabled=not has_robot, row=1)
    )
    label = t("tables.btn.start", lang)
    view.add_item(
        LobbyButton(table.id, LobbyOp.START, label=label, style=discord.ButtonStyle.primary, row=1)
    )
    view.add_item(
        LobbyButton(table.id, LobbyOp.CLOSE, label=t("tables.btn.close", lang), style=danger, row=1)
    )
    return view


# ----------------------------------------------------------------------- the table


def table_payload(
    table: TableView, place: Place, faces: CardFaces = NO_FACES, *, web: bool = False
) -> Payload:
    """The table message: the table now (in play, or its end); ``web``: with Play at the
    table. Its picture is drawn from :func:`table_files`, only once the message is known to
    be sent."""
    return {"view": layouts.table_layout(table, place, table.language, faces, web=web)}


def table_files(shown: Shown, table: TableView) -> list[discord.File | None]:
    """The table message's picture: the table in play, or the result over the last deal's
    summary."""
    lang = table.language
    if table.status is Status.PLAYING:
        return [pictures.table_picture(table, lang)]
    if table.status is Status.FINISHED and table.summary is not None:
        return [shown.summary_picture(table, table.summary, lang)]
    return []


def summary_payload(table: TableView, summary: DealSummary) -> Payload:
    """A deal that is over, as its message stays in the thread once the next deal (or the
    game's result) has a message of its own. Its picture: :func:`summary_files`."""
    return {"view": layouts.summary_layout(table, summary, table.language)}


def summary_files(
    shown: Shown, table: TableView, summary: DealSummary
) -> list[discord.File | None]:
    return [shown.summary_picture(table, summary, table.language)]


# ------------------------------------------------------------------------ the hand


def hand_payload(
    table: TableView,
    hand: HandView,
    lang: str,
    *,
    ephemeral: bool,
    faces: CardFaces = NO_FACES,
) -> Payload:
    """A player's hand: one button per card in order (the playable ones enabled), then the
    declarations they may make now; an ephemeral hand has a refresh button too. Its picture
    (the table from its seat, on its turn) is drawn from :func:`hand_files`, only when the
    message is sent."""
    return {"view": layouts.hand_layout(table, hand, lang, ephemeral=ephemeral, faces=faces)}


def hand_files(table: TableView, hand: HandView, lang: str) -> list[discord.File | None]:
    if not layouts.shows_trick(hand):
        return []
    return [pictures.table_picture(table, lang, viewer=hand.seat, name=pictures.TRICK_FILE)]
