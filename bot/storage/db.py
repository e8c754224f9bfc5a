"""The one aiosqlite connection, its migrations, transactions and the group commit.

aiosqlite runs every statement on one worker thread, in order. On one connection a
transaction must not interleave with another coroutine's statements, and a read must not see
another coroutine's uncommitted writes; so one asyncio lock (first come, first served) is held
by every transaction, every batch of writes and every read (but the reads a transaction's own
task makes inside it, which see what it has written so far).

Two ways to write:

- ``write(statements)``: the fast path for a unit of work that only writes. Units that
  arrive while a batch runs are gathered into the next batch (group commit): BEGIN
  IMMEDIATE, every unit's statements, one COMMIT. The statements of one SQL go together as
  one ``executemany`` (one hop to aiosqlite's worker thread through its public methods), in
  the order they were queued; so units queued together must not depend on the order of
  one another's statements of different SQL (table saves do not: each table has one save
  in flight). If a statement fails, the batch is rolled back and run again unit by unit,
  each in its own SAVEPOINT, so that a failing unit is left out alone and only its caller
  gets the error; if the COMMIT fails, every caller of the batch gets it. A caller returns
  once its batch is committed.
- ``transaction()``: an async block that may read what it writes, for the rare paths
  (chips settlements, creating a table), one statement per thread hop.

The WAL log is copied into the database file (a checkpoint) when writes pause, not inside
a COMMIT as SQLite does by default: a checkpoint flushes the file to disk, and whoever waits
for that COMMIT waits for the flush too. SQLite's own checkpoint stays as the bound for a
load that never pauses.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite

from .base import Database, Dialect, Row, Statement, WriteCounts, migration_scripts

log = logging.getLogger(__name__)

MAX_BATCH = 256
"""Units per batch at most, so one batch holds the lock (and delays a transaction or a read
waiting behind it) for a bounded time."""

CHECKPOINT_AFTER = 256
"""Units written after which, once no unit waits, the log is checkpointed into the file."""

WAL_AUTOCHECKPOINT = 20_000
"""Pages (4 KiB) of log after which SQLite checkpoints in a COMMIT: the bound for a write load
that never pauses for an idle-time checkpoint."""

_Frozen = tuple[tuple[str, tuple[Any, ...]], ...]


@dataclass(slots=True)
class _Unit:
    """One caller's statements, and the answer it waits for."""

    statements: _Frozen
    done: asyncio.Future[None]


async def _run_statements(conn: aiosqlite.Connection, statements: _Frozen) -> None:
    """A unit's statements in order; a run of the same SQL goes as one ``executemany``."""
    for sql, group in itertools.groupby(statements, key=lambda statement: statement[0]):
        await _run_rows(conn, sql, [p for _, p in group])


async def _run_rows(conn: aiosqlite.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    if len(rows) == 1:
        await conn.execute(sql, rows[0])
    else:
        await conn.executemany(sql, rows)


def _grouped(units: Sequence[_Frozen]) -> list[tuple[str, list[tuple[Any, ...]]]] | None:
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


async def _run_batch(
    conn: aiosqlite.Connection, units: Sequence[_Frozen]
) -> list[Exception | None]:
    """Every unit in one transaction. Returns each unit's error (None: it is in); raises,
    with nothing written, when the transaction as a whole fails.

    Most batches have no failing unit: they run straight through, the statements of one
    SQL as one ``executemany`` (:func:`_grouped`): a batch of table saves is four trips to
    the database thread, whatever its size. When a statement fails, the batch is rolled
    back and run again unit by unit, each in its own savepoint, so that only a failing unit
    is left out."""
    groups = _grouped(units)
    try:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if groups is None:
                for statements in units:
                    await _run_statements(conn, statements)
            else:
                for sql, rows in groups:
                    await _run_rows(conn, sql, rows)
        except Exception:
            if not conn.in_transaction:
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


async def _run_isolated(
    conn: aiosqlite.Connection, units: Sequence[_Frozen]
) -> list[Exception | None]:
    """The batch again, each unit in its own savepoint (after a statement failed)."""
    outcomes: list[Exception | None] = []
    await conn.execute("BEGIN IMMEDIATE")
    for statements in units:
        await conn.execute("SAVEPOINT unit")
        try:
            await _run_statements(conn, statements)
        except Exception as error:
            if not conn.in_transaction:
                raise
            await conn.execute("ROLLBACK TO unit")
            outcomes.append(error)
        else:
            outcomes.append(None)
        await conn.execute("RELEASE unit")
    await conn.commit()
    return outcomes


def _settle(batch: list[_Unit], running: asyncio.Future[list[Exception | None]]) -> None:
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


class SqliteConn:
    """The connection inside ``transaction()``, for the repository functions."""

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    # each one trip to the worker thread (a cursor closed with ``async with`` is a second)
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.connection.execute(sql, tuple(params))
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.connection.executemany(sql, [tuple(row) for row in rows])

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        row = await self.connection.execute_insert(sql, tuple(params))
        assert row is not None
        return int(row[0])

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.connection.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.connection.execute_fetchall(sql, tuple(params)))

    async def next_movement(self) -> int:
        # A movement is numbered after its first row: the next AUTOINCREMENT id of the
        # ledger, which this transaction alone may write (BEGIN IMMEDIATE).
        row = await self.fetchone("SELECT seq FROM sqlite_sequence WHERE name = 'ledger'")
        return 1 + (int(row[0]) if row is not None and row[0] is not None else 0)

    async def lock(self, key: int) -> None:
        """Nothing to do: a transaction here holds the only write lock of the file."""


