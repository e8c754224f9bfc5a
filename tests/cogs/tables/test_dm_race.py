"""Two redraws of the same hand at once (a click's and a robot's, say), each from a view
taken before the player had a DM: one DM comes, not two."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import simcord

from cogs.tables.presenter import presenter_of
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, new_game
from tests.cogs.tables._world import dm_place
from tests.conftest import World

quick_games = _faults.quick_games


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_two_redraws_at_once_send_one_dm(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=1, notify=False)
    await game.start()
    (alice,) = game.humans
    table = game.table
    occupant = table.seats[game.seat(alice)]
    assert occupant is not None and dm_place(table, game.seat(alice)).dm_message_id is not None
    before = len(alice.member.user.dm_channel.history())
    # as if her hand had never reached her DMs
    lost = dm_place(table, game.seat(alice))
    lost.dm_message_id = lost.dm_channel_id = None
    presenter = presenter_of(env.bot)
    presenter.forget_hand(table.id, game.seat(alice))
    service = game.service
    view = service.view(table.id)
    hand = service.hand_view(table.id, game.seat(alice))
    place = await presenter.places.of(view)
    await asyncio.gather(
        presenter.hands.deliver(view, place, hand), presenter.hands.deliver(view, place, hand)
    )
    await env.settle()
    assert len(alice.member.user.dm_channel.history()) == before + 1, "one DM, not two"
    assert dm_place(table, game.seat(alice)).dm_message_id is not None
