"""Hands that follow the table where Discord would stop them: a DM hand edited all game long
moves to a fresh message before its hour is up, as the table message does."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.model import Seat
from bot.tables.views import table_view
from cogs.tables.pings import ping_after
from tests.cogs.tables._game import SEED, Game, Human, new_game
from tests.cogs.tables._world import (
    dm_place,
    hand_buttons,
    op_button,
    open_table,
    placed,
    service_of,
    the_table,
    thread_of,
)
from tests.conftest import World


async def dm_hand_in_play(env: simcord.Env, world: World) -> tuple[Game, Human, Seat, int | None]:
    """alice, with turn notices off, two actions into a game: her game, her, her seat and the id
    of the DM hand she has had since the start."""
    game = await new_game(env, world, notify=False)
    alice = game.humans[0]
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    occupant = game.table.seats[game.seat(alice)]
    assert occupant is not None and dm_place(game.table, game.seat(alice)).dm_message_id is not None
    return game, alice, occupant, dm_place(game.table, game.seat(alice)).dm_message_id


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_dm_hand_edited_for_near_an_hour_moves_to_a_fresh_message(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """alice turned turn notices off: her DM hand is edited in place. Discord stops edits
    of a message an hour old, so past 50 minutes the hand comes as a new message and the old
    one goes; the game plays on to its end."""
    env = simcord_env
    table_seed(SEED)
    game, alice, _, first = await dm_hand_in_play(env, world)
    actions = len(game.deal.actions)
    await game.play_until(lambda: len(game.deal.actions) >= actions + 2)
    assert dm_place(game.table, game.seat(alice)).dm_message_id == first, (
        "edited in place while young"
    )

    await env.advance_time(51 * 60)
    actions = len(game.deal.actions)
    await game.play_until(lambda: len(game.deal.actions) >= actions + 2)
    assert dm_place(game.table, game.seat(alice)).dm_message_id not in (None, first), (
        "a fresh message"
    )
    dm = world.member.user.dm_channel
    assert [m.id for m in dm.history()] == [dm_place(game.table, game.seat(alice)).dm_message_id], (
        "the old one went"
    )
    assert game.shows_hand(game.dm_message(alice), alice)
    await game.play()
    await game.check_end()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_dm_hand_discord_will_not_edit_any_more_comes_again(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Discord's own word (30046, an hour's edits used up) moves the hand too, whatever its
    age: a fresh message, the old one gone."""
    env = simcord_env
    table_seed(SEED)
    game, alice, _, first = await dm_hand_in_play(env, world)
    dm = world.member.user.dm_channel
    env.inject_error(
        "PATCH",
        f"/channels/{dm.id}/messages/{first}",
        status=400,
        code=30046,
        message="Maximum number of edits to messages older than 1 hour reached.",
    )
    actions = len(game.deal.actions)
    await game.play_until(lambda: len(game.deal.actions) >= actions + 2)
    assert dm_place(game.table, game.seat(alice)).dm_message_id not in (None, first)
    assert [m.id for m in dm.history()] == [dm_place(game.table, game.seat(alice)).dm_message_id]
    assert game.shows_hand(game.dm_message(alice), alice)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_with_ephemeral_hands_the_turn_ping_is_in_the_thread_and_goes(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """A server that deals hands as ephemeral messages pings a player whose turn comes where
    the table plays (its thread), from the very first turn, once they have let it wait a
    while; once they played, it goes. A player who plays in time is never pinged."""
    env = simcord_env
    table_seed(SEED)  # alice plays first
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, hand_delivery="ephemeral")
    await open_table(env, world, "habanero", [alice], robots=1)
    table = the_table(env)
    deal = table.deal
    assert deal is not None and deal.turn == table.seat_of(alice.id)
    thread = thread_of(world, table)
    ping = t("tables.your_turn_ping", "en", mention=f"<@{alice.id}>")
    assert not [m for m in thread.history() if m.content == ping], "not at once"
    await env.advance_time(ping_after(table_view(table)) + 1)
    assert not [m for m in world.channel.history() if m.content == ping], "not in the channel"
    (first,) = [m.id for m in thread.history() if m.content == ping]

    message = next(m for m in thread.history() if m.id == placed(table).play_message_id)
    hand = (await alice.click(message, custom_id=op_button(message, "hand"))).response
    assert hand is not None
    card = next(b for b in hand_buttons(hand) if not b.disabled)
    await alice.click(hand, custom_id=card.custom_id)
    assert len(deal.actions) >= 2, "she played, the robot answered"
    assert first not in {m.id for m in thread.history()}, "the ping of the turn she played"
    # her turn again: she plays at once, and is never pinged for it
    assert deal.turn == table.seat_of(alice.id)
    hand = (await alice.click(message, custom_id=op_button(message, "hand"))).response
    assert hand is not None
    card = next(b for b in hand_buttons(hand) if not b.disabled)
    await alice.click(hand, custom_id=card.custom_id)
    assert not [m for m in thread.history() if m.content == ping]
    assert not [m for m in world.channel.history() if m.content == ping]
