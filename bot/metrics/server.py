"""``/metrics`` (Prometheus's text format), ``/healthz`` (the process lives and its loop
answers) and ``/readyz`` (the bot is connected, its database answers, its shards are held),
served with aiohttp on the bot's own loop, where TUTE_METRICS_PORT asks."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from .figures import Metrics

log = logging.getLogger(__name__)

Readiness = Callable[[], Awaitable[dict[str, bool]]]
"""Each thing the bot needs to serve, and whether it holds now (all True: ready)."""

READY_TIMEOUT = 5.0
"""Seconds a readiness check may take before it counts as failed."""


async def _nothing_to_wait_for() -> dict[str, bool]:
    return {}


class MetricsServer:
    def __init__(self, metrics: Metrics, ready: Readiness = _nothing_to_wait_for) -> None:
        self.metrics = metrics
        self.ready = ready
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on, once started (the one asked, or the one given for 0)."""

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        return app

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host``:``port``; an OSError when it cannot (the port taken), with
        nothing left open."""
        runner = web.AppRunner(self.app(), handle_signals=False, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        addresses = runner.addresses
        self.port = addresses[0][1] if addresses else port
        log.info("Metrics and health on http://%s:%s/metrics", host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _metrics(self, _request: web.Request) -> web.Response:
        await self._checked()  # tute_ready, as /readyz would answer now
        body = generate_latest(self.metrics.registry)
        response = web.Response(body=body)
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    async def _healthz(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _checked(self) -> dict[str, bool] | None:
        """What the readiness check finds (told to the figures); None when it failed."""
        try:
            checks = await asyncio.wait_for(self.ready(), READY_TIMEOUT)
        except Exception as error:
            log.warning("The readiness check failed (%r)", error)
            return None
        self.metrics.readied(checks)
        return checks

    async def _readyz(self, _request: web.Request) -> web.Response:
        checks = await self._checked()
        if checks is None:
            return web.Response(status=503, text="not ready: the check failed\n")
        lines = [f"{name}: {'ok' if held else 'no'}" for name, held in checks.items()]
        status = 200 if all(checks.values()) else 503
        return web.Response(
            status=status,
            text="\n".join(["ready" if status == 200 else "not ready", *lines]) + "\n",
        )
