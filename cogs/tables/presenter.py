"""Tables on Discord: ``/tute new``, ``rules``, ``tables``, ``history``; the lobby, table and
hand buttons; and the presenter that keeps the messages and DMs in step with the service.

Buttons carry ids, never state: each custom_id names the table (and for a hand, the deal
and the trick it was drawn for), and the callback asks the service.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import hashlib
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Self, cast

import discord
from discord import app_commands

from bot.client import TuteBot, answer_error, catalog_str
from bot.engine import (
    Action,
    Kind,
    OptionError,
    Options,
    Scoring,
    StockDuty,
    Variant,
    parse_card,
    parse_suit,
)
from bot.engine.options import check_options
from bot.i18n import language_of, t
from bot.storage import tables as table_repo
from bot.storage.settings import get_settings
from bot.tables.errors import TableError
from bot.tables.model import DealSummary, Seat, Status, Table
from bot.tables.service import Announcement, LostTable, TableService

from . import _table_pictures as pictures
from . import _table_ui as ui
from ._base import CommandsMixin

log = logging.getLogger(__name__)

CARD_ROW = 5


def service_of(client: discord.Client) -> TableService:
    service = client.tables if isinstance(client, TuteBot) else None
    if service is None:
        raise RuntimeError("the table service is not running")
    return service


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return language_of(interaction.locale.value)


async def refuse(interaction: discord.Interaction[Any], error: TableError) -> None:
    """A short ephemeral explanation, in the user's language; nothing changes."""
    text = t(
        f"tables.errors.{error.key}", locale_of(interaction), **_error_params(error, interaction)
    )
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def answered(interaction: discord.Interaction[Any], answer: Awaitable[Any]) -> bool:
    """Send a click's answer; False when Discord did not take it (the click's token ran out,
    10062, or an outage). What the click did is saved and stands: the caller shows it by
    other means (the table's refresh), never undoes it."""
    try:
        await answer
    except discord.HTTPException as error:
        log.warning("Could not answer %s's click (%s)", interaction.user.id, error)
        return False
    return True


def _error_params(error: TableError, interaction: discord.Interaction[Any]) -> dict[str, Any]:
    params = dict(error.params)
    lang = locale_of(interaction)
    for key in ("card", "beat"):
        if key in params:
            params[key] = ui.card_text(params[key])
    if "suit" in params:
        params["suit"] = ui.suit_text(params["suit"], lang)
    return params


# ----------------------------------------------------------------------- buttons


class TuteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tute:(?!)"):
    """A button of a table, its custom_id ``tute:<kind>:<table id>:<part>:...``.

    Each subclass names its kind and its parts (with the pattern each must match) in its class
    line; this base makes the custom_id, parses it back when a click arrives (after a restart
    too: the formats never change) and answers refusals and errors. The subclass only says
    what a click does, in ``run``.
    """

    kind: ClassVar[str]
    part_names: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, *, kind: str, parts: dict[str, str]) -> None:
        cls.kind = kind
        cls.part_names = tuple(parts)
        fields = "".join(f":(?P<{name}>{pattern})" for name, pattern in parts.items())
        super().__init_subclass__(template=rf"tute:{kind}:(?P<tid>\d+){fields}")

    def __init__(
        self,
        table_id: int,
        *parts: int | str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        if len(parts) != len(self.part_names):
            raise TypeError(f"{type(self).__name__} takes the parts {self.part_names}")
        self.table_id = table_id
        self.parts = tuple(str(part) for part in parts)
        super().__init__(
            discord.ui.Button(
                label=label or self.parts[-1],
                style=style,
                custom_id=":".join(("tute", self.kind, str(table_id), *self.parts)),
                disabled=disabled,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["tid"]), *(match[name] for name in cls.part_names))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """A refusal is a short ephemeral explanation; anything else goes through the one
        error path."""
        try:
            await self.run(interaction)
        except TableError as error:
            await refuse(interaction, error)
        except Exception as error:
            await answer_error(interaction, error)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


LOBBY_OPS = ("join", "team0", "team1", "leave", "robot", "unrobot", "start", "close")


class LobbyButton(TuteButton, kind="l", parts={"op": "[a-z0-9]+"}):
    """A button of the lobby: ``tute:l:<table id>:<op>``."""

    @property
    def op(self) -> str:
        return self.parts[0]

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction.client)
        user = interaction.user
        name = user.display_name
        op = self.op
        if op == "join":
            outcome = await service.join(
                self.table_id, user.id, name, locale=locale_of(interaction)
            )
        elif op in ("team0", "team1"):
            outcome = await service.join(
                self.table_id, user.id, name, team=int(op[-1]), locale=locale_of(interaction)
            )
        elif op == "leave":
            outcome = await service.leave(self.table_id, user.id, lobby=True)
        elif op == "robot":
            outcome = await service.add_robot(self.table_id, user.id)
        elif op == "unrobot":
            outcome = await service.remove_robot(self.table_id, user.id)
        elif op == "start":
            outcome = await service.start(self.table_id, user.id)
        elif op == "close":
            outcome = await service.close(self.table_id, user.id)
        else:
            raise TableError("stale")
        table = outcome.table
        presenter = presenter_of(interaction.client)
        if table.play_message_id is None:
            # the lobby message is the one clicked: answer by editing it
            answer = interaction.response.edit_message(**presenter.lobby_payload(table))
            if not await answered(interaction, answer):
                presenter.forget_lobby(table.id)
        else:
            await answered(interaction, interaction.response.defer())
        await presenter.refresh(table, announce=outcome.announce)


NEW_OPTIONS = (
    "variant",
    "rounds",
    "bet",
    "turn_time",
    "competitive",
    "private",
    "spectators",
    "allow_tute",
    "stock_duty",
    "beat_partner",
    "undertrump",
    "exchange",
    "capote",
    "target",
    "scoring",
    "deck",
    "plato",
    "invite",
    "invite2",
    "invite3",
)
"""The options of ``/tute new``, each named and described in the catalog."""

TABLE_OPS = ("hand", "refresh", "back", "cancel", "leave")


