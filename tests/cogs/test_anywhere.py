"""/tute outside a server the bot is in (a DM with the bot, a server where only the user
installed the app): /tute play opens the web table, /tute about and /tute rules answer as
anywhere, and every other command says privately, in words, that it needs a server (pointing
to /tute play where the bot has a web table), logging no error. In a server with the bot
nothing changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.interactions import command_leaves

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from bot.tables.service import TableService
from tests.cogs._activity import answer_launches
from tests.conftest import World, sim_bot
from tests.logged import errors_logged

pytestmark = pytest.mark.e2e

ANYWHERE = {
    "tute about",
    "tute rules",
    "tute play",
    "tute learn",
    "tute privacy show",
    "tute privacy erase",
}
"""The commands that work without a server (in English, as SimCord invokes them)."""

_STRING, _INTEGER, _BOOLEAN, _NUMBER = 3, 4, 5, 10


def _filled(spec: dict[str, Any]) -> dict[str, Any]:
    """A value for every required option of a (sub)command: its first choice, or the least
    its type takes."""
    given: dict[str, Any] = {}
    for option in spec.get("options") or []:
        if not option.get("required"):
            continue
        choices = option.get("choices") or []
        kind = option["type"]
        if choices:
            given[option["name"]] = choices[0]["value"]
        elif kind == _STRING:
            given[option["name"]] = "x"
        elif kind in (_INTEGER, _NUMBER):
            given[option["name"]] = option.get("min_value", 1)
        elif kind == _BOOLEAN:
            given[option["name"]] = True
        else:
            raise AssertionError(f"no value for option {option['name']!r} of type {kind}")
    return given


def _needing_a_server(env: simcord.Env) -> list[tuple[str, dict[str, Any]]]:
    tute = env.backend.find_command("tute", None, type=1)
    assert tute is not None
    leaves = [(" ".join(path), _filled(spec)) for path, spec in command_leaves(tute)]
    assert {name for name, _ in leaves} >= ANYWHERE
    return [(name, options) for name, options in leaves if name not in ANYWHERE]


def _tables(env: simcord.Env) -> TableService:
    bot = env.bot
    assert isinstance(bot, TuteBot) and bot.tables is not None
    return bot.tables


def _web_bot(config: Config) -> TuteBot:
    return sim_bot(dataclasses.replace(config, web_port=0, client_secret="oauth-secret"))


async def test_in_a_dm_every_command_that_needs_a_server_says_so(
    simcord_env: simcord.Env, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Without a web table (this bot has none) the refusal only says why."""
    user = world.member.user
    needing = _needing_a_server(simcord_env)
    assert {"tute new", "tute tables", "tute daily", "tute config"} <= {n for n, _ in needing}
    for name, options in needing:
        result = await user.slash(name, **options)
        assert result.ephemeral, name
        assert result.response is not None, name
        assert result.response.content == t("errors.needs_server", "en"), name
    assert not errors_logged(caplog)


async def test_in_a_dm_about_and_rules_answer(simcord_env: simcord.Env, world: World) -> None:
    user = world.member.user
    about = await user.slash("tute about")
    assert about.ephemeral and about.response is not None
    assert about.response.embeds[0].title == t("about.title", "en")
    rules = await user.slash("tute rules")
    assert rules.ephemeral and rules.response is not None


async def test_play_without_a_web_table_says_how_an_admin_turns_it_on(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    for where in ("server", "dm"):
        for locale, lang in (("en-US", "en"), ("es-ES", "es")):
            set_locale(locale)
            if where == "server":
                result = await world.member.slash(world.channel, "tute play")
            else:
                result = await world.member.user.slash("tute play")
            assert result.ephemeral
            assert result.response is not None
            assert result.response.content == t("tables.web.off", lang)


async def test_play_opens_the_web_table_in_a_server_and_in_a_dm(
    test_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = _web_bot(test_config)
    launches = answer_launches(monkeypatch)
    async with simcord.run(bot) as env:
        try:
            guild = env.create_guild("Casino")
            channel = guild.create_text_channel("tute")
            alice = guild.add_member(env.create_user("alice"))
            in_server = await alice.slash(channel, "tute play")
            in_dm = await alice.user.slash("tute play")
            assert in_server.acknowledged and in_server.response is None
            assert in_dm.acknowledged and in_dm.response is None
            dm = alice.user.dm_channel
            assert [(a.channel_id, a.user_id) for a in launches] == [
                (channel.id, alice.id),
                (dm.id, alice.id),
            ]
            # a command that needs a server points to /tute play, in the user's language
            refused = await alice.user.slash("tute new", variant="habanero")
            assert refused.response is not None
            assert refused.response.content == t(
                "errors.needs_server_play", "en", command="tute play"
            )
        finally:
            # the web table's server and its HTTP session too, not the database alone
            await bot.close()


async def test_a_server_where_only_the_user_installed_the_app_is_not_one_with_the_bot(
    simcord_env: simcord.Env, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord names who authorized the app: the user alone (a user install) there means
    the bot is not in that server, so its tables cannot be played there."""
    build = sim_interactions.base_payload

    def user_installed(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(*args, **kwargs)
        payload["authorizing_integration_owners"] = {"1": str(record.user_id)}
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", user_installed)
    refused = await world.member.slash(world.channel, "tute new", variant="habanero")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == t("errors.needs_server", "en")
    assert not _tables(simcord_env).open_tables(world.guild.id), "no table was opened"


async def test_a_server_that_installed_the_app_plays_as_before(
    simcord_env: simcord.Env, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = sim_interactions.base_payload

    def both_installed(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(*args, **kwargs)
        owners = {"0": str(record.guild_id), "1": str(record.user_id)}
        payload["authorizing_integration_owners"] = owners
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", both_installed)
    opened = await world.member.slash(world.channel, "tute new", variant="habanero")
    assert opened.response is not None and not opened.ephemeral, "the lobby, for all to see"
    assert _tables(simcord_env).open_tables(world.guild.id)
