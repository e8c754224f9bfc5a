"""The web table's tests run on the real table service, over a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Options, Variant
from bot.storage import Database, open_database
from bot.tables import Presenters
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.web.hub import TableHub
from tests.tables._play import NullPresenter, opened
from tests.tables.test_service import Clock, first_robot, no_wait, settle


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


async def started_habanero(
    service: TableService, hub: TableHub, *, guild_id: int, channel_id: int, host_id: int
) -> Table:
    """A habanero table of ``host_id`` ("Ana") and a robot, started, shown by ``hub``: the
    robots have played until Ana is to play."""
    service.presenter = Presenters(hub)
    table = await opened(
        service,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
    )
    await service.start(table.id, host_id)
    await settle(service, table)
    return table
