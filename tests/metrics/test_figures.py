"""The figures' own registry, their bounded labels, and the event loop's lag."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY, generate_latest

from bot.metrics import ROUTE_CLASSES, LoopLag, Metrics, route_class
from tests.metrics._scrape import parse


def test_each_bot_has_its_own_registry() -> None:
    one, two = Metrics(), Metrics()
    one.game_finished()
    one.requested("message_edit", 403)
    assert parse(generate_latest(one.registry).decode()).value("tute_games_finished_total") == 1
    assert parse(generate_latest(two.registry).decode()).value("tute_games_finished_total") == 0
    assert "tute_games_finished_total" not in generate_latest(REGISTRY).decode()


def test_what_is_read_at_a_scrape() -> None:
    metrics = Metrics()
    metrics.open_tables = lambda: {"playing": 3}
    metrics.sockets = lambda: 7
    scrape = parse(generate_latest(metrics.registry).decode())
    assert scrape.value("tute_tables_open", state="playing") == 3
    assert scrape.value("tute_tables_open", state="lobby") == 0
    assert scrape.value("tute_web_sockets") == 7
    assert scrape.value("tute_discord_refused_limit") == 2_000
    assert scrape.value("tute_optional_work") == 1


def test_routes_fall_in_a_few_classes() -> None:
    cases = {
        ("POST", "/channels/{channel_id}/messages"): "message_send",
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "message_edit",
        ("DELETE", "/channels/{channel_id}/messages/{message_id}"): "message_delete",
        ("GET", "/channels/{channel_id}/messages/{message_id}"): "message_other",
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): "thread",
        ("POST", "/channels/{channel_id}/threads"): "thread",
        ("POST", "/users/@me/channels"): "dm_open",
        ("GET", "/channels/{channel_id}"): "channel",
        ("PUT", "/applications/{application_id}/commands"): "commands",
        ("GET", "/applications/{application_id}/emojis"): "emoji",
        ("GET", "/guilds/{guild_id}/members/{user_id}"): "guild",
        ("GET", "/users/@me"): "user",
        ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"): "interaction",
        ("GET", "/gateway/bot"): "other",
    }
    for (method, path), kind in cases.items():
        assert route_class(method, path) == kind, (method, path)
    assert set(cases.values()) <= set(ROUTE_CLASSES)


async def test_the_loop_lag_is_how_late_a_sleep_wakes() -> None:
    now = [100.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds + 0.25  # the loop was held a quarter of a second
        await asyncio.sleep(0)

    seen: list[float] = []
    lag = LoopLag(seen.append, clock=lambda: now[0], sleep=sleep)
    assert await lag.once() == 0.25
    assert seen == [0.25]
