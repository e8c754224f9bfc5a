"""The figures one bot keeps, in a registry of its own, and the typed calls that record them.

Every label takes a value from a short fixed list (a table's state, a route's class, an
HTTP status), so that the series stay few however many tables, channels and members there
are."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from .guard import RefusalGuard

OPEN_STATES: Final = ("lobby", "playing")
"""The states of an open table, each always reported (0 when none is in it)."""

ANSWER_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
"""Seconds to an interaction's first answer; Discord gives up on one at 3."""
THINK_BUCKETS: Final = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
DEALS_BUCKETS: Final = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
SAVE_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
LAG_BUCKETS: Final = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _Read(Collector):
    """Gauges read at each scrape from what the bot holds (nothing to keep in step)."""

    def __init__(self, figures: Metrics) -> None:
        self.figures = figures

    def collect(self) -> Iterable[GaugeMetricFamily]:
        figures = self.figures
        tables = GaugeMetricFamily(
            "tute_tables_open", "Open tables of this process, by state", labels=["state"]
        )
        counts = figures.open_tables()
        for state in OPEN_STATES:
            tables.add_metric([state], counts.get(state, 0))
        yield tables
        yield GaugeMetricFamily(
            "tute_web_sockets",
            "Sockets open at the card table (the Activity's page)",
            value=figures.sockets(),
        )
        yield GaugeMetricFamily(
            "tute_discord_refused_recent",
            "Requests Discord refused (401, 403, 429) in the last 10 minutes; it bans the IP at"
            " 10,000",
            value=figures.guard.recent(),
        )
        yield GaugeMetricFamily(
            "tute_discord_refused_limit",
            "Refused requests in 10 minutes past which optional work stops",
            value=figures.guard.limit,
        )
        yield GaugeMetricFamily(
            "tute_optional_work",
            "1 while optional work (redraws of refusing channels, turn pings) goes on, 0 while"
            " the guard on refused requests holds it",
            value=1 if figures.guard.optional else 0,
        )


class Metrics:
    """One bot's figures. ``clock``: the bot's (the guard's window); ``timer``: what a
    duration is measured with (a monotonic clock)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.time,
        timer: Callable[[], float] = time.perf_counter,
        refused_limit: int | None = None,
    ) -> None:
        self.registry = registry = CollectorRegistry()
        self.timer = timer
        self.guard = (
            RefusalGuard(clock)
            if refused_limit is None
            else RefusalGuard(clock, limit=refused_limit)
        )
        self.open_tables: Callable[[], Mapping[str, int]] = dict
        """The open tables by state (given by whoever holds them)."""
        self.sockets: Callable[[], int] = lambda: 0
        """The card table's open sockets (given by the card table)."""
        self.games_finished = Counter(
            "tute_games_finished", "Games played to their end", registry=registry
        )
        self.card_clicks = Counter(
            "tute_card_clicks",
            "Cards and declarations members played (buttons and the card table)",
            registry=registry,
        )
        self.interaction_answer = Histogram(
            "tute_interaction_first_answer_seconds",
            "From an interaction's arrival to its first answer taken by Discord (the limit is 3 s)",
            registry=registry,
            buckets=ANSWER_BUCKETS,
        )
        self.discord_requests = Counter(
            "tute_discord_requests",
            "Requests to Discord's REST API by route class and the status that ended them",
            ["route", "status"],
            registry=registry,
        )
        self.loop_lag = Histogram(
            "tute_event_loop_lag_seconds",
            "How late a one-second sleep on the bot's event loop wakes",
            registry=registry,
            buckets=LAG_BUCKETS,
        )
        self.loop_lag_last = Gauge(
            "tute_event_loop_lag_last_seconds",
            "The event loop's lag at the last measure",
            registry=registry,
        )
        self.robot_think = Histogram(
            "tute_robot_think_seconds",
            "How long a robot took to choose one action",
            registry=registry,
            buckets=THINK_BUCKETS,
        )
        self.robot_deals = Histogram(
            "tute_robot_sampled_deals",
            "Deals a searching robot sampled for one decision",
            registry=registry,
            buckets=DEALS_BUCKETS,
        )
        self.ready = Gauge(
            "tute_ready",
            "1 while what /readyz checks holds (gateway, database, shards), read at each scrape",
            ["check"],
            registry=registry,
        )
        self.save = Histogram(
            "tute_table_save_seconds",
            "How long one save of a table's change took",
            registry=registry,
            buckets=SAVE_BUCKETS,
        )
        registry.register(_Read(self))

    # recorders -----------------------------------------------------------------

    def game_finished(self) -> None:
        self.games_finished.inc()

    def card_clicked(self) -> None:
        self.card_clicks.inc()

    def answered(self, seconds: float) -> None:
        """An interaction got its first answer ``seconds`` after it arrived."""
        self.interaction_answer.observe(max(0.0, seconds))

    def requested(self, route: str, status: int | None) -> None:
        """A request to Discord of class ``route`` ended with ``status`` (None: no answer,
        such as a connection lost)."""
        self.discord_requests.labels(route, "none" if status is None else str(status)).inc()

    def refused(self, status: int) -> None:
        """Discord answered a request ``status`` (each answer, one that discord.py tries
        again too): a refusal counts towards the guard's limit."""
        self.guard.refused(status)

    def lagged(self, seconds: float) -> None:
        self.loop_lag.observe(seconds)
        self.loop_lag_last.set(seconds)

    def robot_thought(self, seconds: float, deals: int | None) -> None:
        """A robot chose in ``seconds``; ``deals``: what its search sampled (None: it does
        not search, or does not say)."""
        self.robot_think.observe(max(0.0, seconds))
        if deals:
            self.robot_deals.observe(deals)

    def readied(self, checks: Mapping[str, bool]) -> None:
        """What the readiness check found (each check of a bot always the same few)."""
        for check, held in checks.items():
            self.ready.labels(check).set(1 if held else 0)

    def saved(self, seconds: float) -> None:
        self.save.observe(max(0.0, seconds))

    @property
    def optional(self) -> bool:
        """Whether optional work goes on (:class:`RefusalGuard`)."""
        return self.guard.optional
