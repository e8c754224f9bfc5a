"""Channel noise: a long game of four members leaves in its channel and its thread what
makes its record, and nothing that was said for a moment (a turn's ping, a hand left
behind under My hand)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
import simcord

from tests.cogs.tables._noise import VARIANTS, left_behind, slow_game
from tests.conftest import World


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_a_slow_game_of_four_leaves_its_record_alone(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None], variant: str
) -> None:
    """Four members, two with their DMs closed, each letting every turn wait: the closed
    ones are pinged every turn and play under My hand. At the end the channel holds the
    lobby alone (Discord's notice of the thread went), the thread each deal's summary (its
    record, with its Replay) and the result; no ping, no hand left behind, each message
    deleted once."""
    env = simcord_env
    table_seed(1)
    game = await slow_game(env, world, variant)
    left = left_behind(game)
    deals = game.table.deal_no
    assert deals >= 1, "a game of more than one deal"
    assert left.pings >= 10, "the closed ones were pinged along the way"
    assert left.channel == {"lobby": 1}, left.channel
    assert left.thread == {"deal summary": deals, "result": 1}, left.thread
    assert max(left.deletes.values()) == 1, "each message deleted once"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_game_slow_enough_to_move_its_table_on_leaves_no_pointer(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Each turn waits a minute and a half: a deal outlasts 50 minutes, and its table moves
    to a fresh message (Discord stops editing a message an hour old). The old one goes: the
    fresh one is right under it, and becomes the deal's summary."""
    env = simcord_env
    table_seed(1)
    game = await slow_game(env, world, "individual", rounds=1, wait=90)
    left = left_behind(game)
    deals = game.table.deal_no
    assert left.channel == {"lobby": 1}, left.channel
    assert left.thread == Counter({"deal summary": deals, "result": 1}), left.thread
    moves = [c for c in env.http_requests if c.method == "POST" and "/messages" in c.path]
    assert len(moves) > deals + 1 + left.pings, "the table moved on"
