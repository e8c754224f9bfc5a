"""The bot's figures and health on TUTE_METRICS_PORT, served by the real bot in SimCord: after
a short game against a robot, ``/metrics`` has every figure the issue asks for, each with a
value that game gives it; ``/readyz`` answers 503 until the bot is connected and while its
database does not answer, 200 when both hold."""

from __future__ import annotations

import pytest
import simcord

from bot.app import TuteApp
from bot.config import Config
from bot.metrics import OPEN_STATES
from bot.metrics.routes import ROUTE_CLASSES
from bot.tables.model import Status
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import open_table, the_table
from tests.conftest import World, fast_bot
from tests.metrics._scrape import get, scrape
from tests.metrics.conftest import served
from tests.runtime import seeds

pytestmark = [pytest.mark.e2e, pytest.mark.simcord(settle_timeout=3)]


def port_of(env: simcord.Env) -> int:
    bot = env.bot
    assert isinstance(bot, TuteApp)
    port = bot.metrics_server.port
    assert port
    return port


FIGURES = (
    "tute_tables_open",
    "tute_games_finished",
    "tute_card_clicks",
    "tute_interaction_first_answer_seconds",
    "tute_discord_requests",
    "tute_discord_refused_recent",
    "tute_event_loop_lag_seconds",
    "tute_robot_think_seconds",
    "tute_robot_sampled_deals",
    "tute_table_save_seconds",
    "tute_web_sockets",
)


async def test_a_game_shows_in_the_figures(simcord_env: simcord.Env, world: World) -> None:
    env = simcord_env
    seeds().pin(8)  # a short game of one deal
    port = port_of(env)
    before = await scrape(port)
    assert before.value("tute_games_finished_total") == 0

    await open_table(env, world, "habanero", [world.member], robots=1)  # a hard robot
    playing = await scrape(port)
    assert playing.value("tute_tables_open", state="playing") == 1
    driver = Driver(env, world, [Player(world.member)])
    await driver.play()
    assert the_table(env).status is Status.FINISHED
    await env.advance_time(3)  # the event loop's lag is measured each second

    after = await scrape(port)
    missing = [name for name in FIGURES if name not in after.families]
    assert not missing, f"not served: {missing}"
    assert after.value("tute_games_finished_total") == 1
    assert after.value("tute_card_clicks_total") == driver.clicks > 0
    for state in OPEN_STATES:
        assert after.value("tute_tables_open", state=state) == 0, state
    answers = after.value("tute_interaction_first_answer_seconds_count")
    assert answers >= driver.clicks, "every click was answered"
    assert after.value("tute_interaction_first_answer_seconds_bucket", le="3.0") == answers
    assert after.total("tute_discord_requests_total", route="interaction") >= answers
    assert after.total("tute_discord_requests_total", route="message_send") > 0
    assert after.total("tute_discord_requests_total", status="200") > 0
    assert after.labels("tute_discord_requests_total", "route") <= set(ROUTE_CLASSES), (
        "a route's class, never a channel or a message"
    )
    assert after.value("tute_discord_refused_recent") == 0
    assert after.value("tute_optional_work") == 1
    assert after.value("tute_event_loop_lag_seconds_count") >= 1
    assert after.value("tute_robot_think_seconds_count") > 0
    assert after.value("tute_robot_sampled_deals_count") > 0, "the hard robot searched"
    assert after.value("tute_robot_sampled_deals_sum") >= after.value(
        "tute_robot_sampled_deals_count"
    )
    assert after.value("tute_table_save_seconds_count") >= driver.clicks
    assert after.value("tute_web_sockets") == 0
    for check in ("gateway", "database", "shards"):
        assert after.value("tute_ready", check=check) == 1, check


async def test_it_is_alive_and_ready_then_not_ready_without_its_database(
    simcord_env: simcord.Env,
) -> None:
    env = simcord_env
    port = port_of(env)
    status, _, text = await get(port, "/healthz")
    assert status == 200
    status, _, text = await get(port, "/readyz")
    assert status == 200, text
    assert "gateway: ok" in text and "database: ok" in text and "shards: ok" in text

    bot = env.bot
    assert isinstance(bot, TuteApp)
    await bot.db.close()
    status, _, text = await get(port, "/readyz")
    assert status == 503 and "database: no" in text, text
    status, _, _ = await get(port, "/healthz")
    assert status == 200, "alive all the same"
    scraped = await scrape(port)
    assert scraped.value("tute_ready", check="database") == 0
    assert scraped.value("tute_ready", check="gateway") == 1


async def test_a_bot_not_yet_connected_is_not_ready(test_config: Config) -> None:
    """Served from the start of the bot's setup, before it has its gateway or database."""
    bot = fast_bot(served(test_config))
    await bot._serve_metrics()  # pyright: ignore[reportPrivateUsage]
    try:
        status, _, text = await get(bot.metrics_server.port or 0, "/readyz")
        assert status == 503
        assert "gateway: no" in text and "database: no" in text and "shards: no" in text
        status, _, _ = await get(bot.metrics_server.port or 0, "/healthz")
        assert status == 200
    finally:
        await bot.loop_lag.stop()
        await bot.metrics_server.stop()
