"""The Activity's Entry Point command (type 4), where its handler leaves the answer to the
app (APP_HANDLER): discord.py's tree does not know it, so the bot's tree answers it with the
web table, as /tute play does, before any command lookup; nothing else runs. SimCord sends
no Entry Point interactions: a stand-in interaction reaches the started bot's tree."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord

from bot.client import PRIMARY_ENTRY_POINT, TuteBot
from bot.i18n import t
from cogs.tables.launch import launch
from tests.cogs.tables.test_launch import Response
from tests.conftest import TEST_CONFIG
from tests.logged import errors_logged


def entry_point_interaction(client: TuteBot, response: Response) -> Any:
    return SimpleNamespace(
        type=discord.InteractionType.application_command,
        data={"id": "99", "name": "launch", "type": PRIMARY_ENTRY_POINT},
        client=client,
        response=response,
        locale=discord.Locale("es-ES"),
        user=SimpleNamespace(id=42),
    )


async def test_the_tree_hands_the_entry_point_to_its_answer() -> None:
    bot = TuteBot(TEST_CONFIG)
    answered: list[Any] = []

    async def answer(interaction: Any) -> None:
        answered.append(interaction)

    bot.tute_tree.entry_point = answer
    bot.tute_tree.refusals.append(lambda interaction: "never asked")
    interaction = entry_point_interaction(bot, Response())
    assert not await bot.tute_tree.interaction_check(interaction), "no command runs"
    assert answered == [interaction]


async def test_without_an_answer_it_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    bot = TuteBot(TEST_CONFIG)
    assert not await bot.tute_tree.interaction_check(entry_point_interaction(bot, Response()))
    assert "The Entry Point command came, and nothing answers it" in caplog.text
    assert not errors_logged(caplog)


@pytest.mark.e2e
async def test_the_started_bot_answers_it_with_the_web_table(simcord_env: simcord.Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, TuteBot)
    assert bot.tute_tree.entry_point is launch
    response = Response()
    assert not await bot.tute_tree.interaction_check(entry_point_interaction(bot, response))
    # this bot serves no web table: the answer says how an admin turns it on
    assert response.calls == [("send_message", (t("tables.web.off", "es"), True))]
