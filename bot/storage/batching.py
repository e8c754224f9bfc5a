"""The group commit, for both engines: units of writes queued while a batch runs share the
next batch, one transaction and one COMMIT (one flush to disk for them all).

A batch sends each SQL once, as one ``executemany`` of every unit's rows of it, in the order
the units were queued (:func:`grouped`): a batch of table saves is four trips to the
database whatever its size. So units queued together must not depend on the order of one
another's statements of different SQL (table saves do not: each table has one save in
flight); a unit's own order is always kept. If a statement fails, the batch is rolled back
and run again unit by unit, each in its own savepoint, so that a failing unit is left out
alone and only its caller gets its error; if the COMMIT fails, every caller of the batch
gets it. A caller returns once its batch is committed; cancelling it stops its waiting, not
its write.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from abc import abstractmethod
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from .base import Statement, WriteCounts

log = logging.getLogger(__name__)

MAX_BATCH = 256
"""Units per batch at most, so one batch holds the lock (and delays a transaction or a read
waiting behind it) for a bounded time."""


class Runner(Protocol):
    """A connection a batch runs on, as the engine drives it."""

    async def begin(self) -> None: ...

    async def rows(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Run ``sql`` once per row of parameters (once: ``[()]``)."""
        ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None:
        """Roll back what is open (nothing: no-op)."""
        ...

    def in_transaction(self) -> bool: ...


Frozen = tuple[tuple[str, tuple[Any, ...]], ...]
"""A unit's statements, copied as the caller passed them."""


@dataclass(slots=True)
class Unit:
    """One caller's statements, and the answer it waits for."""

    statements: Frozen
    done: asyncio.Future[None]


async def _run_statements(conn: Runner, statements: Frozen) -> None:
    """A unit's statements in order; a run of the same SQL goes as one ``executemany``."""
    for sql, group in itertools.groupby(statements, key=lambda statement: statement[0]):
        await conn.rows(sql, [p for _, p in group])


def grouped(units: Sequence[Frozen]) -> list[tuple[str, list[tuple[Any, ...]]]] | None:
    """The batch's statements grouped by their SQL, each group in the order queued and the
    groups in the order their SQL first came: one ``executemany`` a group. None when that
    would change the order of some unit's own statements (its SQL comes in another order
    than an earlier unit's, or again after another)."""
    groups: dict[str, list[tuple[Any, ...]]] = {}
    for statements in units:
        seen: list[str] = []
        for sql, params in statements:
            if not seen or seen[-1] != sql:
                if sql in seen:
                    return None
                seen.append(sql)
            groups.setdefault(sql, []).append(params)
        order = list(groups)
        positions = [order.index(sql) for sql in seen]
        if positions != sorted(positions):
            return None
    return list(groups.items())


async def run_batch(conn: Runner, units: Sequence[Frozen]) -> list[Exception | None]:
    """Every unit in one transaction. Returns each unit's error (None: it is in); raises,
    with nothing written, when the transaction as a whole fails.

    Most batches have no failing unit: they run straight through, the statements of one
    SQL as one ``executemany`` (:func:`grouped`): a batch of table saves is four trips to
    the database, whatever its size. When a statement fails, the batch is rolled
    back and run again unit by unit, each in its own savepoint, so that only a failing unit
    is left out."""
    groups = grouped(units)
    try:
        await conn.begin()
        try:
            if groups is None:
                for statements in units:
                    await _run_statements(conn, statements)
            else:
                for sql, rows in groups:
                    await conn.rows(sql, rows)
        except Exception:
            if not conn.in_transaction():
                # some errors (a full disk, I/O) make SQLite roll back the whole
                # transaction: every unit is out
                raise
            await conn.rollback()
            return await _run_isolated(conn, units)
        await conn.commit()
    except BaseException:
        # a failed COMMIT (a deferred constraint, a busy file) leaves the transaction open;
        # a no-op when nothing is open
        await conn.rollback()
        raise
    return [None] * len(units)


async def _run_isolated(conn: Runner, units: Sequence[Frozen]) -> list[Exception | None]:
    """The batch again, each unit in its own savepoint (after a statement failed)."""
    outcomes: list[Exception | None] = []
    await conn.begin()
    for statements in units:
        await conn.rows("SAVEPOINT unit", [()])
        try:
            await _run_statements(conn, statements)
        except Exception as error:
            if not conn.in_transaction():
                raise
            await conn.rows("ROLLBACK TO SAVEPOINT unit", [()])
            outcomes.append(error)
        else:
            outcomes.append(None)
        await conn.rows("RELEASE SAVEPOINT unit", [()])
    await conn.commit()
    return outcomes


