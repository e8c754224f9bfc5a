"""Where each hand lives and how it gets there: in its player's DMs (edited when what it
offers changes), or as a message only its player sees in the channel (opened with My hand
and edited through that interaction while its token lasts). A player whose DMs are closed,
or who blocks the bot mid-game, gets the hand under My hand, and the table says so."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, t
from bot.tables.errors import TableError
from bot.tables.model import Seat, Status
from bot.tables.views import HandView, TableView
from cogs._base import pings

from . import messages
from .common import answered, drawn_v2, service_of
from .copies import Copies, Copy
from .messages import TOO_OLD_TO_EDIT, Shown, as_new_message, too_old

if TYPE_CHECKING:
    from .presenter import DiscordPresenter

log = logging.getLogger(__name__)


class HandDelivery:
    def __init__(self, bot: discord.Client, shown: Shown, presenter: DiscordPresenter) -> None:
        self.bot = bot
        self.shown = shown
        self.presenter = presenter
        self._pings: dict[tuple[int, int], tuple[int, int]] = {}
        """(table, seat) -> (channel, message): where the table played then (its thread, or
        its channel), the message that told a player whose hand is not in their DMs that
        their turn had come; removed once they have played."""
        self._ephemeral: dict[tuple[int, int], discord.Interaction[Any]] = {}
        """The last interaction that showed a seat its hand as an ephemeral message: its
        token edits that message for 15 minutes."""
        self._dm_locks: dict[tuple[int, int], asyncio.Lock] = {}
        """One delivery at a time to a seat's DMs."""
        self._ephemeral_v2: dict[tuple[int, int], bool] = {}
        """Whether that message is drawn with layout components."""
        self.copies = Copies()
        """The ephemeral copies of each hand that nothing keeps up to date."""

    def forget_table(self, table_id: int) -> None:
        for key in [k for k in self._ephemeral if k[0] == table_id]:
            del self._ephemeral[key]
            self._ephemeral_v2.pop(key, None)
        for key in [k for k in self._pings if k[0] == table_id]:
            del self._pings[key]
        for key in [k for k in self._dm_locks if k[0] == table_id]:
            del self._dm_locks[key]
        self.copies.forget_table(table_id)

    async def deliver(self, table: TableView, hand: HandView, *, shown: bool = False) -> None:
        """Bring one hand in step. ``shown``: the click's own answer showed it already
        (only a ping of the turn it has just played goes)."""
        await self._unping(table, hand)
        await self._leave_behind(table, hand)
        if shown:
            return
        if hand.left and self.shown.buttons.get((table.id, hand.seat)) is False:
            # it says they left, with nothing to click: the table shows the rest (a game
            # that ended is still drawn in every hand, even one with no card left in it)
            return
        if table.by_dm(hand.seat):
            await self._dm(table, hand)
        else:
            await self._ephemeral_hand(table, hand)
            if hand.notify:
                await self._ping(table, hand)

    # DMs -------------------------------------------------------------------

    async def _dm(self, table: TableView, hand: HandView) -> None:
        """The hand in the player's DMs: edited when what it offers changes, sent the first
        time (or again, if the message is gone). One seat's deliveries go one at a time,
        each with where its DM is now (an earlier one may have sent it): never two DMs."""
        lock = self._dm_locks.setdefault((table.id, hand.seat), asyncio.Lock())
        async with lock:
            await self._dm_now(table, hand, self._dm_now_of(table.id, hand))

    def _dm_now_of(self, table_id: int, hand: HandView) -> Seat:
        """The seat of ``hand`` with its DM as the service knows it now."""
        seat = hand.occupant
        assert seat is not None
        try:
            now = service_of(self.bot).view(table_id).seats[hand.seat]
        except TableError:
            return seat  # a table over: as it ended
        if now is None or now.user_id != seat.user_id:
            return seat
        return replace(
            seat,
            dm_channel_id=now.dm_channel_id,
            dm_message_id=now.dm_message_id,
            dm_message_v2=now.dm_message_v2,
        )

    async def _dm_now(self, table: TableView, hand: HandView, seat: Seat) -> None:
        service = service_of(self.bot)
        lang = language_of(seat.locale)
        key = (table.id, f"hand{hand.seat}")
        if seat.dm_message_id is not None and hand.may_wait:
            return
        playing = table.status is Status.PLAYING and not seat.left
        if seat.dm_message_id is not None and (
            hand.notify or (playing and too_old(seat.dm_message_id))
        ):
            # an edit notifies nobody, and Discord stops editing a message after an hour: the
            # hand comes again as a new message (as the table moves on), the old one goes
            seat = await self._drop_dm(table, seat)
        try:
            if seat.dm_message_id is not None and seat.dm_channel_id is not None:
                # drawn as that message was (one sent with embeds keeps them)
                payload = self._hand(table, hand, lang, v2=seat.dm_message_v2)
                digest = messages.hand_digest(payload, away=seat.away)
                try:
                    await self.presenter.edit(
                        seat.dm_channel_id,
                        seat.dm_message_id,
                        key,
                        payload,
                        functools.partial(messages.hand_picture, hand, lang),
                        digest,
                    )
                except discord.NotFound:
                    log.info("Table %s: the hand of seat %s is gone", table.id, hand.seat)
                except discord.HTTPException as error:
                    if error.code != TOO_OLD_TO_EDIT:
                        raise
                    seat = await self._drop_dm(table, seat)  # Discord's word: too old
                else:
                    self.shown.buttons[(table.id, hand.seat)] = messages.has_buttons(payload)
                    return
            if not playing:
                return
            payload = self._hand(table, hand, lang)
            digest = messages.hand_digest(payload, away=seat.away)
            messages.hand_picture(hand, lang, payload)
            # by id: no need to fetch the user first (one call less per player)
            channel = await self.bot.create_dm(discord.Object(seat.user_id or 0))
            message = await channel.send(**as_new_message(payload))
        except discord.Forbidden:
            await self._dms_closed(table, hand.seat)
            return
        self.shown.digests[key] = digest
        self.shown.buttons[(table.id, hand.seat)] = messages.has_buttons(payload)
        await service.notes.set_dm(
            table.id, hand.seat, channel_id=channel.id, message_id=message.id, closed=False, v2=True
        )

    async def _drop_dm(self, table: TableView, seat: Seat) -> Seat:
        """The seat's DM hand goes (a new one takes its place): the seat without it."""
        if seat.dm_channel_id is not None and seat.dm_message_id is not None:
            await self._delete(table, seat.dm_channel_id, seat.dm_message_id)
        return replace(seat, dm_message_id=None)

    def _hand(
        self,
        table: TableView,
        hand: HandView,
        lang: str,
        *,
        ephemeral: bool = False,
        v2: bool = True,
    ) -> messages.Payload:
        faces = self.presenter.faces
        return messages.hand_payload(table, hand, lang, ephemeral=ephemeral, faces=faces, v2=v2)

    async def _dms_closed(self, table: TableView, seat: int) -> None:
        """The hand moves to My hand, and the table says so at once."""
        service = service_of(self.bot)
        await service.notes.set_dm(table.id, seat, channel_id=None, message_id=None, closed=True)
        self.shown.forget_hand(table.id, seat)
        now = service.redraw(table.id)  # the table as it is now: its message may be new
        if now is not None and now.table.status is Status.PLAYING and now.table.play_message_id:
            await self.presenter.step(table, "table", self.presenter.edit_table(now))

    async def _delete(self, table: TableView, channel_id: int, message_id: int) -> None:
        """A message of the bot's that has had its day; one already gone, or that Discord
        will not delete now, stays as it is (its buttons answer that they are stale)."""
        try:
            await (
                self.bot.get_partial_messageable(channel_id)
                .get_partial_message(message_id)
                .delete()
            )
        except discord.HTTPException as error:
            log.info("Table %s: message %s stays (%s)", table.id, message_id, error)

    # turn pings --------------------------------------------------------------

    async def _ping(self, table: TableView, hand: HandView) -> None:
        """Tell a player whose hand is under My hand that their turn has come: a short
        message in the table's channel that pings them alone."""
        occupant = hand.occupant
        assert occupant is not None and occupant.user_id is not None
        text = t("tables.your_turn_ping", table.language, mention=f"<@{occupant.user_id}>")
        message = await self.bot.get_partial_messageable(table.where_id).send(
            text,
            allowed_mentions=pings([occupant.user_id]),
        )
        self._pings[(table.id, hand.seat)] = (table.where_id, message.id)

    async def _unping(self, table: TableView, hand: HandView) -> None:
        """The ping of a turn that is over (they played, or the game moved on) goes."""
        ping = self._pings.get((table.id, hand.seat))
        if ping is None or (hand.your_turn and not hand.notify):
            return
        del self._pings[(table.id, hand.seat)]
        await self._delete(table, *ping)

    # ephemeral hands ---------------------------------------------------------

    async def _leave_behind(self, table: TableView, hand: HandView) -> None:
        """Each copy of the hand that no longer shows it says so: no card, no "Your turn",
        a refresh button (a copy whose token ran out stays as it was)."""
        copies = self.copies.of((table.id, hand.seat))
        seat = hand.occupant
        if not copies or seat is None:
            return
        lang = language_of(seat.locale)
        now: dict[bool, str] = {}
        for message_id, copy in list(copies.items()):
            if copy.v2 not in now:
                payload = self._hand(table, hand, lang, ephemeral=True, v2=copy.v2)
                now[copy.v2] = messages.hand_digest(payload, away=hand.away)
            if copy.digest == now[copy.v2]:
                continue
            del copies[message_id]
            if copy.interaction.is_expired():
                continue
            try:
                behind = messages.behind_payload(table, lang, v2=copy.v2)
                await copy.interaction.edit_original_response(**behind)
            except discord.HTTPException as error:
                log.info("Table %s: a copy of a hand stays as it was (%s)", table.id, error)

    async def _ephemeral_hand(self, table: TableView, hand: HandView) -> None:
        """The hand the player last opened with My hand (or clicked in), edited through that
        interaction while its token lasts (15 minutes); after that, its refresh button."""
        interaction = self._ephemeral.get((table.id, hand.seat))
        if interaction is None:
            return
        if interaction.is_expired():
            del self._ephemeral[(table.id, hand.seat)]
            return
        seat = hand.occupant
        assert seat is not None
        lang = language_of(seat.locale)
        payload = self._hand(
            table,
            hand,
            lang,
            ephemeral=True,
            v2=self._ephemeral_v2.get((table.id, hand.seat), True),
        )
        key = (table.id, f"hand{hand.seat}")
        digest = messages.hand_digest(payload, away=seat.away)
        if self.shown.digests.get(key) == digest or hand.may_wait:
            return
        messages.hand_picture(hand, lang, payload)
        try:
            await interaction.edit_original_response(**payload)
        except discord.HTTPException:
            # gone, or its token ran out: the player opens a new one with My hand
            self._ephemeral.pop((table.id, hand.seat), None)
            return
        self.shown.digests[key] = digest
        self.shown.buttons[(table.id, hand.seat)] = messages.has_buttons(payload)

    def answer(
        self,
        table: TableView,
        hand: HandView,
        lang: str,
        *,
        ephemeral: bool,
        remember: bool,
        v2: bool = True,
    ) -> messages.Payload:
        """A hand to answer a click with, its picture drawn. ``remember``: it is now the
        hand that seat sees (the refresh need not send it again); ``v2``: drawn with layout
        components (not when it edits a message sent with embeds)."""
        payload = self._hand(table, hand, lang, ephemeral=ephemeral, v2=v2)
        if remember:
            self.shown.hand_shown(table.id, hand.seat, payload, away=hand.away)
        messages.hand_picture(hand, lang, payload)
        return payload

    async def show_ephemeral(
        self,
        interaction: discord.Interaction[Any],
        table: TableView,
        hand: HandView,
        lang: str,
        *,
        edit: bool,
    ) -> None:
        """Answer "My hand" with the hand as a message only its player sees (or, for its
        refresh button, edit that message). When the seat has no DM for its hand, this is
        where the hand lives: the refresh after each play keeps it up to date."""
        by_dm = table.by_dm(hand.seat)
        v2 = not edit or drawn_v2(interaction)
        payload = self.answer(table, hand, lang, ephemeral=True, remember=not by_dm, v2=v2)
        sent: list[int] = []
        if edit:
            answer = interaction.response.edit_message(**payload)
        else:
            answer = _sent(
                interaction.response.send_message(**as_new_message(payload), ephemeral=True),
                sent,
            )
        if not await answered(interaction, answer):
            # nothing was shown: the player clicks again; the refresh must not skip it
            if not by_dm:
                self.shown.forget_hand(table.id, hand.seat)
            return
        message_id = interaction.message.id if edit and interaction.message else next(iter(sent), 0)
        self._remember_ephemeral(
            table.id, hand, interaction, v2, payload, message_id, live=not by_dm
        )

    def _remember_ephemeral(
        self,
        table_id: int,
        hand: HandView,
        interaction: discord.Interaction[Any],
        v2: bool,
        payload: messages.Payload,
        message_id: int,
        *,
        live: bool,
    ) -> None:
        """The ephemeral hand just shown: the one the table keeps up to date for a seat
        without DMs (the one before it is left behind), else a copy that may fall behind."""
        key = (table_id, hand.seat)
        previous = self._ephemeral.get(key)
        if message_id:
            copy = Copy(interaction, v2, messages.hand_digest(payload, away=hand.away))
            before = None
            if previous is not None:
                before = Copy(previous, self._ephemeral_v2.get(key, True), "")
            self.copies.shown(key, message_id, copy, live=live, previous=before)
        if live:
            self._ephemeral[key] = interaction
            self._ephemeral_v2[key] = v2

    async def answer_ephemeral(
        self, interaction: discord.Interaction[Any], table: TableView, hand: HandView, lang: str
    ) -> int | None:
        """Answer a click in an ephemeral hand by showing the hand as it now is; the seat
        whose hand the refresh need not show again (None: its DM still needs it)."""
        by_dm = table.by_dm(hand.seat)
        v2 = drawn_v2(interaction)
        payload = self.answer(table, hand, lang, ephemeral=True, remember=not by_dm, v2=v2)
        if not await answered(interaction, interaction.response.edit_message(**payload)):
            self.shown.forget_hand(table.id, hand.seat)
            return None
        message_id = interaction.message.id if interaction.message else 0
        self._remember_ephemeral(
            table.id, hand, interaction, v2, payload, message_id, live=not by_dm
        )
        return None if by_dm else hand.seat


async def _sent(answer: Awaitable[Any], sent: list[int]) -> None:
    """Send an answer, keeping the id of the message it made in ``sent``."""
    callback = await answer
    resource = getattr(callback, "resource", None)
    if isinstance(resource, discord.InteractionMessage):
        sent.append(resource.id)
