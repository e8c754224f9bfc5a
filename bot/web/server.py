"""The web table running in the bot's own process: its app on a port of the bot's event
loop (no second loop, no thread), beside the Discord presenter on the same table service,
and its own client for the calls that prove a player (so a slow login never waits on the
bot's rate limits)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from bot.tables.service import TableService

from .activity import ActivityAuth
from .app import Authority, make_app
from .hub import Runner, TableHub, at_once
from .relay import RELAY, Relay
from .sockets import Sockets

log = logging.getLogger(__name__)


Starter = Callable[[Callable[[], Awaitable[None]]], Awaitable[None]]
"""How the card table starts listening: it is given the start, and awaits it."""


async def directly(start: Callable[[], Awaitable[None]]) -> None:
    await start()


@dataclass(frozen=True, slots=True)
class WebDoor:
    """How players come in to a card table that is not Discord's Activity (the sandbox's):
    who may log in, how a page's request runs, how it starts listening (the sandbox's:
    outside its simulated Discord's work, which would wait on every open socket), and
    whether a port that is taken gives way to one the system picks (its address says
    which)."""

    auth: Authority
    runner: Runner = at_once
    starter: Starter = directly
    any_port_when_taken: bool = False


class WebTable:
    """Start it once the table service is; stop it before the service's database closes."""

    def __init__(
        self,
        service: TableService,
        sockets: Sockets,
        *,
        secret: bytes,
        clock: Callable[[], float],
        application_id: int | None,
        client_secret: str,
        bot_token: str,
        auth: Authority | None = None,
        relay: Relay | None = None,
        runner: Runner = at_once,
        answered: Callable[[int], None] = lambda status: None,
    ) -> None:
        """``sockets``: the presenter ``service`` was built with, which its sockets join;
        ``auth``: who may log in, when not Discord's Activity (the sandbox's own);
        ``relay``: where a socket for a table another process holds is piped (the bot as
        several processes); ``runner``: how a page's request runs (the sandbox's, in its
        simulated Discord); ``answered``: told the status of each answer Discord gives the
        card table's own calls (its logins)."""
        self.hub = TableHub(service, sockets, runner=runner)
        self._answered = answered
        self._auth = auth
        self._relay = relay
        self._secret = secret
        self._clock = clock
        self._application_id = application_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._http: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on, once started (the one asked, or the one given for 0)."""

    @property
    def serving(self) -> bool:
        """Whether it listens (started, and not stopped since)."""
        return self._runner is not None

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host``:``port``; its sockets follow the service's changes (their
        presenter was built with it). An OSError when it cannot listen (the port taken),
        with nothing left open."""
        if not self._secret:
            raise ValueError("the card table signs its sessions: it needs a secret")
        self._http = aiohttp.ClientSession()
        auth = self._auth
        if auth is None and self._application_id is not None:
            auth = ActivityAuth(
                application_id=self._application_id,
                client_secret=self._client_secret,
                bot_token=self._bot_token,
                http=self._http,
                clock=self._clock,
                answered=self._answered,
            )
        app = make_app(
            hub=self.hub,
            secret=self._secret,
            clock=self._clock,
            auth=auth,
            application_id=self._application_id,
        )
        if self._relay is not None:
            app[RELAY] = self._relay
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError:
            await self.stop()
            raise
        addresses = self._runner.addresses  # port 0 asks the system for one
        self.port = int(addresses[0][1]) if addresses else port
        log.info("The web table listens on %s:%s", host, self.port)

    async def stop(self) -> None:
        """Close every socket and stop listening; the tables go on on Discord."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._relay is not None:
            await self._relay.close()
        if self._http is not None:
            await self._http.close()
            self._http = None