def settle(batch: list[Unit], running: asyncio.Future[list[Exception | None]]) -> None:
    """Answer every caller of a finished batch."""
    if running.cancelled():
        # only when the event loop is torn down mid-batch: what became of it is unknown
        for unit in batch:
            unit.done.cancel()
        return
    failure = running.exception()
    outcomes: Sequence[BaseException | None] = (
        [failure] * len(batch) if failure is not None else running.result()
    )
    for unit, outcome in zip(batch, outcomes, strict=True):
        if unit.done.cancelled():
            # its caller stopped waiting; a failure would go unheard but for this
            if outcome is not None:
                log.error("A write whose caller was cancelled failed", exc_info=outcome)
        elif outcome is None:
            unit.done.set_result(None)
        else:
            unit.done.set_exception(outcome)


class GroupCommit:
    """``write()`` through the group commit, for a :class:`~bot.storage.base.Database`:
    the engine runs a batch (``_run_units``) and, on SQLite, checkpoints its log when writes
    pause (``_checkpoint``, every ``checkpoint_after`` units)."""

    counts: WriteCounts

    def _start_group_commit(self, *, max_batch: int, checkpoint_after: float) -> None:
        self.max_batch = max_batch
        self.checkpoint_after = checkpoint_after
        self.counts = WriteCounts()
        self._lock = asyncio.Lock()
        """Held by a batch (and on SQLite by every transaction and read)."""
        self._owner: asyncio.Task[Any] | None = None
        """The task inside ``transaction()`` (SQLite): its own reads go straight through."""
        self._queue: deque[Unit] = deque()
        self._flusher: asyncio.Task[None] | None = None
        self._unchecked = 0

    @abstractmethod
    async def _run_units(self, units: Sequence[Frozen]) -> list[Exception | None]:
        """One batch, with :func:`run_batch` on a connection of the engine's."""

    async def _checkpoint(self) -> None:
        """Nothing to do but on SQLite."""

    def _refuse_nesting(self, what: str) -> None:
        if self._owner is not None and self._owner is asyncio.current_task():
            raise RuntimeError(f"{what} inside a transaction() block would wait for itself")

    async def write(self, statements: Iterable[Statement]) -> None:
        """Run ``statements`` as one atomic unit, in the next batch; return once committed.

        Raises the error of a failing statement (nothing of the unit is written then), or
        the batch's error if its COMMIT fails (nothing of the batch is written).

        Cancelling the caller stops its waiting, not its write: a unit once queued is run
        and committed with its batch all the same (fully in, or fully out if it fails). So
        a table whose save was cancelled never gets its next action logged without this
        one.
        """
        self._refuse_nesting("write()")
        # copied, so that what is written is what the caller passed at this moment
        frozen = tuple((sql, tuple(params)) for sql, params in statements)
        if not frozen:
            return
        unit = Unit(frozen, asyncio.get_running_loop().create_future())
        self._queue.append(unit)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush(), name="database-group-commit")
        # The future is only where the answer goes: cancelling the caller cancels it and
        # nothing else, the unit stays queued (or in its running batch) and is written.
        await unit.done

    async def _flush(self) -> None:
        """Run the queued units, a batch at a time, until none is left; then, when enough
        has been written since the last one, a checkpoint."""
        try:
            while self._queue or self._unchecked >= self.checkpoint_after:
                if not self._queue:
                    await self._checkpoint_when_idle()
                    continue
                async with self._lock:
                    size = min(len(self._queue), self.max_batch)
                    batch = [self._queue.popleft() for _ in range(size)]
                    self.counts.batches += 1
                    self.counts.units += size
                    self._unchecked += size
                    self.counts.largest = max(self.counts.largest, size)
                    running = asyncio.ensure_future(
                        self._run_units([unit.statements for unit in batch])
                    )
                    # the callers are answered from the batch itself, so that they are even
                    # if this task is cancelled while the batch runs
                    running.add_done_callback(partial(settle, batch))
                    # wait() neither raises the batch's error nor cancels the batch
                    await asyncio.wait((running,))
        except asyncio.CancelledError:
            # the event loop is going away: units not yet in a batch are not written
            while self._queue:
                self._queue.popleft().done.cancel()
            raise
        finally:
            self._flusher = None

    async def _checkpoint_when_idle(self) -> None:
        """Copy SQLite's log into the database file while no write waits. SQLite would
        otherwise do it inside some COMMIT, and every caller of that batch would wait."""
        async with self._lock:
            if self._queue:
                return  # a write came first
            self._unchecked = 0
            try:
                await self._checkpoint()
            except Exception:
                # nothing is lost: the log keeps the pages until a later checkpoint
                log.exception("A checkpoint of the database failed")
            else:
                self.counts.checkpoints += 1

    async def close_writes(self) -> None:
        """Wait for the queued writes to be committed."""
        if self._flusher is not None:
            await asyncio.wait((self._flusher,))