class SqliteDatabase(Database):
    """The connection and its lock. Open it with :func:`open_database`."""

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, *, max_batch: int = MAX_BATCH) -> None:
        self.connection = connection
        self._conn = SqliteConn(connection)
        self.max_batch = max_batch
        self.counts = WriteCounts()
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        """The task inside ``transaction()``: its own reads go straight to the connection."""
        self._queue: deque[_Unit] = deque()
        self._flusher: asyncio.Task[None] | None = None
        self.checkpoint_after = CHECKPOINT_AFTER
        self._unchecked = 0

    # ---------------------------------------------------------------- writing

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
        unit = _Unit(frozen, asyncio.get_running_loop().create_future())
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
                        _run_batch(self.connection, [unit.statements for unit in batch])
                    )
                    # the callers are answered from the batch itself, so that they are even
                    # if this task is cancelled while the batch runs
                    running.add_done_callback(partial(_settle, batch))
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
        """Copy the log into the database file while no write waits. SQLite would otherwise
        do it inside some COMMIT, and every caller of that batch would wait for it."""
        async with self._lock:
            if self._queue:
                return  # a write came first
            self._unchecked = 0
            try:
                await self.connection.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:
                # nothing is lost: the log keeps the pages until a later checkpoint
                log.exception("A checkpoint of the database failed")
            else:
                self.counts.checkpoints += 1

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConn]:
        """One atomic unit of work that may read: commit when the block ends, roll back on
        an error. Batches, reads and other transactions wait until it ends."""
        self._refuse_nesting("transaction()")
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
                yield self._conn
                await self.connection.commit()
            except BaseException:
                # also after a cancelled BEGIN or a failed COMMIT, which leave the
                # transaction open; queued after them on the worker thread, and a no-op
                # when nothing is open
                await self.connection.rollback()
                raise
            finally:
                self._owner = None

    def _refuse_nesting(self, what: str) -> None:
        if self._owner is not None and self._owner is asyncio.current_task():
            raise RuntimeError(f"{what} inside a transaction() block would wait for itself")

    # ---------------------------------------------------------------- reading

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[None]:
        if self._owner is not None and self._owner is asyncio.current_task():
            # inside its own transaction a task reads what it has written so far
            yield
            return
        async with self._lock:
            yield

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        async with self._reading():
            return await self._conn.fetchone(sql, tuple(params))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        async with self._reading():
            return await self._conn.fetchall(sql, tuple(params))

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, target: int | None = None) -> int:
        """Apply the migrations above the file's version (up to ``target``); each one in
        its own transaction together with the new version number."""
        current = await self.schema_version()
        for version, name, sql in migration_scripts("sqlite"):
            if version <= current or (target is not None and version > target):
                continue
            async with self._lock:
                # executescript commits what is pending first; the script's own
                # BEGIN ... COMMIT makes the migration and its version one unit
                await self.connection.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;"
                )
            log.info("Applied migration %s", name)
            current = version
        return current

    async def close(self) -> None:
        """Wait for the queued writes to be committed, then close the connection."""
        if self._flusher is not None:
            await asyncio.wait((self._flusher,))
        await self.connection.close()


async def open_sqlite(path: str | Path, *, migrate: bool = True) -> SqliteDatabase:
    """Open (creating the folder and the file when needed) in WAL mode, and migrate."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    connection.row_factory = aiosqlite.Row
    for pragma in (
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = NORMAL",
        "PRAGMA foreign_keys = ON",
        "PRAGMA busy_timeout = 5000",
        f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT}",
    ):
        # read each answer to the end, so no statement is left in progress
        await connection.execute_fetchall(pragma)
    database = SqliteDatabase(connection)
    if migrate:
        await database.migrate()
    return database
