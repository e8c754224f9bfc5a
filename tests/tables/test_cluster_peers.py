"""Each process of the bot keeps its web table's address beside its shard leases on
PostgreSQL, so that the others can send it the sockets of its tables
(bot/tables/cluster/processes.py, ``Cluster.peer_of``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Database, open_database
from bot.tables.cluster import LEASE_TTL, Cluster, shard_of
from bot.tables.service import TableService
from tests.pgserver import fresh_postgres
from tests.runtime import table_runtime

from ._play import Clock, NullPresenter

SHARDS = 2
GUILD_ON = {shard: (1000 + shard) << 22 for shard in range(SHARDS)}


@pytest.fixture
async def dbs(pg_server: str) -> AsyncIterator[list[Database]]:
    url = await fresh_postgres(pg_server, migrated=True)
    opened = [await open_database(url) for _ in range(SHARDS)]
    yield opened
    for db in opened:
        await db.close()


async def test_a_process_finds_where_each_server_is_played(dbs: list[Database]) -> None:
    clock = Clock()
    clusters = [
        Cluster(
            db,
            shard_count=SHARDS,
            shards=[shard],
            clock=clock,
            peer_url=f"http://10.0.0.{shard}:8080",
        )
        for shard, db in enumerate(dbs)
    ]
    for cluster, db in zip(clusters, dbs, strict=True):
        await cluster.start(TableService(db, (NullPresenter(),), table_runtime(clock)))
    first, second = clusters
    assert shard_of(GUILD_ON[1], SHARDS) == 1
    assert await first.peer_of(GUILD_ON[1]) == "http://10.0.0.1:8080"
    assert await second.peer_of(GUILD_ON[0]) == "http://10.0.0.0:8080"
    assert await first.peer_of(GUILD_ON[0]) is None  # its own

    clock.now += LEASE_TTL  # the second process died: its lease ran out unrenewed
    assert await first.peer_of(GUILD_ON[1]) is None
    clock.now -= LEASE_TTL
    await second.stop()  # a clean stop gives its shards back at once
    assert await first.peer_of(GUILD_ON[1]) is None
    await first.stop()
