"""The one aiosqlite connection, its migrations, and transactions.

aiosqlite runs every statement on one worker thread, in order; a transaction must not
interleave with statements of another coroutine, so ``transaction()`` holds an asyncio lock
for its whole length and everything that writes goes through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


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


class Database:
    """The connection and its lock. Open it with :func:`open_database`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One atomic unit of work: commit when the block ends, roll back on an error."""
        async with self._lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.rollback()
                raise
            else:
                await self.connection.commit()

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.connection.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.connection.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

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
    ):
        # read each answer to the end, so no statement is left in progress
        async with connection.execute(pragma) as cursor:
            await cursor.fetchall()
    database = Database(connection)
    if migrate:
        await database.migrate()
    return database