class TableButton(TuteButton, kind="t", parts={"op": "[a-z]+"}):
    """A button of the table in play (``tute:t:<table id>:<op>``), or the refresh button of
    a hand shown as an ephemeral message."""

    @property
    def op(self) -> str:
        return self.parts[0]

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction.client)
        presenter = presenter_of(interaction.client)
        user = interaction.user
        table = service.get(self.table_id)
        if self.op in ("hand", "refresh"):
            seat = table.seat_of(user.id)
            if seat is None:
                raise TableError("not_seated")
            await presenter.show_ephemeral_hand(
                interaction, table, seat, locale_of(interaction), edit=self.op == "refresh"
            )
            return
        lang = locale_of(interaction)
        if self.op in ("leave", "cancel"):
            # one more click, once the player has read what it does to their stake
            question = interaction.response.send_message(
                self._question(service, user.id, lang),
                view=self._confirm_view(lang),
                ephemeral=True,
            )
            await answered(interaction, question)  # if lost, nothing happened: click again
            return
        if self.op == "back":
            outcome = await service.im_back(self.table_id, user.id)
            done = "tables.done.back"
        elif self.op == "cancelok":
            outcome = await service.vote_cancel(self.table_id, user.id)
            ended = not outcome.table.status.is_open
            done = "tables.done.cancelled" if ended else "tables.done.cancel"
        elif self.op == "leaveok":
            outcome = await service.leave(self.table_id, user.id)
            ended = not outcome.table.status.is_open
            done = "tables.done.leave_end" if ended else "tables.done.leave"
        else:
            raise TableError("stale")
        if self.op == "back":
            answer = interaction.response.send_message(t(done, lang), ephemeral=True)
        else:  # the question's message becomes the answer
            answer = interaction.response.edit_message(content=t(done, lang), view=None)
        await answered(interaction, answer)
        await presenter.refresh(outcome.table, announce=outcome.announce)

    def _question(self, service: TableService, user_id: int, lang: str) -> str:
        if self.op == "leave":
            case, stake = service.leave_terms(self.table_id, user_id)
            key = f"tables.confirm.leave.{case}" + ("_stake" if stake else "")
            return t(key, lang, stake=stake)
        missing, stake = service.vote_terms(self.table_id, user_id)
        key = "tables.confirm.cancel" if missing else "tables.confirm.cancel_last"
        text = t(key, lang, missing=missing)
        if stake:
            text += t("tables.confirm.cancel_stake", lang, stake=stake)
        return text

    def _confirm_view(self, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(
            TableButton(
                self.table_id,
                f"{self.op}ok",
                label=t(f"tables.btn.confirm_{self.op}", lang),
                style=discord.ButtonStyle.danger,
            )
        )
        return view


class HandButton(
    TuteButton,
    kind="h",
    parts={"deal": r"\d+", "trick": r"\d+", "code": "[A-Za-z0-9]+"},
):
    """A card or a declaration in a player's hand (DM or ephemeral):
    ``tute:h:<table id>:<deal>:<trick>:<code>``, the deal and trick it was drawn for."""

    @property
    def deal_no(self) -> int:
        return int(self.parts[0])

    @property
    def trick_no(self) -> int:
        return int(self.parts[1])

    @property
    def code(self) -> str:
        return self.parts[2]

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction.client)
        presenter = presenter_of(interaction.client)
        table = service.get(self.table_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        action = decode_action(seat, self.code)
        outcome = await service.act(
            self.table_id, interaction.user.id, action, deal_no=self.deal_no, trick_no=self.trick_no
        )
        table = outcome.table
        lang = locale_of(interaction)
        if interaction.guild_id is None:
            # the DM holding the hand: the answer shows it, the refresh need not edit it again
            answer = interaction.response.edit_message(**presenter.hand_payload(table, seat, lang))
            skip: int | None = seat
            if not await answered(interaction, answer):
                presenter.forget_hand(table.id, seat)
                skip = None
        else:
            skip = await presenter.answer_ephemeral_hand(interaction, table, seat, lang)
        await presenter.refresh(table, skip_seat=skip, announce=outcome.announce)


def encode_action(action: Action) -> str:
    kind = action.kind
    if kind is Kind.PLAY:
        from bot.engine import CODES

        return CODES[action.arg]
    if kind is Kind.SING:
        return "s" + "OCEB"[action.arg]
    if kind is Kind.BID:
        return f"b{action.arg}"
    return {
        Kind.TUTE: "t",
        Kind.EXCHANGE: "x",
        Kind.CAPOTE: "k",
        Kind.CLAIM: "c",
        Kind.RESIGN: "r",
        Kind.PASS: "p",
    }[kind]


def decode_action(seat: int, code: str) -> Action:
    try:
        if code[0].isdigit():
            return Action.play(seat, parse_card(code))
        if code[0] == "s":
            return Action.sing(seat, parse_suit(code[1:]))
        if code[0] == "b":
            return Action.bid(seat, int(code[1:]))
        kind = {
            "t": Kind.TUTE,
            "x": Kind.EXCHANGE,
            "k": Kind.CAPOTE,
            "c": Kind.CLAIM,
            "r": Kind.RESIGN,
            "p": Kind.PASS,
        }[code]
        return Action.simple(seat, kind)
    except (KeyError, ValueError, IndexError):
        raise TableError("stale") from None


# ---------------------------------------------------------------------- presenter

SHOWN_IN_THE_TABLE = frozenset({"tables.announce.deal_over", "tables.announce.game_over"})
"""Announcements the table message shows itself: the last deal's summary rides along with
the table (under it) until the next deal ends, and the final result is the table's last
state. A message of their own would cost a call more on the play that ends a deal."""

RETRY_AFTER = (5.0, 30.0, 120.0, 600.0)
"""Seconds before showing a table again after Discord failed to take a change."""
UNKNOWN_CHANNEL = 10003
TOO_OLD_TO_EDIT = 30046
MOVE_ON_AFTER = datetime.timedelta(minutes=50)
"""Discord limits edits of messages older than an hour (30046): the table moves to a fresh
message before that, once in 50 minutes (one call more in that time, not one a deal)."""


def _away_seats(table: Table) -> frozenset[int]:
    return frozenset(i for i, s in enumerate(table.seats) if s is not None and s.away)


def _too_old(message_id: int) -> bool:
    return discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > MOVE_ON_AFTER


Attach = Callable[[dict[str, Any]], None]
"""Draws a payload's pictures into it (only once the payload is known to be sent)."""


def attach(
    payload: dict[str, Any], pictures_: list[tuple[discord.Embed, discord.File | None]]
) -> None:
    """Show each picture as its embed's image (the embed's text and the picture's alt text
    stay for screen readers); the message keeps these files and no other."""
    files: list[discord.File] = []
    for embed, picture in pictures_:
        if picture is not None:
            embed.set_image(url=f"attachment://{picture.filename}")
            files.append(picture)
    payload["attachments"] = files


def as_new_message(payload: dict[str, Any]) -> dict[str, Any]:
    """An edit's payload as one for a new message: files instead of attachments."""
    new = dict(payload)
    new["files"] = new.pop("attachments", [])
    return new


def _embeds(payload: dict[str, Any]) -> list[discord.Embed]:
    if "embeds" in payload:
        return list(payload["embeds"])
    embed = payload.get("embed")
    return [embed] if isinstance(embed, discord.Embed) else []


def _digest(payload: dict[str, Any]) -> str:
    view = payload.get("view")
    parts = [json.dumps([e.to_dict() for e in _embeds(payload)], sort_keys=True)]
    if isinstance(view, discord.ui.View):
        parts.append(json.dumps(view.to_components(), sort_keys=True))
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


def _hand_digest(payload: dict[str, Any], *, away: bool) -> str:
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


def _has_buttons(payload: dict[str, Any]) -> bool:
    view = payload.get("view")
    return isinstance(view, discord.ui.View) and any(
        isinstance(item, HandButton) for item in view.children
    )


def _usable(payload: dict[str, Any]) -> bool:
    view = payload.get("view")
    return isinstance(view, discord.ui.View) and any(
        isinstance(item, HandButton) and not item.item.disabled for item in view.children
    )


def robot_plays_next(table: Table) -> bool:
    """Whether a robot is on turn and plays in a moment (after the service's robot delay; no
    human may sing first, which would make it wait longer). What there is to show may wait
    for that play: the table message then shows both in one edit (a run of plays, one
    edit), and a hand its player cannot use now is edited once, after it."""
    round_ = table.round
    if (
        table.status is not Status.PLAYING
        or round_ is None
        or round_.finished
        or table.play_message_id is None
        or table.paused_until is not None
    ):
        return False
    occupant = table.seats[round_.turn]
    if occupant is None or not occupant.robot_plays:
        return False
    legal = round_.legal_actions()
    for action in legal:
        declarer = table.seats[action.seat]
        if (
            action.kind in (Kind.SING, Kind.TUTE)
            and declarer is not None
            and not declarer.robot_plays
        ):
            return False
    return any(a.seat == round_.turn and a.kind in (Kind.PLAY, Kind.BID, Kind.PASS) for a in legal)


def _wait_for_robot(table: Table, seat: Seat, payload: dict[str, Any]) -> bool:
    """Whether a hand the player cannot use now may wait for the robot about to play: the
    refresh after that play shows it (one edit instead of two; a habanero draw, a new deal)."""
    if seat.away or _usable(payload):
        return False
    return robot_plays_next(table)


def summary_pictured(table: Table) -> bool:
    """Whether the last deal's summary under the table shows its picture: until the first
    trick of the next deal is over, and at the end. Its few lines stay through the deal."""
    round_ = table.round
    return table.status is not Status.PLAYING or round_ is None or not round_.tricks


def delivered_by_dm(table: Table, seat: int) -> bool:
    """Whether the seat's hand lives in its player's DMs (else in ephemeral messages)."""
    occupant = table.seats[seat]
    return table.hand_delivery == "dm" and occupant is not None and not occupant.dm_closed


class DiscordPresenter:
    """Keeps a table's messages in step: the lobby and the table message (edited in place,
    only when they change; the table carries the last deal's summary), each player's hand in
    their DMs or in their last ephemeral hand, and the other announcements."""

    def __init__(self, bot: discord.Client, *, language: str = "en") -> None:
        self.bot = bot
        self.language = language
        """The language of messages that no table's own language covers."""
        self._digests: dict[tuple[int, str], str] = {}
        self._buttons_shown: dict[tuple[int, int], bool] = {}
        """Whether the hand last shown to a seat had buttons (cards or declarations)."""
        self._ephemeral: dict[tuple[int, int], discord.Interaction[Any]] = {}
        """The last interaction that showed a seat its hand as an ephemeral message: its
        token edits that message for 15 minutes."""
        self._away_shown: dict[int, frozenset[int]] = {}
        """The seats the table message last showed away (an I'm back to show at once)."""
        self._pending: dict[int, list[Announcement]] = {}
        """Announcements Discord did not take, sent with the next refresh."""
        self._retries: dict[int, int] = {}
        self._retry_tasks: dict[int, asyncio.Task[None]] = {}
        self._told: set[tuple[int, int]] = set()
        """(table, error code) of the permission problems the host was told of."""
        self._summaries: dict[int, tuple[tuple[int, str], bytes, str]] = {}
        """The last summary picture of each table, drawn once: (deal, language), PNG, alt."""

    # payloads -------------------------------------------------------------

    def lobby_payload(self, table: Table) -> dict[str, Any]:
        lang = table.language
        payload: dict[str, Any] = {
            "embed": ui.lobby_embed(table, lang),
            "view": self._lobby_view(table, lang),
        }
        self._digests[(table.id, "lobby")] = _digest(payload)
        return payload

    def _lobby_view(self, table: Table, lang: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        if table.status is not Status.LOBBY:
            link = ui.game_link(table)
            if link and table.status is Status.PLAYING:
                view.add_item(discord.ui.Button(label=t("tables.btn.follow", lang), url=link))
            return view
        full = not table.free_seats()
        if table.variant is Variant.PAIRS:
            for team in (0, 1):
                view.add_item(
                    LobbyButton(
                        table.id,
                        f"team{team}",
                        label=t("tables.btn.team", lang, team="AB"[team]),
                        style=discord.ButtonStyle.success,
                        disabled=full,
                        row=0,
                    )
                )
        else:
            view.add_item(
                LobbyButton(
                    table.id,
                    "join",
                    label=t("tables.btn.join", lang),
                    style=discord.ButtonStyle.success,
                    disabled=full,
                    row=0,
                )
            )
        view.add_item(LobbyButton(table.id, "leave", label=t("tables.btn.leave", lang), row=0))
        view.add_item(
            LobbyButton(table.id, "robot", label=t("tables.btn.robot", lang), disabled=full, row=1)
        )
        has_robot = any(s is not None and s.is_robot for s in table.seats)
        view.add_item(
            LobbyButton(
                table.id,
                "unrobot",
                label=t("tables.btn.unrobot", lang),
                disabled=not has_robot,
                row=1,
            )
        )
        view.add_item(
            LobbyButton(
                table.id,
                "start",
                label=t("tables.btn.start", lang),
                style=discord.ButtonStyle.primary,
                row=1,
            )
        )
        view.add_item(
            LobbyButton(
                table.id,
                "close",
                label=t("tables.btn.close", lang),
                style=discord.ButtonStyle.danger,
                row=1,
            )
        )
        return view

    def table_payload(self, table: Table, *, picture: bool = True) -> dict[str, Any]:
        """The table message: the table now (in play, or its end), then the last deal's
        summary while there is one."""
        lang = table.language
        view = discord.ui.View(timeout=None)
        if table.status is Status.PLAYING:
            view.add_item(
                TableButton(
                    table.id,
                    "hand",
                    label=t("tables.btn.hand", lang),
                    style=discord.ButtonStyle.primary,
                )
            )
            if any(s is not None and s.away and not s.left for s in table.seats):
                view.add_item(
                    TableButton(
                        table.id,
                        "back",
                        label=t("tables.btn.back", lang),
                        style=discord.ButtonStyle.success,
                    )
                )
            view.add_item(TableButton(table.id, "cancel", label=t("tables.btn.cancel", lang)))
            view.add_item(
                TableButton(
                    table.id,
                    "leave",
                    label=t("tables.btn.leave_game", lang),
                    style=discord.ButtonStyle.danger,
                )
            )
        embeds = [ui.table_embed(table, lang)]
        if table.summary is not None:
            embeds.append(ui.summary_embed(table, table.summary, lang))
        payload: dict[str, Any] = {"embeds": embeds, "view": view}
        if picture:
            self._table_pictures(table, payload)
        return payload

    def _table_pictures(self, table: Table, payload: dict[str, Any]) -> None:
        lang = table.language
        embeds: list[discord.Embed] = payload["embeds"]
        shown = [(embeds[0], pictures.table_picture(table, lang))]
        if table.summary is not None and len(embeds) > 1 and summary_pictured(table):
            shown.append((embeds[1], self._summary_picture(table, table.summary, lang)))
        attach(payload, shown)

    def _summary_picture(self, table: Table, summary: DealSummary, lang: str) -> discord.File:
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

    def hand_payload(
        self,
        table: Table,
        seat: int,
        lang: str,
        *,
        remember: bool = True,
        picture: bool = True,
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        """A player's hand: its picture, one button per card in order (the legal ones
        enabled), then the declarations they may make now; an ephemeral hand has a refresh
        button too. ``remember``: this is now the hand the seat sees (no edit needed)."""
        view = discord.ui.View(timeout=None)
        round_ = table.round
        occupant = table.seats[seat]
        if occupant is not None and occupant.left:
            # the hand's last word, with nothing left to click
            gone: dict[str, Any] = {
                "embed": discord.Embed(description=t("tables.hand.left", lang), colour=ui.GREY),
                "view": view,
                "attachments": [],
            }
            if remember:
                self._digests[(table.id, f"hand{seat}")] = _hand_digest(gone, away=False)
                self._buttons_shown[(table.id, seat)] = False
            return gone
        if round_ is not None and table.status is Status.PLAYING:
            if ephemeral:
                view.add_item(
                    TableButton(table.id, "refresh", label=t("tables.btn.refresh", lang), row=4)
                )
            legal = [a for a in round_.legal_actions() if a.seat == seat]
            if occupant is not None and occupant.robot_plays:
                legal = []
            playable = {a.arg for a in legal if a.kind is Kind.PLAY}
            deal, trick = table.deal_no, len(round_.tricks)
            for i, card in enumerate(round_.hand(seat)):
                view.add_item(
                    HandButton(
                        table.id,
                        deal,
                        trick,
                        encode_action(Action.play(seat, card)),
                        label=ui.card_text(card),
                        style=discord.ButtonStyle.primary
                        if card in playable
                        else discord.ButtonStyle.secondary,
                        disabled=card not in playable,
                        row=min(i // CARD_ROW, 2),
                    )
                )
            others = [a for a in legal if a.kind is not Kind.PLAY]
            if any(a.kind is Kind.BID for a in others):
                bids = [a for a in others if a.kind is Kind.BID][::10][:4]
                others = bids + [a for a in others if a.kind is Kind.PASS]
            for action in others[:9]:
                style = (
                    discord.ButtonStyle.danger
                    if action.kind is Kind.RESIGN
                    else discord.ButtonStyle.success
                )
                view.add_item(
                    HandButton(
                        table.id,
                        deal,
                        trick,
                        encode_action(action),
                        label=ui.action_label(action, round_, lang),
                        style=style,
                    )
                )
        payload: dict[str, Any] = {"embed": ui.hand_embed(table, seat, lang), "view": view}
        if remember:
            away = occupant is not None and occupant.away
            self._digests[(table.id, f"hand{seat}")] = _hand_digest(payload, away=away)
            self._buttons_shown[(table.id, seat)] = _has_buttons(payload)
        if picture:
            self._hand_picture(table, seat, lang, payload)
        return payload

    @staticmethod
    def _hand_picture(table: Table, seat: int, lang: str, payload: dict[str, Any]) -> None:
        occupant = table.seats[seat]
        if occupant is not None and occupant.left:
            payload["attachments"] = []
            return
        attach(payload, [(payload["embed"], pictures.hand_picture(table, seat, lang))])

    # ephemeral hands -------------------------------------------------------

    async def show_ephemeral_hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        lang: str,
        *,
        edit: bool,
    ) -> None:
        """Answer "My hand" with the hand as a message only its player sees (or, for its
        refresh button, edit that message). When the seat has no DM for its hand, this is
        where the hand lives: the refresh after each play keeps it up to date."""
        by_dm = delivered_by_dm(table, seat)
        payload = self.hand_payload(table, seat, lang, remember=not by_dm, ephemeral=True)
        if edit:
            answer = interaction.response.edit_message(**payload)
        else:
            answer = interaction.response.send_message(**as_new_message(payload), ephemeral=True)
        if not await answered(interaction, answer):
            # nothing was shown: the player clicks again; the refresh must not skip it
            if not by_dm:
                self.forget_hand(table.id, seat)
            return
        if not by_dm:
            self._ephemeral[(table.id, seat)] = interaction

    async def answer_ephemeral_hand(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, lang: str
    ) -> int | None:
        """Answer a click in an ephemeral hand by showing the hand as it now is; the seat
        whose hand the refresh need not show again (None: its DM still needs it)."""
        by_dm = delivered_by_dm(table, seat)
        payload = self.hand_payload(table, seat, lang, remember=not by_dm, ephemeral=True)
        if not await answered(interaction, interaction.response.edit_message(**payload)):
            self.forget_hand(table.id, seat)
            return None
        if by_dm:
            return None
        self._ephemeral[(table.id, seat)] = interaction
        return seat

    # refresh --------------------------------------------------------------

    async def refresh(
        self,
        table: Table,
        *,
        skip_seat: int | None = None,
        announce: list[Announcement] | None = None,
    ) -> None:
        """Bring every message of the table in step, each on its own: a call Discord refuses
        touches only its own message (a closed DM, a deleted thread, a missing permission),
        and one that may work later (a 5xx, a rate limit) is tried again a little later."""
        pending = self._pending.pop(table.id, [])
        announce = pending + [a for a in announce or [] if a.key not in SHOWN_IN_THE_TABLE]
        ok = True
        if self._public_changes(table):
            ok &= await self._step(table, "table", self._public(table))
        if table.status is not Status.LOBBY:
            for seat_no, seat in enumerate(table.seats):
                if seat is None or seat.user_id is None or seat_no == skip_seat:
                    continue
                ok &= await self._step(table, "hand", self._hand(table, seat_no, seat))
        for item in announce:
            if not await self._step(table, "announce", self._announce(table, item)):
                self._pending.setdefault(table.id, []).append(item)
                ok = False
        if not ok:
            self._retry_later(table)
            return
        self._retries.pop(table.id, None)
        if not table.status.is_open:
            self._forget(table.id)

    async def _step(self, table: Table, what: str, work: Awaitable[None]) -> bool:
        """Run one message's update; False when it failed in a way worth another try."""
        try:
            await work
        except discord.Forbidden as error:
            await self._missing_permission(table, what, error)
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                log.warning("Table %s: Discord failed its %s (%s)", table.id, what, error)
                return False
            log.warning("Table %s: Discord refused its %s (%s)", table.id, what, error)
        except Exception:
            log.exception("Could not show the %s of table %s", what, table.id)
        return True

    def _retry_later(self, table: Table) -> None:
        """Show the table again after a while (5 s, 30 s, 2 min...): what did not change is
        not sent again, what failed is."""
        task = self._retry_tasks.get(table.id)
        if task is not None and not task.done():
            return
        tries = self._retries.get(table.id, 0)
        if tries >= len(RETRY_AFTER):
            log.error("Table %s: giving up showing it until its next change", table.id)
            self._retries.pop(table.id, None)
            return
        self._retries[table.id] = tries + 1
        self._retry_tasks[table.id] = asyncio.get_running_loop().create_task(
            self._retry(table, RETRY_AFTER[tries]), name=f"table-{table.id}-redraw"
        )

    async def _retry(self, table: Table, delay: float) -> None:
        await service_of(self.bot).sleep(delay)
        self._retry_tasks.pop(table.id, None)
        current = service_of(self.bot).tables.get(table.id, table)
        await self.refresh(current)

    async def _missing_permission(self, table: Table, what: str, error: discord.Forbidden) -> None:
        """The bot may not do something in the table's channel: the host is told once (in
        the channel, where an admin can see it too); what else works goes on."""
        if what == "hand":
            return  # a closed DM is handled by the hand itself
        log.warning("Table %s: no permission for its %s (%s)", table.id, what, error)
        told = (table.id, error.code)
        if told in self._told:
            return
        self._told.add(told)
        text = t(
            "tables.missing_permissions",
            table.language,
            host=f"<@{table.host_id}>",
            channel=f"<#{table.where_id}>",
        )
        try:
            await self.bot.get_partial_messageable(table.channel_id).send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(table.host_id)]),
            )
        except discord.HTTPException:
            log.warning("Table %s: could not tell its host about permissions", table.id)

    def _public_changes(self, table: Table) -> bool:
        """Whether the public messages are edited now. Not when a robot plays in a moment
        (its play shows this too, in one edit), unless a seat went away or came back: the
        table must show I'm back at once, whoever plays next."""
        if self._away_shown.get(table.id, frozenset()) != _away_seats(table):
            return True
        return not robot_plays_next(table)

    def forget_hand(self, table_id: int, seat: int) -> None:
        """A hand shown in an answer that did not reach Discord: the next refresh sends it."""
        self._digests.pop((table_id, f"hand{seat}"), None)
        self._buttons_shown.pop((table_id, seat), None)

    def forget_lobby(self, table_id: int) -> None:
        self._digests.pop((table_id, "lobby"), None)

    def _forget(self, table_id: int) -> None:
        """A table that no longer plays: nothing of it to keep in step any more."""
        stores: list[dict[Any, Any]] = [self._digests, self._buttons_shown, self._ephemeral]
        for store in stores:
            for key in [k for k in store if k[0] == table_id]:
                del store[key]
        for single in (self._summaries, self._away_shown, self._retries):
            single.pop(table_id, None)
        self._told = {told for told in self._told if told[0] != table_id}

    async def _edit(
        self,
        channel_id: int,
        message_id: int,
        key: tuple[int, str],
        payload: dict[str, Any],
        pictures_: Attach | None = None,
        digest: str | None = None,
    ) -> None:
        """Edit a message, unless it already shows this (the pictures are drawn only then);
        ``digest`` says what counts as a change (by default, everything it shows)."""
        digest = digest or _digest(payload)
        if self._digests.get(key) == digest:
            return
        if pictures_ is not None:
            pictures_(payload)
        await (
            self.bot.get_partial_messageable(channel_id)
            .get_partial_message(message_id)
            .edit(**payload)
        )
        self._digests[key] = digest

    async def _public(self, table: Table) -> None:
        await self._step(table, "lobby", self._lobby(table))
        if table.status is Status.LOBBY or (
            table.play_message_id is None and table.status is not Status.PLAYING
        ):
            return
        if table.play_message_id is None:
            await self._open_play_message(table)
        elif _too_old(table.play_message_id):
            await self._move_on(table)
        else:
            await self._edit_table(table)
        self._away_shown[table.id] = _away_seats(table)

    async def _edit_table(self, table: Table) -> None:
        """Edit the table message; one Discord lost (deleted, its thread gone) or can no
        longer edit (older than an hour) is posted again."""
        assert table.play_message_id is not None
        try:
            await self._edit(
                table.where_id,
                table.play_message_id,
                (table.id, "table"),
                self.table_payload(table, picture=False),
                functools.partial(self._table_pictures, table),
            )
        except discord.NotFound as error:
            log.warning("Table %s: its message is gone (%s); posting it again", table.id, error)
            if error.code == UNKNOWN_CHANNEL and table.thread_id is not None:
                # the thread was deleted: the game goes on in the channel
                table.thread_id = None
                await service_of(self.bot).set_messages(table.id, thread_id=0)
            await self._open_play_message(table)
        except discord.HTTPException as error:
            if error.code != TOO_OLD_TO_EDIT:
                raise
            await self._move_on(table)

    async def _move_on(self, table: Table) -> None:
        """A fresh table message before Discord stops letting the bot edit the old one (an
        hour): the old one keeps a line that points to the new one, and no buttons."""
        old = table.play_message_id
        await self._open_play_message(table)
        if old is None:
            return
        lang = table.language
        line = t("tables.moved_on", lang, deal=table.deal_no + 1, id=table.id)
        payload: dict[str, Any] = {
            "embeds": [discord.Embed(description=line, colour=ui.GREY)],
            "view": None,
            "attachments": [],
        }
        try:
            await (
                self.bot.get_partial_messageable(table.where_id)
                .get_partial_message(old)
                .edit(**payload)
            )
        except discord.HTTPException as error:
            # the game is shown in its new message all the same
            log.info("Table %s: its old message stays as it was (%s)", table.id, error)

    async def _lobby(self, table: Table) -> None:
        if table.message_id is not None:
            lang = table.language
            payload = {"embed": ui.lobby_embed(table, lang), "view": self._lobby_view(table, lang)}
            try:
                await self._edit(table.channel_id, table.message_id, (table.id, "lobby"), payload)
            except discord.NotFound:
                log.info("Table %s: its lobby message is gone", table.id)

    async def _open_play_message(self, table: Table) -> None:
        """At the start: the game's own thread when the bot may make one (a private one
        when spectators are off), else the channel; then the table message there. Later: a
        fresh table message where the game plays."""
        service = service_of(self.bot)
        first = table.play_message_id is None
        thread_id = table.thread_id
        if thread_id is None and first:
            thread_id = await self._make_thread(table)
        payload = self.table_payload(table)
        where = self.bot.get_partial_messageable(thread_id or table.channel_id)
        try:
            message = await where.send(**as_new_message(payload))
        except discord.NotFound:
            if thread_id is None:
                raise
            # the thread is gone: the game goes on in the channel
            log.warning("Table %s: its thread is gone; playing on in the channel", table.id)
            thread_id = None
            table.thread_id = None
            payload = self.table_payload(table)
            message = await self.bot.get_partial_messageable(table.channel_id).send(
                **as_new_message(payload)
            )
        self._digests[(table.id, "table")] = _digest(payload)
        await service.set_messages(
            table.id, play_message_id=message.id, thread_id=thread_id if thread_id else 0
        )
        if first:
            # the lobby now links to the game
            await self._step(table, "lobby", self._lobby(table))

    async def _make_thread(self, table: Table) -> int | None:
        channel = self.bot.get_channel(table.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        me = channel.guild.me
        perms = channel.permissions_for(me)
        name = ui.variant_title(table, table.language)[:90]
        if table.options.spectators:
            if not (perms.create_public_threads and perms.send_messages_in_threads):
                return None
        elif not (perms.create_private_threads and perms.send_messages_in_threads):
            await channel.send(t("tables.no_private_thread", table.language))
            return None
        try:
            if table.options.spectators:
                if table.message_id is not None:
                    thread = await channel.get_partial_message(table.message_id).create_thread(
                        name=name
                    )
                else:
                    thread = await channel.create_thread(
                        name=name, type=discord.ChannelType.public_thread
                    )
                return thread.id
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.private_thread, invitable=False
            )
        except discord.HTTPException:
            log.info("Table %s plays in its channel: no thread could be made", table.id)
            if not table.options.spectators:
                await channel.send(t("tables.no_private_thread", table.language))
            return None
        for user_id in table.humans():
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException:
                # the others are in; this player still gets their hand, and can be added
                log.warning("Table %s: could not add %s to its thread", table.id, user_id)
        return thread.id

    async def _hand(self, table: Table, seat_no: int, seat: Seat) -> None:
        shown = self._buttons_shown.get((table.id, seat_no))
        if (seat.left or table.status is not Status.PLAYING) and shown is False:
            # nothing left in it to see or click: the table shows the rest
            return
        if delivered_by_dm(table, seat_no):
            await self._dm_hand(table, seat_no, seat)
        else:
            await self._ephemeral_hand(table, seat_no, seat)

    async def _dm_hand(self, table: Table, seat_no: int, seat: Seat) -> None:
        """The hand in the player's DMs: edited when what it offers changes, sent the first
        time (or again, if the message is gone). A player whose DMs are closed, or who blocks
        the bot mid-game, gets the hand under My hand, and the table says so."""
        service = service_of(self.bot)
        lang = language_of(seat.locale)
        payload = self.hand_payload(table, seat_no, lang, remember=False, picture=False)
        key = (table.id, f"hand{seat_no}")
        digest = _hand_digest(payload, away=seat.away)
        if seat.dm_message_id is not None and _wait_for_robot(table, seat, payload):
            return
        try:
            if seat.dm_message_id is not None and seat.dm_channel_id is not None:
                try:
                    await self._edit(
                        seat.dm_channel_id,
                        seat.dm_message_id,
                        key,
                        payload,
                        functools.partial(self._hand_picture, table, seat_no, lang),
                        digest,
                    )
                except discord.NotFound:
                    log.info("Table %s: the hand of seat %s is gone", table.id, seat_no)
                else:
                    self._buttons_shown[(table.id, seat_no)] = _has_buttons(payload)
                    return
            if table.status is not Status.PLAYING or seat.left:
                return
            self._hand_picture(table, seat_no, lang, payload)
            # by id: no need to fetch the user first (one call less per player)
            channel = await self.bot.create_dm(discord.Object(seat.user_id or 0))
            message = await channel.send(**as_new_message(payload))
        except discord.Forbidden:
            await service.set_dm(table.id, seat_no, channel_id=None, message_id=None, closed=True)
            self.forget_hand(table.id, seat_no)
            if table.status is Status.PLAYING and table.play_message_id is not None:
                await self._step(table, "table", self._edit_table(table))
            return
        self._digests[key] = digest
        self._buttons_shown[(table.id, seat_no)] = _has_buttons(payload)
        await service.set_dm(
            table.id, seat_no, channel_id=channel.id, message_id=message.id, closed=False
        )

    async def _ephemeral_hand(self, table: Table, seat_no: int, seat: Seat) -> None:
        """The hand the player last opened with My hand (or clicked in), edited through that
        interaction while its token lasts (15 minutes); after that, its refresh button."""
        interaction = self._ephemeral.get((table.id, seat_no))
        if interaction is None:
            return
        if interaction.is_expired():
            del self._ephemeral[(table.id, seat_no)]
            return
        lang = language_of(seat.locale)
        payload = self.hand_payload(
            table, seat_no, lang, remember=False, picture=False, ephemeral=True
        )
        key = (table.id, f"hand{seat_no}")
        digest = _hand_digest(payload, away=seat.away)
        if self._digests.get(key) == digest or _wait_for_robot(table, seat, payload):
            return
        self._hand_picture(table, seat_no, lang, payload)
        try:
            await interaction.edit_original_response(**payload)
        except discord.HTTPException:
            # gone, or its token ran out: the player opens a new one with My hand
            self._ephemeral.pop((table.id, seat_no), None)
            return
        self._digests[key] = digest
        self._buttons_shown[(table.id, seat_no)] = _has_buttons(payload)

    async def _announce(self, table: Table, item: Announcement) -> None:
        """A message of its own where the table plays (the lobby closing, the game paused or
        cancelled...): a new message, so that it notifies."""
        where = self.bot.get_partial_messageable(table.where_id)
        params = ui.event_params(item.params, table.language)
        await where.send(t(item.key, table.language, **params))

    async def table_lost(self, lost: LostTable) -> None:
        """A table that could not be restored: its players are told where it played, with
        the chips each got back."""
        lang = self.language
        if lost.refunded:
            refunds = ", ".join(
                t("tables.refund_line", lang, name=f"<@{uid}>", chips=chips)
                for uid, chips in lost.refunded.items()
            )
            text = t("tables.announce.lost_refunds", lang, table=lost.table_id, refunds=refunds)
        else:
            text = t("tables.announce.lost", lang, table=lost.table_id)
        await self.bot.get_partial_messageable(lost.channel_id).send(
            text,
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(uid) for uid in lost.refunded]
            ),
        )


