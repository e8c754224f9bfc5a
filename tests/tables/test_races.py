"""Requests that race: openings at once, a lobby leave that comes after the start.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import ledger
from bot.tables.errors import TableError
from bot.tables.model import Status, Table
from bot.tables.service import Outcome
from tests.tables import _sim
from tests.tables._sim import BET, GUILD, START, Env, check_chips

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


async def test_two_openings_at_once_for_the_same_host_open_one_table(env: Env) -> None:
    results = await asyncio.gather(env.open(10), env.open(10), return_exceptions=True)
    opened = [r for r in results if isinstance(r, Table)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(opened) == 1 and len(refused) == 1, results
    assert refused[0].key == "already_hosting"
    assert list(env.service.tables) == [opened[0].id]
    assert len(await env.db.fetchall("SELECT id FROM tables")) == 1


async def test_six_openings_at_once_keep_the_servers_limit(env: Env) -> None:
    results = await asyncio.gather(
        *(env.open(host, max_tables=2) for host in range(20, 26)), return_exceptions=True
    )
    opened = [r for r in results if isinstance(r, Table)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(opened) == 2 and len(refused) == 4, results
    assert {r.key for r in refused} == {"too_many_tables"}
    assert len(env.service.tables) == 2
    assert len(await env.db.fetchall("SELECT id FROM tables")) == 2


@pytest.mark.parametrize("when", ["while it starts", "after it started"])
async def test_a_lobby_leave_that_comes_after_the_start_forfeits_nothing(
    env: Env, when: str
) -> None:
    service = env.service
    table = await env.open(10, members=(11,), bet=BET)
    leave = service.leave(table.id, 11, lobby=True)
    if when == "while it starts":
        # the start takes the table's lock first; the leave waits for it, then is refused
        started, left = await asyncio.gather(
            service.start(table.id, 10), leave, return_exceptions=True
        )
        assert isinstance(started, Outcome), started
    else:
        await service.start(table.id, 10)
        left = await asyncio.gather(leave, return_exceptions=True)
        left = left[0]
    assert isinstance(left, TableError) and left.key == "already_started", left
    assert table.status is Status.PLAYING and table.seat_of(11) == 1
    occupant = table.seats[1]
    assert occupant is not None and not occupant.left and not occupant.robot_plays
    assert table.stakes == {10: BET, 11: BET}
    state = await ledger.table_state(env.db, table.id)
    assert state.stakes == {10: BET, 11: BET} and state.forfeited == 0
    assert await ledger.balance(env.db, GUILD, 11) == START - BET
    await check_chips(env.db)
