"""The web table's tests run on the real table service, over a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Options, Variant
from bot.storage import Database
from bot.tables import Presenter
from bot.tables.model import Table
from bot.tables.service import TableService
from bot.web.hub import TableHub
from bot.web.sockets import Sockets
from tests.migrated import open_migrated
from tests.runtime import table_runtime
from tests.tables._play import NullPresenter, opened
from tests.tables.test_service import Clock, first_robot, no_wait, settle


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "t.db")
    yield database
    await database.close()


def quick_service(db: Database, *presenters: Presenter, clock: Clock | None = None) -> TableService:
    """The service with robots that choose at once and waits that pass at once, showing
    what it publishes to ``presenters`` (none: nobody)."""
    return TableService(
        db,
        presenters or (NullPresenter(),),
        table_runtime(clock or Clock(), sleep=no_wait, robot=first_robot),
        robot_delay=0,
    )


def quick_hub(db: Database, *others: Presenter) -> TableHub:
    """The card table's hub on a :func:`quick_service` built with its sockets (beside
    ``others``, a test's Discord): ``hub.service`` is the service."""
    clock = Clock()
    sockets = Sockets(clock)
    return TableHub(quick_service(db, *others, sockets, clock=clock), sockets)


async def started_habanero(
    service: TableService, hub: TableHub, *, guild_id: int, channel_id: int, host_id: int
) -> Table:
    """A habanero table of ``host_id`` ("Ana") and a robot, started, shown by ``hub``: the
    robots have played until Ana is to play."""
    assert hub.sockets in service.presenters
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
