"""A game whose members are all away pauses: nothing moves until one comes back, or it is
cancelled with the stakes back.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

import pytest

from bot.storage import ledger
from bot.storage import tables as repo
from bot.tables.announcement import Said
from bot.tables.events import Happened
from bot.tables.model import Status
from tests.tables import _sim
from tests.tables._sim import (
    BET,
    GUILD,
    IDLE,
    START,
    Env,
    check_chips,
    check_gone,
    check_log,
    check_memory_is_the_log,
    member_on_turn,
    until_paused,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


@pytest.mark.parametrize("ending", ["a member comes back", "nobody comes back"])
async def test_a_game_whose_members_are_all_away_pauses(env: Env, ending: str) -> None:
    service, time = env.service, env.time
    table = await env.open(10, members=(11,), bet=BET, turn_time=10, start=True)
    await until_paused(env, table)
    for seat in (0, 1):
        occupant = table.seats[seat]
        assert occupant is not None and occupant.away and occupant.missed >= 2
    assert table.paused_until == pytest.approx(time.now + IDLE)
    assert Said.PAUSED in env.presenter.said(table.id)
    deal = table.deal
    assert deal is not None and not deal.finished
    played, state = list(deal.actions), table.state_json()

    # nothing moves while paused: neither with the clock nearly at its end, nor when the
    # table's clock runs early, again and again
    timers = service.clocks.timers
    for _ in range(9):
        time.advance(IDLE / 10)
        timer = timers.get(table.id)
        assert timer is not None and timer in time.parked
        time.wake(timer)
        await time.quiet(service)
        again = timers.get(table.id)
        assert again is not None and again is not timer and again in time.parked
        assert deal.actions == played and table.state_json() == state
    assert table.status is Status.PLAYING

    if ending == "a member comes back":
        outcome = await service.im_back(table.id, 11)
        assert outcome.table.id == table.id and table.paused_until is None
        assert Happened.RESUMED in [e.what for e in table.log]
        await time.quiet(service)
        # the robots (one for member 10, still away) play up to member 11's turn
        user, _ = member_on_turn(table)
        assert user == 11 and table.turn_deadline is not None
        assert table.status is Status.PLAYING
        await check_memory_is_the_log(env.db, table)
    else:
        time.advance(IDLE / 10)
        await time.quiet(service)
        assert table.status is Status.CANCELLED
        assert env.presenter.said(table.id)[-1] is Said.IDLE_CANCELLED
        for user in (10, 11):
            assert await ledger.balance(env.db, GUILD, user) == START
        assert (await ledger.table_state(env.db, table.id)).held == 0
        row = await repo.load_table(env.db, table.id)
        assert row is not None and row.status == Status.CANCELLED.value
        check_gone(service, table)
    await check_chips(env.db)
    await check_log(env.db)
