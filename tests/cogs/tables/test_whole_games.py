"""Whole games through SimCord, each variant: the humans click their hands, the robots play,
and what each person sees is audited after every click (see ``_driver``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.storage.settings import update_settings
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    add_member,
    card_of,
    hand_buttons,
    open_table,
    placed,
    the_table,
)
from tests.conftest import World
from tests.tables._play import tables_of


def enabled_cards(message: discord.Message) -> list[str]:
    return [b.custom_id for b in hand_buttons(message) if not b.disabled and card_of(b) is not None]


async def play_first_cards(member: simcord.MemberActor) -> None:
    """The member plays the first card it may from its DM'd hand until it has none left."""
    dm = member.user.dm_channel
    for _ in range(400):
        hand = dm.history()[-1]
        cards = enabled_cards(hand)
        if not cards:
            return
        await member.user.click(hand, custom_id=cards[0])


@pytest.mark.e2e
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
    await play_first_cards(alice)
    table = next(iter(tables_of(env.bot.tables).values()))  # type: ignore[attr-defined]
    assert table.status.value == "finished", table.status


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_pairs_two_partners_and_two_robots(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(1)
    bob = await add_member(env, world, "bob")
    lobby = await open_table(env, world, "pairs", [world.member, bob], robots=2, teams=[0, 0])
    table = the_table(env)
    assert [s.user_id if s else None for s in table.seats] == [world.member.id, None, bob.id, None]
    # the lobby now points to the game's thread, where the table is
    assert placed(table).thread_id is not None and f"<#{placed(table).thread_id}>" in (
        lobby.embeds[0].description or ""
    )
    (follow,) = [b for row in lobby.components for b in row["components"] if b.get("url")]
    assert follow["url"].endswith(f"/{placed(table).thread_id}")
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.clicks >= 10


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_habanero_two_humans(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(1)  # two deals; a player sings, one exchanges the trump 7 (or the 2)
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "habanero", [world.member, bob])
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.table.deal_no == 1
    assert "x" in driver.declared and any(code[0] == "s" for code in driver.declared)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_habanero_one_human_and_a_robot(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """The robot draws and plays between alice's clicks; her DM follows her hand."""
    env = simcord_env
    table_seed(8)
    await open_table(env, world, "habanero", [world.member], robots=1)
    driver = Driver(env, world, [Player(world.member)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.clicks >= 20


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_individual_two_humans_and_two_robots(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """One robot added with the button, the last seat filled at the start."""
    env = simcord_env
    table_seed(2)
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "individual", [world.member, bob], robots=1)
    table = the_table(env)
    assert [s is not None and s.is_robot for s in table.seats] == [False, False, True, True]
    driver = Driver(env, world, [Player(world.member), Player(bob)])
    driver.audit.check()
    await driver.play()
    driver.check_end()
    assert driver.clicks >= 20


EVERY_TABLE = [
    ("habanero", None),
    ("arrastrado", None),
    ("arrastrado", "seats=4"),
    ("individual", None),
    ("pairs", None),
]
"""Each kind of table: a variant, and the house rule that makes another table of it."""

LONG_NAME = "Ñandú_*Gaucho*_de_la_Pampa~~||ñ|"
"""32 characters, the most Discord allows a name, half of them escaped where shown."""


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    ("variant", "house"),
    EVERY_TABLE,
)
async def test_a_whole_game_of_each_variant_keeps_discords_limits(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
    variant: str,
    house: str | None,
    language: str,
) -> None:
    """A member with a name of 32 characters plays a whole game against robots, in each
    language: every request the bot makes on the way is within Discord's documented limits
    (the ``discord_limits`` fixture of tests/conftest.py fails the test otherwise)."""
    env = simcord_env
    table_seed(4)
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language=language)
    set_locale("es-ES" if language == "es" else "en-US")
    member = await add_member(env, world, LONG_NAME)
    assert len(LONG_NAME) == 32
    options: dict[str, Any] = {"house": house} if house else {}
    await open_table(env, world, variant, [member], **options)
    assert the_table(env).language == language
    await play_first_cards(member)
    assert the_table(env).status.value == "finished"
