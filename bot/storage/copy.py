"""Copy one database into another, row for row: how a bot moves from its SQLite file to
PostgreSQL (``tute-bot migrate-to-postgres``) when it grows into several processes.

Both databases are opened migrated to the same version. Every table of the source's schema
is copied (but the engines' own bookkeeping: ``sqlite_*`` and ``schema_version``), parents
before the tables whose foreign keys name them, in chunks ordered by primary key, with
explicit columns and ids, all in ONE transaction of the target: the copy is in whole or not
at all. Inside that transaction the ids to come are moved past the copied ones, and the copy
is checked (row counts, and every server's chips audit equal on both sides and balanced)
before the commit; a mismatch rolls everything back.

The source must not be written to meanwhile: stop the bot first.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import ledger
from ._sql import Source, fetchall, scalar
from .base import Conn, Database

CHUNK_ROWS = 5000
"""Rows read from the source and written to the target at a time."""

SKIPPED_TABLES = frozenset({"schema_version"})
"""Bookkeeping of the migrations, not data (each database keeps its own)."""

SHARED_SEQUENCE: dict[str, tuple[str, ...]] = {"ledger": ("movement",)}
"""Columns numbered from their table's id sequence too: a ledger movement number is drawn
from the ledger's ids (``Conn.next_movement``), so the ids to come must pass them as well."""

_NAME = re.compile(r"[a-z_][a-z0-9_]*")


class CopyError(Exception):
    """The copy was refused or failed its check; nothing was written to the target. The
    message says what to do in one sentence."""


@dataclass(frozen=True, slots=True)
class Audited:
    """One server's chips as the audit reads them, the same on both sides."""

    guild_id: int
    audit: ledger.Audit


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What was copied: rows per table (in the order copied), and the servers whose chips
    were audited equal and balanced on both sides."""

    schema_version: int
    rows: tuple[tuple[str, int], ...]
    servers: tuple[Audited, ...]

    @property
    def total_rows(self) -> int:
        return sum(count for _, count in self.rows)

    def summary(self) -> list[str]:
        """The report as lines of plain text."""
        lines = rows_lines(self.schema_version, self.rows)
        lines.append(f"audit: {len(self.servers)} servers, all balanced and equal")
        return lines


def rows_lines(schema_version: int, rows: Sequence[tuple[str, int]]) -> list[str]:
    """A database's schema version and rows per table, as lines of plain text (what a copy
    or a backup reports)."""
    width = max((len(name) for name, _ in rows), default=0)
    lines = [f"schema version {schema_version}"]
    lines += [f"{name.ljust(width)}  {count} rows" for name, count in rows]
    return lines


@dataclass(frozen=True, slots=True)
class _Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    """The primary key's columns (every column when it has none): the order rows are read in."""
    parents: frozenset[str]
    """The tables its foreign keys name."""
    types: dict[str, str]
    """Each column's declared type, lower case."""


# ---------------------------------------------------------------------------- the schema


def _checked(name: str) -> str:
    if _NAME.fullmatch(name) is None:
        raise CopyError(f"the table or column name {name!r} is not one this bot makes.")
    return name


async def _schema(db: Database) -> dict[str, _Table]:
    """Every table of ``db`` to copy, read from the database's own catalog."""
    if db.dialect == "sqlite":
        return await _sqlite_schema(db)
    return await _postgres_schema(db)


async def table_names(db: Database) -> list[str]:
    """The tables of the database, by name (SQLite's own left out)."""
    if db.dialect == "sqlite":
        rows = await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    else:
        rows = await db.fetchall(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            " ORDER BY table_name"
        )
    return [str(name) for (name,) in rows]


async def _sqlite_schema(db: Database) -> dict[str, _Table]:
    found: dict[str, _Table] = {}
    for name in await table_names(db):
        if name in SKIPPED_TABLES:
            continue
        columns = await db.fetchall(
            "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", (name,)
        )
        parents = await db.fetchall('SELECT "table" FROM pragma_foreign_key_list(?)', (name,))
        key = [(int(pk), str(column)) for column, _, pk in columns if int(pk) > 0]
        found[name] = _table(
            name,
            [(str(column), str(kind)) for column, kind, _ in columns],
            [column for _, column in sorted(key)],
            {str(parent) for (parent,) in parents},
        )
    return found


