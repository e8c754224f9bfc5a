"""Discord fails on a hand's DMs: the first DM of a hand, a DM sent again mid-game, the edit
of a hand in the DMs. Closed DMs leave My hand; the others are sent or edited later.

The faults, and what keeps these games quick, are in ``_faults``; the games in ``_game``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.config import Config
from cogs.tables.presenter import RETRY_AFTER
from tests.cogs.tables import _faults
from tests.cogs.tables._faults import FAULTS, FOR_GOOD, Fault, faults_for, inject
from tests.cogs.tables._game import SEED, check_dms_closed_notice, new_game
from tests.cogs.tables._world import dm_place
from tests.conftest import World

quick_games = _faults.quick_games
"""Tiny pictures, easy robots, a SimCord that checks a settling bot often (every test here)."""


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("dm_send"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_cannot_be_sent_by_dm(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """At the start, alice's hand cannot be sent by DM: her DMs are closed (she plays
    through My hand), or it is sent a little later."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    injected = inject(env, "POST", f"/channels/{dm.id}/messages", fault)
    await game.start()
    assert injected.failed == 1
    table = game.table
    occupant = table.seats[game.seat(alice)]
    assert occupant is not None and game.deal.turn == game.seat(alice)

    if fault.status == 403:
        # closed DMs: the table says so, and alice plays through My hand
        assert (
            dm_place(game.table, game.seat(alice)).dm_closed
            and dm_place(game.table, game.seat(alice)).dm_message_id is None
        )
        check_dms_closed_notice(game, "alice")
    elif fault.retried:
        # the presenter tries again a little later
        assert not dm_place(game.table, game.seat(alice)).dm_closed and not dm.history()
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert game.shows_hand(game.dm_message(alice), alice), "the retry sends the hand"
        await game.retries_until(injected)
        assert game.shows_hand(game.dm_message(alice), alice)
    else:
        # refused: the hand goes by DM at the next change (alice opens My hand meanwhile)
        assert not dm_place(game.table, game.seat(alice)).dm_closed and not dm.history()

    await game.play()
    await game.check_end()
    if fault.status == 403:
        assert not dm.history(), "no DM ever reached alice"
        assert alice.ephemeral is not None and not alice.ephemeral_by_dm
        assert alice.ephemeral_clicks == alice.clicks > 0
    else:
        assert len(dm.history()) == 1, "one DM, edited to the end"
    await game.check_after_restart(test_config)


USER_APP_REFUSED = Fault(400, 50278, "Cannot send messages to this user")
"""A DM Discord refuses with 50278, a 400 (not 50007's 403): the same closed door."""


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_dm_refused_with_50278_is_a_closed_dm(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Whatever its HTTP status, 50278 closes alice's DMs as 50007 does: the table says so
    at once, she plays through My hand, and no DM is tried again."""
    table_seed(SEED)
    game = await new_game(simcord_env, world)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    injected = inject(simcord_env, "POST", f"/channels/{dm.id}/messages", USER_APP_REFUSED)
    await game.start()
    assert injected.failed == 1
    assert dm_place(game.table, game.seat(alice)).dm_closed
    check_dms_closed_notice(game, "alice")
    await game.play()
    await game.check_end()
    assert injected.calls == 1, "tried once"
    assert alice.ephemeral is not None and alice.ephemeral_clicks == alice.clicks > 0


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("dm_send"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_cannot_be_sent_again_mid_game(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Mid-game, alice's DM is deleted (for good), and sending her hand again fails."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, notify=False)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    occupant = game.table.seats[game.seat(alice)]
    assert occupant is not None and dm_place(game.table, game.seat(alice)).dm_message_id is not None
    old = dm_place(game.table, game.seat(alice)).dm_message_id
    deleted = inject(
        env, "PATCH", f"/channels/{dm.id}/messages/{old}", FAULTS["unknown-message"], times=FOR_GOOD
    )
    injected = inject(env, "POST", f"/channels/{dm.id}/messages", fault)
    await game.play_until(lambda: injected.failed >= 1)
    assert deleted.failed >= 1

    clicks = alice.ephemeral_clicks
    if fault.status == 403:
        assert (
            dm_place(game.table, game.seat(alice)).dm_closed
            and dm_place(game.table, game.seat(alice)).dm_message_id is None
        )
        check_dms_closed_notice(game, "alice")
    elif fault.retried:
        assert not game.shows_hand(game.dm_message(alice), alice)
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert game.shows_hand(game.dm_message(alice), alice), "the retry sends it"
        await game.retries_until(injected)
        assert dm_place(game.table, game.seat(alice)).dm_message_id not in (None, old)
        assert game.shows_hand(game.dm_message(alice), alice)
    else:
        assert not dm_place(game.table, game.seat(alice)).dm_closed

    await game.play()
    await game.check_end()
    assert dm_place(game.table, game.seat(alice)).dm_closed == (fault.status == 403)
    if fault.status == 403:
        assert alice.ephemeral_clicks > clicks, "she played on through My hand"
    else:
        assert dm_place(game.table, game.seat(alice)).dm_message_id not in (None, old), (
            "a new DM, edited to the end"
        )
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("dm_edit"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_in_the_dms_cannot_be_edited(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Mid-game, the edit of alice's hand in her DMs fails: she blocked the bot (My hand
    then), the DM is gone (sent again), or Discord fails for a while (edited later)."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, notify=False)
    alice = game.humans[0]
    dm = world.member.user.dm_channel
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    occupant = game.table.seats[game.seat(alice)]
    assert occupant is not None
    old = dm_place(game.table, game.seat(alice)).dm_message_id
    assert old is not None
    if fault.code == 10008:  # the DM is deleted, for good
        injected = inject(env, "PATCH", f"/channels/{dm.id}/messages/{old}", fault, times=FOR_GOOD)
    else:
        injected = inject(env, "PATCH", f"/channels/{dm.id}/messages/*", fault)
    await game.play_until(lambda: injected.failed >= 1)

    clicks = alice.ephemeral_clicks
    if fault.status == 403:
        # alice blocked the bot mid-game: the table says so, she plays on through My hand
        assert (
            dm_place(game.table, game.seat(alice)).dm_closed
            and dm_place(game.table, game.seat(alice)).dm_message_id is None
        )
        check_dms_closed_notice(game, "alice")
    elif fault.retried:
        assert not game.shows_hand(game.dm_message(alice), alice), "the DM is behind"
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert game.shows_hand(game.dm_message(alice), alice), "the retry edits the DM"
        await game.retries_until(injected)
        assert game.shows_hand(game.dm_message(alice), alice)
    else:
        # the DM is gone: the hand is sent again
        assert dm_place(game.table, game.seat(alice)).dm_message_id not in (None, old)
        assert game.shows_hand(game.dm_message(alice), alice)

    await game.play()
    await game.check_end()
    if fault.status == 403:
        assert alice.ephemeral is not None and not alice.ephemeral_by_dm
        assert alice.ephemeral_clicks > clicks, "she played on through My hand"
        assert len(dm.history()) == 1, "no hand was sent again to closed DMs"
    await game.check_after_restart(test_config)
