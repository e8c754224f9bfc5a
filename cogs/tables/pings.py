"""Turn pings: "@you, your turn." in the table's channel, for a player whose hand is not in
their DMs (an edit notifies nobody) and who let their turn wait. A ping is said for a moment:
it goes once its turn is played, so a long game leaves none behind. At most one stands per
seat (a new one replaces the old); each is deleted once, and a delete Discord refuses is not
tried again (its failure touches nothing else)."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.i18n import t
from bot.tables.views import HandView, TableView
from cogs._base import pings

from .outlet import Outlet
from .places import Place

log = logging.getLogger(__name__)

PING_AFTER = 20.0
"""How long a player whose hand is under My hand may take before their turn is pinged in
the channel (half the turn's time, where that is shorter)."""

Seat = tuple[int, int]
"""(table, seat)."""


def ping_after(table: TableView) -> float:
    return min(PING_AFTER, table.options.turn_time / 2)


class TurnPings:
    def __init__(self, outlet: Outlet) -> None:
        self.outlet = outlet
        self._sent: dict[Seat, tuple[int, int]] = {}
        """Where each seat's standing ping is: (channel, message), the table's thread or
        its channel then."""
        self._waiting: dict[Seat, asyncio.Task[None]] = {}
        """The wait before a ping: a player who plays in time is never pinged."""
        self._turns: dict[Seat, int] = {}
        """How many of the seat's turns are over: a ping whose turn ended while it was on
        its way goes as soon as it is sent."""
        self._sweeps: set[asyncio.Task[None]] = set()

    def later(self, table: TableView, place: Place, hand: HandView) -> None:
        """Ping the seat's player if they have not played after ``ping_after`` seconds:
        one who follows the game is not pinged (the channel stays clean), one who looked
        away is."""
        key = (table.id, hand.seat)
        waiting = self._waiting.pop(key, None)
        if waiting is not None:
            waiting.cancel()
        self._waiting[key] = asyncio.create_task(self._ping(table, place, hand))

    async def _ping(self, table: TableView, place: Place, hand: HandView) -> None:
        """A short message where the table plays that pings the player alone, after the
        wait. Once sent it is never cancelled half-way: a ping whose turn was played while
        it went goes at once."""
        key = (table.id, hand.seat)
        await self.outlet.sleep(ping_after(table))
        if self._waiting.get(key) is asyncio.current_task():
            del self._waiting[key]
        occupant = hand.occupant
        assert occupant is not None and occupant.user_id is not None
        if place.closed:
            return  # the channel is closed to the bot: the web table says whose turn it is
        if not self.outlet.optional():
            return  # refused requests near Discord's limit: the turn's clock still runs
        turn = self._turns.get(key, 0)
        text = t("tables.your_turn_ping", table.language, mention=f"<@{occupant.user_id}>")
        try:
            message = await self.outlet.bot.get_partial_messageable(place.where_id).send(
                text,
                allowed_mentions=pings([occupant.user_id]),
            )
        except discord.HTTPException as error:
            log.info("Table %s: seat %s could not be pinged (%s)", table.id, hand.seat, error)
            if self.outlet.closes(table, error):
                self.outlet.shut(place, error)
            return
        sent = (place.where_id, message.id)
        if self._turns.get(key, 0) != turn:
            await self.outlet.delete(table.id, *sent)  # its turn was played meanwhile
            return
        before = self._sent.get(key)
        self._sent[key] = sent
        if before is not None:
            await self.outlet.delete(table.id, *before)  # replaced, never two

    async def over(self, table: TableView, hand: HandView) -> None:
        """The seat's turn is over (they played, or the game moved on): its ping goes, or
        is never sent."""
        key = (table.id, hand.seat)
        if hand.your_turn and not hand.notify:
            return
        self._turns[key] = self._turns.get(key, 0) + 1
        waiting = self._waiting.pop(key, None)
        if waiting is not None:
            waiting.cancel()
        ping = self._sent.pop(key, None)
        if ping is not None:
            await self.outlet.delete(table.id, *ping)

    def forget_table(self, table_id: int) -> None:
        """The table no longer plays: a ping still standing goes (on its own: the end is
        shown without waiting for it)."""
        for key in [k for k in self._waiting if k[0] == table_id]:
            self._waiting.pop(key).cancel()
        for key in [k for k in self._turns if k[0] == table_id]:
            del self._turns[key]
        standing = [self._sent.pop(k) for k in [k for k in self._sent if k[0] == table_id]]
        if standing:
            task = asyncio.get_running_loop().create_task(self._sweep(table_id, standing))
            self._sweeps.add(task)
            task.add_done_callback(self._sweeps.discard)

    async def _sweep(self, table_id: int, standing: list[tuple[int, int]]) -> None:
        for ping in standing:
            await self.outlet.delete(table_id, *ping)
