"""No hand is left behind: a game that ends on a robot's move is drawn in every hand, and a
copy of a hand that nothing keeps up to date says so once it no longer shows the hand (no
"Your turn" left in it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, new_game
from tests.cogs.tables._world import gone, hand_buttons, layout_texts, op_button
from tests.conftest import World

quick_games = _faults.quick_games
"""Tiny pictures, easy robots (every test here)."""

ROBOT_ENDS = 2
"""A game whose last card is the robot's, alice's hand empty by then."""


def said(message: simcord.ResponseMessage | object) -> str:
    return "\n".join(layout_texts(message))  # type: ignore[arg-type]


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_game_that_ends_on_a_robots_move_ends_every_hand(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(ROBOT_ENDS)
    game = await new_game(env, world, notify=False)
    await game.start()
    await game.play()
    await game.check_end()
    last = game.deal.actions[-1]
    occupant = game.table.seats[last.seat]
    assert occupant is not None and occupant.robot_plays, "the robot played last"
    (hand,) = world.member.user.dm_channel.history()
    assert t("tables.play.status.finished", "en") in said(hand), "the hand shows the end"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_copy_of_a_hand_left_behind_says_so(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """alice's hand lives in her DMs; she opens My hand too, then plays in her DMs: the copy
    under My hand, behind now, goes (her hand is in her DMs)."""
    env = simcord_env
    table_seed(SEED)  # alice plays first
    game = await new_game(env, world, notify=False)
    alice = game.humans[0]
    await game.start()
    message = game.table_message()
    copy = (await world.member.click(message, custom_id=op_button(message, "hand"))).response
    assert copy is not None and copy.ephemeral
    your_turn = t("hand.your_turn", "en", clock="").strip()
    assert your_turn in said(copy)

    dm = game.dm_message(alice)
    assert dm is not None
    card = next(b for b in hand_buttons(dm) if not b.disabled)
    await world.member.user.click(dm, custom_id=card.custom_id)
    assert gone(env, copy)
    assert game.shows_hand(game.dm_message(alice), alice), "her hand, in her DMs"
