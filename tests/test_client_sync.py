"""The global command sync keeps the Activity's Entry Point command (type 4), at the HTTP
level: a stand-in for the bot's HTTP holds the global commands as Discord does and, as
Discord does, refuses a bulk overwrite that leaves the Entry Point out (50240), gives the
commands' localizations only to a read that asks for them (``with_localizations``), and,
for an application whose User Install is off, may refuse commands offered to user installs.
SimCord (which knows no Entry Point, nor its ``handler``) checks the start: the commands
are read, with their localizations, before they are overwritten."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import simcord
from discord import app_commands
from discord.http import Route

from bot.client import (
    ENTRY_POINT_REMOVED,
    PRIMARY_ENTRY_POINT,
    TuteBot,
    entry_points,
    sync_global_commands,
)
from tests.conftest import TEST_CONFIG

APP = 1234
INVALID_FORM_BODY = 50035

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


ENTRY_POINT_LOCALIZED: dict[str, Any] = {
    **ENTRY_POINT,
    "name": "play",
    "name_localizations": {"es-ES": "jugar", "es-419": "jugar"},
    "description": "Open the card table",
    "description_localizations": {"es-ES": "Abre la mesa de cartas"},
}
"""An Entry Point an operator named in both languages in the Developer Portal."""
LOCALIZATIONS = ("name_localizations", "description_localizations")
SERVERS_ONLY = [0]
"""``integration_types`` of a command only a server install offers."""


def http_error(status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(cast(Any, response), {"code": code, "message": "refused"})


@dataclass
class DiscordCommands:
    """The global commands as Discord holds them, through the two routes the sync uses."""

    held: list[dict[str, Any]] = field(default_factory=list)
    read_error: discord.HTTPException | None = None
    user_install: bool = True
    """The application's User Install (the portal's Installation page); off, an overwrite
    that offers a command to user installs is refused (400), the whole of it."""
    appears: list[dict[str, Any]] = field(default_factory=list)
    """Commands Discord adds after the next read (an Activity enabled meanwhile)."""
    calls: list[tuple[str, Any]] = field(default_factory=list)

    async def request(self, route: Route, *, params: dict[str, Any] | None = None) -> Any:
        """``GET /applications/{id}/commands``, the one route the sync reads through
        ``request`` (discord.py's own method sends no query)."""
        assert (route.method, route.path) == ("GET", "/applications/{application_id}/commands")
        localized = (params or {}).get("with_localizations") in ("true", True)
        return await self._read(localized)

    async def get_global_commands(self, application_id: int) -> list[dict[str, Any]]:
        return await self._read(localized=False)

    async def _read(self, localized: bool) -> list[dict[str, Any]]:
        self.calls.append(("GET", localized))
        if self.read_error is not None:
            raise self.read_error
        held = [dict(c) for c in self.held]
        if not localized:
            # as Discord answers without with_localizations: no dictionaries
            held = [{k: v for k, v in c.items() if k not in LOCALIZATIONS} for c in held]
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
        if not self.user_install and any(1 in c.get("integration_types", []) for c in payload):
            raise http_error(400, INVALID_FORM_BODY)
        by_key = {(c["name"], c.get("type", 1)): c for c in self.held}
        self.held = [
            {**by_key.get((c["name"], c.get("type", 1)), {}), **c, "id": str(i)}
            for i, c in enumerate(payload, start=1)
        ]
        return self.held


def bot_with_tute() -> TuteBot:
    """A bot whose one command is offered as ``/tute`` is: installed to a server or to a
    user, in servers, DMs with the bot and other DMs and group DMs."""
    bot = TuteBot(TEST_CONFIG)

    @app_commands.command(name="tute", description="Play Tute")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def tute(interaction: discord.Interaction[Any]) -> None: ...

    bot.tree.add_command(tute)
    return bot


def tree() -> app_commands.CommandTree[Any]:
    return bot_with_tute().tree


def logged_in(bot: TuteBot, discord_: DiscordCommands, installs: dict[str, Any] | None) -> None:
    """What login leaves: the bot's HTTP, its application id, and the application as
    ``GET /oauth2/applications/@me`` gives it (``integration_types_config``: the install
    types the portal's Installation page allows, "0" a server, "1" a user)."""
    bot.http = cast(Any, discord_)
    bot._connection.application_id = APP
    data: dict[str, Any] = {
        "id": str(APP),
        "name": "Tute",
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
    }
    if installs is not None:
        data["integration_types_config"] = installs
    bot._application = discord.AppInfo(bot._connection, cast(Any, data))


def synced_tute(discord_: DiscordCommands) -> dict[str, Any]:
    (tute,) = [c for c in discord_.held if c["name"] == "tute"]
    return tute


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
    assert ("GET", True) in discord_.calls, "read again with its localizations"
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
    logged_in(bot, discord_, None)
    await bot._sync_commands()
    assert len(sent(discord_)) == 2
    assert "Could not sync the slash commands" in caplog.text
    assert discord_.held == [ENTRY_POINT]


async def test_a_localized_entry_point_is_kept_whole() -> None:
    """The overwrite sends back the Entry Point as Discord holds it, its names and
    descriptions in other languages too: read without them, it would clear them."""
    discord_ = DiscordCommands(held=[{**ENTRY_POINT_LOCALIZED}])
    await sync_global_commands(tree(), discord_, APP)
    assert discord_.calls[0] == ("GET", True), "read with its localizations"
    (payload,) = sent(discord_)
    kept = payload[-1]
    assert kept["name_localizations"] == {"es-ES": "jugar", "es-419": "jugar"}
    assert kept["description_localizations"] == {"es-ES": "Abre la mesa de cartas"}
    (held,) = [c for c in discord_.held if c["type"] == PRIMARY_ENTRY_POINT]
    assert held["name_localizations"] == ENTRY_POINT_LOCALIZED["name_localizations"]


async def test_with_user_install_off_tute_is_synced_for_servers_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The portal's User Install off: /tute is offered to server installs only, at the
    first try (nothing refused), and the Entry Point is kept as it is; once User Install is
    on, the next start offers /tute to user installs again."""
    bot = bot_with_tute()
    entry = {**ENTRY_POINT, "integration_types": SERVERS_ONLY, "contexts": [0, 1]}
    discord_ = DiscordCommands(held=[entry], user_install=False)
    logged_in(bot, discord_, {"0": {}})
    with caplog.at_level(logging.INFO):
        await bot._sync_commands()
    assert len(sent(discord_)) == 1, "no refusal"
    tute = synced_tute(discord_)
    assert tute["integration_types"] == SERVERS_ONLY
    assert tute["contexts"] == [0, 1], "group DMs and DMs between members need a user install"
    assert [c for c in discord_.held if c["type"] == PRIMARY_ENTRY_POINT] == [{**entry, "id": "2"}]
    assert "User Install is off" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    discord_.user_install = True
    logged_in(bot, discord_, {"0": {}, "1": {"scopes": ["applications.commands"]}})
    await bot._sync_commands()
    assert synced_tute(discord_)["integration_types"] == [0, 1]
    assert synced_tute(discord_)["contexts"] == [0, 1, 2]


async def test_a_sync_refused_for_user_installs_is_made_again_for_servers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The application does not say, and Discord refuses /tute for user installs: the sync
    is made once more without them, and the log says what to turn on."""
    bot = bot_with_tute()
    discord_ = DiscordCommands(user_install=False)
    logged_in(bot, discord_, None)
    await bot._sync_commands()
    first, second = sent(discord_)
    assert first[0]["integration_types"] == [0, 1]
    assert second[0]["integration_types"] == SERVERS_ONLY
    assert synced_tute(discord_)["integration_types"] == SERVERS_ONLY
    assert "syncing them again for servers only" in caplog.text
    assert "User Install" in caplog.text
    assert "Could not sync the slash commands" not in caplog.text


def test_only_entry_points_are_kept() -> None:
    held = [{"name": "tute", "type": 1, "description": "x"}, {**ENTRY_POINT}]
    assert [c["name"] for c in entry_points(held)] == ["launch"]


@pytest.mark.e2e
async def test_at_start_the_commands_are_read_before_they_are_overwritten(
    simcord_env: simcord.Env,
) -> None:
    calls = [
        (r.method, r.path, r.params)
        for r in simcord_env.http_requests
        if r.path.startswith("/applications/") and r.path.endswith("/commands")
    ]
    app = simcord_env.backend.application_id
    assert calls == [
        ("GET", f"/applications/{app}/commands", {"with_localizations": "true"}),
        ("PUT", f"/applications/{app}/commands", {}),
    ]
    assert simcord_env.backend.find_command("tute", None, type=1) is not None
