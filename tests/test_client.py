"""The bot's start-up and its one error path, through SimCord."""

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

import bot.client
from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from cogs._base import BaseView, answers_errors
from tests.conftest import TEST_CONFIG, World, sim_bot


class Boom(Exception):
    """The failure the test commands and buttons raise."""


class FailingView(BaseView):
    @discord.ui.button(label="Fail", custom_id="test:fail")
    async def fail(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        raise Boom("view")


class FailingDynamicButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"test:dyn:(?P<n>\d+)"
):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Dynamic", custom_id=f"test:dyn:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "FailingDynamicButton":
        return cls(int(match["n"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        raise Boom("dynamic")


@pytest.fixture
def simcord_bot() -> TuteBot:
    """The real bot, plus commands that fail in each way the error path must handle."""
    client = sim_bot(TEST_CONFIG)
    client.add_dynamic_items(FailingDynamicButton)

    @client.tree.command(name="fail-now", description="Fails before answering")
    async def fail_now(interaction: discord.Interaction[TuteBot]) -> None:
        raise Boom("before answering")

    @client.tree.command(name="fail-deferred", description="Fails after deferring")
    async def fail_deferred(interaction: discord.Interaction[TuteBot]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        raise Boom("after deferring")

    @client.tree.command(name="fail-answered", description="Fails after answering")
    async def fail_answered(interaction: discord.Interaction[TuteBot]) -> None:
        await interaction.response.send_message("Working on it")
        raise Boom("after answering")

    @client.tree.command(name="buttons", description="Posts failing buttons")
    async def buttons(interaction: discord.Interaction[TuteBot]) -> None:
        view = FailingView()
        view.add_item(FailingDynamicButton(7))
        await interaction.response.send_message("Buttons", view=view)

    return client


def original_errors(env: simcord.Env) -> list[BaseException]:
    """The errors the bot handled (reading them tells SimCord they were expected)."""
    return [
        error.original if isinstance(error, app_commands.CommandInvokeError) else error
        for error in env.errors
    ]


@pytest.mark.e2e
@pytest.mark.parametrize(("locale", "language"), [("es-ES", "es"), ("en-US", "en")])
async def test_a_failing_command_gets_an_ephemeral_apology(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    caplog: pytest.LogCaptureFixture,
    locale: str,
    language: str,
) -> None:
    set_locale(locale)

    result = await world.member.slash(world.channel, "fail-now")

    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == t("errors.generic", language)
    assert [str(error) for error in original_errors(simcord_env)] == ["before answering"]
    assert "Boom: before answering" in caplog.text  # the traceback is logged


@pytest.mark.e2e
async def test_a_command_failing_after_deferring_gets_an_ephemeral_apology(
    simcord_env: simcord.Env, world: World
) -> None:
    before = len(simcord_env.http_requests)
    result = await world.member.slash(world.channel, "fail-deferred")

    # the "thinking..." message becomes the apology: an edit of the original response, as
    # Discord documents it (a followup taking its place is not)
    calls = [(c.method, c.path) for c in simcord_env.http_requests[before:]]
    assert any(m == "PATCH" and p.endswith("/messages/@original") for m, p in calls), calls
    assert not any(m == "POST" and p.startswith("/webhooks/") for m, p in calls), calls
    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == t("errors.generic", "en")
    assert [str(error) for error in original_errors(simcord_env)] == ["after deferring"]


@pytest.mark.e2e
async def test_a_command_failing_after_answering_gets_an_ephemeral_followup(
    simcord_env: simcord.Env, world: World
) -> None:
    result = await world.member.slash(world.channel, "fail-answered")

    assert result.response is not None
    assert result.response.content == "Working on it"
    [followup] = result.followups
    assert followup.ephemeral
    assert followup.content == t("errors.generic", "en")
    assert [str(error) for error in original_errors(simcord_env)] == ["after answering"]


@pytest.mark.e2e
async def test_a_failing_view_button_gets_an_ephemeral_apology(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    await world.member.slash(world.channel, "buttons")
    message = world.channel.last_message
    assert message is not None
    set_locale("es-419")

    result = await world.member.click(message, label="Fail")

    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == t("errors.generic", "es")
    assert [str(error) for error in original_errors(simcord_env)] == ["view"]


@pytest.mark.e2e
async def test_a_failing_dynamic_button_gets_an_ephemeral_apology(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.member.slash(world.channel, "buttons")
    message = world.channel.last_message
    assert message is not None

    result = await world.member.click(message, label="Dynamic")

    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == t("errors.generic", "en")
    assert "Boom: dynamic" in caplog.text
    assert "component 'test:dyn:7'" in caplog.text


def test_no_privileged_intent_is_asked_for() -> None:
    intents = TuteBot(TEST_CONFIG).intents

    assert not intents.members
    assert not intents.presences
    assert not intents.message_content


@pytest.mark.e2e
async def test_a_cog_that_fails_to_load_is_logged_and_the_commands_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A start whose cog fails to load syncs nothing: Discord keeps the commands of the last
    good start (a sync would send a tree without them and take /tute from every server)."""
    (tmp_path / "broken_cog.py").write_text(
        "async def setup(bot):\n    raise RuntimeError('broken on purpose')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    config = Config(token="not-a-real-token", db_path=tmp_path / "tute.db", shard_count=1)
    first = sim_bot(config)
    second = sim_bot(config)
    try:
        async with simcord.run(first) as env:
            channel = env.create_guild().create_text_channel("tute")
            member = env.guild.add_member(env.create_user("bob"))
            assert env.backend.find_command("tute", None) is not None
            synced = dict(env.backend.commands.get(None, {}))
            monkeypatch.setattr(
                bot.client, "cog_module_names", lambda: ["broken_cog", "cogs.missing"]
            )
            await env.restart_bot(second)
            assert env.backend.commands.get(None, {}) == synced, "the commands stay as synced"
            assert not second.cogs, "the bot runs without its cogs"
            assert env.backend.visible_commands(user_id=member.id, channel_id=channel.id)
    finally:
        for one in (first, second):
            if "db" in vars(one):
                await one.db.close()

    failures = [r for r in caplog.records if r.message.startswith("Could not load cog")]
    assert [r.message for r in failures] == [
        "Could not load cog broken_cog; starting without it",
        "Could not load cog cogs.missing; starting without it",
    ]
    assert all(r.exc_info for r in failures)
    assert any("Not syncing the slash commands" in r.message for r in caplog.records)


@pytest.mark.e2e
async def test_with_a_dev_guild_the_commands_are_synced_to_it_only() -> None:
    dev_guild_id = 1_000_000_000_000_000_001
    bot = sim_bot(
        Config(token="x", dev_guild_id=dev_guild_id, db_path=TEST_CONFIG.db_path, shard_count=1)
    )
    env = simcord.Env(bot)
    env.create_guild("Dev", id=dev_guild_id)
    await env.start()
    try:
        assert env.backend.find_command("tute", dev_guild_id, type=1) is not None
        assert env.backend.find_command("tute", None, type=1) is None
    finally:
        await env.shutdown()
        if "db" in vars(bot):
            await bot.db.close()
