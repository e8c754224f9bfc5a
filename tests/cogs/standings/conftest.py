"""What the standings tests share: the bot's database, closed after each test, and a
member who may manage the server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.storage import Database
from tests.conftest import World


def db_of(env: simcord.Env) -> Database:
    db = env.bot.db  # type: ignore[attr-defined]
    assert isinstance(db, Database)
    return db


@pytest.fixture(autouse=True)
async def close_the_database(simcord_env: simcord.Env) -> AsyncIterator[None]:
    """SimCord stops the bot without calling its close(): close its database here, so the
    connection's thread does not outlive the test's event loop."""
    yield
    await db_of(simcord_env).close()


@pytest.fixture
async def admin(simcord_env: simcord.Env, world: World) -> MemberActor:
    """dora, who has the Manage Server permission."""
    managers = world.guild.create_role(
        "Managers", permissions=discord.Permissions(manage_guild=True)
    )
    return world.guild.add_member(simcord_env.create_user("dora"), roles=[managers])


def embed_of(result: simcord.InteractionResult) -> discord.Embed:
    assert result.response is not None
    [embed] = result.response.embeds
    return embed


def fields_of(embed: discord.Embed) -> dict[str, str]:
    return {str(f.name): str(f.value) for f in embed.fields}


def buttons_of(message: discord.Message) -> list[discord.ui.Button[discord.ui.View]]:
    [row] = message.components
    assert isinstance(row, discord.ActionRow)
    return [b for b in row.children if isinstance(b, discord.Button)]  # type: ignore[misc]
