"""Where each hand lives and how it gets there: in its player's DMs (edited when what it
offers changes), or as a message only its player sees in the channel (opened with My hand
and edited through that interaction while its token lasts). A player whose DMs are closed,
or who blocks the bot mid-game, gets the hand under My hand, and the table says so. Where a
DM hand lives is kept in the table's :class:`Place`."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import language_of
from bot.tables.model import Status
from bot.tables.views import HandView, TableView

from . import messages
from .common import answered, drawn_v2
from .copies import Copies, Copy
from .messages import TOO_OLD_TO_EDIT, as_new_message, too_old
from .outlet import Outlet
from .pings import TurnPings
from .places import HandPlace, Place

log = logging.getLogger(__name__)


CANNOT_DM = frozenset({50007, 50278})
"""Discord's "Cannot send messages to this user": closed DMs or a blocked bot (50007, a
403), and 50278, the same refusal where a member's install or privacy keeps the bot out,
which may come with another status (a 400): both close the player's DMs."""


def cannot_dm(error: discord.HTTPException) -> bool:
    """Whether Discord refused a DM for good: a 403, or one of :data:`CANNOT_DM` whatever
    its status."""
    return isinstance(error, discord.Forbidden) or error.code in CANNOT_DM


DmsClosed = Callable[[TableView, Place], Awaitable[None]]
"""What the table does when a player's DMs turn out closed (it says so at once)."""


@dataclass(frozen=True, slots=True)
class Adopted:
    """A DM hand its member played from, now the one the bot keeps for the seat, and the
    one it kept before, which goes."""

    seat: int
    kept: HandPlace
    left: HandPlace


