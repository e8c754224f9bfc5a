"""The table service's core: each table's lock, the change under it (load -> apply -> save,
and back to the last save if anything fails), the read side, the start and the stop, and
what is told when a game ends. :class:`bot.tables.service.TableService` puts its commands on
it; the concerns (``persistence``, ``robots``, ``clock``) read only its surroundings."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from .announcement import Announcement
from .audience import check_watch
from .clock import Clocks
from .errors import SaveFailed, TableError
from .history import DealHistory, deal_history
from .model import Status, Table
from .notes import Notes
from .persistence import Store
from .robots import Robots
from .surroundings import Surroundings
from .views import HandView, Outcome, Redraws, Show, TableView, hand_view, table_view

log = logging.getLogger(__name__)

GameOver = Callable[[Table], Awaitable[None]]
"""Told of a table whose game ended (finished, or cancelled in play), once that is saved."""
Reply = Callable[[Outcome], Awaitable[int | None]]
"""How a request's caller answers it once its change is saved, before it is published (a
click's answer): the seat whose hand that answer showed (None: none)."""


class ServiceCore(Surroundings):
    """What every command of the service stands on (its ``__init__`` sets the attributes)."""

    locks: dict[int, asyncio.Lock]
    """Each table's lock (while anything holds it, or waits for it)."""
    store: Store
    """The database side: each table's last save."""
    robots: Robots
    clocks: Clocks
    """Each table's timer, and the back-off of a table whose change failed."""
    notes: Notes
    """What members switch that is not a move: their turn notices."""
    _redraws: Redraws
    game_over_listeners: list[GameOver]
    """Who is told of each game that ends (``on_game_over``)."""
    _telling: set[asyncio.Task[None]]

    # ------------------------------------------------------------------ access

    def lock(self, table_id: int) -> asyncio.Lock:
        return self.locks.setdefault(table_id, asyncio.Lock())

    def open_by_state(self) -> dict[str, int]:
        """How many tables this process runs, by state (the figures)."""
        counts: dict[str, int] = {}
        for table in self.tables.values():
            if table.status.is_open:
                counts[table.status.value] = counts.get(table.status.value, 0) + 1
        return counts

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("gone")
        return table

    def open_tables(self, guild_id: int) -> list[TableView]:
        """The server's open tables that its members see listed: not its daily deals, each
        one member's own in their DMs (they count where a host's tables count)."""
        return [table_view(t) for t in self._open_in(guild_id) if not t.daily]

    def holds_open(self, guild_id: int) -> bool:
        """Whether a table filed under the server is open here (its daily deals too)."""
        return bool(self._open_in(guild_id))

    def open_in_channel(self, channel_id: int) -> TableView | None:
        """The newest open table of a channel, if any (only its view is made). A table is
        found by its channel alone, whatever server it is filed under: a channel's id is its
        own in all of Discord, and a member's DMs hold tables of several (their practice
        deal, of none; their daily deal, of its server; one opened from the card table
        there, of the DMs themselves)."""
        found = [t for t in self.tables.values() if t.channel_id == channel_id and t.status.is_open]
        return table_view(max(found, key=lambda t: t.id)) if found else None

    def _open_in(self, guild_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.guild_id == guild_id and t.status.is_open]

    # -------------------------------------------------------------- the read side

    def view(self, table_id: int) -> TableView:
        """The table as everybody sees it (no hand in it)."""
        return table_view(self.get(table_id))

    def hand_view(self, table_id: int, seat: int) -> HandView:
        """One seat's own hand, for that seat's player only."""
        return hand_view(self.get(table_id), seat)

    def history(self, table_id: int, user_id: int, place: int) -> DealHistory:
        """The deal in play so far, as those who may watch it saw it (its tricks, cantes and
        swap), for member ``user_id`` asking from ``place`` (:func:`audience.place_of`);
        refused in words to whoever the audience rule keeps it from."""
        table = self.get(table_id)
        check_watch(table, user_id, place)
        return deal_history(table)

    def watch(self, table_id: int, user_id: int, place: int) -> TableView:
        """The table as everybody sees it, for a member asking from ``place`` to follow its
        play (the card table opened from a table's message); refused in words to whoever
        the audience rule keeps it from."""
        table = self.get(table_id)
        check_watch(table, user_id, place)
        return table_view(table)

    def redraw(self, table_id: int) -> Show | None:
        """What to redraw of a table now (None: it has ended and left memory)."""
        table = self.tables.get(table_id)
        return None if table is None else self._redraws.show(table)

    def shows(self) -> list[Show]:
        """What to redraw of every table in memory (after a start)."""
        return [self._redraws.show(table, tell=False) for table in list(self.tables.values())]

    def _outcome(
        self, table: Table, *, seat: int | None = None, announce: list[Announcement] | None = None
    ) -> Outcome:
        return Outcome(self._redraws.show(table, announce=announce or ()), seat)

    @contextlib.asynccontextmanager
    async def _holding(self, table_id: int) -> AsyncIterator[None]:
        """The table's lock. Once let go, it is forgotten if the table is not in memory (it
        ended under it, or the click came from a table long gone): ids are never reused,
        and whoever still waits for it finds the table gone all the same."""
        lock = self.lock(table_id)
        try:
            async with lock:
                yield
        finally:
            if (
                table_id not in self.tables
                and not lock.locked()
                and self.locks.get(table_id) is lock
            ):
                del self.locks[table_id]

    @contextlib.asynccontextmanager
    async def _change(self, table_id: int) -> AsyncIterator[Table]:
        """The table, under its lock, for a change that ends with a save. If anything fails
        once the change has begun (the save above all), the table goes back to what its last
        save left: memory never runs ahead of the log. A refusal (a ``TableError`` raised
        before anything changed) leaves it alone."""
        async with self._holding(table_id):
            table = self.get(table_id)
            try:
                yield table
            except TableError as error:
                if isinstance(error, SaveFailed):
                    self._rollback(table)
                raise
            except Exception:
                self._rollback(table)
                raise

    def _rollback(self, table: Table) -> None:
        if self.store.rollback(table):
            self.robots.forget(table.id)
            log.warning("Table %s went back to its last save", table.id)

    def _after_change(self, table: Table) -> None:
        """Once saved: the table's clock for what comes next, or out of memory if it ended."""
        if table.status.is_open:
            self.clocks.schedule(table)
        else:
            self.release(table)
            if table.status is Status.FINISHED:
                self.metrics.game_finished()
            if table.status in (Status.FINISHED, Status.CANCELLED):
                self._tell_game_over(table)

    # ------------------------------------------------------------ game over

    def on_game_over(self, callback: GameOver) -> None:
        """Have ``callback`` told of every game that ends from now on (a tournament, say).
        It runs as a task of its own, after the save and outside the table's lock, so that
        it may take other tables' locks; a failure of it is logged and harms no table."""
        self.game_over_listeners.append(callback)

    def _tell_game_over(self, table: Table) -> None:
        for callback in self.game_over_listeners:
            task = asyncio.get_running_loop().create_task(self._tell(callback, table))
            self._telling.add(task)
            task.add_done_callback(self._telling.discard)

    async def _tell(self, callback: GameOver, table: Table) -> None:
        try:
            await callback(table)
        except Exception:
            log.exception("A game-over callback failed for table %s", table.id)

    @property
    def telling(self) -> bool:
        """Whether a game-over callback is under way."""
        return bool(self._telling)

    async def told(self) -> None:
        """Wait until every game-over callback under way has run (those it starts too)."""
        while self._telling:
            await asyncio.gather(*list(self._telling), return_exceptions=True)

    async def ended(self, table_id: int) -> Table:
        """A table that has ended, as its last save left it (it stays out of memory)."""
        return await self.store.load_ended(table_id)

    def release(self, table: Table) -> None:
        """A table that no longer plays leaves memory (its buttons answer "gone")."""
        if table.status.is_open:
            return
        self.clocks.stop(table)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        # its lock goes once let go (``_holding``)
        self.store.forget(table.id)
        self.clocks.forget(table.id)
        self.robots.forget(table.id)

    async def _show(self, table: Table, *, announce: list[Announcement]) -> None:
        """What a change of the table's own clock did (a robot's play, a turn over, a lobby
        that expired), published like any other."""
        await self.publish(self._redraws.show(table, announce=announce))

    async def _done(self, outcome: Outcome, reply: Reply | None) -> Outcome:
        """A request's change is saved: its caller answers it (``reply``: the click's own
        answer, within Discord's 3 seconds, and the seat whose hand that answer showed), then
        it is published. A reply that fails does not keep it from being published."""
        skip: int | None = None
        try:
            if reply is not None:
                skip = await reply(outcome)
        finally:
            await self.publish(outcome.show, skip_seat=skip)
        return outcome

    async def publish_all(self) -> None:
        """Every table in memory shown again, after a start (its messages and sockets in step
        with what was saved; a turn told before the restart is not told again)."""
        await asyncio.gather(
            *(self.publish(self._redraws.show(t, tell=False)) for t in list(self.tables.values()))
        )

    # ------------------------------------------------------- start and stop

    async def restore(self) -> list[Table]:
        """Load every open table after a start: rebuild its deal from the log, resume its
        clocks with the time that was left. A table that cannot be rebuilt is set aside
        (cancelled, stakes back, its players told) and the others are restored."""
        return await self.store.restore(self._adopt)

    def _adopt(self, table: Table) -> None:
        self.tables[table.id] = table
        self.clocks.schedule(table)

    async def suspend(self) -> None:
        """Stop the clocks before the bot stops, keeping each turn's time left.

        A change under way (robots in the middle of their moves) is let finish and saved
        first: under the table's lock, so that nothing moves once this returns and the turn
        it leads to keeps its clock too.

        Every clock stops first, so that no robot run starts once this has begun: a timer
        still in ``_timers`` sleeps or waits for its table's lock (a run under way took its
        own out when it took the lock, and is waited for below). Such a run ends quickly:
        a search that starts from now on thinks 0 s (``Robots.hurried``)."""
        self.clocks.stop_all()
        self.robots.hurried = True
        await self.store.keep_clocks(list(self.tables.values()), self.lock)
        self.thinking.close()

    def abandon(self) -> None:
        """Stop every clock and forget every table, saving nothing: another process runs
        them now (:mod:`bot.tables.cluster`). A save under way that would follow that
        process's is refused by the log (each action's number is written once)."""
        self.clocks.stop_all()
        self.robots.hurried = True
        self.tables.clear()
