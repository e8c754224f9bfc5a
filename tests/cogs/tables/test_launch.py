"""The answer that opens the web table, at the level of the interaction's response (SimCord
does not know LAUNCH_ACTIVITY): one call of ``launch_activity`` (callback type 12) when the
bot serves the web table; without one, words saying how an admin turns it on; a launch
Discord refuses is logged and, while the interaction can still be answered, said in words;
a lost interaction (10062) or one answered already (40060) gets nothing more, and no error
escapes to the one error path."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.client import TuteBot
from bot.i18n import t
from bot.web.server import WebTable
from cogs.tables.launch import bot_may_post, launch
from tests.conftest import TEST_CONFIG
from tests.logged import errors_logged


def http_error(status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(cast(Any, response), {"code": code, "message": "refused"})


@dataclass
class Response:
    """A stand-in for ``interaction.response``: what was asked of it, and what fails."""

    launch_error: discord.HTTPException | None = None
    send_error: discord.HTTPException | None = None
    calls: list[tuple[str, Any]] = field(default_factory=list)
    done: bool = False
    type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self.done

    async def launch_activity(self) -> None:
        self.calls.append(("launch_activity", None))
        if self.launch_error is not None:
            raise self.launch_error
        self.done, self.type = True, discord.InteractionResponseType.launch_activity

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        self.calls.append(("send_message", (text, ephemeral)))
        if self.send_error is not None:
            raise self.send_error
        self.done = True


def interaction(response: Response, *, web: bool, locale: str = "en-US") -> Any:
    bot = TuteBot(TEST_CONFIG)
    bot.web = cast(WebTable, SimpleNamespace(serving=web))
    return SimpleNamespace(
        client=bot,
        response=response,
        locale=discord.Locale(locale),
        user=SimpleNamespace(id=42),
        channel_id=7,
        guild_id=None,
        context=discord.app_commands.AppCommandContext(dm_channel=True),
    )


async def test_with_the_web_table_the_answer_is_the_activity() -> None:
    response = Response()
    assert await launch(interaction(response, web=True))
    assert response.calls == [("launch_activity", None)]
    assert discord.InteractionResponseType.launch_activity.value == 12


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("es-ES", "es")])
async def test_without_it_the_answer_says_how_an_admin_turns_it_on(locale: str, lang: str) -> None:
    response = Response()
    assert not await launch(interaction(response, web=False, locale=locale))
    assert response.calls == [("send_message", (t("tables.web.off", lang), True))]


@pytest.mark.parametrize(("status", "code"), [(403, 50013), (400, 50035), (500, 0)])
async def test_a_launch_discord_refuses_is_said_in_words(
    status: int, code: int, caplog: pytest.LogCaptureFixture
) -> None:
    response = Response(launch_error=http_error(status, code))
    assert not await launch(interaction(response, web=True))
    assert response.calls == [
        ("launch_activity", None),
        ("send_message", (t("tables.web.failed", "en"), True)),
    ]
    assert "Could not open the web table for 42" in caplog.text
    assert not errors_logged(caplog)


@pytest.mark.parametrize("code", [10062, 40060])
async def test_a_lost_or_answered_interaction_gets_nothing_more(code: int) -> None:
    response = Response(launch_error=http_error(404 if code == 10062 else 400, code))
    assert not await launch(interaction(response, web=True))
    assert response.calls == [("launch_activity", None)]


async def test_words_that_cannot_be_said_are_logged_only(caplog: pytest.LogCaptureFixture) -> None:
    response = Response(launch_error=http_error(403, 50013), send_error=http_error(404, 10062))
    assert not await launch(interaction(response, web=True))
    assert "Could not answer 42 about the web table" in caplog.text


@pytest.mark.parametrize(
    ("guild_id", "context", "owners", "may_post"),
    [
        (None, "dm_channel", {"1": 42}, True),  # the bot's own DM with the user
        (None, "private_channel", {"1": 42}, False),  # a group DM, a DM between members
        (5, "guild", {"0": 5}, True),  # a server the bot is in
        (5, "guild", {"1": 42}, False),  # a server where only the user installed the app
    ],
)
def test_the_interaction_tells_where_the_bot_may_post(
    guild_id: int | None, context: str, owners: dict[str, int], may_post: bool
) -> None:
    """discord.py gives a ``DMChannel`` in the bot's DM and in a DM between two members:
    the interaction's context and who installed the app tell them apart."""
    asked = SimpleNamespace(
        guild_id=guild_id,
        context=discord.app_commands.AppCommandContext(**{context: True}),
        is_guild_integration=lambda: guild_id is not None and "0" in owners,
        is_user_integration=lambda: "1" in owners,
    )
    assert bot_may_post(cast(Any, asked)) is may_post
