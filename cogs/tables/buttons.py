"""The buttons of a table: the lobby's, the table's and a hand's, as persistent
``DynamicItem``s. Buttons carry ids, never state: each custom_id names the table (and for a
hand, the deal and the trick it was drawn for), and the callback asks the service. The
formats never change: buttons of messages posted before an upgrade keep working.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.client import answer_error
from bot.i18n import t
from bot.storage.settings import get_settings
from bot.tables.cluster import Click
from bot.tables.codes import decode_action
from bot.tables.errors import TableError
from bot.tables.service import TableService

from .common import (
    answered,
    cluster_of,
    drawn_v2,
    locale_of,
    presenter_of,
    refuse,
    service_of,
    since_of,
)


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
        emoji: discord.PartialEmoji | str | None = None,
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
                emoji=emoji,
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
                self.table_id, user.id, name, locale=locale_of(interaction), since=since_of(user)
            )
        elif op in ("team0", "team1"):
            outcome = await service.join(
                self.table_id,
                user.id,
                name,
                team=int(op[-1]),
                locale=locale_of(interaction),
                since=since_of(user),
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
        table = outcome.show.table
        presenter = presenter_of(interaction.client)
        if (await presenter.places.of(table)).play_message_id is None:
            # the lobby message is the one clicked: answer by editing it
            answer = interaction.response.edit_message(**presenter.lobby_payload(table))
            if not await answered(interaction, answer):
                presenter.forget_lobby(table.id)
        else:
            await answered(interaction, interaction.response.defer())
        await presenter.refresh(outcome.show)


TABLE_OPS = ("hand", "refresh", "back", "cancel", "leave", "rematch")


class TableButton(TuteButton, kind="t", parts={"op": "[a-z]+"}):
    """A button of the table in play (``tute:t:<table id>:<op>``), or the refresh button of
    a hand shown as an ephemeral message."""

    @property
    def op(self) -> str:
        return self.parts[0]

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        if self.op == "rematch":
            await self._rematch(interaction)
            return
        service = service_of(interaction.client)
        presenter = presenter_of(interaction.client)
        user = interaction.user
        if self.op in ("hand", "refresh"):
            table = service.view(self.table_id)
            seat = table.seat_of(user.id)
            if seat is None:
                raise TableError("not_seated")
            await presenter.hands.show_ephemeral(
                interaction,
                table,
                service.hand_view(self.table_id, seat),
                locale_of(interaction),
                edit=self.op == "refresh",
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
            ended = not outcome.show.table.status.is_open
            done = "tables.done.cancelled" if ended else "tables.done.cancel"
            if any(a.key.startswith("tables.announce.abandoned") for a in outcome.show.announce):
                done = "tables.done.leave_end"  # alone with robots: the vote was a leave
        elif self.op == "leaveok":
            outcome = await service.leave(self.table_id, user.id)
            ended = not outcome.show.table.status.is_open
            done = "tables.done.leave_end" if ended else "tables.done.leave"
        else:
            raise TableError("stale")
        if self.op == "back":
            answer = interaction.response.send_message(t(done, lang), ephemeral=True)
        else:  # the question's message becomes the answer
            answer = interaction.response.edit_message(content=t(done, lang), view=None)
        await answered(interaction, answer)
        await presenter.refresh(outcome.show)

    async def _rematch(self, interaction: discord.Interaction[Any]) -> None:
        """The game again: the first member to ask opens its lobby in the table's channel,
        the others invited there; a member who asks later sits down in it."""
        service = service_of(interaction.client)
        presenter = presenter_of(interaction.client)
        user, lang = interaction.user, locale_of(interaction)
        # the lobby is posted before the answer can say where: the click is answered first
        await interaction.response.defer(ephemeral=True, thinking=True)
        settings = await get_settings(service.db, interaction.guild_id or 0)
        outcome, opened = await service.rematch(
            self.table_id, user.id, user.display_name, locale=lang, max_tables=settings.max_tables
        )
        table = outcome.table
        if opened and not await presenter.post_lobby(table):
            await service.discard(table.id)
            raise TableError("rematch_failed")
        key = "tables.rematch.opened" if opened else "tables.rematch.joined"
        link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
        await answered(
            interaction, interaction.edit_original_response(content=t(key, lang, link=link))
        )
        await presenter.refresh(outcome.show)

    def _question(self, service: TableService, user_id: int, lang: str) -> str:
        if self.op == "leave":
            case, stake = service.leave_terms(self.table_id, user_id)
            key = f"tables.confirm.leave.{case}" + ("_stake" if stake else "")
            return t(key, lang, stake=stake)
        missing, stake, leave = service.vote_terms(self.table_id, user_id)
        if leave and stake:
            return t("tables.confirm.cancel_leave", lang, stake=stake)
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
        cluster = cluster_of(interaction.client)
        if cluster is not None and not cluster.holds(self.table_id, service):
            # a DM click that reached this process (shard 0) for a table another runs: that
            # process plays it and redraws the hand; this one only acknowledges the click
            await answered(interaction, interaction.response.defer())
            click = Click(
                self.table_id, interaction.user.id, self.code, self.deal_no, self.trick_no
            )
            await cluster.forward(click)
            return
        presenter = presenter_of(interaction.client)
        seat = service.seat_of(self.table_id, interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        action = decode_action(seat, self.code)
        outcome = await service.act(
            self.table_id, interaction.user.id, action, deal_no=self.deal_no, trick_no=self.trick_no
        )
        show = outcome.show
        hand = show.hand(seat)
        lang = locale_of(interaction)
        if interaction.guild_id is None and not drawn_v2(interaction):
            # a DM hand sent with embeds, before layout components, cannot take them: the
            # refresh replaces it with a fresh one
            await answered(interaction, interaction.response.defer())
            skip: int | None = None
        elif interaction.guild_id is None:
            # the DM holding the hand: the answer shows it, the refresh need not edit it again
            payload = await presenter.hand_payload(show.table, hand, lang)
            skip = seat
            if not await answered(interaction, interaction.response.edit_message(**payload)):
                presenter.forget_hand(show.table.id, seat)
                skip = None
        else:
            skip = await presenter.hands.answer_ephemeral(interaction, show.table, hand, lang)
        await presenter.refresh(show, skip_seat=skip)
