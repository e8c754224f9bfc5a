"""A shutdown: ``suspend`` keeps every turn's time left, every table at once.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.engine import Variant
from bot.storage import Database
from bot.storage import tables as repo
from bot.tables.model import Status
from tests.tables import _sim
from tests.tables._sim import Env, member_on_turn

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


SUSPENDED = 200


async def test_suspend_keeps_every_turns_time_at_once(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hundred tables, each waiting for its member: ``suspend`` saves each one's time
    left, every table at once. One table's lock is held by a task that lets go only once
    every other table is saved: a suspend that went table by table would wait forever."""
    service, time = env.service, env.time
    turn_time = 600
    tables = [
        await env.open(
            1000 + n,
            variant=Variant.HABANERO,
            turn_time=turn_time,
            start=True,
            max_tables=SUSPENDED,
        )
        for n in range(SUSPENDED)
    ]
    for table in tables:
        member_on_turn(table)
        assert table.turn_deadline == pytest.approx(time.now + turn_time)
    time.advance(7)
    held = tables[0]
    assert next(iter(service.tables)) == held.id, "the held table comes first"
    others = {t.id for t in tables[1:]}

    saved: list[int] = []
    all_saved = asyncio.Event()
    save_progress = repo.save_progress

    async def saving(db: Database, table_id: int, **kwargs: Any) -> None:
        await save_progress(db, table_id, **kwargs)
        saved.append(table_id)
        if others <= set(saved):
            all_saved.set()

    monkeypatch.setattr(repo, "save_progress", saving)
    holding = asyncio.Event()
    saved_before_release: list[int] = []

    async def hold() -> None:
        async with service.lock(held.id):
            holding.set()
            await all_saved.wait()
            saved_before_release.extend(saved)

    holder = asyncio.create_task(hold())
    await holding.wait()
    batches = env.db.counts.batches
    suspending = asyncio.create_task(service.suspend())
    done, _ = await asyncio.wait({suspending}, timeout=30)  # (bounds a hang only)
    if not done:
        suspending.cancel()
        holder.cancel()
        await asyncio.gather(suspending, holder, return_exceptions=True)
        raise AssertionError(f"suspend waited table by table: {len(saved)} saved")
    await holder
    assert set(saved_before_release) == others, "the others were saved before the release"
    assert saved.count(held.id) == 1 and saved[-1] == held.id
    assert env.db.counts.batches - batches < 10, "their saves shared batches"
    assert not service.clocks.timers
    for table in tables:
        row = await repo.load_table(env.db, table.id)
        assert row is not None and row.status == Status.PLAYING.value
        assert json.loads(row.state)["turn_left"] == pytest.approx(turn_time - 7)
