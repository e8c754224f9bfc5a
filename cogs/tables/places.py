"""Where each table's messages live on Discord, kept by this side alone: the game's thread,
its lobby message, the table message of the deal in play, and each player's hand in their
DMs (or that their DMs are closed). The table service knows none of it.

A place changes in memory at once and is written a little later (``FLUSH_AFTER``), every
table's changes of that while in one commit, and at once when the bot stops: a card click
commits its move, not where its messages landed. A place lost to a crash in that while costs
a fresh message where an edit would have done (its old one stays, its buttons still play)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.storage import Database
from bot.storage import places as stored
from bot.tables.views import TableView

log = logging.getLogger(__name__)

FLUSH_AFTER = 5.0
"""Seconds a changed place waits to be written (with every other change of that while)."""
RETRY_AFTER = 30.0
"""Seconds before writing again after a write failed (a locked or full database)."""
KEEP_ENDED = 256
"""Tables over whose places stay in memory (the newest): a retry, a rematch or a link may
still want them; the others are read again from the database when asked for."""


@dataclass(slots=True)
class HandPlace:
    """Where one player's hand lives in their DMs."""

    user_id: int
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    dm_closed: bool = False
    """Their DMs refused the bot: the hand is under My hand, and the table says so."""
    legacy: bool = False
    """The message was sent with embeds, before layout components: the next delivery
    replaces it with a fresh one."""


@dataclass(slots=True)
class Place:
    """Where one table's messages live."""

    table_id: int
    channel_id: int
    thread_id: int | None = None
    message_id: int | None = None
    """The lobby message, in the channel."""
    play_message_id: int | None = None
    """The table message (in the thread, or in the channel)."""
    play_message_deal: int | None = None
    """The deal the table message was opened for: each deal gets one, and the one before
    becomes that deal's summary."""
    legacy_message_id: int | None = None
    """A table message sent with embeds, before layout components: replaced by a fresh one
    at its next show."""
    hands: dict[int, HandPlace] = field(default_factory=dict[int, HandPlace])
    closed: bool = False
    """The channel refused the bot (a group DM, a DM between two members, a server without
    the bot): the table plays on the web table and in interaction answers only, and nothing
    more is posted, edited, threaded or pinged there for it (its hands still go to DMs)."""

    @property
    def where_id(self) -> int:
        """The channel the table plays in: its thread, or the channel itself."""
        return self.thread_id or self.channel_id

    def hand(self, seat: int, user_id: int | None) -> HandPlace | None:
        """The DM hand of ``seat`` while ``user_id`` sits there (a seat's next member starts
        with none)."""
        place = self.hands.get(seat)
        return place if place is not None and place.user_id == user_id else None

    def dm_closed(self, seat: int, user_id: int | None) -> bool:
        place = self.hand(seat, user_id)
        return place is not None and place.dm_closed

    def by_dm(self, table: TableView, seat: int) -> bool:
        """Whether the seat's hand goes to its player's DMs (else under My hand)."""
        occupant = table.seats[seat]
        return (
            table.hand_delivery == "dm"
            and occupant is not None
            and occupant.user_id is not None
            and not self.dm_closed(seat, occupant.user_id)
        )

    def closed_seats(self, table: TableView) -> list[int]:
        """The seats of present members whose DMs are closed."""
        return [
            i
            for i, s in enumerate(table.seats)
            if s is not None and s.human and self.dm_closed(i, s.user_id)
        ]

    def row(self) -> stored.PlaceRow:
        hands = {
            str(seat): {
                "user": h.user_id,
                "channel": h.dm_channel_id,
                "message": h.dm_message_id,
                "closed": h.dm_closed,
                "legacy": h.legacy,
            }
            for seat, h in sorted(self.hands.items())
        }
        return stored.PlaceRow(
            self.table_id,
            self.thread_id,
            self.message_id,
            self.play_message_id,
            self.play_message_deal,
            self.legacy_message_id,
            json.dumps(hands, separators=(",", ":")),
            self.closed,
        )

    @classmethod
    def from_row(cls, row: stored.PlaceRow, channel_id: int) -> Place:
        hands: dict[str, dict[str, Any]] = json.loads(row.hands)
        return cls(
            table_id=row.table_id,
            channel_id=channel_id,
            thread_id=row.thread_id,
            message_id=row.lobby_id,
            play_message_id=row.play_id,
            play_message_deal=row.play_deal,
            legacy_message_id=row.legacy_id,
            hands={
                int(seat): HandPlace(
                    user_id=int(h["user"]),
                    dm_channel_id=h.get("channel"),
                    dm_message_id=h.get("message"),
                    dm_closed=bool(h.get("closed")),
                    legacy=bool(h.get("legacy")) and h.get("message") is not None,
                )
                for seat, h in hands.items()
                if h.get("user") is not None
            },
            closed=row.closed,
        )