class HandDelivery:
    def __init__(self, outlet: Outlet, dms_closed: DmsClosed) -> None:
        self.outlet = outlet
        self.bot = outlet.bot
        self.shown = outlet.shown
        self.places = outlet.places
        self._dms_closed_shown = dms_closed
        self.pings = TurnPings(outlet)
        """The turn pings of the players whose hands are not in their DMs."""
        self._ephemeral: dict[tuple[int, int], discord.Interaction[Any]] = {}
        """The last interaction that showed a seat its hand as an ephemeral message: its
        token edits that message for 15 minutes."""
        self._dm_locks: dict[tuple[int, int], asyncio.Lock] = {}
        """One delivery at a time to a seat's DMs."""
        self.copies = Copies()
        """The ephemeral copies of each hand that nothing keeps up to date."""

    def forget_table(self, table_id: int) -> None:
        for key in [k for k in self._ephemeral if k[0] == table_id]:
            del self._ephemeral[key]
        self.pings.forget_table(table_id)
        for key in [k for k in self._dm_locks if k[0] == table_id]:
            del self._dm_locks[key]
        self.copies.forget_table(table_id)

    async def deliver(
        self, table: TableView, place: Place, hand: HandView, *, shown: bool = False
    ) -> None:
        """Bring one hand in step. ``shown``: the click's own answer showed it already
        (only a ping of the turn it has just played goes)."""
        await self.pings.over(table, hand)
        await self._leave_behind(table, hand)
        if not table.status.is_open:
            await self._drop_ephemeral(table, hand)
        if shown:
            return
        if hand.left and self.shown.buttons.get((table.id, hand.seat)) is False:
            # it says they left, with nothing to click: the table shows the rest (a game
            # that ended is still drawn in every hand, even one with no card left in it)
            return
        if place.by_dm(table, hand.seat):
            await self._dm(table, place, hand)
        else:
            await self._ephemeral_hand(table, hand)
            if hand.notify:
                self.pings.later(table, place, hand)

    # DMs -------------------------------------------------------------------

    async def _dm(self, table: TableView, place: Place, hand: HandView) -> None:
        """The hand in the player's DMs: edited when what it offers changes, sent the first
        time (or again, if the message is gone). One seat's deliveries go one at a time,
        each with where its DM is now (an earlier one may have sent it): never two DMs."""
        lock = self._dm_locks.setdefault((table.id, hand.seat), asyncio.Lock())
        async with lock:
            await self._dm_now(table, place, hand)

    async def _dm_now(self, table: TableView, place: Place, hand: HandView) -> None:
        occupant = hand.occupant
        assert occupant is not None and occupant.user_id is not None
        lang = language_of(occupant.locale)
        key = messages.MessageKey.hand(table.id, hand.seat)
        dm = place.hand(hand.seat, occupant.user_id)
        if dm is not None and dm.dm_message_id is not None and hand.may_wait and not dm.legacy:
            return
        playing = table.status is Status.PLAYING and not occupant.left
        if (
            dm is not None
            and dm.dm_message_id is not None
            and (dm.legacy or hand.notify or (playing and too_old(dm.dm_message_id)))
        ):
            # an edit notifies nobody, and Discord stops editing a message after an hour: the
            # hand comes again as a new message (as the table moves on), the old one goes; so
            # does one sent with embeds, before layout components
            await self._drop_dm(table, dm)
        try:
            if dm is not None and dm.dm_message_id is not None and dm.dm_channel_id is not None:
                payload = self._hand(table, hand, lang)
                digest = messages.hand_digest(payload, away=occupant.away, deal=hand.deal_no)
                try:
                    await self.outlet.edit(
                        dm.dm_channel_id,
                        dm.dm_message_id,
                        key,
                        payload,
                        functools.partial(messages.hand_files, table, hand, lang),
                        digest,
                    )
                except discord.NotFound:
                    log.info("Table %s: the hand of seat %s is gone", table.id, hand.seat)
                except discord.HTTPException as error:
                    if error.code != TOO_OLD_TO_EDIT:
                        raise
                    await self._drop_dm(table, dm)  # Discord's word: too old
                else:
                    self.shown.buttons[(table.id, hand.seat)] = messages.has_buttons(payload)
                    return
            if not playing:
                return
            payload = self._hand(table, hand, lang)
            digest = messages.hand_digest(payload, away=occupant.away, deal=hand.deal_no)
            await self.outlet.draw(
                payload, functools.partial(messages.hand_files, table, hand, lang)
            )
            # by id: no need to fetch the user first (one call less per player)
            channel = await self.bot.create_dm(discord.Object(occupant.user_id))
            message = await channel.send(**as_new_message(payload))
        except discord.HTTPException as error:
            if not cannot_dm(error):
                raise
            await self._dms_closed(table, place, hand)
            return
        self.shown.digests[key] = digest
        self.shown.buttons[(table.id, hand.seat)] = messages.has_buttons(payload)
        place.hands[hand.seat] = HandPlace(occupant.user_id, channel.id, message.id)
        self.places.changed(place)

    async def _drop_dm(self, table: TableView, dm: HandPlace) -> None:
        """The seat's DM hand goes (a new one takes its place)."""
        if dm.dm_channel_id is not None and dm.dm_message_id is not None:
            await self.outlet.delete(table.id, dm.dm_channel_id, dm.dm_message_id)
        dm.dm_message_id = None
        dm.legacy = False

    async def adopt(
        self, table: TableView, seat: int, message: discord.Message | None
    ) -> Adopted | None:
        """The seat's member played from ``message``, a hand in their DMs: it is the hand
        the bot keeps from now on. It may be another than the one the bot kept (after a
        restart that lost where the hand was, the bot sent it again while the old one stayed
        on their screen): deliveries go to the clicked one at once, and the other one goes
        with :meth:`retire`, once the click is answered. None: nothing changes."""
        occupant = table.seats[seat]
        if message is None or message.flags.ephemeral or occupant is None:
            return None  # a copy under My hand, or the seat's member left meanwhile
        user_id = occupant.user_id
        place = await self.places.of(table)
        if user_id is None or not place.by_dm(table, seat):
            return None  # their hand lives under My hand now
        left = place.hand(seat, user_id)
        if left is not None and left.dm_message_id == message.id:
            return None
        legacy = not message.flags.components_v2
        kept = HandPlace(user_id, message.channel.id, message.id, legacy=legacy)
        place.hands[seat] = kept
        self.places.changed(place)
        return Adopted(seat, kept, left if left is not None else HandPlace(user_id))

    async def retire(self, table: TableView, adopted: Adopted) -> None:
        """The hand the bot kept before its member played from another one goes: one live
        hand remains in their DMs. So does one that a delivery begun before the click sent
        meanwhile."""
        seat, kept = adopted.seat, adopted.kept
        async with self._dm_locks.setdefault((table.id, seat), asyncio.Lock()):
            place = await self.places.of(table)
            now = place.hands.get(seat)
            if (
                now is not kept
                and now is not None
                and now.dm_message_id is not None
                and kept.dm_message_id is not None
            ):
                # sent over the clicked one, not after it went (a new turn's hand)
                await self._drop_dm(table, now)
                place.hands[seat] = kept
                self.places.changed(place)
            await self._drop_dm(table, adopted.left)

    def _hand(
        self, table: TableView, hand: HandView, lang: str, *, ephemeral: bool = False
    ) -> messages.Payload:
        faces = self.outlet.faces
        return messages.hand_payload(table, hand, lang, ephemeral=ephemeral, faces=faces)

    async def _dms_closed(self, table: TableView, place: Place, hand: HandView) -> None:
        """The hand moves to My hand, and the table says so at once."""
        occupant = hand.occupant
        assert occupant is not None and occupant.user_id is not None
        place.hands[hand.seat] = HandPlace(occupant.user_id, dm_closed=True)
        self.places.changed(place)
        self.shown.forget_hand(table.id, hand.seat)
        await self._dms_closed_shown(table, place)

    # ephemeral hands ---------------------------------------------------------

    async def _leave_behind(self, table: TableView, hand: HandView) -> None:
        """Each copy of the hand that no longer shows it goes: its player sees one hand, the
        one that follows the game (under My hand, or in their DMs), never a stack of them. A
        copy whose token ran out (15 minutes) stays as it was: its buttons answer that they
        are out of date."""
        copies = self.copies.of((table.id, hand.seat))
        seat = hand.occupant
        if not copies or seat is None:
            return
        lang = language_of(seat.locale)
        now = messages.hand_digest(
            self._hand(table, hand, lang, ephemeral=True), away=hand.away, deal=hand.deal_no
        )
        for message_id, copy in list(copies.items()):
            if copy.digest == now:
                continue
            del copies[message_id]
            if copy.interaction.is_expired():
                continue
            try:
                await copy.interaction.delete_original_response()
            except discord.HTTPException as error:
                log.info("Table %s: a copy of a hand stays as it was (%s)", table.id, error)

    async def _drop_ephemeral(self, table: TableView, hand: HandView) -> None:
        """The game is over and its result is on the table: the hand under My hand has had
        its day, and goes (once; while its token lets the bot delete it, 15 minutes). So
        does the one the click that ended the game has just shown."""
        interaction = self._ephemeral.pop((table.id, hand.seat), None)
        if interaction is None or interaction.is_expired():
            return
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("Table %s: the hand of seat %s stays (%s)", table.id, hand.seat, error)

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
        payload = self._hand(table, hand, lang, ephemeral=True)
        key = messages.MessageKey.hand(table.id, hand.seat)
        digest = messages.hand_digest(payload, away=seat.away, deal=hand.deal_no)
        if self.shown.digests.get(key) == digest or hand.may_wait:
            return
        await self.outlet.draw(payload, functools.partial(messages.hand_files, table, hand, lang))
        try:
            await interaction.edit_original_response(**payload)
        except discord.HTTPException:
            # gone, or its token ran out: the player opens a new one with My hand
            self._ephemeral.pop((table.id, hand.seat), None)
            return
        self.shown.digests[key] = digest
        self.shown.buttons[(table.id, hand.seat)] = messages.has_buttons(payload)

    async def answer(
        self,
        table: TableView,
        hand: HandView,
        lang: str,
        *,
        ephemeral: bool,
        remember: bool,
    ) -> messages.Payload:
        """A hand to answer a click with, its picture drawn. ``remember``: it is now the
        hand that seat sees (the refresh need not send it again)."""
        payload = self._hand(table, hand, lang, ephemeral=ephemeral)
        if remember:
            self.shown.hand_shown(table.id, hand.seat, payload, away=hand.away, deal=hand.deal_no)
        await self.outlet.draw(payload, functools.partial(messages.hand_files, table, hand, lang))
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
        by_dm = (await self.places.of(table)).by_dm(table, hand.seat)
        # a hand sent with embeds, before layout components, cannot take them: a new one
        edit = edit and drawn_v2(interaction)
        payload = await self.answer(table, hand, lang, ephemeral=True, remember=not by_dm)
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
        self._remember_ephemeral(table.id, hand, interaction, payload, message_id, live=not by_dm)
        await self._leave_behind(table, hand)  # the copy this one replaces goes now

    def _remember_ephemeral(
        self,
        table_id: int,
        hand: HandView,
        interaction: discord.Interaction[Any],
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
            copy = Copy(
                interaction, messages.hand_digest(payload, away=hand.away, deal=hand.deal_no)
            )
            before = None if previous is None else Copy(previous, "")
            self.copies.shown(key, message_id, copy, live=live, previous=before)
        if live:
            self._ephemeral[key] = interaction

    async def answer_ephemeral(
        self, interaction: discord.Interaction[Any], table: TableView, hand: HandView, lang: str
    ) -> int | None:
        """Answer a click in an ephemeral hand by showing the hand as it now is; the seat
        whose hand the refresh need not show again (None: its DM still needs it)."""
        by_dm = (await self.places.of(table)).by_dm(table, hand.seat)
        payload = await self.answer(table, hand, lang, ephemeral=True, remember=not by_dm)
        if drawn_v2(interaction):
            answer = interaction.response.edit_message(**payload)
        else:
            # a hand sent with embeds, before layout components, cannot take them: a new one
            answer = interaction.response.send_message(**as_new_message(payload), ephemeral=True)
        if not await answered(interaction, answer):
            self.shown.forget_hand(table.id, hand.seat)
            return None
        message_id = interaction.message.id if interaction.message else 0
        self._remember_ephemeral(table.id, hand, interaction, payload, message_id, live=not by_dm)
        return None if by_dm else hand.seat


async def _sent(answer: Awaitable[Any], sent: list[int]) -> None:
    """Send an answer, keeping the id of the message it made in ``sent``."""
    callback = await answer
    resource = getattr(callback, "resource", None)
    if isinstance(resource, discord.InteractionMessage):
        sent.append(resource.id)
