"""A member who leaves a tournament match is out: the robot that plays on for them never
wins them the match, the title or a prize, however its game goes. Played through the table
service on a real SQLite file, in simulated time (``_sim``)."""

from __future__ import annotations

import pytest

from bot.engine import Variant, parse_options
from bot.storage import entries, ledger
from bot.tables.competition.tournament import BYE, Format
from bot.tables.competition.tournaments import Tournament, TournamentService, TournamentStatus
from bot.tables.model import Status, Table
from tests.tables import _sim
from tests.tables._sim import (
    CHANNEL,
    GUILD,
    IDLE,
    START,
    Env,
    act,
    check_chips,
    member_on_turn,
    play_out,
    until_paused,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""

HOST = 1
ENTRY = 100


async def running(env: Env, entrants: list[int], *, entry: int = 0) -> TournamentService:
    """A knockout of habanero tables (one game of one deal, 10 s turns), started, its
    entrants seeded in the order given."""
    service = TournamentService(env.db, env.service, env.time)
    tour = await service.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        variant=Variant.HABANERO,
        options=parse_options(Variant.HABANERO, {"turn_time": 10, "target": 1}),
        format=Format.KNOCKOUT,
        deadline=env.time() + 600,
        entry=entry,
    )
    for user in entrants:
        await service.sign_up(tour.id, user, f"user{user}")
    await service.start(tour.id, env.time(), by=HOST)
    await settle(env)
    return service


async def settle(env: Env) -> None:
    await env.time.quiet(env.service)
    await env.service.told()
    await env.time.quiet(env.service)


def table_of(env: Env, user: int) -> Table:
    return next(
        x for x in env.service.tables.values() if any(s and s.user_id == user for s in x.seats)
    )


async def leaves_after_playing(env: Env, table: Table, user: int) -> None:
    """The members play (the robots too) until ``user`` has played a card; then they leave:
    no no-show, whom the rule for those would keep from the match already."""
    seat = next(s for s in table.seats if s is not None and s.user_id == user)
    while not seat.acted:
        await env.time.quiet(env.service)
        on_turn, action = member_on_turn(table)
        await act(env.service, table, on_turn, action)
    await env.service.leave(table.id, user)


def side_won(table: Table, user: int) -> bool:
    seat = next(i for i, s in enumerate(table.seats) if s is not None and s.user_id == user)
    return table.status is Status.FINISHED and table.winner == seat


def only(service: TournamentService) -> Tournament:
    (tour,) = service.tournaments.values()
    return tour


async def test_a_leaver_whose_robot_wins_does_not_advance(env: Env) -> None:
    service = await running(env, [100, 101, 102, 103])
    tour = only(service)
    leaver = table_of(env, 100)
    await leaves_after_playing(env, leaver, 100)
    await play_out(env, leaver)
    assert side_won(leaver, 100), "the leaver's robot won the game"
    await play_out(env, table_of(env, 101))
    await settle(env)

    assert tour.draw is not None
    first = tour.draw.round_matches(1)
    assert [m.winner for m in first if 100 in m.players] == [103]
    (final,) = tour.draw.round_matches(2)
    assert 100 not in final.players and 103 in final.players
    assert tour.draw.out == {100}


async def test_a_leavers_robot_winning_the_final_gives_the_other_the_title(env: Env) -> None:
    service = await running(env, [100, 101], entry=ENTRY)
    tour = only(service)
    final = table_of(env, 100)
    await leaves_after_playing(env, final, 100)
    await play_out(env, final)
    assert side_won(final, 100), "the leaver's robot won the game"
    await settle(env)

    assert tour.status is TournamentStatus.FINISHED
    assert tour.winner == 101 and tour.prizes == {101: 2 * ENTRY}
    assert await ledger.balance(env.db, GUILD, 100) == START - ENTRY
    assert await ledger.balance(env.db, GUILD, 101) == START + ENTRY
    assert await entries.held(env.db, tour.id) == 0
    await check_chips(env.db)


async def test_a_final_cancelled_while_paused_goes_to_who_stayed(env: Env) -> None:
    # the leaver is the better seed: on a cancelled table with no round won, the seed
    # would decide
    service = await running(env, [100, 101], entry=ENTRY)
    tour = only(service)
    final = table_of(env, 100)
    await leaves_after_playing(env, final, 100)
    await until_paused(env, final)  # 101's turns run out: everyone left is away
    env.time.advance(IDLE)
    await settle(env)
    assert final.status is Status.CANCELLED

    assert tour.status is TournamentStatus.FINISHED
    assert tour.winner == 101 and tour.prizes == {101: 2 * ENTRY}
    assert await ledger.balance(env.db, GUILD, 101) == START + ENTRY
    await check_chips(env.db)


@pytest.mark.parametrize("entrants", [[100, 101], [100, 101, 102, 103]])
async def test_a_final_everyone_left_has_no_winner(env: Env, entrants: list[int]) -> None:
    """Two entrants who both leave the final get their entries back (nobody is placed); in
    a field of four, the semi-final losers share the pot."""
    service = await running(env, entrants, entry=ENTRY)
    tour = only(service)
    assert tour.draw is not None
    if len(entrants) == 4:
        for user in (100, 101):
            await play_out(env, table_of(env, user))
        await settle(env)
    (final,) = tour.draw.round_matches(tour.draw.rounds)
    table = table_of(env, final.players[0])
    for user in final.players:
        await env.service.leave(table.id, user)
    await settle(env)

    assert tour.status is TournamentStatus.FINISHED
    assert tour.winner is None
    (final,) = tour.draw.round_matches(tour.draw.rounds)
    assert final.winner == BYE and tour.draw.out == set(final.players)
    losers = [u for u in entrants if u not in final.players]
    assert tour.prizes == dict.fromkeys(losers, 2 * ENTRY)
    for user in entrants:
        kept = START if not losers else START - ENTRY
        assert await ledger.balance(env.db, GUILD, user) == kept + tour.prizes.get(user, 0)
    await check_chips(env.db)
