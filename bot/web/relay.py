"""A web table's socket that reached a process without its table, piped to the one that has
it (the bot as several processes, :mod:`bot.tables.cluster`).

Discord's Activity URL mapping points at one address, so a page's socket lands on whichever
process that address reaches; a server's tables run only in the process holding the
server's shard. That process's address is kept beside its leases. The process the socket
reached opens a socket of its own to the holder's ``/api/ws`` with the page's query (its
session token: every process signs with the same secret) and pipes the messages both ways, unchanged,
until either side closes, and then closes the other:

- the page leaves: the socket to the holder is closed;
- the holder closes its socket (the table ended, the bot stops...): the page's socket is
  closed with the same code, as if it had been the holder's own;
- the holder is gone without a word (its process died): the page's socket is closed with
  1012 (service restart), and when there is no holder to reach (its lease ran out and no
  process has taken its shards yet, or the holder does not answer) with 1013 (try again
  later): the page reconnects, and lands on the new holder once it has taken over.

A relayed socket is marked (``RELAYED``): the process it reaches plays it there or says
``no_table``, and never relays it again, so two processes that disagree for a moment about
who holds a shard cannot pass a socket back and forth. Only a peer can mark one: the mark is
signed with the secret every process signs sessions with (an HMAC of the socket's session
token and the time, good for :data:`RELAY_VALIDITY` seconds either way, for clocks a little
apart). A mark that is missing, forged or stale is a page's own doing, and its socket is
treated as any page's: played here only if its table is, else relayed to the holder, so a
page cannot open a second table in a channel another process holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
from typing import Final, Protocol

import aiohttp
from aiohttp import WSCloseCode, WSMsgType, web

from .lobby import server_of
from .sessions import Session

log = logging.getLogger(__name__)

RELAYED: Final = "X-Tute-Relayed"
"""The header of a socket one process opens to another for a page: ``<time>.<signature>``
(:func:`relay_mark`)."""
RELAY_VALIDITY: Final = 30.0
"""Seconds a relay's mark is good for, before or after its time."""
CONNECT_TIMEOUT: Final = 5.0
"""Seconds the holder has to accept a relayed socket."""
HEARTBEAT: Final = 25.0
"""Seconds between pings on the socket to the holder, so a holder that vanished (a machine
gone, not only its process) is noticed."""
SOCKET_PATH: Final = "/api/ws"


def relay_mark(token: str, secret: bytes, now: float) -> str:
    """The mark a peer relaying the socket of session ``token`` sends, at ``now``."""
    stamp = str(int(now))
    return f"{stamp}.{_relay_mac(secret, stamp, token)}"


def relayed_by_peer(request: web.Request, secret: bytes, now: float) -> bool:
    """Whether a peer relayed this socket: its mark signed with ``secret`` for its own
    session token, and not stale. Anything else (no mark, a page's, an old one) is False."""
    mark = request.headers.get(RELAYED)
    if mark is None:
        return False
    stamp, _, mac = mark.partition(".")
    if not (stamp.isascii() and stamp.isdigit() and len(stamp) <= 20):
        return False
    if abs(now - int(stamp)) > RELAY_VALIDITY:
        return False
    try:
        given = mac.encode("ascii")
    except UnicodeEncodeError:
        return False
    expected = _relay_mac(secret, stamp, request.query.get("session", ""))
    return hmac.compare_digest(given, expected.encode("ascii"))


def _relay_mac(secret: bytes, stamp: str, token: str) -> str:
    # a line of its own kind: no session's signature (over base64 alone) is ever one
    signed = b"tute-relay\n" + stamp.encode("ascii") + b"\n" + token.encode("utf-8", "replace")
    return hmac.new(secret, signed, hashlib.sha256).hexdigest()


class Holders(Protocol):
    """Who holds which server's tables (a :class:`bot.tables.cluster.Cluster`)."""

    def owns(self, guild_id: int) -> bool:
        """Whether the server's tables run in this process."""
        ...

    async def peer_of(self, guild_id: int) -> str | None:
        """The address (``http://host:port``) of the process holding the server's tables,
        or None when no process can be reached for them now."""
        ...

    async def server_in(self, channel_id: int) -> int | None:
        """The server the table playing in a channel is filed under (None: none plays)."""
        ...


