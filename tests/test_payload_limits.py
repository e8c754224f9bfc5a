"""Every request the bot makes in a SimCord test is held to Discord's documented limits (the
``discord_limits`` fixture of tests/conftest.py): the command tree it syncs at start, and a
message over a limit is named with its route, the limit and the value."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.i18n import CATALOGS
from tests.conftest import World
from tests.discord_limits import COMMAND_TOTAL, check_request


@pytest.mark.e2e
async def test_the_command_tree_synced_at_start_keeps_discords_limits(
    simcord_env: simcord.Env,
) -> None:
    """The tree in every language the catalog has: names, descriptions, options, choices and
    the 8,000 characters of /tute (the longest translation of each field counted)."""
    assert set(CATALOGS) >= {"en", "es"}
    syncs = [
        r
        for r in simcord_env.http_requests
        if r.method == "PUT"
        and r.path.startswith("/applications/")
        and r.path.endswith("/commands")
    ]
    assert syncs, "the bot syncs its commands at start"
    for sync in syncs:
        assert isinstance(sync.json, list)
        assert check_request(sync.method, sync.path, sync.json) == []
        tute = next(c for c in sync.json if c["name"] == "tute")
        assert tute.get("name_localizations", {}).get("es-ES") or tute.get(
            "description_localizations"
        ), "/tute is translated"


@pytest.mark.e2e
async def test_a_message_over_a_limit_is_named_with_its_route_limit_and_value(
    simcord_env: simcord.Env, world: World, discord_limits: list[str]
) -> None:
    channel = simcord_env.bot.get_channel(world.channel.id)
    assert channel is not None
    users = [discord.Object(i) for i in range(1, 102)]
    mentions = discord.AllowedMentions(users=users)
    await channel.send("hi", allowed_mentions=mentions)  # type: ignore[union-attr]
    assert discord_limits == [
        f"POST /channels/{world.channel.id}/messages: allowed_mentions.users is 101, "
        "over the limit of 100"
    ]
    discord_limits.clear()  # the refusal this test made on purpose


def test_the_total_of_a_command_is_8000() -> None:
    assert COMMAND_TOTAL == 8000
