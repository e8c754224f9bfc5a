"""The one aiosqlite connection, its migrations, transactions and the group commit.

aiosqlite runs every statement on one worker thread, in order. On one connection a
transaction must not interleave with another coroutine's statements, and a read must not see
another coroutine's uncommitted writes; so one asyncio lock (first come, first served) is held
by every transaction, every batch of writes and every read (but the reads a transaction's own
task makes inside it, which see what it has written so far).

Two ways to write:

- ``write(statements)``: the fast path for a unit of work that only writes, through the
  group commit (:mod:`bot.storage.batching`): BEGIN IMMEDIATE, the batch's statements (one
  ``executemany`` a SQL, each one hop to aiosqlite's worker thread through its public
  methods), one COMMIT.
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
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from .base import Database, Dialect, Row, migration_scripts
from .batching import MAX_BATCH, Frozen, GroupCommit, run_batch

log = logging.getLogger(__name__)

CHECKPOINT_AFTER = 256
"""Units written after which, once no unit waits, the log is checkpointed into the file."""

WAL_AUTOCHECKPOINT = 20_000
"""Pages (4 KiB) of log after which SQLite checkpoints in a COMMIT: the bound for a write load
that never pauses for an idle-time checkpoint."""


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


class _SqliteRunner:
    """A batch on aiosqlite's connection, through its public methods: each call one trip
    to its worker thread."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def begin(self) -> None:
        await self.connection.execute("BEGIN IMMEDIATE")

    async def rows(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if len(rows) == 1:
            await self.connection.execute(sql, rows[0])
        else:
            await self.connection.executemany(sql, rows)

    async def commit(self) -> None:
        await self.connection.commit()

    async def rollback(self) -> None:
        await self.connection.rollback()

    def in_transaction(self) -> bool:
        return self.connection.in_transaction


class SqliteDatabase(GroupCommit, Database):
    """The connection and its lock. Open it with :func:`open_database`."""

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, *, max_batch: int = MAX_BATCH) -> None:
        self.connection = connection
        self._conn = SqliteConn(connection)
        self._start_group_commit(max_batch=max_batch, checkpoint_after=CHECKPOINT_AFTER)

    # ---------------------------------------------------------------- writing

    async def _run_units(self, units: Sequence[Frozen]) -> list[Exception | None]:
        return await run_batch(_SqliteRunner(self.connection), units)

    async def _checkpoint(self) -> None:
        await self.connection.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")

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
        await self.close_writes()
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


def read_only_uri(path: str | Path) -> str:
    """The URI that opens the SQLite file at ``path`` read-only."""
    return f"{Path(path).resolve().as_uri()}?mode=ro"


async def open_sqlite_read_only(path: str | Path) -> SqliteDatabase:
    """Open an existing file to read it alone (``tute-bot check``): nothing is migrated,
    made or written, even while the bot writes to it (it may make the WAL's index file
    beside it, as any reader does)."""
    uri = await asyncio.to_thread(read_only_uri, path)
    connection = await aiosqlite.connect(uri, uri=True, isolation_level=None)
    connection.row_factory = aiosqlite.Row
    for pragma in ("PRAGMA busy_timeout = 10000", "PRAGMA query_only = ON"):
        await connection.execute_fetchall(pragma)
    return SqliteDatabase(connection)