async def _postgres_schema(db: Database) -> dict[str, _Table]:
    found: dict[str, _Table] = {}
    for name in await table_names(db):
        if name in SKIPPED_TABLES:
            continue
        columns = await db.fetchall(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ?"
            " ORDER BY ordinal_position",
            (name,),
        )
        key = await db.fetchall(
            "SELECT a.attname FROM pg_index i"
            " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
            " WHERE i.indrelid = to_regclass(?) AND i.indisprimary"
            " ORDER BY array_position(i.indkey::int2[], a.attnum)",
            (name,),
        )
        parents = await db.fetchall(
            "SELECT confrelid::regclass::text FROM pg_constraint"
            " WHERE conrelid = to_regclass(?) AND contype = 'f'",
            (name,),
        )
        found[name] = _table(
            name,
            [(str(column), str(kind)) for column, kind in columns],
            [str(column) for (column,) in key],
            {str(parent) for (parent,) in parents},
        )
    return found


def _table(
    name: str, columns: Sequence[tuple[str, str]], key: Sequence[str], parents: set[str]
) -> _Table:
    names = tuple(_checked(column) for column, _ in columns)
    return _Table(
        name=_checked(name),
        columns=names,
        key=tuple(key) or names,
        parents=frozenset(parent for parent in parents if parent != name),
        types={column: kind.lower() for column, kind in columns},
    )


def _copy_order(tables: dict[str, _Table]) -> list[_Table]:
    """The tables, each after every table its foreign keys name (by name among equals)."""
    ordered: list[_Table] = []
    placed: set[str] = set()
    waiting = sorted(tables)
    while waiting:
        ready = [name for name in waiting if tables[name].parents <= placed]
        if not ready:
            raise CopyError(
                f"the foreign keys of the tables {', '.join(waiting)} name tables that are "
                "not copied: the two databases' schemas differ."
            )
        for name in ready:
            ordered.append(tables[name])
            placed.add(name)
        waiting = [name for name in waiting if name not in placed]
    return ordered


# ---------------------------------------------------------------------------- values


def _converter(kind: str) -> Callable[[Any], Any]:
    """A value of the source as the target's column of type ``kind`` takes it: SQLite may
    keep a whole number in a REAL column (and a float with no fraction in an INTEGER one)."""
    if kind in ("double precision", "real", "float"):
        return lambda value: float(value) if isinstance(value, int) else value
    if kind in ("bigint", "integer", "smallint"):
        return lambda value: (
            int(value) if isinstance(value, float) and value.is_integer() else value
        )
    return lambda value: value


