"""Storage tests run on a real SQLite file in a temporary folder, opened as the bot opens it."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, open_database


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tute.db"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await open_database(db_path)
    yield database
    await database.close()
