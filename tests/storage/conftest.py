"""Storage tests run on both engines: a real SQLite file in a temporary folder, and a fresh
database of a real PostgreSQL server (tests/pgserver.py), each opened as the bot opens it."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, open_database
from tests.migrated import copy_migrated
from tests.pgserver import fresh_postgres


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tute.db"


@pytest.fixture(params=["sqlite", "postgres"])
async def db_target(request: pytest.FixtureRequest, db_path: Path) -> str | Path:
    """Where a test's database is: a SQLite file's path, or a new PostgreSQL database. It is
    empty (the migrations' tests start there), but for a test that opens it as ``db``: then it
    is already migrated to the latest version, as ``db`` would make it, but copied from one
    migrated once per run, which is quicker."""
    migrated = "db" in request.fixturenames
    if request.param == "sqlite":
        if migrated:
            await copy_migrated(db_path)
        return db_path
    return await fresh_postgres(request.getfixturevalue("pg_server"), migrated=migrated)


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    database = await open_database(db_target)
    yield database
    await database.close()
