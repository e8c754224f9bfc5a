"""The bot's own figures for whoever watches it run: a Prometheus registry per bot (never
the process-wide default, so that two bots in one process, or two tests, never mix), the
typed recorders the rest of the bot calls, the guard on Discord's limit of refused
requests, the event loop's lag, and the small HTTP server of ``/metrics``, ``/healthz`` and
``/readyz`` (TUTE_METRICS_PORT).

Nothing here imports discord or a database: the composition root (``bot.app``) builds one
:class:`Metrics` and hands it to what records; what it reads at a scrape (the open tables,
the card table's sockets, readiness) it is given as plain callables."""

from .figures import OPEN_STATES, Metrics
from .guard import REFUSED_LIMIT, REFUSED_WINDOW, RefusalGuard
from .lag import LoopLag
from .routes import ROUTE_CLASSES, route_class
from .server import MetricsServer, Readiness

__all__ = [
    "OPEN_STATES",
    "REFUSED_LIMIT",
    "REFUSED_WINDOW",
    "ROUTE_CLASSES",
    "LoopLag",
    "Metrics",
    "MetricsServer",
    "Readiness",
    "RefusalGuard",
    "route_class",
]