def presenter_of(client: discord.Client) -> DiscordPresenter:
    return cast(DiscordPresenter, service_of(client).presenter)


# ---------------------------------------------------------------------- commands

VARIANT_CHOICES = [
    app_commands.Choice(name=catalog_str(f"variants.{v.value}"), value=v.value) for v in Variant
]


class TablesCommands(CommandsMixin):
    """The table commands of the ``/tute`` group (mixed into the Tute cog)."""

    @app_commands.command(
        name=catalog_str("commands.tute.new.name"),
        description=catalog_str("commands.tute.new.description"),
    )
    @app_commands.guild_only()
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        stock_duty=[
            app_commands.Choice(name=catalog_str(f"options.stock_duty.{d.value}"), value=d.value)
            for d in StockDuty
        ],
        scoring=[
            app_commands.Choice(name=catalog_str(f"options.scoring.{s.value}"), value=s.value)
            for s in Scoring
        ],
        deck=[
            app_commands.Choice(name="40", value="40"),
            app_commands.Choice(name="36", value="36"),
        ],
    )
    @app_commands.describe(
        **{name: catalog_str(f"options.{name}.description") for name in NEW_OPTIONS}
    )
    @app_commands.rename(**{name: catalog_str(f"options.{name}.name") for name in NEW_OPTIONS})
    async def new(
        self,
        interaction: discord.Interaction[TuteBot],
        variant: str,
        rounds: app_commands.Range[int, 1, 5] = 1,
        bet: app_commands.Range[int, 0, 1_000_000] = 0,
        turn_time: app_commands.Range[int, 10, 3600] | None = None,
        competitive: bool = True,
        private: bool = False,
        spectators: bool = True,
        allow_tute: bool | None = None,
        stock_duty: str = StockDuty.FREE.value,
        beat_partner: bool = True,
        undertrump: bool = False,
        exchange: bool = True,
        capote: bool = True,
        target: app_commands.Range[int, 30, 1000] = 101,
        scoring: str = Scoring.MOST.value,
        deck: str = "40",
        plato: bool = False,
        invite: discord.Member | None = None,
        invite2: discord.Member | None = None,
        invite3: discord.Member | None = None,
    ) -> None:
        """Open a table in this channel."""
        lang = locale_of(interaction)
        guild = interaction.guild
        assert guild is not None
        settings = await get_settings(service_of(interaction.client).db, guild.id)
        role_id = settings.opener_role_id
        member = interaction.user
        if (
            role_id
            and isinstance(member, discord.Member)
            and not member.guild_permissions.manage_guild
            and not any(r.id == role_id for r in member.roles)
        ):
            await interaction.response.send_message(
                t("tables.errors.opener_role", lang, role=f"<@&{role_id}>"), ephemeral=True
            )
            return
        v = Variant(variant)
        try:
            options = Options(
                rounds=rounds,
                bet=bet,
                turn_time=turn_time or settings.turn_time,
                competitive=competitive,
                private=private,
                spectators=spectators,
                allow_tute=allow_tute,
                stock_duty=StockDuty(stock_duty),
                beat_partner=beat_partner,
                undertrump=undertrump,
                exchange=exchange,
                capote=capote,
                target=target,
                scoring=Scoring(scoring),
                deck=int(deck),
                plato=plato,
            )
            check_options(v, options)
        except OptionError as exc:
            await interaction.response.send_message(
                t("tables.errors.bad_options", lang, why=str(exc)), ephemeral=True
            )
            return
        invited = [m.id for m in (invite, invite2, invite3) if m is not None]
        service = service_of(interaction.client)
        try:
            table = await service.open_table(
                guild_id=guild.id,
                channel_id=interaction.channel_id or 0,
                host_id=member.id,
                host_name=member.display_name,
                variant=v,
                options=options,
                language=settings.language_or(interaction.client.config.language),
                invited=invited,
                max_tables=settings.max_tables,
                host_locale=lang,
                hand_delivery=settings.hand_delivery,
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        presenter = presenter_of(interaction.client)
        payload = presenter.lobby_payload(table)
        mentions = " ".join(f"<@{uid}>" for uid in invited)
        try:
            callback = await interaction.response.send_message(
                content=t("tables.invited", table.language, mentions=mentions) if invited else None,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(uid) for uid in invited]
                ),
                **payload,
            )
        except discord.HTTPException as error:
            # nobody can see this lobby (the command's token ran out, 10062...): no table
            log.warning("Table %s: its lobby could not be shown (%s); closing it", table.id, error)
            await service.discard(table.id)
            return
        resource = callback.resource
        if isinstance(resource, discord.InteractionMessage):
            await service.set_messages(table.id, message_id=resource.id)

    @app_commands.command(
        name=catalog_str("commands.tute.rules.name"),
        description=catalog_str("commands.tute.rules.description"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.rename(variant=catalog_str("options.variant.name"))
    @app_commands.describe(variant=catalog_str("options.variant.description"))
    async def rules(
        self, interaction: discord.Interaction[TuteBot], variant: str | None = None
    ) -> None:
        """The rules of a variant and its options, briefly, for the user alone."""
        lang = locale_of(interaction)
        variants = [Variant(variant)] if variant else list(Variant)
        embed = discord.Embed(
            title=t("rules.title", lang), colour=ui.GREEN, description=t("rules.common", lang)
        )
        for v in variants:
            embed.add_field(
                name=t(f"variants.{v.value}", lang), value=t(f"rules.{v.value}", lang), inline=False
            )
        embed.add_field(
            name=t("rules.options_title", lang), value=t("rules.options", lang), inline=False
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=catalog_str("commands.tute.tables.name"),
        description=catalog_str("commands.tute.tables.description"),
    )
    @app_commands.guild_only()
    async def tables(self, interaction: discord.Interaction[TuteBot]) -> None:
        """The open tables of this server, with their state and a link."""
        lang = locale_of(interaction)
        guild_id = interaction.guild_id or 0
        open_tables = service_of(interaction.client).open_tables(guild_id)
        embed = discord.Embed(title=t("tables.list.title", lang), colour=ui.GREEN)
        if not open_tables:
            embed.description = t("tables.list.none", lang)
        for table in open_tables[:20]:
            channel = table.where_id if table.play_message_id else table.channel_id
            message = table.play_message_id or table.message_id
            link = f"https://discord.com/channels/{guild_id}/{channel}/{message}" if message else ""
            seated = sum(1 for s in table.seats if s is not None)
            embed.add_field(
                name=ui.variant_title(table, lang),
                value=t(
                    f"tables.list.{table.status.value}",
                    lang,
                    seated=seated,
                    seats=table.players,
                    link=link,
                ),
                inline=False,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=catalog_str("commands.tute.history.name"),
        description=catalog_str("commands.tute.history.description"),
    )
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction[TuteBot]) -> None:
        """The game record of your last finished deal here, as a JSON file."""
        lang = locale_of(interaction)
        service = service_of(interaction.client)
        record = await table_repo.last_finished_record(
            service.db, interaction.guild_id or 0, interaction.user.id
        )
        if record is None:
            await interaction.response.send_message(t("history.none", lang), ephemeral=True)
            return
        text = json.dumps(json.loads(record), indent=1, ensure_ascii=False)
        file = discord.File(io.BytesIO(text.encode()), filename="tute-record.json")
        await interaction.response.send_message(t("history.here", lang), file=file, ephemeral=True)


async def start_tables(bot: TuteBot) -> TableService:
    """Start the service (once per bot), restore open tables and show them again."""
    if bot.tables is not None:
        return bot.tables
    if bot.db is None:
        raise RuntimeError("the database is not open")
    presenter = DiscordPresenter(bot, language=bot.config.language)
    service = TableService(
        bot.db,
        presenter,
        clock=lambda: discord.utils.utcnow().timestamp(),
        robot_delay=bot.config.robot_delay,
        think_budget=bot.config.think_budget,
    )
    bot.tables = service
    bot.add_dynamic_items(LobbyButton, TableButton, HandButton)
    try:
        restored = await service.restore()
    except Exception:
        # the commands stay; the tables in the database come back at the next start
        log.exception("Could not restore the open tables")
        restored = []
    for table in restored:
        bot.loop.create_task(presenter.refresh(table))
    return service
