"""The one aiosqlite connection, its migrations, transactions and the group commit.

aiosqlite runs every statement on one worker thread, in order. On one connection a
transaction must not interleave with another coroutine's statements, and a read must not see
another coroutine's uncommitted writes; so one asyncio lock (first come, first served) is held
by every transaction, every batch of writes and every read (but the reads a transaction's own
task makes inside it, which see what it has written so far).

Two ways to write:

- ``write(statements)``: the fast path for a unit of work that only writes. Units that
  arrive while a batch runs are gathered into the next batch (group commit), and a batch runs
  as one call on the worker thread: BEGIN IMMEDIATE, each unit in its own SAVEPOINT, one
  COMMIT. A unit whose statement fails is rolled back alone and only its caller gets the
  error; if the COMMIT fails, every caller of the batch gets it. A caller returns once its
  batch is committed.
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
import logging
import re
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

MAX_BATCH = 256
"""Units per batch at most, so one batch holds the lock (and delays a transaction or a read
waiting behind it) for a bounded time."""

CHECKPOINT_AFTER = 256
"""Units written after which, once no unit waits, the log is checkpointed into the file."""

WAL_AUTOCHECKPOINT = 20_000
"""Pages (4 KiB) of log after which SQLite checkpoints in a COMMIT: the bound for a write load
that never pauses for an idle-time checkpoint."""

Statement = tuple[str, Sequence[Any]]
"""One SQL statement and its parameters."""

_T = TypeVar("_T")


def migration_scripts() -> list[tuple[int, str, str]]:
    """(version, name, SQL) of every migration shipped in ``bot/storage/migrations``."""
    found: list[tuple[int, str, str]] = []
    folder = resources.files("bot.storage") / "migrations"
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3... without gaps: {versions}")
    return found


@dataclass(slots=True)
class _Unit:
    """One caller's statements, and the answer it waits for."""

    statements: tuple[tuple[str, tuple[Any, ...]], ...]
    done: asyncio.Future[None]


@dataclass(slots=True)
class WriteCounts:
    """How the fast path has grouped its units so far (for benchmarks and tests)."""

    batches: int = 0
    units: int = 0
    largest: int = 0
    checkpoints: int = 0


def _run_batch(
    conn: sqlite3.Connection, units: Sequence[Sequence[tuple[str, tuple[Any, ...]]]]
) -> list[Exception | None]:
    """Run on the worker thread: every unit in one transaction, each in its own savepoint.
    Returns each unit's error (None: it is in); raises, with nothing written, when the
    transaction as a whole fails."""
    outcomes: list[Exception | None] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statements in units:
            conn.execute("SAVEPOINT unit")
            try:
                for sql, params in statements:
                    conn.execute(sql, params)
            except Exception as error:
                if not conn.in_transaction:
                    # some errors (a full disk, I/O) make SQLite roll back the whole
                    # transaction: the units before this one are gone too
                    raise
                conn.execute("ROLLBACK TO unit")
                outcomes.append(error)
            else:
                outcomes.append(None)
            conn.execute("RELEASE unit")
        conn.execute("COMMIT")
    except BaseException:
        # a failed COMMIT (a deferred constraint, a busy file) leaves the transaction open
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _checkpoint(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


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


class Database:
    """The connection and its lock. Open it with :func:`open_database`."""

    def __init__(self, connection: aiosqlite.Connection, *, max_batch: int = MAX_BATCH) -> None:
        self.connection = connection
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
                        self._on_worker_thread(
                            partial(_run_batch, units=[unit.statements for unit in batch])
                        )
                    )
                    # the callers are answered from the batch itself, so that they are even
                    # if this task is cancelled while the batch runs on the thread
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
                await self._on_worker_thread(_checkpoint)
            except Exception:
                # nothing is lost: the log keeps the pages until a later checkpoint
                log.exception("A checkpoint of the database failed")
            else:
                self.counts.checkpoints += 1

    async def _on_worker_thread(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Call ``fn`` with the sqlite3 connection on aiosqlite's worker thread: a whole
        batch for one thread hop, ordered with every other statement of the connection."""
        connection = self.connection
        # aiosqlite (0.22) has no public way to do this: ``_execute`` is how each of its own
        # methods queues work for the worker thread, and ``_conn`` is the sqlite3
        # connection it wraps. This is the one place that uses them; pyproject.toml bounds
        # aiosqlite, and tests/storage/test_db.py fails if a release changes them.
        return cast(_T, await connection._execute(lambda: fn(connection._conn)))

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One atomic unit of work that may read: commit when the block ends, roll back on
        an error. Batches, reads and other transactions wait until it ends."""
        self._refuse_nesting("transaction()")
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
                yield self.connection
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

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._reading(), self.connection.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._reading():
            return list(await self.connection.execute_fetchall(sql, tuple(params)))

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, target: int | None = None) -> int:
        """Apply the migrations above the file's version (up to ``target``); each one in
        its own transaction together with the new version number."""
        current = await self.schema_version()
        for version, name, sql in migration_scripts():
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


async def open_database(path: str | Path, *, migrate: bool = True) -> Database:
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
        async with connection.execute(pragma) as cursor:
            await cursor.fetchall()
    database = Database(connection)
    if migrate:
        await database.migrate()
    return database
