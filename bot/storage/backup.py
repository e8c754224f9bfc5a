"""Backups of the SQLite database while the bot runs (``tute-bot backup``), and the check of
a database, a backup or the live one (``tute-bot check``).

A backup is SQLite's online backup (``Connection.backup``) from a read-only connection of
its own, in ONE step inside one read transaction: in WAL mode the bot's writes go on
meanwhile, and the copy is the database as it was when that transaction began, every
transaction of the bot in it whole or not at all. The copy is written next to its
destination under a temporary name, flushed to disk, then renamed over it: a destination is
never half written. It is one file in SQLite's rollback-journal mode (no WAL beside it),
which the bot turns back to WAL when it starts on it. Nothing here writes to the database
being copied.

The check opens a database read-only and says what is wrong with it: SQLite's own
``integrity_check`` and ``foreign_key_check``, the schema at this bot's latest migration
with every table the migrations make, and every server's chips audit
(:func:`bot.storage.ledger.audit`). On PostgreSQL (a ``postgresql://`` URL) the schema and
the chips are checked; the pages are PostgreSQL's business (``pg_dump`` for backups).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import ledger
from .base import Database, migration_scripts
from .copy import rows_lines, table_names
from .db import open_sqlite, open_sqlite_read_only, read_only_uri

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

AUDITED_FROM = 2
"""The schema version from which the ledger has the movements the chips audit reads."""

SHOWN_PROBLEMS = 5
"""Lines of SQLite's own report shown per check, at most (the count says the rest)."""

BUSY_TIMEOUT = 10.0
"""Seconds a backup or a check waits for a lock the bot holds (a checkpoint, a recovery)."""


class BackupError(Exception):
    """The backup was refused or failed; nothing was written at the destination. The message
    says what to do in one sentence."""


# ---------------------------------------------------------------------------- backup


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What a backup copied: the schema version, rows per table and the copy's size."""

    source: Path
    target: Path
    schema_version: int
    rows: tuple[tuple[str, int], ...]
    size: int
    """Bytes."""

    @property
    def total_rows(self) -> int:
        return sum(count for _, count in self.rows)

    def summary(self) -> list[str]:
        """The report as lines of plain text."""
        return rows_lines(self.schema_version, self.rows)


def backup_sqlite(
    source: Path,
    target: Path,
    *,
    force: bool = False,
    on_snapshot: Callable[[], None] | None = None,
) -> BackupReport:
    """Copy the SQLite database at ``source`` to ``target``, consistent while the bot writes
    to it. ``force``: replace a file already at ``target`` (refused otherwise).
    ``on_snapshot`` is called once the copy's moment is fixed, before the pages are copied
    (a test writes meanwhile).

    Raises :class:`BackupError`, with nothing left at ``target``, for whatever stops it."""
    if not source.is_file():
        raise BackupError(f"there is no SQLite database at {source}: give its path with --from.")
    if target.is_dir():
        raise BackupError(f"{target} is a folder: give the path of the backup file.")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists: give another path, or --force to replace it.")
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError("the backup would replace the database itself: give another path.")
    if not _is_sqlite(source):
        raise BackupError(f"{source} is not a SQLite database.")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise BackupError(f"cannot write in {target.parent}: {error.strerror or error}.") from error
    os.close(fd)
    temporary = Path(name)
    try:
        with _read_only(source) as connection:
            # one read transaction: the copy and its report are the database at one moment
            connection.execute("BEGIN")
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            rows = _row_counts(connection)
            if on_snapshot is not None:
                on_snapshot()
            with contextlib.closing(sqlite3.connect(temporary)) as copy:
                connection.backup(copy)  # every page in one step, within the transaction
                # one file on its own, without a WAL beside it: the bot turns WAL on again
                # when it starts on it
                copy.execute("PRAGMA journal_mode = DELETE").fetchall()
            connection.execute("COMMIT")
        _flush(temporary)
        if target.exists() and not force:
            raise BackupError(f"{target} appeared meanwhile: give another path, or --force.")
        os.replace(temporary, target)
        _flush_folder(target.parent)
    except sqlite3.Error as error:
        raise BackupError(f"could not copy {source}: {error}.") from error
    except OSError as error:
        raise BackupError(f"could not write {target}: {error.strerror or error}.") from error
    finally:
        for leftover in (temporary, *_companions(temporary)):
            leftover.unlink(missing_ok=True)
    return BackupReport(source, target, version, rows, target.stat().st_size)


def _is_sqlite(path: Path) -> bool:
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    return header == SQLITE_HEADER or header == b""  # an empty file is an empty database


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that cannot write to the database at ``path`` (it may make the WAL's
    index file beside it, as any reader does)."""
    connection = sqlite3.connect(
        read_only_uri(path), uri=True, isolation_level=None, timeout=BUSY_TIMEOUT
    )
    try:
        yield connection
    finally:
        connection.close()


def _row_counts(connection: sqlite3.Connection) -> tuple[tuple[str, int], ...]:
    names = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    ).fetchall()
    counts: list[tuple[str, int]] = []
    for (name,) in names:
        quoted = str(name).replace('"', '""')
        counts.append(
            (str(name), int(connection.execute(f'SELECT COUNT(*) FROM "{quoted}"').fetchone()[0]))
        )
    return tuple(counts)


def _companions(path: Path) -> tuple[Path, ...]:
    """The files SQLite may keep beside a database: its rollback journal, its WAL and the
    WAL's index."""
    return tuple(path.with_name(path.name + suffix) for suffix in ("-journal", "-wal", "-shm"))


