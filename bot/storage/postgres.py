"""The PostgreSQL engine, through asyncpg: for a bot run as several processes on one database
(``TUTE_DATABASE_URL=postgresql://...``).

The repository functions are the same as on SQLite: their ``?`` parameters become ``$1,
$2...`` here (:func:`translate`). A pool of connections serves the processes' coroutines
side by side; PostgreSQL keeps them apart:

- ``write(statements)``: the group commit, as on SQLite (:mod:`bot.storage.batching`): the
  units queued while a batch runs go together in the next, on one pooled connection, one
  ``executemany`` a SQL and one COMMIT (one flush of PostgreSQL's log for them all).
- ``transaction()``: a transaction on a pooled connection for the block. Two processes that
  move one server's chips are kept in line by :meth:`PgConn.lock` (an advisory lock on the
  server's id, held until the commit), which the ledger takes before it reads a balance.

Migrations are the twins of SQLite's, in ``migrations/postgres`` (same numbers, same schema),
applied under an advisory lock so that processes starting together migrate once; the
version is kept in the one-row table ``schema_version``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .base import Database, Dialect, Row, migration_scripts
from .batching import MAX_BATCH, Frozen, GroupCommit, run_batch

log = logging.getLogger(__name__)

Connection = asyncpg.Connection | PoolConnectionProxy
"""A connection, or the pool's stand-in for one it lends."""

MIGRATION_LOCK = 0x7475746500000001
"""The advisory lock key held while migrating ("tute", 1): never a Discord id, whose top
bits are a timestamp far below this one."""

POOL_SIZE = 10
"""Connections per process: enough for every coroutine that waits on the database at once
in one process, few enough for several processes on one server's default of 100."""


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """``?`` parameters (outside quoted strings) as PostgreSQL's ``$1, $2...``."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _changed(status: str) -> int:
    """The rows a command changed, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _whole(value: object) -> int:
    """A number PostgreSQL gave back (never NULL here) as an int."""
    assert isinstance(value, int), value
    return value


def _numeric(text: str) -> int | float:
    """A NUMERIC (what SUM of BIGINTs gives) as Python's int, as SQLite gives it."""
    return float(text) if "." in text or "e" in text.lower() else int(text)


async def _prepare(connection: Connection) -> None:
    await connection.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
    )


class PgConn:
    """A pooled connection inside a transaction, for the repository functions."""

    dialect: Dialect = "postgres"

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self.connection.execute(translate(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(row) for row in rows]
        if rows:
            await self.connection.executemany(translate(sql), rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _whole(await self.connection.fetchval(translate(sql) + " RETURNING id", *params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.connection.fetchrow(translate(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.connection.fetch(translate(sql), *params))

    async def next_movement(self) -> int:
        # a number from the ledger's own id sequence: unique, and after every row so far
        sequence = "SELECT nextval(pg_get_serial_sequence('ledger', 'id'))"
        return _whole(await self.connection.fetchval(sequence))

    async def lock(self, key: int) -> None:
        await self.connection.execute("SELECT pg_advisory_xact_lock($1)", key)


class _PgRunner:
    """A batch on a pooled connection."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def begin(self) -> None:
        await self.connection.execute("BEGIN")

    async def rows(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if len(rows) == 1:
            await self.connection.execute(translate(sql), *rows[0])
        else:
            await self.connection.executemany(translate(sql), rows)

    async def commit(self) -> None:
        await self.connection.execute("COMMIT")

    async def rollback(self) -> None:
        if self.in_transaction():
            await self.connection.execute("ROLLBACK")

    def in_transaction(self) -> bool:
        return not self.connection.is_closed() and self.connection.is_in_transaction()


class PostgresDatabase(GroupCommit, Database):
    """A pool of connections to one PostgreSQL database. Open it with :func:`open_postgres`."""

    dialect: Dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool, dsn: str, *, max_batch: int = MAX_BATCH) -> None:
        self.pool = pool
        self.dsn = dsn
        # PostgreSQL checkpoints by itself
        self._start_group_commit(max_batch=max_batch, checkpoint_after=math.inf)

    async def _run_units(self, units: Sequence[Frozen]) -> list[Exception | None]:
        async with self.pool.acquire() as connection:
            return await run_batch(_PgRunner(connection), units)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConn]:
        async with self.pool.acquire() as connection, connection.transaction():
            yield PgConn(connection)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return await self.pool.fetchrow(translate(sql), *params)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self.pool.fetch(translate(sql), *params))

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _version(connection)

    async def migrate(self, target: int | None = None) -> int:
        async with self.pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL);"
                    " INSERT INTO schema_version SELECT 0"
                    " WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
                )
                current = await _version(connection)
                for version, name, sql in migration_scripts("postgres"):
                    if version <= current or (target is not None and version > target):
                        continue
                    async with connection.transaction():
                        await connection.execute(sql)
                        await connection.execute("UPDATE schema_version SET version = $1", version)
                    log.info("Applied migration %s", name)
                    current = version
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return current

    async def close(self) -> None:
        await self.close_writes()
        await self.pool.close()


async def _version(connection: Connection) -> int:
    if await connection.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return _whole(await connection.fetchval("SELECT version FROM schema_version"))


async def open_postgres(
    dsn: str, *, migrate: bool = True, pool_size: int = POOL_SIZE
) -> PostgresDatabase:
    """Connect a pool to ``dsn`` (``postgresql://user:password@host/db``) and migrate."""
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size, init=_prepare)
    database = PostgresDatabase(pool, dsn)
    if migrate:
        try:
            await database.migrate()
        except BaseException:
            await pool.close()
            raise
    return database
