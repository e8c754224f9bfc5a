"""The bot with its figures served (TUTE_METRICS_PORT), in SimCord."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from tests.conftest import RUNNING, fast_bot


def served(config: Config) -> Config:
    """``config`` with its figures served on a port the system picks."""
    return dataclasses.replace(config, metrics_port=0)


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(served(test_config))


@pytest.fixture
async def simcord_env(
    simcord_bot: TuteBot, request: pytest.FixtureRequest
) -> AsyncIterator[simcord.Env]:
    """SimCord's environment, known to the tests' clock (``RUNNING``) before the bot starts:
    the event loop's lag is measured from the bot's setup on, each second on SimCord's
    clock (on a real one, the start's settle would wait for it). Closed at the end as
    ``tests/conftest.py`` closes its own."""
    marker = request.node.get_closest_marker("simcord")
    env = simcord.Env(simcord_bot, **(marker.kwargs if marker else {}))
    RUNNING.append(env)
    try:
        await env.start()
        try:
            yield env
        finally:
            bot = env.bot
            if isinstance(bot, TuteBot) and "db" in vars(bot):
                db = bot.db
                try:
                    await bot.close()
                finally:
                    await db.close()
            await env.shutdown()
    finally:
        RUNNING.remove(env)