class Places:
    """Every table's place, as this process shows it: read from the database the first time
    a table is shown (after a start), kept in memory, written behind."""

    def __init__(
        self,
        db: Callable[[], Database],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        *,
        flush_after: float = FLUSH_AFTER,
    ) -> None:
        self._db = db
        self._sleep = sleep
        self.flush_after = flush_after
        self._places: dict[int, Place] = {}
        self._dirty: set[int] = set()
        self._ended: OrderedDict[int, None] = OrderedDict()
        """Tables over, oldest first: beyond ``KEEP_ENDED``, their places leave memory (once
        written)."""
        self._flushing: asyncio.Task[None] | None = None
        self.closed_channels: set[int] = set()
        """Channels an interaction's context said the bot may not post in (until one says
        it may): a table opened there from the web table starts closed."""

    async def of(self, table: TableView) -> Place:
        """The table's place, read from the database if this process has not shown it yet."""
        place = self._places.get(table.id)
        if place is not None:
            return place
        try:
            row = await stored.load(self._db(), table.id)
        except Exception:
            log.exception("Could not read where table %s is shown", table.id)
            row = None
        place = self._places.get(table.id)  # another show may have made it meanwhile
        if place is None:
            place = (
                Place(table.id, table.channel_id)
                if row is None
                else Place.from_row(row, table.channel_id)
            )
            self._places[table.id] = place
        return place

    async def closed(self, table_id: int) -> bool:
        """Whether the table's channel was found closed to the bot (read from the database
        if this process has not shown the table)."""
        place = self._places.get(table_id)
        if place is not None:
            return place.closed
        try:
            row = await stored.load(self._db(), table_id)
        except Exception:
            log.exception("Could not read where table %s is shown", table_id)
            return False
        return row is not None and row.closed

    def peek(self, table: TableView) -> Place:
        """The table's place as known now, without waiting (an empty one if not read yet)."""
        place = self._places.get(table.id)
        return place if place is not None else Place(table.id, table.channel_id)

    def known(self, table_id: int) -> Place | None:
        return self._places.get(table_id)

    def changed(self, place: Place) -> None:
        """``place`` changed: it is written with the next flush."""
        self._places[place.table_id] = place
        self._dirty.add(place.table_id)
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(
                self._flush_later(self.flush_after), name="table-places"
            )

    def ended(self, table_id: int) -> None:
        """The table is over: its place leaves memory in a while (once written)."""
        self._ended[table_id] = None
        self._ended.move_to_end(table_id)
        self._trim()

    def _trim(self) -> None:
        for table_id in list(self._ended)[: max(0, len(self._ended) - KEEP_ENDED)]:
            if table_id not in self._dirty:
                del self._ended[table_id]
                self._places.pop(table_id, None)

    async def _flush_later(self, delay: float) -> None:
        await self._sleep(delay)
        if not await self.flush():
            self._flushing = asyncio.get_running_loop().create_task(
                self._flush_later(RETRY_AFTER), name="table-places"
            )

    async def flush(self) -> bool:
        """Write every changed place now, in one commit; False when the write failed (the
        changes are kept for the next one)."""
        dirty, self._dirty = self._dirty, set()
        rows = [self._places[i].row() for i in sorted(dirty) if i in self._places]
        if not rows:
            return True
        try:
            await stored.save(self._db(), rows)
        except Exception:
            log.exception("Could not write where %d table(s) are shown", len(rows))
            self._dirty |= dirty
            return False
        self._trim()
        return True

    async def close(self) -> None:
        """The bot stops: what changed is written now."""
        task = self._flushing
        if task is not None and not task.done():
            task.cancel()
        self._flushing = None
        await self.flush()
