"""The messages of a table as Discord payloads: the lobby, the table message (with the last
deal's summary under it) and a hand, built from the service's views; and what each message
last showed, so that a message is edited only when what it shows changes."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import discord

from bot.engine import Action, Kind, Variant
from bot.i18n import t
from bot.tables.model import DealSummary, Status
from bot.tables.views import HandView, TableView

from . import embeds as ui
from . import pictures
from .buttons import HandButton, LobbyButton, TableButton, encode_action

CARD_ROW = 5
"""Cards per row of buttons (Discord allows five)."""

Payload = dict[str, Any]


def attach(payload: Payload, pictures_: list[tuple[discord.Embed, discord.File | None]]) -> None:
    """Show each picture as its embed's image (the embed's text and the picture's alt text
    stay for screen readers); the message keeps these files and no other."""
    files: list[discord.File] = []
    for embed, picture in pictures_:
        if picture is not None:
            embed.set_image(url=f"attachment://{picture.filename}")
            files.append(picture)
    payload["attachments"] = files


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


def digest(payload: Payload) -> str:
    view = payload.get("view")
    parts = [json.dumps([e.to_dict() for e in _embeds(payload)], sort_keys=True)]
    if isinstance(view, discord.ui.View):
        parts.append(json.dumps(view.to_components(), sort_keys=True))
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


def hand_digest(payload: Payload, *, away: bool) -> str:
    """What a hand lets its player do: its buttons, where a disabled button's trick does not
    count (it cannot be clicked). A DM is edited only when this changes (or the player goes
    away or comes back), not each time a card is played elsewhere: the table shows that, and
    the hand's text says only what stays true until its buttons change."""
    view = payload.get("view")
    colour = next((e.colour for e in _embeds(payload)), None)
    parts = [f"{away}|{colour}"]
    if isinstance(view, discord.ui.View):
        for row in view.to_components():
            for button in row.get("components", []):
                custom_id = str(button.get("custom_id", ""))
                if button.get("disabled") and custom_id.startswith("tute:h:"):
                    table_id, deal, _trick, code = custom_id.split(":")[2:6]
                    custom_id = f"{table_id}:{deal}:{code}"
                parts.append(f"{custom_id}|{button.get('label')}|{button.get('style')}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def has_buttons(payload: Payload) -> bool:
    view = payload.get("view")
    return isinstance(view, discord.ui.View) and any(
        isinstance(item, HandButton) for item in view.children
    )


class Shown:
    """What each message of a table last showed (a digest of it), so nothing is sent twice;
    and the summary picture of each table, drawn once per deal."""

    def __init__(self) -> None:
        self.digests: dict[tuple[int, str], str] = {}
        self.buttons: dict[tuple[int, int], bool] = {}
        """Whether the hand last shown to a seat had buttons (cards or declarations)."""
        self._summaries: dict[int, tuple[tuple[int, str], bytes, str]] = {}
        """The last summary picture of each table: (deal, language), PNG, alt text."""

    def hand_shown(self, table_id: int, seat: int, payload: Payload, *, away: bool) -> None:
        self.digests[(table_id, f"hand{seat}")] = hand_digest(payload, away=away)
        self.buttons[(table_id, seat)] = has_buttons(payload)

    def forget_hand(self, table_id: int, seat: int) -> None:
        """A hand shown in an answer that did not reach Discord: the next refresh sends it."""
        self.digests.pop((table_id, f"hand{seat}"), None)
        self.buttons.pop((table_id, seat), None)

    def forget_table(self, table_id: int) -> None:
        for key in [k for k in self.digests if k[0] == table_id]:
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


def lobby_payload(table: TableView) -> Payload:
    lang = table.language
    return {"embed": ui.lobby_embed(table, lang), "view": lobby_buttons(table, lang)}


def lobby_buttons(table: TableView, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if table.status is not Status.LOBBY:
        link = ui.game_link(table)
        if link and table.status is Status.PLAYING:
            view.add_item(discord.ui.Button(label=t("tables.btn.follow", lang), url=link))
        return view
    full = not table.free_seats()
    success, danger = discord.ButtonStyle.success, discord.ButtonStyle.danger
    if table.variant is Variant.PAIRS:
        for team in (0, 1):
            label = t("tables.btn.team", lang, team="AB"[team])
            view.add_item(
                LobbyButton(
                    table.id, f"team{team}", label=label, style=success, disabled=full, row=0
                )
            )
    else:
        label = t("tables.btn.join", lang)
        view.add_item(
            LobbyButton(table.id, "join", label=label, style=success, disabled=full, row=0)
        )
    view.add_item(LobbyButton(table.id, "leave", label=t("tables.btn.leave", lang), row=0))
    view.add_item(
        LobbyButton(table.id, "robot", label=t("tables.btn.robot", lang), disabled=full, row=1)
    )
    has_robot = any(s is not None and s.is_robot for s in table.seats)
    label = t("tables.btn.unrobot", lang)
    view.add_item(LobbyButton(table.id, "unrobot", label=label, disabled=not has_robot, row=1))
    label = t("tables.btn.start", lang)
    view.add_item(
        LobbyButton(table.id, "start", label=label, style=discord.ButtonStyle.primary, row=1)
    )
    view.add_item(
        LobbyButton(table.id, "close", label=t("tables.btn.close", lang), style=danger, row=1)
    )
    return view


# ----------------------------------------------------------------------- the table


def table_payload(table: TableView) -> Payload:
    """The table message: the table now (in play, or its end), then the last deal's summary
    while there is one. Its pictures are drawn by :func:`table_pictures`, only once the
    message is known to be sent."""
    lang = table.language
    view = discord.ui.View(timeout=None)
    if table.status is Status.PLAYING:
        primary, danger = discord.ButtonStyle.primary, discord.ButtonStyle.danger
        view.add_item(
            TableButton(table.id, "hand", label=t("tables.btn.hand", lang), style=primary)
        )
        if any(s is not None and s.away and not s.left for s in table.seats):
            label = t("tables.btn.back", lang)
            view.add_item(
                TableButton(table.id, "back", label=label, style=discord.ButtonStyle.success)
            )
        view.add_item(TableButton(table.id, "cancel", label=t("tables.btn.cancel", lang)))
        label = t("tables.btn.leave_game", lang)
        view.add_item(TableButton(table.id, "leave", label=label, style=danger))
    elif table.status is Status.FINISHED:
        label = t("tables.btn.rematch", lang)
        view.add_item(
            TableButton(table.id, "rematch", label=label, style=discord.ButtonStyle.success)
        )
    embeds = [ui.table_embed(table, lang)]
    if table.summary is not None:
        embeds.append(ui.summary_embed(table, table.summary, lang))
    return {"embeds": embeds, "view": view}


def table_pictures(
    shown: Shown, table: TableView, payload: Payload, *, summary_pictured: bool
) -> None:
    lang = table.language
    embeds: list[discord.Embed] = payload["embeds"]
    drawn = [(embeds[0], pictures.table_picture(table, lang))]
    if table.summary is not None and len(embeds) > 1 and summary_pictured:
        drawn.append((embeds[1], shown.summary_picture(table, table.summary, lang)))
    attach(payload, drawn)


# ------------------------------------------------------------------------ the hand


def hand_payload(table: TableView, hand: HandView, lang: str, *, ephemeral: bool) -> Payload:
    """A player's hand: one button per card in order (the playable ones enabled), then the
    declarations they may make now; an ephemeral hand has a refresh button too. Its picture
    is drawn by :func:`hand_picture`, only when the message is sent."""
    view = discord.ui.View(timeout=None)
    if hand.left:
        # the hand's last word, with nothing left to click
        embed = discord.Embed(description=t("tables.hand.left", lang), colour=ui.GREY)
        return {"embed": embed, "view": view, "attachments": []}
    if hand.playing:
        if ephemeral:
            label = t("tables.btn.refresh", lang)
            view.add_item(TableButton(table.id, "refresh", label=label, row=4))
        for i, card in enumerate(hand.cards):
            playable = card in hand.playable
            view.add_item(
                _hand_button(
                    hand,
                    Action.play(hand.seat, card),
                    ui.card_text(card),
                    discord.ButtonStyle.primary if playable else discord.ButtonStyle.secondary,
                    disabled=not playable,
                    row=min(i // CARD_ROW, 2),
                )
            )
        for action in hand.declarations:
            style = (
                discord.ButtonStyle.danger
                if action.kind is Kind.RESIGN
                else discord.ButtonStyle.success
            )
            view.add_item(_hand_button(hand, action, ui.action_label(action, hand, lang), style))
    return {"embed": ui.hand_embed(table, hand, lang), "view": view}


def _hand_button(
    hand: HandView,
    action: Action,
    label: str,
    style: discord.ButtonStyle,
    *,
    disabled: bool = False,
    row: int | None = None,
) -> HandButton:
    code = encode_action(action)
    return HandButton(
        hand.table_id,
        hand.deal_no,
        hand.trick_no,
        code,
        label=label,
        style=style,
        disabled=disabled,
        row=row,
    )


def hand_picture(hand: HandView, lang: str, payload: Payload) -> None:
    if hand.left:
        payload["attachments"] = []
        return
    attach(payload, [(payload["embed"], pictures.hand_picture(hand, lang))])
