"""The robots' runs: a run whose change fails goes back to the last save and tries again
later, and later; each trick they play is logged once.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.tables.events import LogEvent
from bot.tables.model import Status, Table
from bot.tables.service import RETRY_FIRST, RETRY_MOST
from tests.tables import _sim
from tests.tables._checks import dump
from tests.tables._db_faults import FAULTS, clock_failing
from tests.tables._sim import (
    BET,
    Env,
    act,
    check_chips,
    check_log,
    check_memory_is_the_log,
    member_on_turn,
    play_out,
    table_log,
    trick_entries,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


# ------------------------------------------------- the robots' clock tries again, later


@pytest.mark.parametrize("fault", [*FAULTS, "robot"])
async def test_robots_whose_change_fails_try_again_later_and_play_on(env: Env, fault: str) -> None:
    """The robots' run fails (its save refused, or a robot's decision after another's card):
    the table goes back to its last save, and its clock tries again later, and later."""
    service, time = env.service, env.time
    table = await env.open(10, bet=BET, start=True)  # the member leads; three robots follow
    timers = service.clocks.timers
    user, card = member_on_turn(table)
    time.pause()
    await act(service, table, user, card)
    await time.quiet(service)  # the robots' clock, held before its wait
    assert table.deal is not None
    played, state, before = list(table.deal.actions), table.state_json(), await dump(env.db)
    backoff = [min(RETRY_FIRST * 2**n, RETRY_MOST) for n in range(8)]
    assert backoff == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]

    # every wait is the table's own clock, the one the service holds for it (a table is
    # never left without one, not even between two tries)
    unknown: list[asyncio.Task[Any]] = []
    time.on_sleep = lambda task: None if timers.get(table.id) is task else unknown.append(task)
    async with clock_failing(env, fault):
        mark = len(time.delays)
        time.resume()
        # 1, 2 and 4 seconds pass at once; each longer wait until the clock gets there
        for tries in range(4, len(backoff) + 1):
            await time.quiet(service)
            assert time.delays[mark:] == backoff[:tries], "tries again, later each time"
            timer = timers.get(table.id)
            assert timer is not None and not timer.done(), "a table left without a clock"
            assert timer in time.parked
            # (a failed change puts back the table's deal as saved: a new Deal)
            assert table.deal is not None and table.deal.actions == played
            assert table.state_json() == state
            assert await dump(env.db) == before
            time.advance(time.delays[-1])
        await time.quiet(service)
        assert time.delays[mark:] == [*backoff, RETRY_MOST], "at most a minute apart"
        assert not unknown, "a wait that was not the table's clock"

    time.advance(RETRY_MOST)
    await time.quiet(service)
    assert table.deal is not None and len(table.deal.actions) > len(played), "they play on"
    assert table.id not in service.clocks.retries
    await check_memory_is_the_log(env.db, table)
    await play_out(env, table)
    assert table.status is Status.FINISHED
    await check_log(env.db)
    await check_chips(env.db)
    assert table.deal is not None
    tricks = [list(t.cards) for t in table.deal.tricks]
    shown = trick_entries(table_log(table))
    assert shown and shown == tricks[len(tricks) - len(shown) :], "each trick logged once"


# ----------------------------------------------------------------- each event once


async def test_each_trick_is_logged_once(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry the service writes in a table's log, in order: each completed trick once,
    whoever played it (the robots play three cards after the member's, or lead)."""
    written: list[LogEvent] = []
    add_log = Table.add_log

    def recording(self: Table, event: LogEvent) -> None:
        written.append(event)
        add_log(self, event)

    monkeypatch.setattr(Table, "add_log", recording)
    table = await env.open(10, start=True)
    await play_out(env, table)
    assert table.status is Status.FINISHED
    deal = table.deal
    assert deal is not None and deal.finished
    tricks = [list(t.cards) for t in deal.tricks]
    assert len(tricks) == 10
    assert trick_entries(written) == tricks, "each trick logged once, in order"
    for shown in [*env.presenter.logs, table_log(table)]:
        cards = trick_entries(shown)
        assert len({tuple(c) for c in cards}) == len(cards), f"a trick repeated: {shown}"
