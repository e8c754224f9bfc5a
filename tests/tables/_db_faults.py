"""The database refuses writes on demand in one of two ways (``FAULTS``), both real SQLite
errors through the real transaction code:

- ``full``: every COMMIT that would write something is refused, as on a full disk in WAL
  mode (the statements run in the page cache; the COMMIT cannot append to the log). A
  transaction that changed nothing still commits, as it does on a full disk.
- ``locked``: another connection holds the write lock (a backup, a second process): every
  write transaction is refused at its BEGIN with "database is locked".
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable

from tests.storage.helpers import connection_of
from tests.tables._sim import Env


class DiskFull:
    """Every COMMIT of a transaction that changed something is interrupted (SQLite's
    progress handler), as a full disk refuses it; reads and empty transactions go on."""

    def __init__(self, env: Env) -> None:
        self.db = env.db
        self.statement = ""
        self.changes_at_begin: int | None = None
        self.refused = 0

    def trace(self, sql: str) -> None:
        self.statement = sql.lstrip().upper()
        if self.statement.startswith("BEGIN"):
            self.changes_at_begin = connection_of(self.db).total_changes

    def progress(self) -> int:
        if (
            self.statement.startswith("COMMIT")
            and self.changes_at_begin is not None
            and connection_of(self.db).total_changes != self.changes_at_begin
        ):
            self.refused += 1
            return 1
        return 0

    async def start(self) -> None:
        await connection_of(self.db).set_trace_callback(self.trace)
        await connection_of(self.db).set_progress_handler(self.progress, 1)

    async def stop(self) -> None:
        # None removes them (sqlite3 takes it; aiosqlite's hints do not say so)
        await connection_of(self.db).set_progress_handler(None, 1)  # pyright: ignore[reportArgumentType]
        await connection_of(self.db).set_trace_callback(None)  # pyright: ignore[reportArgumentType]


class Locked:
    """Another connection to the file holds the write lock; the service's connection stops
    waiting for it (``busy_timeout`` 0 instead of 5 s), so each write is refused at once."""

    def __init__(self, env: Env) -> None:
        self.db = env.db
        self.path = env.path
        self.holder: sqlite3.Connection | None = None
        self.refused = 0

    async def start(self) -> None:
        await self.db.fetchall("PRAGMA busy_timeout = 0")
        self.holder = sqlite3.connect(self.path, isolation_level=None)
        self.holder.execute("BEGIN IMMEDIATE")

    async def stop(self) -> None:
        assert self.holder is not None
        self.holder.execute("ROLLBACK")
        self.holder.close()
        await self.db.fetchall("PRAGMA busy_timeout = 5000")


FAULTS: dict[str, Callable[[Env], DiskFull | Locked]] = {"full": DiskFull, "locked": Locked}


@contextlib.asynccontextmanager
async def failing(env: Env, kind: str) -> AsyncIterator[DiskFull | Locked]:
    fault = FAULTS[kind](env)
    await fault.start()
    try:
        yield fault
    finally:
        await fault.stop()


@contextlib.asynccontextmanager
async def clock_failing(env: Env, kind: str) -> AsyncIterator[None]:
    """A fault of ``FAULTS``, or ``robot``: a robot's decision fails mid-run."""
    if kind != "robot":
        async with failing(env, kind):
            yield
        return
    env.crashing = True
    try:
        yield
    finally:
        env.crashing = False
