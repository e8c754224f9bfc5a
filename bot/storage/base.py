"""What the repository functions need of a database, whichever engine keeps it.

Two engines implement it: SQLite (:mod:`bot.storage.db`, one file, one process: the
default) and PostgreSQL (:mod:`bot.storage.postgres`, for a bot run as several processes).
The repository functions are written once, in the SQL both engines speak, with ``?`` for a
parameter; the PostgreSQL side turns ``?`` into ``$1, $2...``. What differs is said by the
engine: a new row's id (:meth:`Conn.insert`), the next ledger movement number
(:meth:`Conn.next_movement`) and how writers of one server's chips are kept in line
(:meth:`Conn.lock`).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgres"]

Statement = tuple[str, Sequence[Any]]
"""One SQL statement and its parameters."""

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class Row(Protocol):
    """A row read back: by position or by column name (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Conn(Protocol):
    """The connection inside ``db.transaction()``: what the block writes and reads is one
    atomic unit, committed when the block ends."""

    dialect: Dialect

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT of one row into a table whose key is ``id``; returns that id."""
        ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def next_movement(self) -> int:
        """A new ledger movement number, never given before."""
        ...

    async def lock(self, key: int) -> None:
        """Hold ``key`` (a server's id) until the transaction ends: another transaction that
        locks it waits. SQLite runs one writer at a time anyway; PostgreSQL takes an
        advisory lock, so two processes never both spend the same chips."""
        ...


@dataclass(slots=True)
class WriteCounts:
    """How the fast path has grouped its units so far (for benchmarks and tests)."""

    batches: int = 0
    units: int = 0
    largest: int = 0
    checkpoints: int = 0


class Database(ABC):
    """A database the bot keeps everything in. Open one with
    :func:`bot.storage.open_database`."""

    dialect: Dialect
    counts: WriteCounts

    @abstractmethod
    async def write(self, statements: Iterable[Statement]) -> None:
        """Run ``statements`` as one atomic unit; return once committed. Raises the error
        of a failing statement, with nothing of the unit written."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Conn]:
        """One atomic unit of work that may read what it writes: committed when the block
        ends, rolled back on an error."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self, target: int | None = None) -> int:
        """Apply the migrations above the database's version (up to ``target``), each in
        its own transaction with the new version number; returns the version."""

    @abstractmethod
    async def close(self) -> None:
        """Wait for the queued writes to be committed, then close."""


def migration_scripts(dialect: Dialect = "sqlite") -> list[tuple[int, str, str]]:
    """(version, name, SQL) of every migration shipped for ``dialect``: SQLite's in
    ``bot/storage/migrations``, PostgreSQL's twins (same numbers, same schema) in its
    ``postgres`` folder."""
    folder = resources.files("bot.storage") / "migrations"
    if dialect == "postgres":
        folder = folder / "postgres"
    found: list[tuple[int, str, str]] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3... without gaps: {versions}")
    return found
