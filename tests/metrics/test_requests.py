"""How the bot counts what it asks of Discord, where discord.py has no hook: each request as
it ends (by its route's class and status), and each refusal once, as Discord gives it when
the bot talks to Discord over aiohttp (its trace sees the 429s discord.py retries too), or
as the request ends with a stand-in transport (SimCord)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord.http import Route

from bot.app import TuteApp
from bot.config import Config
from tests.conftest import fast_bot


class Refused(discord.HTTPException):
    def __init__(self, status: int) -> None:
        self.status, self.code, self.text = status, 50013, "refused"
        Exception.__init__(self, "refused")


EDIT = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2)


def bot_whose_requests_end(status: int, config: Config) -> TuteApp:
    bot = fast_bot(config)

    async def request(route: Route, **_: Any) -> Any:
        if status >= 400:
            raise Refused(status)
        return {}

    bot.http.request = request  # type: ignore[method-assign]
    bot._count_requests()  # pyright: ignore[reportPrivateUsage]
    return bot


def sample(bot: TuteApp, name: str, **labels: str) -> float:
    return bot.metrics.registry.get_sample_value(name, labels) or 0.0


async def test_each_request_is_counted_by_its_class_and_status(test_config: Config) -> None:
    bot = bot_whose_requests_end(403, test_config)
    with pytest.raises(Refused):
        await bot.http.request(EDIT)
    assert sample(bot, "tute_discord_requests_total", route="message_edit", status="403") == 1
    assert bot.metrics.guard.recent() == 1, "no wire: counted as it ends"


async def test_on_the_wire_each_answer_is_counted_once(test_config: Config) -> None:
    bot = bot_whose_requests_end(429, test_config)
    trace = bot.http.http_trace
    assert trace is not None
    (answered,) = cast(list[Any], list(trace.on_request_end))
    for status in (200, 429, 429, 429):  # one went through; one was retried, then given up
        await answered(None, None, SimpleNamespace(response=SimpleNamespace(status=status)))
    assert bot.metrics.guard.recent() == 3
    with pytest.raises(Refused):
        await bot.http.request(EDIT)  # its end: the last 429, seen on the wire already
    assert bot.metrics.guard.recent() == 3
    assert sample(bot, "tute_discord_requests_total", route="message_edit", status="429") == 1