def _rows_for(target: _Table, columns: Sequence[str]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    converters = [_converter(target.types[column]) for column in columns]

    def convert(row: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(
            None if value is None else to(value) for to, value in zip(converters, row, strict=True)
        )

    return convert


# ---------------------------------------------------------------------------- copying


async def _count(source: Source, table: str) -> int:
    return await scalar(source, f'SELECT COUNT(*) FROM "{table}"')


async def _copy_table(source: Database, conn: Conn, table: _Table, target: _Table) -> int:
    """Every row of ``table``, a chunk at a time in key order; returns how many."""
    columns = ", ".join(f'"{column}"' for column in table.columns)
    key = ", ".join(f'"{column}"' for column in table.key)
    after = f"({key}) > ({', '.join('?' * len(table.key))})"
    insert = (
        f'INSERT INTO "{table.name}" ({columns}) VALUES ({", ".join("?" * len(table.columns))})'
    )
    convert = _rows_for(target, table.columns)
    key_at = [table.columns.index(column) for column in table.key]
    copied = 0
    last: tuple[Any, ...] | None = None
    while True:
        where = "" if last is None else f" WHERE {after}"
        rows = await fetchall(
            source,
            f'SELECT {columns} FROM "{table.name}"{where} ORDER BY {key} LIMIT ?',
            (*(last or ()), CHUNK_ROWS),
        )
        if not rows:
            return copied
        await conn.executemany(insert, [convert(tuple(row)) for row in rows])
        copied += len(rows)
        if len(rows) < CHUNK_ROWS:
            return copied
        final = tuple(rows[-1])
        last = tuple(final[index] for index in key_at)


async def _move_sequences(conn: Conn, tables: Sequence[_Table]) -> None:
    """Make the ids the target hands out next come after every copied one (and after every
    number drawn from the same sequence, :data:`SHARED_SEQUENCE`)."""
    for table in tables:
        if "id" not in table.columns:
            continue
        numbered = [f'MAX("{column}")' for column in ("id", *SHARED_SEQUENCE.get(table.name, ()))]
        if conn.dialect == "postgres":
            # an identity column's sequence: setval(n) makes n + 1 the next id; with
            # is_called false (a table with no row) n itself, 1
            sequence = f"pg_get_serial_sequence('{table.name}', 'id')"
            row = await conn.fetchone(f"SELECT {sequence}")
            if row is None or row[0] is None:
                continue
            await conn.execute(
                f"SELECT setval({sequence}, GREATEST({', '.join(numbered)}, 1),"
                f' MAX("id") IS NOT NULL) FROM "{table.name}"'
            )
        else:
            # SQLite's AUTOINCREMENT counter follows explicit ids by itself; a number drawn
            # from it elsewhere (a movement, by another engine) may still be above them
            highest = ", ".join(f"COALESCE({column}, 0)" for column in numbered)
            await conn.execute(
                f"UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT MAX({highest}, 0)"
                f' FROM "{table.name}")) WHERE name = ?',
                (table.name,),
            )


async def _verify(
    source: Database, conn: Conn, tables: Sequence[_Table], copied: dict[str, int]
) -> tuple[Audited, ...]:
    """The copy, checked inside its transaction: row counts, and every server's audit."""
    for table in tables:
        there, here = await _count(source, table.name), await _count(conn, table.name)
        if not there == here == copied[table.name]:
            raise CopyError(
                f"table {table.name} has {there} rows in the source but {here} in the copy: "
                "stop the bot that writes to the source and copy again."
            )
    if "ledger" not in copied:
        return ()
    guilds = await fetchall(source, "SELECT DISTINCT guild_id FROM ledger ORDER BY guild_id")
    audited: list[Audited] = []
    for (guild_id,) in guilds:
        before = await ledger.audit(source, int(guild_id))
        after = await ledger.audit(conn, int(guild_id))
        if before != after:
            raise CopyError(
                f"server {guild_id}'s chips differ after the copy ({before} against {after}): "
                "nothing was copied; report this as a bug."
            )
        if not before.balanced:
            raise CopyError(
                f"server {guild_id}'s chips do not balance in the source ({before}): "
                "nothing was copied; repair the source first."
            )
        audited.append(Audited(int(guild_id), before))
    return tuple(audited)


async def copy_database(source: Database, target: Database) -> CopyReport:
    """Copy everything in ``source`` into the empty ``target`` (both migrated to the same
    version), in one transaction of the target, checked before it commits.

    Raises :class:`CopyError`, with nothing written, when the versions differ, the target
    holds a row already, the schemas differ, or the check finds a difference."""
    version = await source.schema_version()
    if version != await target.schema_version():
        raise CopyError(
            f"the source is at schema version {version} but the target at "
            f"{await target.schema_version()}: open both with the same version of the bot."
        )
    tables = _copy_order(await _schema(source))
    target_tables = await _schema(target)
    for table in tables:
        other = target_tables.get(table.name)
        if other is None or set(other.columns) != set(table.columns):
            raise CopyError(
                f"table {table.name} is not the same in the target: "
                "the two databases' schemas differ."
            )
    for table in tables:
        if await _count(target, table.name):
            raise CopyError(
                f"the target already has rows in table {table.name}: copy into a new, "
                "empty database."
            )

    copied: dict[str, int] = {}
    async with target.transaction() as conn:
        for table in tables:
            copied[table.name] = await _copy_table(source, conn, table, target_tables[table.name])
        await _move_sequences(conn, tables)
        servers = await _verify(source, conn, tables, copied)
    return CopyReport(
        schema_version=version,
        rows=tuple((table.name, copied[table.name]) for table in tables),
        servers=servers,
    )


async def migrate_to_postgres(source_path: Path, url: str) -> CopyReport:
    """``tute-bot migrate-to-postgres``: copy the SQLite file at ``source_path`` into the
    PostgreSQL database at ``url`` (both migrated to the latest version first).

    Raises :class:`CopyError` for whatever stops it, the engines' own errors included."""
    from . import is_postgres, open_database

    if not is_postgres(url):
        raise CopyError("the target must be a postgresql:// URL.")
    if not await asyncio.to_thread(source_path.is_file):
        raise CopyError(f"there is no SQLite database at {source_path}: give its path with --from.")
    try:
        source = await open_database(source_path)
    except Exception as error:
        raise CopyError(f"could not open the SQLite database at {source_path}: {error}") from error
    try:
        try:
            target = await open_database(url)
        except Exception as error:
            raise CopyError(f"could not open the PostgreSQL database: {error}") from error
        try:
            return await copy_database(source, target)
        except CopyError:
            raise
        except Exception as error:
            raise CopyError(f"the copy failed and nothing was written: {error}") from error
        finally:
            await target.close()
    finally:
        await source.close()
