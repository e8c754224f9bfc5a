"""Forty members sign up for a tournament, each with a name of 32 characters (the most
Discord allows) full of markdown to escape: the sign-up post, edited at every join, stays
within Discord's documented limits in both languages (the ``discord_limits`` fixture of
tests/conftest.py fails the test with the request over a limit)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.storage.settings import update_settings
from tests.cogs.tournaments.test_tournaments import sign_up
from tests.conftest import World

pytestmark = pytest.mark.e2e


def long_name(i: int) -> str:
    name = f"{i:02d}_*Gaucho*_de_la_Pampa~~||ñandú"
    assert len(name) == 32
    return name


@pytest.mark.parametrize("language", ["en", "es"])
async def test_forty_sign_ups_with_32_character_names_keep_discords_limits(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    language: str,
) -> None:
    env = simcord_env
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language=language)
    set_locale("es-ES" if language == "es" else "en-US")
    names = tuple(long_name(i) for i in range(1, 40))  # alice, the host, and 39 more
    _signup, members, _tid = await sign_up(env, world, names)
    assert len(members) == 40
