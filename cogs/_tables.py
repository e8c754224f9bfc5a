"""Tables on Discord: ``/tute new``, ``rules``, ``tables``, ``history``; the lobby, table and
hand buttons; and the presenter that keeps the messages and DMs in step with the service.

Buttons carry ids, never state: each custom_id names the table (and for a hand, the deal
and the trick it was drawn for), and the callback asks the service.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.client import answer_error, catalog_str
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
from bot.tables.errors import TableError
from bot.tables.model import Seat, Status, Table
from bot.tables.service import Announcement, TableService

from . import _table_pictures as pictures
from . import _table_ui as ui
from ._base import CommandsMixin

if TYPE_CHECKING:
    from bot.client import TuteBot

log = logging.getLogger(__name__)

CARD_ROW = 5


def service_of(client: discord.Client) -> TableService:
    service = getattr(client, "tables", None)
    if service is None:
        raise RuntimeError("the table service is not running")
    return cast(TableService, service)


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


async def run_button(
    interaction: discord.Interaction[Any],
    run: Callable[[discord.Interaction[Any]], Awaitable[None]],
) -> None:
    """Every table button: a refusal is a short ephemeral explanation, anything else goes
    through the one error path."""
    try:
        await run(interaction)
    except TableError as error:
        await refuse(interaction, error)
    except Exception as error:
        await answer_error(interaction, error)


LOBBY_OPS = ("join", "team0", "team1", "leave", "robot", "unrobot", "start", "close")


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tute:l:(?P<tid>\d+):(?P<op>[a-z0-9]+)",
):
    def __init__(
        self,
        table_id: int,
        op: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or op,
                style=style,
                custom_id=f"tute:l:{table_id}:{op}",
                disabled=disabled,
                row=row,
            )
        )
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_button(interaction, self._run)

    async def _run(self, interaction: discord.Interaction[Any]) -> None:
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
            outcome = await service.leave(self.table_id, user.id)
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
            await interaction.response.edit_message(**presenter.lobby_payload(table))
        else:
            await interaction.response.defer()
        await presenter.refresh(table, announce=outcome.announce)


TABLE_OPS = ("hand", "back", "cancel", "leave")


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tute:t:(?P<tid>\d+):(?P<op>[a-z]+)"
):
    def __init__(
        self,
        table_id: int,
        op: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or op,
                style=style,
                custom_id=f"tute:t:{table_id}:{op}",
                disabled=disabled,
            )
        )
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_button(interaction, self._run)

    async def _run(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction.client)
        presenter = presenter_of(interaction.client)
        user = interaction.user
        table = service.get(self.table_id)
        if self.op == "hand":
            seat = table.seat_of(user.id)
            if seat is None:
                raise TableError("not_seated")
            lang = locale_of(interaction)
            payload = presenter.hand_payload(table, seat, lang, remember=False)
            await interaction.response.send_message(**as_new_message(payload), ephemeral=True)
            return
        if self.op == "back":
            outcome = await service.im_back(self.table_id, user.id)
        elif self.op == "cancel":
            outcome = await service.vote_cancel(self.table_id, user.id)
        elif self.op == "leave":
            outcome = await service.leave(self.table_id, user.id)
        else:
            raise TableError("stale")
        await interaction.response.send_message(
            t(f"tables.done.{self.op}", locale_of(interaction)), ephemeral=True
        )
        await presenter.refresh(outcome.table, announce=outcome.announce)


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tute:h:(?P<tid>\d+):(?P<deal>\d+):(?P<trick>\d+):(?P<code>[A-Za-z0-9]+)",
):
    """A card or a declaration in a player's hand (DM or ephemeral)."""

    def __init__(
        self,
        table_id: int,
        deal_no: int,
        trick_no: int,
        code: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or code,
                style=style,
                custom_id=f"tute:h:{table_id}:{deal_no}:{trick_no}:{code}",
                disabled=disabled,
                row=row,
            )
        )
        self.table_id = table_id
        self.deal_no = deal_no
        self.trick_no = trick_no
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> HandButton:
        return cls(int(match["tid"]), int(match["deal"]), int(match["trick"]), match["code"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_button(interaction, self._run)

    async def _run(self, interaction: discord.Interaction[Any]) -> None:
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
        in_dm = interaction.guild_id is None
        payload = presenter.hand_payload(table, seat, lang, remember=in_dm)
        await interaction.response.edit_message(**payload)
        await presenter.refresh(table, skip_seat=seat if in_dm else None, announce=outcome.announce)


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


def _hand_picture(table: Table, seat: int, lang: str) -> tuple[discord.File | None, str]:
    return pictures.hand_picture(table, seat, lang), pictures.HAND_FILE


def add_picture(payload: dict[str, Any], picture: discord.File | None, name: str) -> None:
    """Show a picture as the embed's image (the embed's text stays for screen readers)."""
    embed = payload["embed"]
    if picture is None:
        payload["attachments"] = []
        return
    embed.set_image(url=f"attachment://{name}")
    payload["attachments"] = [picture]


def as_new_message(payload: dict[str, Any]) -> dict[str, Any]:
    """An edit's payload as one for a new message: files instead of attachments."""
    new = dict(payload)
    new["files"] = new.pop("attachments", [])
    return new


def _digest(payload: dict[str, Any]) -> str:
    embed = payload.get("embed")
    view = payload.get("view")
    parts = [
        json.dumps(embed.to_dict(), sort_keys=True) if isinstance(embed, discord.Embed) else ""
    ]
    if isinstance(view, discord.ui.View):
        parts.append(json.dumps(view.to_components(), sort_keys=True))
    return hashlib.sha1("|".join(parts).encode()).hexdigest()


def _hand_digest(payload: dict[str, Any], *, away: bool) -> str:
    """What a hand lets its player do: its buttons, where a disabled button's trick does not
    count (it cannot be clicked). A DM is edited only when this changes (or the player goes
    away or comes back), not each time a card is played elsewhere: the table shows that."""
    view = payload.get("view")
    embed = payload.get("embed")
    colour = embed.colour if isinstance(embed, discord.Embed) else None
    parts = [f"{away}|{colour}"]
    if isinstance(view, discord.ui.View):
        for row in view.to_components():
            for button in row.get("components", []):
                custom_id = str(button.get("custom_id", ""))
                if button.get("disabled"):
                    table_id, deal, _trick, code = custom_id.split(":")[2:6]
                    custom_id = f"{table_id}:{deal}:{code}"
                parts.append(f"{custom_id}|{button.get('label')}|{button.get('style')}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def _wait_for_robot(table: Table, seat: Seat, payload: dict[str, Any]) -> bool:
    """Whether a hand the player cannot use now may wait for the robot about to play: the
    refresh after that play shows it (one edit instead of two; a habanero draw, a new deal)."""
    round_ = table.round
    if table.status is not Status.PLAYING or round_ is None or round_.finished or seat.away:
        return False
    on_turn = table.seats[round_.turn]
    if on_turn is None or not on_turn.robot_plays:
        return False
    view = payload.get("view")
    return not (
        isinstance(view, discord.ui.View)
        and any(not getattr(item, "disabled", True) for item in view.children)
    )


class DiscordPresenter:
    """Keeps a table's messages in step: the lobby or table message (edited in place, only
    when it changes), each player's hand in their DMs, and announcements."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._digests: dict[tuple[int, str], str] = {}

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
            if table.thread_id and table.status is Status.PLAYING:
                view.add_item(
                    discord.ui.Button(
                        label=t("tables.btn.follow", lang),
                        url=f"https://discord.com/channels/{table.guild_id}/{table.thread_id}",
                    )
                )
            return view
        full = not table.free_seats()
        if table.variant is Variant.PAIRS:
            view.add_item(
                LobbyButton(
                    table.id,
                    "team0",
                    label=t("tables.btn.team", lang, team="A"),
                    style=discord.ButtonStyle.success,
                    disabled=full,
                    row=0,
                )
            )
            view.add_item(
                LobbyButton(
                    table.id,
                    "team1",
                    label=t("tables.btn.team", lang, team="B"),
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
        payload: dict[str, Any] = {"embed": ui.table_embed(table, lang), "view": view}
        if picture:
            add_picture(payload, pictures.table_picture(table, lang), pictures.TABLE_FILE)
        return payload

    def hand_payload(
        self, table: Table, seat: int, lang: str, *, remember: bool = True, picture: bool = True
    ) -> dict[str, Any]:
        """A player's hand: one button per card in order, the legal ones enabled, then the
        declarations they may make now."""
        view = discord.ui.View(timeout=None)
        round_ = table.round
        if round_ is not None and table.status is Status.PLAYING:
            legal = [a for a in round_.legal_actions() if a.seat == seat]
            occupant = table.seats[seat]
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
            for action in others[:10]:
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
            occupant = table.seats[seat]
            away = occupant is not None and occupant.away
            self._digests[(table.id, f"hand{seat}")] = _hand_digest(payload, away=away)
        if picture:
            add_picture(payload, pictures.hand_picture(table, seat, lang), pictures.HAND_FILE)
        return payload

    # refresh --------------------------------------------------------------

    async def refresh(
        self,
        table: Table,
        *,
        skip_seat: int | None = None,
        announce: list[Announcement] | None = None,
    ) -> None:
        try:
            await self._public(table)
            await self._hands(table, skip_seat)
            items = list(announce or [])
            for i, item in enumerate(items):
                if item.key == "tables.announce.game_over" and i and _is_summary(items[i - 1]):
                    continue  # shown with the summary of the last deal
                final = i + 1 < len(items) and items[i + 1].key == "tables.announce.game_over"
                await self._announce(table, item, with_result=final)
        except Exception:
            log.exception("Could not show table %s", table.id)

    async def _edit(
        self,
        channel_id: int,
        message_id: int,
        key: tuple[int, str],
        payload: dict[str, Any],
        picture: Callable[[], tuple[discord.File | None, str]] | None = None,
        digest: str | None = None,
    ) -> bool:
        """Edit a message, unless it already shows this (the picture is drawn only then);
        ``digest`` says what counts as a change (by default, everything it shows)."""
        digest = digest or _digest(payload)
        if self._digests.get(key) == digest:
            return True
        if picture is not None:
            add_picture(payload, *picture())
        try:
            await (
                self.bot.get_partial_messageable(channel_id)
                .get_partial_message(message_id)
                .edit(**payload)
            )
        except discord.NotFound:
            return False
        self._digests[key] = digest
        return True

    async def _public(self, table: Table) -> None:
        if table.message_id is not None:
            lang = table.language
            payload = {"embed": ui.lobby_embed(table, lang), "view": self._lobby_view(table, lang)}
            await self._edit(table.channel_id, table.message_id, (table.id, "lobby"), payload)
        if table.status is Status.LOBBY or (
            table.play_message_id is None and table.status is not Status.PLAYING
        ):
            return
        lang = table.language
        payload = self.table_payload(table, picture=False)
        if table.play_message_id is not None and await self._edit(
            table.where_id,
            table.play_message_id,
            (table.id, "table"),
            payload,
            lambda: (pictures.table_picture(table, lang), pictures.TABLE_FILE),
        ):
            return
        await self._open_play_message(table, self.table_payload(table))
        if table.message_id is not None and table.thread_id is not None:
            # the lobby now links to the game's thread
            lang = table.language
            payload = {"embed": ui.lobby_embed(table, lang), "view": self._lobby_view(table, lang)}
            await self._edit(table.channel_id, table.message_id, (table.id, "lobby"), payload)

    async def _open_play_message(self, table: Table, payload: dict[str, Any]) -> None:
        """At the start: the game's own thread when the bot may make one (a private one
        when spectators are off), else the channel; then the table message there."""
        service = service_of(self.bot)
        thread_id = table.thread_id
        if thread_id is None:
            thread_id = await self._make_thread(table)
        where = self.bot.get_partial_messageable(thread_id or table.channel_id)
        message = await where.send(**as_new_message(payload))
        self._digests[(table.id, "table")] = _digest(payload)
        await service.set_messages(table.id, play_message_id=message.id, thread_id=thread_id)

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
            for user_id in table.humans():
                await thread.add_user(discord.Object(user_id))
            return thread.id
        except discord.HTTPException:
            log.info("Table %s plays in its channel: no thread could be made", table.id)
            if not table.options.spectators:
                await channel.send(t("tables.no_private_thread", table.language))
            return None

    async def _hands(self, table: Table, skip_seat: int | None) -> None:
        if table.status is Status.LOBBY:
            return
        service = service_of(self.bot)
        for seat_no, seat in enumerate(table.seats):
            if seat is None or seat.user_id is None or seat.left or seat_no == skip_seat:
                continue
            if seat.dm_closed or table.hand_delivery != "dm":
                continue
            lang = language_of(seat.locale)
            payload = self.hand_payload(table, seat_no, lang, remember=False, picture=False)
            key = (table.id, f"hand{seat_no}")
            digest = _hand_digest(payload, away=seat.away)
            if seat.dm_message_id is not None and _wait_for_robot(table, seat, payload):
                continue
            if (
                seat.dm_message_id is not None
                and seat.dm_channel_id is not None
                and await self._edit(
                    seat.dm_channel_id,
                    seat.dm_message_id,
                    key,
                    payload,
                    functools.partial(_hand_picture, table, seat_no, lang),
                    digest,
                )
            ):
                continue
            add_picture(payload, pictures.hand_picture(table, seat_no, lang), pictures.HAND_FILE)
            if table.status is not Status.PLAYING:
                continue
            try:
                # by id: no need to fetch the user first (one call less per player)
                channel = await self.bot.create_dm(discord.Object(seat.user_id))
                message = await channel.send(**as_new_message(payload))
            except discord.Forbidden:
                await service.set_dm(
                    table.id, seat_no, channel_id=None, message_id=None, closed=True
                )
                table = service.get(table.id)
                await self._edit_public_only(table)
                continue
            self._digests[key] = digest
            await service.set_dm(
                table.id, seat_no, channel_id=channel.id, message_id=message.id, closed=False
            )

    async def _edit_public_only(self, table: Table) -> None:
        if table.play_message_id is not None:
            await self._edit(
                table.where_id,
                table.play_message_id,
                (table.id, "table"),
                self.table_payload(table, picture=False),
                lambda: (pictures.table_picture(table, table.language), pictures.TABLE_FILE),
            )

    async def _announce(
        self, table: Table, item: Announcement, *, with_result: bool = False
    ) -> None:
        """Post an announcement; the last deal's summary carries the game's result with it
        (one message)."""
        lang = table.language
        where = self.bot.get_partial_messageable(table.where_id)
        if _is_summary(item):
            summary = item.params["summary"]
            embed = ui.summary_embed(table, summary, lang)
            picture = pictures.summary_picture(table, summary, lang)
            embed.set_image(url=f"attachment://{pictures.SUMMARY_FILE}")
            embeds = [embed, ui.game_over_embed(table, lang)] if with_result else [embed]
            await where.send(embeds=embeds, file=picture)
        elif item.key == "tables.announce.game_over":
            await where.send(embed=ui.game_over_embed(table, lang))
        else:
            await where.send(t(item.key, lang, **item.params))


def _is_summary(item: Announcement) -> bool:
    return item.key == "tables.announce.deal_over"


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
        **{
            name: catalog_str(f"options.{name}.description")
            for name in (
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
        }
    )
    @app_commands.rename(
        **{
            name: catalog_str(f"options.{name}.name")
            for name in (
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
        }
    )
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
        settings = await _guild_settings(interaction.client, guild.id)
        role_id = getattr(settings, "opener_role_id", None)
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
                turn_time=turn_time or getattr(settings, "turn_time", 60),
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
                language=getattr(settings, "language", interaction.client.config.language),
                invited=invited,
                max_tables=getattr(settings, "max_tables", 10),
                host_locale=lang,
                hand_delivery=getattr(settings, "hand_delivery", "dm"),
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        presenter = presenter_of(interaction.client)
        payload = presenter.lobby_payload(table)
        mentions = " ".join(f"<@{uid}>" for uid in invited)
        callback = await interaction.response.send_message(
            content=t("tables.invited", table.language, mentions=mentions) if invited else None,
            allowed_mentions=discord.AllowedMentions(users=True),
            **payload,
        )
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


async def _guild_settings(client: discord.Client, guild_id: int) -> Any:
    try:
        from bot.storage.settings import get_settings
    except ImportError:
        return None
    return await get_settings(service_of(client).db, guild_id)


async def start_tables(bot: TuteBot) -> TableService:
    """Start the service (once per bot), restore open tables and show them again."""
    existing = getattr(bot, "tables", None)
    if isinstance(existing, TableService):
        return existing
    presenter = DiscordPresenter(bot)
    service = TableService(
        bot.db,  # type: ignore[attr-defined]
        presenter,
        clock=lambda: discord.utils.utcnow().timestamp(),
        robot_delay=getattr(bot, "robot_delay", 1.2),
        think_budget=getattr(bot, "think_budget", 0.4),
    )
    bot.tables = service  # type: ignore[attr-defined]
    bot.add_dynamic_items(LobbyButton, TableButton, HandButton)
    restored = await service.restore()
    for table in restored:
        bot.loop.create_task(presenter.refresh(table))
    return service
