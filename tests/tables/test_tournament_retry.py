"""A tournament table that fails to open is tried again on a clock (1 s, 2 s, 4 s... at most
a minute apart) without waiting for another game to end, and its listener is told once that
it opened late. Through the table service on a real SQLite file, in simulated time
(``_sim``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.tables.competition.tournament_retry import retry_delay
from bot.tables.competition.tournaments import Tournament, TournamentService, TournamentStatus
from bot.tables.errors import SaveFailed
from bot.tables.service import TableService
from bot.tables.views import TableView
from tests.tables import _sim
from tests.tables._sim import Env, play_out
from tests.tables.test_tournament_leavers import only, running, settle, table_of

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


def failing_opens(monkeypatch: pytest.MonkeyPatch, service: TableService, times: int) -> None:
    """The next ``times`` tables the service opens fail to save."""
    real = service.open_table
    left = [times]

    async def open_table(**kwargs: Any) -> TableView:
        if left[0]:
            left[0] -= 1
            raise SaveFailed
        return await real(**kwargs)

    monkeypatch.setattr(service, "open_table", open_table)


async def next_try_in(env: Env, service: TournamentService, tour: Tournament) -> float | None:
    """Let the service's tries run until the next one waits on the clock: how long (None:
    no try is due)."""
    loop = service._retries.loops.get(tour.id)  # pyright: ignore[reportPrivateUsage]
    # the loop's time bounds a hang only (as Clock.quiet): a try saves through the
    # database's thread, which takes as many steps of the loop as the machine needs
    deadline = asyncio.get_running_loop().time() + 60
    while asyncio.get_running_loop().time() < deadline:
        if loop is None or loop.done():
            return None
        if loop in env.time.parked:
            return env.time.parked[loop][0] - env.time.now
        await asyncio.sleep(0.001)
    raise AssertionError("the tries never waited")


def test_tries_wait_longer_each_time_up_to_a_minute() -> None:
    assert [retry_delay(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]


async def test_a_final_whose_table_failed_to_open_is_played(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing_opens(monkeypatch, env.service, 4)  # the start and the tries after 1, 2 and 4 s
    service = await running(env, [100, 101])
    told: list[tuple[int, ...]] = []

    async def listener(tour: Tournament, table_ids: tuple[int, ...]) -> None:
        told.append(table_ids)

    service.on_opened(listener)
    tour = only(service)
    assert await next_try_in(env, service, tour) == 8.0
    assert tour.tables == {} and told == []

    env.time.advance(8.0)
    assert await next_try_in(env, service, tour) is None
    await settle(env)
    (table_id,) = tour.tables.values()
    assert told == [(table_id,)], "its listener is told, once, that it opened late"
    assert "told" not in tour.state_json(), "what the channel was told is the Discord side's"

    await play_out(env, table_of(env, 100))
    await settle(env)
    assert tour.status is TournamentStatus.FINISHED and tour.winner in (100, 101)
    service.stop()


async def restarted(env: Env) -> list[Any]:
    await env.service.suspend()
    await env.stop_clocks(env.service)
    env.service = env.new_service()
    await env.service.restore()
    return await TournamentService(env.db, env.service, env.time).restore()


async def test_a_restart_with_nothing_to_catch_up_moves_nothing(env: Env) -> None:
    """A table open before the stop is open after it, and nothing was decided or drawn: the
    service has nothing to tell (what the channel was never told is the Discord side's
    business, ``tests/cogs/tournaments/test_places.py``)."""
    service = await running(env, [100, 101])
    (table_id,) = only(service).tables.values()

    (caught,) = await restarted(env)
    assert not caught.moved and caught.tournament.tables_in_play() == [table_id]
    assert table_id in env.service.tables
