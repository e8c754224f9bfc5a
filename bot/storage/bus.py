"""Messages between the bot's processes, through PostgreSQL's LISTEN/NOTIFY: no other
service to run. A process listens on its channels on a connection of its own; a message is
a short text (JSON, well under PostgreSQL's 8,000 bytes) sent with ``pg_notify``, delivered
to every process listening on its channel once the sending transaction commits (at once
here: it is sent alone).

If the listening connection breaks, it is made again (after 1, 2, 4... seconds, at most 30)
and listens on the same channels; what was sent meanwhile is lost, which the sender sees as
a missing answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

log = logging.getLogger(__name__)

Handler = Callable[[str], None]
"""Called on the event loop with each message's text."""

RECONNECT_MAX = 30.0


class Bus:
    """One process's end of the bus."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._handlers: dict[str, Handler] = {}
        self._listener: asyncpg.Connection | None = None
        self._sender: asyncpg.Connection | None = None
        self._sending = asyncio.Lock()
        self._watch: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        self._listener = await self._connect()
        self._sender = await asyncpg.connect(self.dsn)

    async def _connect(self) -> asyncpg.Connection:
        connection = await asyncpg.connect(self.dsn)
        for channel in self._handlers:
            await connection.add_listener(channel, self._deliver)
        connection.add_termination_listener(self._lost)
        return connection

    def _deliver(self, _connection: object, _pid: int, channel: str, payload: object) -> None:
        handler = self._handlers.get(channel)
        if handler is not None:
            try:
                handler(str(payload))
            except Exception:
                log.exception("A message on %s could not be handled", channel)

    def _lost(self, _connection: object) -> None:
        if not self._closed and self._watch is None:
            log.warning("The bus's connection to the database broke: connecting again")
            self._watch = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 1.0
        try:
            while not self._closed:
                try:
                    self._listener = await self._connect()
                    log.info("The bus listens again")
                    return
                except (OSError, asyncpg.PostgresError):
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, RECONNECT_MAX)
        finally:
            self._watch = None

    async def listen(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` with every message sent on ``channel`` from now on."""
        self._handlers[channel] = handler
        if self._listener is not None and not self._listener.is_closed():
            await self._listener.add_listener(channel, self._deliver)

    async def send(self, channel: str, payload: str) -> None:
        """Send ``payload`` to whoever listens on ``channel`` (nobody: it is lost)."""
        async with self._sending:
            for attempt in (1, 2):
                sender = self._sender
                if sender is None or sender.is_closed():
                    sender = self._sender = await asyncpg.connect(self.dsn)
                try:
                    await sender.execute("SELECT pg_notify($1, $2)", channel, payload)
                    return
                except (OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError):
                    # the connection broke since the last message: once more, on a new one
                    sender.terminate()
                    self._sender = None
                    if attempt == 2:
                        raise

    async def close(self) -> None:
        self._closed = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        for connection in (self._listener, self._sender):
            if connection is not None and not connection.is_closed():
                await connection.close()