class Relay:
    """This process's relay of the sockets it does not hold. ``http``: the client session
    the sockets to the holders are opened on, whose connector must not bound the
    connections (each relayed socket holds one); None: one of its own, closed by
    ``close``."""

    def __init__(
        self,
        holders: Holders,
        *,
        http: aiohttp.ClientSession | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        self.holders = holders
        self._http = http
        self._own_http = http is None
        self.connect_timeout = connect_timeout
        self.heartbeat = heartbeat

    async def close(self) -> None:
        if self._own_http and self._http is not None:
            await self._http.close()
            self._http = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:
            # a relayed socket holds its connection while it is open: no bound on them
            # (aiohttp's default of 100 would leave the 101st page waiting)
            self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        return self._http

    async def holder_of(
        self, request: web.Request, session: Session, *, secret: bytes, now: float
    ) -> str | None:
        """Where this socket's table is played, when not here: the holder's address, or ""
        when no process can be reached for it now; None when it is played here."""
        if relayed_by_peer(request, secret, now):
            return None  # a peer relayed it here: it is played here
        try:
            server = await self._server(session)
            if self.holders.owns(server):
                return None
            return await self.holders.peer_of(server) or ""
        except Exception:
            log.exception("Could not find who holds the table of channel %s", session.channel_id)
            return ""

    async def _server(self, session: Session) -> int:
        """The server whose process plays the table of the session's channel. A DM's own
        tables belong to its channel, as a server's; but a member's practice or daily deal
        in their DMs is filed under no server or its own (``bot.tables.lobby.alone``)."""
        if session.guild_id is not None:
            return session.guild_id
        found = await self.holders.server_in(session.channel_id)
        return server_of(session) if found is None else found

    async def relay(
        self,
        request: web.Request,
        session: Session,
        ws: web.WebSocketResponse,
        *,
        secret: bytes,
        now: float,
    ) -> bool:
        """Pipe the page's socket ``ws`` to the process holding its table, until either side
        closes; whether it was (False: its table is played here, nothing was done).
        ``secret`` signs the relay's mark (every process has the same), at ``now``."""
        address = await self.holder_of(request, session, secret=secret, now=now)
        if address is None:
            return False
        if not ws.prepared:
            await ws.prepare(request)
        if not address:
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"no process holds it now")
            return True
        url = address.rstrip("/") + SOCKET_PATH
        try:
            async with asyncio.timeout(self.connect_timeout):
                upstream = await self._session().ws_connect(
                    url,
                    params=request.query,  # the session token, the page's language...
                    headers={RELAYED: relay_mark(request.query.get("session", ""), secret, now)},
                    heartbeat=self.heartbeat,
                )
        except (aiohttp.ClientError, TimeoutError) as error:
            log.info("Could not relay a socket to %s: %s", address, error)
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"its process is away")
            return True
        await _pipe(ws, upstream)
        return True


RELAY: web.AppKey[Relay] = web.AppKey("relay", Relay)
"""The app's relay, when the bot runs as several processes (none: every table is here)."""


async def relay_if_elsewhere(
    request: web.Request,
    session: Session,
    ws: web.WebSocketResponse,
    *,
    secret: bytes,
    now: float,
) -> bool:
    """The socket handler's first question: if the table of this socket is played by
    another process, pipe it there until it closes and say True (the handler is done);
    else False, and nothing was sent on ``ws``. ``secret``: what sessions and relays are
    signed with; ``now``: the time on the app's clock."""
    relay = request.app.get(RELAY)
    if relay is None:
        return False
    return await relay.relay(request, session, ws, secret=secret, now=now)


async def _pipe(page: web.WebSocketResponse, upstream: aiohttp.ClientWebSocketResponse) -> None:
    """Both ways until either side closes; then the other side is closed. The socket to the
    holder is closed even when this is cancelled (aiohttp cancels a handler whose page's
    connection is lost)."""
    to_holder = asyncio.create_task(_from_page(page, upstream))
    to_page = asyncio.create_task(_from_holder(upstream, page))
    code: int | None = None
    try:
        done, _ = await asyncio.wait({to_holder, to_page}, return_when=asyncio.FIRST_COMPLETED)
        if to_page in done:  # the holder closed, or vanished: its code for the page
            code = to_page.result() if to_page.exception() is None else None
        elif to_holder.exception() is not None:  # the holder could not be written to
            code = WSCloseCode.SERVICE_RESTART
    finally:
        for task in (to_holder, to_page):
            task.cancel()
        await asyncio.gather(to_holder, to_page, return_exceptions=True)
        with contextlib.suppress(Exception):
            await upstream.close()
    if code is not None and not page.closed:
        message = b"the table's process went away" if code == WSCloseCode.SERVICE_RESTART else b""
        await page.close(code=code, message=message)
    if not page.closed:
        await page.close()


async def _from_page(
    page: web.WebSocketResponse, upstream: aiohttp.ClientWebSocketResponse
) -> None:
    """The page's messages to the holder, until the page closes."""
    async for message in page:
        if message.type is WSMsgType.TEXT:
            await upstream.send_str(message.data)


async def _from_holder(
    upstream: aiohttp.ClientWebSocketResponse, page: web.WebSocketResponse
) -> int:
    """The holder's messages to the page, until the holder closes; the code to close the
    page's socket with."""
    while True:
        message = await upstream.receive()
        if message.type is WSMsgType.TEXT:
            await page.send_str(message.data)
        elif message.type is WSMsgType.CLOSE:
            return int(message.data)  # the holder's own word
        elif message.type in (WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR):
            return WSCloseCode.SERVICE_RESTART  # gone without one
