"""A table's saves and loads: one atomic write per change, the memory of each table's last
save (what a failed change goes back to), and the tables brought back after a start.

The action log is the source of truth: a table in play is rebuilt from its seed and the
actions of the deal in play, here and nowhere else.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.engine import Action, Deal, action_from_json, record_of
from bot.storage import Conn
from bot.storage import tables as repo
from bot.storage.ledger import InsufficientChips

from .errors import SaveFailed, TableError
from .model import Status, Table
from .settlement import refund_damaged
from .surroundings import LostTable, Surroundings
from .writes import STATE, Write

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Saved:
    """A table as its last successful save left it: what a failed change goes back to."""

    host_id: int
    status: str
    state: str
    actions: tuple[Action, ...]


class Store:
    """The service's database side. It reads the service's ``db``, ``clock`` and
    ``presenter`` when it needs them, as the rest of the service does, so that what a test
    swaps on a running service is heard here too."""

    def __init__(self, service: Surroundings) -> None:
        self._service = service
        self.saved: dict[int, _Saved] = {}

    def forget(self, table_id: int) -> None:
        self.saved.pop(table_id, None)

    def _remember(self, table: Table, state: str) -> None:
        deal = table.deal
        self.saved[table.id] = _Saved(
            host_id=table.host_id,
            status=table.status.value,
            state=state,
            actions=tuple(deal.actions) if deal is not None else (),
        )

    def rollback(self, table: Table) -> bool:
        """Put the table back as its last save left it (in place: whoever holds it sees
        the change), keeping only where its messages live, which no game rule reads.
        False when there is no save to go back to."""
        saved = self.saved.get(table.id)
        if saved is None:
            return False
        restored = Table.from_state(
            table_id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=saved.host_id,
            variant=table.variant.value,
            status=saved.status,
            state=saved.state,
        )
        replay(restored, saved.actions)
        for name in Table.__slots__:  # pyright: ignore[reportAttributeAccessIssue]
            setattr(table, name, getattr(restored, name))
        return True

    # ----------------------------------------------------------------- saving

    async def create(self, table: Table) -> None:
        """Write a new lobby; the table gets its id from the database."""
        state = table.state_json()
        service = self._service
        try:
            async with service.db.transaction() as conn:
                table.id = await repo.create_table(
                    conn,
                    guild_id=table.guild_id,
                    channel_id=table.channel_id,
                    host_id=table.host_id,
                    variant=table.variant.value,
                    status=table.status.value,
                    state=state,
                    now=table.created_at,
                )
        except Exception as error:
            log.error("Could not open a table in server %s", table.guild_id, exc_info=error)
            raise SaveFailed from error
        self._remember(table, state)

    async def save(self, table: Table, write: Write = STATE) -> None:
        """One atomic write: the actions (write-ahead), the deal records, the chips and the
        table's state, so a crash at any point loses or duplicates nothing. A write the
        database refuses raises :class:`SaveFailed` (a lack of chips stays itself: the
        start tells it apart)."""
        state = table.state_json()
        metrics = self._service.metrics
        began = metrics.timer()
        try:
            if write.shared:
                await self._write_shared(table, state, write)
            else:
                await self._write_alone(table, state, write)
            metrics.saved(metrics.timer() - began)
        except InsufficientChips:
            raise
        except Exception as error:
            log.error("Table %s could not be saved", table.id, exc_info=error)
            raise SaveFailed from error
        self._remember(table, state)

    async def _write_shared(self, table: Table, state: str, write: Write) -> None:
        service = self._service
        await repo.save_progress(
            service.db,
            table.id,
            deal_no=table.deal_no,
            actions=write.played.numbered() if write.played is not None else [],
            host_id=table.host_id,
            status=table.status.value,
            state=state,
            now=service.clock(),
        )

    async def _write_alone(self, table: Table, state: str, write: Write) -> None:
        service = self._service
        now = service.clock()
        played = write.played
        async with service.db.transaction() as conn:
            if played is not None:
                for seq, action in played.numbered():
                    await repo.append_action(conn, table.id, played.deal_no, seq, action)
                if played.ended is not None:
                    await _save_deal(conn, table, played.deal_no, played.ended, finished_at=now)
            if write.dealt is not None:
                await _save_deal(conn, table, table.deal_no, write.dealt, finished_at=None)
            if write.settlement is not None:
                await write.settlement.apply(conn, table, now)
            await repo.save_table(
                conn,
                table.id,
                host_id=table.host_id,
                status=table.status.value,
                state=state,
                now=now,
            )

    # ----------------------------------------------------- the bot starts, stops

    async def restore(self, adopt: Callable[[Table], None]) -> list[Table]:
        """Load every open table and hand it to ``adopt``. A table that cannot be rebuilt is
        set aside (cancelled, stakes back, its players told) and the others are restored."""
        restored: list[Table] = []
        for row in await repo.open_tables(self._service.db):
            if not self._service.owns(row.guild_id):
                continue  # another process's
            try:
                table = await self._load(row)
                adopt(table)
            except Exception:
                log.exception("Table %s could not be restored: setting it aside", row.id)
                await self._set_aside(row)
                continue
            restored.append(table)
        return restored

    async def keep_clocks(self, tables: list[Table], lock: Callable[[int], asyncio.Lock]) -> None:
        """Save each turn's time left, every table at once: their saves share batches. Each
        waits for its table's ``lock``, so that a change under way is let finish first."""
        results = await asyncio.gather(
            *(self._keep_clock(table, lock) for table in tables),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, BaseException):
                log.error("A table's clock could not be kept", exc_info=result)

    async def _keep_clock(self, table: Table, lock: Callable[[int], asyncio.Lock]) -> None:
        async with lock(table.id):
            if table.status is Status.PLAYING and table.turn_deadline is not None:
                table.turn_left = max(table.turn_deadline - self._service.clock(), 0.0)
                await self.save(table)

    async def save_quietly(self, table: Table) -> None:
        """A save of what the presenter reports (where a message lives): one that fails
        goes with the table's next save."""
        if not table.status.is_open:
            return
        try:
            await self.save(table)
        except SaveFailed:
            return

    async def load_ended(self, table_id: int) -> Table:
        """A table that has ended, as its last save left it (it stays out of memory)."""
        row = await repo.load_table(self._service.db, table_id)
        if row is None:
            raise TableError("gone")
        return table_of(row)

    async def _load(self, row: repo.TableRow) -> Table:
        """A table as its row and its log leave it, its turn clock given the time that was
        left when the bot stopped (or, after a crash, when it was last saved)."""
        service = self._service
        table = table_of(row)
        if table.status is Status.PLAYING:
            raws = await repo.deal_actions(service.db, table.id, table.deal_no)
            replay(table, [action_from_json(json.loads(raw)) for raw in raws])
        now = service.clock()
        if table.status is Status.PLAYING and table.turn_seat is not None:
            left = table.turn_left
            if left is None and table.turn_deadline is not None:
                left = max(table.turn_deadline - row.updated_at, 0.0)
            table.turn_deadline = now + (left if left is not None else table.options.turn_time)
            table.turn_left = None
        self._remember(table, row.state)
        return table

    async def _set_aside(self, row: repo.TableRow) -> None:
        service = self._service
        now = service.clock()
        try:
            async with service.db.transaction() as conn:
                refunded = await refund_damaged(conn, row.guild_id, row.id, now)
                await repo.set_status(conn, row.id, status=Status.CANCELLED.value, now=now)
        except Exception:
            log.exception("Table %s could not be set aside either", row.id)
            return
        await service.publish(LostTable(row.id, row.guild_id, row.channel_id, refunded))


