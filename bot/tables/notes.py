"""What the presenter and the members report about a table that is not a move of the
game: where its messages live, a player's hand in their DMs, a member's turn notices. Each
is taken under the table's lock, in memory, and kept even when its save fails: it goes
with the table's next save."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from bot.storage import Database, members

from .model import Table


class Notes:
    """The service's notes on its tables, under the service's locks (``holding``)."""

    def __init__(
        self,
        db: Database,
        tables: dict[int, Table],
        holding: Callable[[int], AbstractAsyncContextManager[None]],
        save: Callable[[Table], Awaitable[None]],
        open_in: Callable[[int], list[Table]],
    ) -> None:
        self._db = db
        self._tables = tables
        self._holding = holding
        self._save = save
        self._open_in = open_in

    async def set_messages(
        self,
        table_id: int,
        *,
        message_id: int | None = None,
        play_message_id: int | None = None,
        play_message_deal: int | None = None,
        play_message_v2: bool | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Remember where the table's public messages live (and for the table message, the
        deal it was opened for and how it is drawn)."""

        def change(table: Table) -> bool:
            if message_id is not None:
                table.message_id = message_id
            if play_message_id is not None:
                table.play_message_id = play_message_id
            if play_message_deal is not None:
                table.play_message_deal = play_message_deal
            if play_message_v2 is not None:
                table.play_message_v2 = play_message_v2
            if thread_id is not None:
                table.thread_id = thread_id or None  # 0: its thread is gone
            return True

        await self._note(table_id, change)

    async def set_dm(
        self,
        table_id: int,
        seat: int,
        *,
        channel_id: int | None,
        message_id: int | None,
        closed: bool,
        v2: bool = False,
    ) -> None:
        """Remember a player's hand message in their DMs (and how it is drawn), or that
        their DMs are closed."""

        def change(table: Table) -> bool:
            occupant = table.seats[seat]
            if occupant is None:
                return False
            occupant.dm_channel_id = channel_id
            occupant.dm_message_id = message_id
            occupant.dm_closed = closed
            occupant.dm_message_v2 = v2
            return True

        await self._note(table_id, change)

    async def set_notify(self, guild_id: int, user_id: int, on: bool) -> None:
        """A member's ``/tute notify``: kept for the games they join, and taken at once by
        the open tables where they sit."""
        async with self._db.transaction() as conn:
            await members.set_notify_turn(conn, guild_id, user_id, on)

        def change(table: Table) -> bool:
            seat = table.seat_of(user_id)
            occupant = table.seats[seat] if seat is not None else None
            if occupant is None or occupant.notify is on:
                return False
            occupant.notify = on
            return True

        for table in self._open_in(guild_id):
            await self._note(table.id, change)

    async def _note(self, table_id: int, change: Callable[[Table], bool]) -> None:
        """Take what the presenter or a member reports about a table in memory (where a
        message lives, a member's switch), under its lock; ``change`` says whether it
        changed anything. It is kept even when its save fails: it goes with the table's
        next save."""
        async with self._holding(table_id):
            table = self._tables.get(table_id)
            if table is not None and change(table):
                await self._save(table)
