"""The robots' level a host picks with ``/tute new robots:``: shown in the lobby, given to
the robots the host adds and to those that fill the empty seats at the start."""

from __future__ import annotations

import pytest
import simcord

from bot.ai import Level
from bot.i18n import t
from bot.tables.model import Status
from tests.cogs.tables._world import op_button, the_table
from tests.conftest import World


def _lobby_text(world: World, message_id: int) -> str:
    message = next(m for m in world.channel.history() if m.id == message_id)
    (embed,) = message.embeds
    return "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
async def test_the_robots_play_at_the_level_the_host_picked(
    simcord_env: simcord.Env, world: World, level: Level
) -> None:
    alice = world.member
    lobby = (
        await alice.slash(world.channel, "tute new", variant="pairs", robots=level.value)
    ).response
    assert lobby is not None
    table = the_table(env=simcord_env)
    shown = _lobby_text(world, lobby.id)
    assert t("tables.opt.robots", "en", value=t(f"robots.{level.value}", "en")) in shown

    await alice.click(lobby, custom_id=op_button(lobby, "robot"))
    robot = table.seats[1]
    assert robot is not None and robot.robot is level
    name = t("tables.robot_name", "en", number=1, level=t(f"robots.{level.value}", "en"))
    assert name in _lobby_text(world, lobby.id)

    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    assert table.status is Status.PLAYING
    assert [s.robot for s in table.seats[1:] if s is not None] == [level] * 3


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_without_a_pick_the_robots_are_hard(simcord_env: simcord.Env, world: World) -> None:
    alice = world.member
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    assert t("tables.opt.robots", "en", value=t("robots.hard", "en")) in _lobby_text(
        world, lobby.id
    )
    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    robot = the_table(simcord_env).seats[1]
    assert robot is not None and robot.robot is Level.HARD
