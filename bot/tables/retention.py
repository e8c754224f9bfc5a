"""How long a server's data outlives the bot's stay there: everything it keeps (its tables and
their records, chips, members, ratings, seasons, daily deals, tournaments, settings, where its
messages live) is erased once the bot has been gone from it for ``TUTE_RETENTION_DAYS``
(30 by default; 0: at once). Coming back before then keeps everything.

The Discord side says when the bot joins and leaves a server, and which servers it is in
when it (re)connects: a server this process should hold that the bot is no longer in left
while the bot was away, and counts as left then. Each process erases only the servers of
its own shards, whose tables it runs; a server with a table or tournament still open here
waits until it has ended (its players may still be finishing it on the card table).

The erasure waits on the runtime's clock, for the next departure to come of age; a failed
one is tried again an hour later."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Final

from bot.storage import Database, servers

log = logging.getLogger(__name__)

DAY: Final = 86_400.0
RETRY: Final = 3600.0
"""Seconds before a server that could not be erased yet (a table of it still open, or the
database failing) is tried again."""
FURTHEST: Final = 7 * DAY
"""The longest one wait lasts (a wait as long as a whole retention would be as long)."""


class Retention:
    """Records where the bot is and erases the servers it left long enough ago."""

    def __init__(
        self,
        db: Database,
        *,
        days: int,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
        owns: Callable[[int], bool] = lambda guild_id: True,
        busy: Callable[[int], bool] = lambda guild_id: False,
    ) -> None:
        """``owns``: whether a server's shard is this process's; ``busy``: whether one of
        its tables or tournaments is still open here."""
        self.db = db
        self.keep = days * DAY
        self.clock = clock
        self.sleep = sleep
        self.owns = owns
        self.busy = busy
        self._timer: asyncio.Task[None] | None = None
        self._sweeping = False
        self._stopped = False

    # ------------------------------------------------------------------ told by Discord

    async def joined(self, guild_id: int) -> None:
        """The bot joined a server (or came back to one before it was erased)."""
        await servers.seen(self.db, (guild_id,), self.clock())

    async def left(self, guild_id: int) -> None:
        """The bot left a server: its data is erased once the retention has passed."""
        await servers.left(self.db, guild_id, self.clock())
        self.plan()

    async def connected(self, guild_ids: Iterable[int]) -> list[int]:
        """The bot is in ``guild_ids`` now, as the gateway listed them to this process:
        those are kept, and the servers of this process's shards it was in and is no longer
        count as left now. Returns those."""
        now = self.clock()
        here = set(guild_ids)
        await servers.seen(self.db, here, now)
        missed = [g for g in await servers.present(self.db) if g not in here and self.owns(g)]
        for guild_id in missed:
            await servers.left(self.db, guild_id, now)
        if missed:
            log.info("The bot left %d server(s) while it was away", len(missed))
        self.plan()
        return missed

    # ------------------------------------------------------------------ erasing

    async def sweep(self) -> list[int]:
        """Erase every server of this process's shards gone longer than the retention, but
        those with a table or tournament still open here. Returns the servers erased."""
        cutoff = self.clock() - self.keep
        erased: list[int] = []
        self._sweeping = True
        try:
            for guild_id, when in await servers.departures(self.db):
                if when > cutoff:
                    break
                if not self.owns(guild_id) or self.busy(guild_id):
                    continue
                if await servers.erase(self.db, guild_id, left_before=cutoff):
                    log.info("Erased the data of server %s, which the bot left", guild_id)
                    erased.append(guild_id)
        finally:
            self._sweeping = False
        return erased

    async def next_wait(self) -> float:
        """Seconds until the next sweep has something to do: the next departure to come of
        age, or an hour when one is due and waits (an open table, another process's)."""
        now = self.clock()
        due = [
            when + self.keep
            for guild_id, when in await servers.departures(self.db)
            if self.owns(guild_id)
        ]
        waits = [when - now for when in due if when > now]
        if any(when <= now for when in due):
            waits.append(RETRY)  # it waits for a table, or its erasure failed
        return min([*waits, FURTHEST])

    def plan(self) -> None:
        """(Re)start the wait for the next sweep, from what the database says now."""
        if self._stopped or self._sweeping:
            return  # a sweep under way plans the next one when it ends
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().create_task(self._run(), name="retention")

    async def _run(self) -> None:
        first = True
        while not self._stopped:
            try:
                wait = 0.0 if first else await self.next_wait()
            except Exception:
                log.exception("Could not read the servers the bot left")
                wait = RETRY
            first = False
            if wait > 0:
                await self.sleep(wait)
            if self._stopped:
                return
            try:
                await self.sweep()
            except Exception:
                log.exception("Could not erase the servers the bot left")

    def stop(self) -> None:
        """The bot is stopping: no more sweeps (the next start plans them again)."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
