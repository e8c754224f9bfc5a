"""A bot upgraded while a game plays: the table message and the hands it sent with embeds,
before layout components (Discord cannot turn those into layouts), are replaced by fresh
layout messages at their first show after the restart, and the old ones go."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest
import simcord

from bot.config import Config
from bot.tables.model import Status
from cogs.tables.places import HandPlace
from cogs.tables.presenter import presenter_of
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, new_game
from tests.cogs.tables._world import dm_place, placed
from tests.conftest import World

quick_games = _faults.quick_games


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_messages_sent_with_embeds_are_replaced_by_layouts(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    test_config: Config,
) -> None:
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=1, notify=False)
    await game.start()
    table = game.table
    (alice,) = game.humans
    seat = game.seat(alice)
    # as the version before layouts left them (migration 10 marks them): the table message
    # and alice's hand in embeds
    place = placed(table)
    thread = env.bot.get_partial_messageable(place.where_id)
    old_table = await thread.send(embed=discord.Embed(title="the table, in embeds"))
    dm_channel = alice.member.user.dm_channel.history()[-1].channel
    old_hand = await dm_channel.send(embed=discord.Embed(title="a hand, in embeds"))
    place.legacy_message_id, place.play_message_id = old_table.id, None
    place.hands[seat] = HandPlace(alice.member.id, dm_channel.id, old_hand.id, legacy=True)
    presenter_of(env.bot).places.changed(place)
    await game.restart(test_config)  # its stop writes where the messages are

    await game.play_until(lambda: len(game.deal.actions) >= 2)
    table = game.table
    fresh = game.table_message()
    assert fresh.id != old_table.id and fresh.flags.components_v2
    assert old_table.id not in {m.id for m in game.messages(placed(table).where_id)}, "it went"
    assert placed(table).legacy_message_id is None
    hand = game.dm_message(alice)
    assert hand is not None and hand.id != old_hand.id and hand.flags.components_v2
    assert old_hand.id not in {m.id for m in alice.member.user.dm_channel.history()}
    assert not dm_place(table, seat).legacy
    await game.play()
    assert game.table.status is Status.FINISHED
