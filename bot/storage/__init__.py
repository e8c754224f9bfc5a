"""Everything a server keeps: in one SQLite file (the default), or in PostgreSQL for a bot
run as several processes (``TUTE_DATABASE_URL``). Numbered SQL migrations, the same for both
engines, are applied at start-up; the repository functions (``tables``: the tables and their
action log; ``ledger``: the chips; ``members``: the members' records; ``settings``...) are
written once for both. No SQL lives anywhere else."""

from pathlib import Path

from .base import Conn, Database, Dialect, Row, Statement

__all__ = ["Conn", "Database", "Dialect", "Row", "Statement", "is_postgres", "open_database"]


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` is a PostgreSQL URL rather than a SQLite file's path."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | Path, *, migrate: bool = True) -> Database:
    """Open (and migrate) the database at ``target``: a ``postgresql://`` URL, or the path
    of a SQLite file (made, with its folder, when missing)."""
    if is_postgres(target):
        from .postgres import open_postgres

        return await open_postgres(str(target), migrate=migrate)
    from .db import open_sqlite

    return await open_sqlite(target, migrate=migrate)
