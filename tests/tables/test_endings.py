"""Tables that end: the only member who leaves a game with a bet ends it once, one who
leaves another seated leaves a robot; a table that ended, however, leaves memory.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.engine import Variant
from bot.storage import ledger
from bot.tables.announcement import Said
from bot.tables.errors import TableError
from bot.tables.model import Status, Table
from tests.tables import _sim
from tests.tables._sim import (
    BET,
    GUILD,
    IDLE,
    LOBBY,
    START,
    Env,
    act,
    check_chips,
    check_gone,
    member_on_turn,
    play_out,
    private_state,
    until_paused,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


# --------------------------------------------------- the only member leaves a bet game


async def test_the_only_member_who_leaves_a_game_with_a_bet_ends_it_once(env: Env) -> None:
    service = env.service
    table = await env.open(10, bet=BET, start=True)
    assert service.leave_terms(table.id, 10) == ("end", BET)
    outcome = await service.leave(table.id, 10)
    await env.time.quiet(service)
    assert table.status is Status.CANCELLED
    assert [(a.what, a.stake) for a in outcome.announce] == [(Said.ABANDONED, BET)]
    assert env.presenter.said(table.id) == [Said.ABANDONED], "published once, nothing else"
    assert await ledger.balance(env.db, GUILD, 10) == START - BET
    assert await ledger.bank_balance(env.db, GUILD) == BET
    assert (await ledger.table_state(env.db, table.id)).held == 0
    member = await env.db.fetchall(
        "SELECT kind, amount FROM ledger WHERE table_id = ? AND account = 'member'", (table.id,)
    )
    # the stake, marked forfeited (a row of 0 chips), and nothing back
    assert [tuple(r) for r in member] == [("stake", -BET), ("forfeit", 0)]
    await check_chips(env.db)
    check_gone(service, table)


async def test_a_member_who_leaves_with_another_still_seated_leaves_a_robot(env: Env) -> None:
    service = env.service
    table = await env.open(10, members=(11,), bet=BET, start=True)
    assert service.leave_terms(table.id, 10) == ("robot", BET)
    outcome = await service.leave(table.id, 10)
    assert outcome.announce == () and table.status is Status.PLAYING
    occupant = table.seats[0]
    assert occupant is not None and occupant.left and occupant.robot_plays
    state = await ledger.table_state(env.db, table.id)
    assert state.forfeited == BET and state.stakes == {11: BET}
    await play_out(env, table)  # the game goes on, member 11 against three robots
    assert table.status is Status.FINISHED
    assert await ledger.balance(env.db, GUILD, 10) == START - BET
    await check_chips(env.db)
    check_gone(service, table)


async def test_alone_with_robots_a_vote_to_cancel_after_the_first_trick_is_a_leave(
    env: Env,
) -> None:
    """One member against robots: their vote alone would cancel a game going badly and give
    the stake back. Before the first trick it does; after it, it counts as leaving."""
    service = env.service
    early = await env.open(10, bet=BET, start=True)
    assert service.vote_terms(early.id, 10) == (0, BET, False)
    await service.vote_cancel(early.id, 10)
    assert early.status is Status.CANCELLED
    assert await ledger.balance(env.db, GUILD, 10) == START, "the stake came back"

    table = await env.open(10, bet=BET, start=True)
    deal = table.deal
    assert deal is not None
    while not deal.tricks:
        await act(service, table, *member_on_turn(table))
        await env.time.quiet(service)
    assert service.vote_terms(table.id, 10) == (0, BET, True)
    outcome = await service.vote_cancel(table.id, 10)
    await env.time.quiet(service)
    assert table.status is Status.CANCELLED
    assert [(a.what, a.stake) for a in outcome.announce] == [(Said.ABANDONED, BET)]
    assert await ledger.balance(env.db, GUILD, 10) == START - BET, "the stake is lost"
    assert await ledger.bank_balance(env.db, GUILD) == BET
    await check_chips(env.db)


async def test_with_two_members_a_vote_after_the_first_trick_still_gives_stakes_back(
    env: Env,
) -> None:
    service = env.service
    table = await env.open(10, members=(11,), bet=BET, start=True)
    deal = table.deal
    assert deal is not None
    while not deal.tricks:
        await act(service, table, *member_on_turn(table))
        await env.time.quiet(service)
    assert service.vote_terms(table.id, 10) == (1, BET, False)
    await service.vote_cancel(table.id, 10)
    await service.vote_cancel(table.id, 11)
    assert table.status is Status.CANCELLED
    assert await ledger.balance(env.db, GUILD, 10) == START
    assert await ledger.balance(env.db, GUILD, 11) == START
    await check_chips(env.db)


# --------------------------------------------------------- ended tables leave memory


async def end_by_playing(env: Env) -> Table:
    table = await env.open(10, variant=Variant.HABANERO, start=True)
    await play_out(env, table)
    assert table.status is Status.FINISHED
    return table


async def end_by_closing(env: Env) -> Table:
    table = await env.open(10)
    await env.service.close(table.id, 10)
    return table


async def end_by_expiry(env: Env) -> Table:
    table = await env.open(10)
    await env.time.quiet(env.service)
    env.time.advance(LOBBY)
    await env.time.quiet(env.service)
    assert table.status is Status.CLOSED
    assert env.presenter.said(table.id) == [Said.EXPIRED]
    return table


async def end_by_emptying(env: Env) -> Table:
    table = await env.open(10)
    await env.service.leave(table.id, 10, lobby=True)
    return table


async def end_by_discarding(env: Env) -> Table:
    table = await env.open(10)
    await env.service.discard(table.id)
    return table


async def end_by_votes(env: Env) -> Table:
    table = await env.open(10, members=(11,), bet=BET, start=True)
    await env.service.vote_cancel(table.id, 10)
    await env.service.vote_cancel(table.id, 11)
    return table


async def end_by_abandoning(env: Env) -> Table:
    table = await env.open(10, bet=BET, start=True)
    await env.service.leave(table.id, 10)
    return table


async def end_by_idling(env: Env) -> Table:
    table = await env.open(10, turn_time=10, start=True)
    await until_paused(env, table)
    env.time.advance(IDLE)
    return table


ENDINGS: dict[str, Callable[[Env], Awaitable[Table]]] = {
    "game over": end_by_playing,
    "closed by the host": end_by_closing,
    "lobby expired": end_by_expiry,
    "lobby emptied": end_by_emptying,
    "lobby discarded": end_by_discarding,
    "cancelled by vote": end_by_votes,
    "abandoned": end_by_abandoning,
    "cancelled while paused": end_by_idling,
}


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_a_table_that_ended_leaves_memory(env: Env, ending: str) -> None:
    service = env.service
    table = await ENDINGS[ending](env)
    await env.time.quiet(service)
    check_gone(service, table)
    # a click that still comes from its message is answered, and leaves nothing behind
    with pytest.raises(TableError) as gone:
        await service.join(table.id, 99, "late")
    assert gone.value.key == "gone"
    assert not any(private_state(service, table.id).values()), private_state(service, table.id)
    await check_chips(env.db)
