"""What members switch at a table that is not a move of the game: their turn notices, and
a member forgotten where they do not sit when their data is erased. Each
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

    async def forget(self, user_id: int) -> None:
        """The open tables this process holds, where the member does not sit, name them no
        more (their data is being erased: ``bot.tables.privacy``): their invitation is taken
        back and the log's lines about them (a lobby they joined and left) go. Each table is
        saved without them."""

        def change(table: Table) -> bool:
            sat = any(s is not None and s.user_id == user_id for s in table.seats)
            if not table.status.is_open or sat:  # a seat of theirs, even left: refused
                return False
            log = [e for e in table.log if e.who is None or e.who.user_id != user_id]
            if user_id not in table.invited and len(log) == len(table.log):
                return False
            table.invited = [u for u in table.invited if u != user_id]
            table.log = log
            return True

        for table_id in list(self._tables):
            await self._note(table_id, change)

    async def _note(self, table_id: int, change: Callable[[Table], bool]) -> None:
        """Take a member's switch at a table in memory, under its lock; ``change`` says whether it
        changed anything. It is kept even when its save fails: it goes with the table's
        next save."""
        async with self._holding(table_id):
            table = self._tables.get(table_id)
            if table is not None and change(table):
                await self._save(table)
