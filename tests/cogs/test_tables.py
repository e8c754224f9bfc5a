"""Tables end to end through SimCord: the real bot, slash commands, buttons and DMs."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    bot = TuteBot(test_config)
    bot.robot_delay = 0  # type: ignore[attr-defined]
    bot.think_budget = 0.02  # type: ignore[attr-defined]
    return bot


def enabled_cards(message: discord.Message) -> list[str]:
    labels: list[str] = []
    for row in message.components:
        for child in getattr(row, "children", []):
            if (
                isinstance(child, discord.Button)
                and not child.disabled
                and child.custom_id
                and child.custom_id.startswith("tute:h:")
            ):
                code = child.custom_id.rsplit(":", 1)[1]
                if code[0].isdigit():
                    labels.append(child.custom_id)
    return labels


@pytest.mark.simcord(settle_timeout=3)
async def test_habanero_against_a_robot(simcord_env: simcord.Env, world: Any) -> None:
    env = simcord_env
    alice = world.member
    result = await alice.slash(world.channel, "tute new", variant="habanero")
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    await alice.click(
        lobby, custom_id=lobby.message.components[1].children[0].custom_id
    )  # add robot
    start = next(
        c.custom_id
        for row in lobby.message.components
        for c in row.children
        if c.custom_id and c.custom_id.endswith(":start")
    )
    await alice.click(lobby, custom_id=start)
    dm = alice.user.dm_channel
    for _ in range(200):
        hand = dm.history()[-1]
        cards = enabled_cards(hand)
        if not cards:
            break
        await alice.user.click(hand, custom_id=cards[0])
    tables = env.bot.tables  # type: ignore[attr-defined]
    table = next(iter(tables.tables.values()))
    assert table.status.value == "finished", table.status
