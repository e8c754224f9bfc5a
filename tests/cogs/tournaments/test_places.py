"""Where a tournament lives on Discord, kept by the Discord side alone: its sign-up message and
the tables whose link its channel was told, written at once and read back after a restart,
so that a table its channel was never told of is told after a restart, once. On the
tournament service over a real SQLite file, in simulated time (``tests/tables/_sim``)."""

from __future__ import annotations

import pytest

from cogs.tournaments.places import TournamentPlace, TournamentPlaces
from tests.tables import _sim
from tests.tables._sim import Env
from tests.tables.test_tournament_leavers import only, running
from tests.tables.test_tournament_retry import restarted

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


def open_in(env: Env, table_id: int) -> bool:
    return table_id in env.service.tables


async def test_a_table_never_told_is_told_after_a_restart_once(env: Env) -> None:
    service = await running(env, [100, 101])  # nobody tells the channel: a failed post
    (table_id,) = only(service).tables.values()

    (caught,) = await restarted(env)
    tour = caught.tournament
    place = await TournamentPlaces(env.db).of(tour.id)
    assert place.untold(tour, lambda t: open_in(env, t)) == {table_id}

    await TournamentPlaces(env.db).told(tour.id, {table_id})
    (caught,) = await restarted(env)
    place = await TournamentPlaces(env.db).of(caught.tournament.id)
    assert place.told == {table_id}
    assert place.untold(caught.tournament, lambda t: open_in(env, t)) == set()


async def test_the_sign_up_message_and_what_was_told_are_read_back(env: Env) -> None:
    service = await running(env, [100, 101])
    tour = only(service)
    (table_id,) = tour.tables.values()
    places = TournamentPlaces(env.db)
    assert await places.of(tour.id) == TournamentPlace(tour.id), "nothing kept yet"
    await places.posted(tour.id, 900)
    await places.posted(tour.id, 901)  # posted afresh: the newer one is its
    await places.told(tour.id, {table_id})

    back = await TournamentPlaces(env.db).of(tour.id)
    assert (back.message_id, back.told) == (901, {table_id})
    assert "message_id" not in tour.state_json() and "told" not in tour.state_json()


async def test_a_failed_write_keeps_the_place_in_memory(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await running(env, [100, 101])
    tour = only(service)
    (table_id,) = tour.tables.values()
    places = TournamentPlaces(env.db)

    async def refused(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(env.db, "write", refused)
    await places.told(tour.id, {table_id})
    assert (await places.of(tour.id)).told == {table_id}, "this process knows it"
    monkeypatch.undo()
    assert (await TournamentPlaces(env.db).of(tour.id)).told == set(), "not written"
