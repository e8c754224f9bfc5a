"""The web table's tests run on the real table service, over a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Database, open_database
from bot.tables.service import TableService
from tests.tables._play import NullPresenter
from tests.tables.test_service import Clock, first_robot, no_wait


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "t.db")
    yield database
    await database.close()


def quick_service(db: Database) -> TableService:
    """The service with robots that choose at once and waits that pass at once, showing
    nothing until a test gives it presenters."""
    return TableService(
        db, NullPresenter(), clock=Clock(), robot_delay=0, robot=first_robot, sleep=no_wait
    )