def _flush(path: Path) -> None:
    with path.open("rb+") as file:
        os.fsync(file.fileno())


def _flush_folder(folder: Path) -> None:
    """Make a rename in ``folder`` last through a power cut (where the system allows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------- check


@dataclass(slots=True)
class CheckReport:
    """What the check found: ``lines`` say what is right, ``problems`` what is wrong."""

    lines: list[str] = field(default_factory=list[str])
    problems: list[str] = field(default_factory=list[str])

    @property
    def ok(self) -> bool:
        return not self.problems


async def check_database(target: str | Path) -> CheckReport:
    """Check the database at ``target`` (a SQLite file's path, or a ``postgresql://`` URL)
    without writing to it."""
    from . import is_postgres, open_database

    report = CheckReport()
    if is_postgres(target):
        try:
            db = await open_database(target, migrate=False)
        except Exception as error:
            report.problems.append(f"could not open the PostgreSQL database: {error}")
            return report
        report.lines.append("pages: PostgreSQL's own (back it up with pg_dump)")
    else:
        path = Path(target)
        if not await asyncio.to_thread(path.is_file):
            report.problems.append(f"there is no file at {path}")
            return report
        if not await asyncio.to_thread(_is_sqlite, path):
            report.problems.append(f"{path} is not a SQLite database (damaged, or another file)")
            return report
        try:
            db = await open_sqlite_read_only(path)
        except sqlite3.Error as error:
            report.problems.append(f"could not open {path}: {error}")
            return report
    try:
        if db.dialect == "sqlite" and not await _check_pages(db, report):
            return report  # damaged: nothing else it says can be trusted
        if await _check_schema(db, report):
            await _check_chips(db, report)
    except sqlite3.Error as error:
        report.problems.append(f"the database is damaged: {error}")
    finally:
        await db.close()
    return report


async def _check_pages(db: Database, report: CheckReport) -> bool:
    """SQLite's own checks of the file: every page, index and constraint; every foreign key."""
    found = [str(row[0]) for row in await db.fetchall("PRAGMA integrity_check")]
    if found != ["ok"]:
        report.problems.append(f"integrity: {len(found)} problems: " + _some(found))
        return False
    dangling = await db.fetchall("PRAGMA foreign_key_check")
    if dangling:
        where = [f"{row[0]} row {row[1]} names a missing {row[2]}" for row in dangling]
        report.problems.append(f"integrity: {len(where)} broken foreign keys: " + _some(where))
        return False
    report.lines.append("integrity: ok")
    return True


async def _check_schema(db: Database, report: CheckReport) -> bool:
    """The schema at this bot's latest migration, with every table the migrations make.
    False: too old (or new) a schema to audit the chips."""
    version = await db.schema_version()
    latest = len(migration_scripts(db.dialect))
    if version > latest:
        report.problems.append(
            f"schema: version {version}, made by a newer version of the bot (this one knows "
            f"up to {latest}): check it with that version"
        )
        return False
    if version < latest:
        report.problems.append(
            f"schema: version {version}, older than this bot's {latest}: the bot migrates it "
            "when it starts on it (restore it, start the bot, then check again)"
        )
        return version >= AUDITED_FROM
    missing = sorted(await _expected_tables(db) - set(await table_names(db)))
    if missing:
        report.problems.append(
            f"schema: version {version}, but tables are missing: {', '.join(missing)}"
        )
        return False
    report.lines.append(f"schema: version {version}, the latest")
    return True


async def _expected_tables(db: Database) -> set[str]:
    """The tables of a new database migrated to the latest version (SQLite's, in memory;
    PostgreSQL's twins make the same ones, plus its ``schema_version``)."""
    fresh = await open_sqlite(":memory:")
    try:
        expected = set(await table_names(fresh))
    finally:
        await fresh.close()
    if db.dialect == "postgres":
        expected.add("schema_version")
    return expected


async def _check_chips(db: Database, report: CheckReport) -> None:
    """Every server's chips audit: members + bank + tables + tournaments == granted, nobody
    below zero, every movement adding up."""
    guilds = await db.fetchall("SELECT DISTINCT guild_id FROM ledger ORDER BY guild_id")
    unbalanced = 0
    for (guild_id,) in guilds:
        audit = await ledger.audit(db, int(guild_id))
        if audit.balanced:
            continue
        unbalanced += 1
        report.problems.append(f"chips: server {guild_id}: {_unbalanced(audit)}")
    if not unbalanced:
        servers = f"{len(guilds)} server" + ("" if len(guilds) == 1 else "s")
        report.lines.append(f"chips: {servers}, all balanced")


def _unbalanced(audit: ledger.Audit) -> str:
    held = audit.members + audit.bank + audit.tables + audit.tournaments
    said: list[str] = []
    if held != audit.granted:
        said.append(
            f"members {audit.members} + bank {audit.bank} + tables {audit.tables}"
            f" + tournaments {audit.tournaments} = {held}, but {audit.granted} were granted"
        )
    if audit.negative_members:
        said.append(f"members below zero: {_some([str(m) for m in audit.negative_members])}")
    if audit.unbalanced_movements:
        moves = [str(m) for m in audit.unbalanced_movements]
        said.append(f"movements that do not add up to zero: {_some(moves)}")
    return "; ".join(said)


def _some(items: list[str]) -> str:
    shown = "; ".join(items[:SHOWN_PROBLEMS])
    more = len(items) - SHOWN_PROBLEMS
    return shown + (f" (and {more} more)" if more > 0 else "")