def replay(table: Table, actions: Iterable[Action]) -> None:
    """The deal in play, rebuilt from the table's seed and its actions (the log)."""
    if table.status is not Status.PLAYING:
        return
    if table.game is None:
        raise ValueError("a table in play without its game")
    table.deal = Deal(table.game.deal_for(table.deal_rng()))
    for action in actions:
        table.deal.apply(action)


async def _save_deal(
    conn: Conn, table: Table, deal_no: int, deal: Deal, *, finished_at: float | None
) -> None:
    """The game record of a deal: as dealt (``finished_at`` None), or as it ended."""
    await repo.save_deal(
        conn,
        table_id=table.id,
        deal_no=deal_no,
        guild_id=table.guild_id,
        record=json.dumps(
            {
                **record_of(deal),
                "shuffle": table.shuffle_record(deal_no, reveal=finished_at is not None),
            }
        ),
        players=_players(table),
        finished_at=finished_at,
    )


def table_of(row: repo.TableRow) -> Table:
    """A table as its row's state leaves it (a table in play also needs its log)."""
    return Table.from_state(
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        variant=row.variant,
        status=row.status,
        state=row.state,
    )


def _players(table: Table) -> list[tuple[int, int]]:
    return [
        (i, s.user_id) for i, s in enumerate(table.seats) if s is not None and s.user_id is not None
    ]
