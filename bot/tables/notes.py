"""What members switch at a table that is not a move of the game: their turn notices. Each
is taken under the table's lock, in memory, and kept even when its save fails: it goes
with the table's next save. (Where a table's messages live is the Discord side's own
business: ``cogs/tables/places.py``.)"""

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
        """Take a member's switch at a table in memory, under its lock; ``change`` says whether it
        changed anything. It is kept even when its save fails: it goes with the table's
        next save."""
        async with self._holding(table_id):
            table = self._tables.get(table_id)
            if table is not None and change(table):
                await self._save(table)
