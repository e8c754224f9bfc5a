"""The global command sync keeps the Activity's Entry Point command (type 4), at the HTTP
level: a stand-in for the bot's HTTP holds the global commands as Discord does and, as
Discord does, refuses a bulk overwrite that leaves the Entry Point out (50240). SimCord
(which knows no Entry Point, nor its ``handler``) checks the start: the commands are read
before they are overwritten."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import simcord
from discord import app_commands

from bot.client import (
    ENTRY_POINT_REMOVED,
    PRIMARY_ENTRY_POINT,
    TuteBot,
    entry_points,
    sync_global_commands,
)
from tests.conftest import TEST_CONFIG

APP = 1234

ENTRY_POINT: dict[str, Any] = {
    "id": "99",
    "application_id": str(APP),
    "version": "5",
    "type": PRIMARY_ENTRY_POINT,
    "name": "launch",
    "name_localizations": None,
    "description": "Open the card table",
    "description_localizations": None,
    "handler": 2,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
    "default_member_permissions": None,
    "nsfw": False,
    "dm_permission": True,
}
"""An Entry Point as ``GET /applications/{id}/commands`` returns it (DISCORD_LAUNCH_ACTIVITY)."""


def http_error(status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(cast(Any, response), {"code": code, "message": "refused"})


@dataclass
class DiscordCommands:
    """The global commands as Discord holds them, through the two routes the sync uses."""

    held: list[dict[str, Any]] = field(default_factory=list)
    read_error: discord.HTTPException | None = None
    appears: list[dict[str, Any]] = field(default_factory=list)
    """Commands Discord adds after the next read (an Activity enabled meanwhile)."""
    calls: list[tuple[str, Any]] = field(default_factory=list)

    async def get_global_commands(self, application_id: int) -> list[dict[str, Any]]:
        self.calls.append(("GET", application_id))
        if self.read_error is not None:
            raise self.read_error
        held = [dict(c) for c in self.held]
        self.held += self.appears
        self.appears = []
        return held

    async def bulk_upsert_global_commands(
        self, application_id: int, *, payload: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        self.calls.append(("PUT", [dict(c) for c in payload]))
        types = {c.get("type", 1) for c in payload}
        if any(c["type"] == PRIMARY_ENTRY_POINT for c in self.held) and (
            PRIMARY_ENTRY_POINT not in types
        ):
            raise http_error(400, ENTRY_POINT_REMOVED)
        by_key = {(c["name"], c.get("type", 1)): c for c in self.held}
        self.held = [
            {**by_key.get((c["name"], c.get("type", 1)), {}), **c, "id": str(i)}
            for i, c in enumerate(payload, start=1)
        ]
        return self.held


def tree() -> app_commands.CommandTree[Any]:
    bot = TuteBot(TEST_CONFIG)

    @app_commands.command(name="tute", description="Play Tute")
    async def tute(interaction: discord.Interaction[Any]) -> None: ...

    bot.tree.add_command(tute)
    return bot.tree


def sent(discord_: DiscordCommands) -> list[list[dict[str, Any]]]:
    return [payload for method, payload in discord_.calls if method == "PUT"]


async def test_without_an_entry_point_the_tree_is_synced_as_it_is() -> None:
    discord_ = DiscordCommands()
    synced = await sync_global_commands(tree(), discord_, APP)
    assert [m for m, _ in discord_.calls] == ["GET", "PUT"], "read first"
    (payload,) = sent(discord_)
    assert [c["name"] for c in payload] == ["tute"]
    assert synced is not None and [c["name"] for c in synced] == ["tute"]


async def test_the_entry_point_is_kept_as_fetched(caplog: pytest.LogCaptureFixture) -> None:
    discord_ = DiscordCommands(held=[{**ENTRY_POINT}])
    with caplog.at_level(logging.INFO):
        synced = await sync_global_commands(tree(), discord_, APP)
    (payload,) = sent(discord_)
    assert [c["name"] for c in payload] == ["tute", "launch"]
    kept = payload[1]
    assert kept == {
        "name": "launch",
        "name_localizations": None,
        "description": "Open the card table",
        "description_localizations": None,
        "type": 4,
        "handler": 2,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
        "default_member_permissions": None,
        "nsfw": False,
    }, "as fetched, less what Discord makes (id, application id, version)"
    assert synced is not None
    assert [(c["name"], c["type"]) for c in synced if c.get("type") == 4] == [("launch", 4)]
    assert "Kept the Entry Point command 'launch'" in caplog.text


async def test_a_sync_that_left_the_entry_point_out_is_what_discord_refuses() -> None:
    """The stand-in refuses as Discord does: the overwrite tree.sync() would send."""
    discord_ = DiscordCommands(held=[{**ENTRY_POINT}])
    with pytest.raises(discord.HTTPException) as refused:
        await discord_.bulk_upsert_global_commands(APP, payload=[{"name": "tute", "type": 1}])
    assert refused.value.code == ENTRY_POINT_REMOVED == 50240
    assert discord_.held == [ENTRY_POINT], "nothing changed"


async def test_commands_that_cannot_be_read_are_not_overwritten(
    caplog: pytest.LogCaptureFixture,
) -> None:
    discord_ = DiscordCommands(held=[{**ENTRY_POINT}], read_error=http_error(503, 0))
    assert await sync_global_commands(tree(), discord_, APP) is None
    assert sent(discord_) == [], "no blind overwrite"
    assert discord_.held == [ENTRY_POINT], "the entry point stays"
    assert "Not syncing the slash commands: the global ones could not be read" in caplog.text


async def test_an_entry_point_that_appears_during_the_sync_is_read_again() -> None:
    discord_ = DiscordCommands(appears=[{**ENTRY_POINT}])
    synced = await sync_global_commands(tree(), discord_, APP)
    first, second = sent(discord_)
    assert [c["name"] for c in first] == ["tute"], "refused: 50240"
    assert [c["name"] for c in second] == ["tute", "launch"]
    assert [m for m, _ in discord_.calls] == ["GET", "PUT", "GET", "PUT"]
    assert synced is not None and {c["name"] for c in synced} == {"tute", "launch"}


async def test_the_bot_logs_a_sync_discord_keeps_refusing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two refusals in a row: the bot says so and starts (the last sync's commands stay)."""

    class Refusing(DiscordCommands):
        async def bulk_upsert_global_commands(
            self, application_id: int, *, payload: list[dict[str, Any]]
        ) -> list[dict[str, Any]]:
            self.calls.append(("PUT", payload))
            raise http_error(400, ENTRY_POINT_REMOVED)

    bot = TuteBot(TEST_CONFIG)
    discord_ = Refusing(held=[{**ENTRY_POINT}])
    bot.http = cast(Any, discord_)
    bot._connection.application_id = APP  # what login sets
    await bot._sync_commands()
    assert len(sent(discord_)) == 2
    assert "Could not sync the slash commands" in caplog.text
    assert discord_.held == [ENTRY_POINT]


def test_only_entry_points_are_kept() -> None:
    held = [{"name": "tute", "type": 1, "description": "x"}, {**ENTRY_POINT}]
    assert [c["name"] for c in entry_points(held)] == ["launch"]


@pytest.mark.e2e
async def test_at_start_the_commands_are_read_before_they_are_overwritten(
    simcord_env: simcord.Env,
) -> None:
    calls = [
        (r.method, r.path)
        for r in simcord_env.http_requests
        if r.path.startswith("/applications/") and r.path.endswith("/commands")
    ]
    app = simcord_env.backend.application_id
    assert calls == [
        ("GET", f"/applications/{app}/commands"),
        ("PUT", f"/applications/{app}/commands"),
    ]
    assert simcord_env.backend.find_command("tute", None, type=1) is not None
