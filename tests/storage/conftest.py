"""Storage tests run on both engines: a real SQLite file in a temporary folder, and a fresh
database of a real PostgreSQL server (tests/pgserver.py), each opened as the bot opens it."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, open_database
from tests.pgserver import fresh_postgres


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tute.db"


@pytest.fixture(params=["sqlite", "postgres"])
async def db_target(request: pytest.FixtureRequest, db_path: Path) -> str | Path:
    """Where a test's database is: a SQLite file's path, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return db_path
    return await fresh_postgres(request.getfixturevalue("pg_server"))


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    database = await open_database(db_target)
    yield database
    await database.close()
