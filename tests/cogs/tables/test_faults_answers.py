"""Discord fails on an interaction's answer: a click in a hand (the card is played all the
same), and ``/tute new`` (its table is closed at once).

The faults, and what keeps these games quick, are in ``_faults``; the games in ``_game``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.config import Config
from bot.storage import tables as table_repo
from bot.tables.codes import decode_action
from bot.tables.model import Status
from tests.cogs.tables import _faults
from tests.cogs.tables._faults import Fault, faults_for, inject
from tests.cogs.tables._game import SEED, Game, Human, db_of, new_game, service_of
from tests.cogs.tables._world import channel_of
from tests.conftest import World

quick_games = _faults.quick_games
"""Tiny pictures, easy robots, a SimCord that checks a settling bot often (every test here)."""


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("click_answer"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_click_in_a_hand_cannot_be_answered(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Two humans: the card of a click whose answer fails is played all the same, and both
    hands and the table show it."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world, humans=2)
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    deal = game.deal
    player = game.human_at(deal.turn)
    assert player is not None
    other = next(h for h in game.humans if h is not player)
    seat = game.seat(player)
    hand = await game.hand(player)
    assert hand is not None and channel_of(hand) == player.member.user.dm_channel.id
    card = next(b for b in game.usable(hand, seat) if b.custom_id.rsplit(":", 1)[1][0].isdigit())
    played = decode_action(seat, card.custom_id.rsplit(":", 1)[1])
    before = len(deal.actions)

    injected = inject(env, "POST", "/interactions/*/*/callback", fault)
    result = await game.click(player, hand, card)
    assert injected.failed == 1 and not result.acknowledged
    # the card is played and saved; both hands and the table show it
    assert len(deal.actions) > before and deal.actions[before] == played
    saved = await table_repo.deal_actions(db_of(env), game.table_id, game.table.deal_no)
    assert len(saved) == len(deal.actions)
    assert game.shows_hand(game.dm_message(player), player)
    assert game.shows_hand(game.dm_message(other), other)
    assert game.table_is_current()

    await game.play()
    assert injected.failed == fault.times
    await game.check_end()
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("command_answer"))
@pytest.mark.simcord(settle_timeout=3)
async def test_tute_new_cannot_be_answered(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Nobody can see a lobby whose answer failed: its table is closed at once; the next
    ``/tute new`` works."""
    env = simcord_env
    table_seed(SEED)
    injected = inject(env, "POST", "/interactions/*/*/callback", fault)
    service = service_of(env)
    for _ in range(fault.times):
        result = await world.member.slash(world.channel, "tute new", variant="habanero")
        assert not result.acknowledged and result.response is None
        assert not service.tables, "no table is left open"
        rows = await db_of(env).fetchall("SELECT status FROM tables")
        assert rows and {status for (status,) in rows} == {Status.CLOSED.value}
    assert injected.failed == fault.times

    game = Game(env, world, [Human(world.member)], SEED)
    await game.open(robots=1)
    await game.start()
    await game.play()
    await game.check_end()
    await game.check_after_restart(test_config)
