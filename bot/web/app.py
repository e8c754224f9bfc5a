"""The web table's HTTP side, served by the bot's own process (an aiohttp app on the bot's
event loop): ``POST /api/token`` logs a player of the Activity in (Discord proves who they
are, :mod:`activity`) and answers with a signed session; ``GET /api/ws`` is that player's
socket: it follows the table of the Activity's channel (:class:`TableHub`) and takes their
actions as the buttons' clicks.

A socket's messages are JSON objects with a ``type``: the server sends ``state`` (the table
and the viewer's own hand, :mod:`wire`), ``refused`` (an action the table did not take:
its catalog key, ``tables.errors.<key>``, and parameters), ``no_table`` (nothing plays in
that channel now) and ``lost``; the page sends ``act`` (``code``, ``deal``, ``trick``: what a
hand's button carries).
"""

from __future__ import annotations

import json
import logging
import weakref
from collections.abc import Callable
from typing import Any, Final

from aiohttp import WSCloseCode, WSMsgType, web

from bot.tables.errors import TableError
from bot.tables.service import TableService

from .activity import ActivityAuth, DiscordCallError
from .hub import TableHub
from .sessions import Session, WebAuthError, sign, verify

log = logging.getLogger(__name__)

MAX_MESSAGE: Final = 4096
"""The largest message a page may send on its socket, in bytes."""
HEARTBEAT: Final = 25.0
"""Seconds between pings on a socket, so a dropped one is noticed."""

AUTH: web.AppKey[ActivityAuth | None] = web.AppKey("auth")
HUB: web.AppKey[TableHub] = web.AppKey("hub")
SECRET: web.AppKey[bytes] = web.AppKey("secret")
CLOCK: web.AppKey[Callable[[], float]] = web.AppKey("clock")
SOCKETS: web.AppKey[weakref.WeakSet[web.WebSocketResponse]] = web.AppKey("sockets")


def make_app(
    *,
    hub: TableHub,
    secret: bytes,
    clock: Callable[[], float],
    auth: ActivityAuth | None,
) -> web.Application:
    """The app; ``auth`` None: no Activity is set up (no client secret), so nobody logs in
    through Discord (the sandbox signs its own sessions)."""
    app = web.Application(client_max_size=MAX_MESSAGE)
    app[AUTH] = auth
    app[HUB] = hub
    app[SECRET] = secret
    app[CLOCK] = clock
    app[SOCKETS] = weakref.WeakSet()
    app.router.add_post("/api/token", token)
    app.router.add_get("/api/ws", socket)
    app.on_shutdown.append(_close_sockets)
    return app


async def _close_sockets(app: web.Application) -> None:
    """The bot stops: every socket is told it goes away (the page may come back later)."""
    for ws in list(app[SOCKETS]):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the table is going away")


async def token(request: web.Request) -> web.Response:
    """``{"code", "instance_id"}`` -> ``{"session", "access_token", "user"}``; 401 with a
    word when Discord does not prove who it is, 503 when Discord does not answer."""
    auth = request.app[AUTH]
    if auth is None:
        return web.json_response({"error": "no activity"}, status=404)
    try:
        body: Any = await request.json()
        code, instance_id = str(body["code"]), str(body["instance_id"])
    except (ValueError, KeyError, TypeError):
        return web.json_response({"error": "malformed"}, status=400)
    try:
        login = await auth.login(code, instance_id)
    except WebAuthError as error:
        return web.json_response({"error": error.reason}, status=401)
    except DiscordCallError as error:
        log.warning("A web table login could not reach Discord: %s", error)
        return web.json_response({"error": "discord unavailable"}, status=503)
    session = login.session
    return web.json_response(
        {
            "session": sign(session, request.app[SECRET]),
            "access_token": login.access_token,
            "user": {"id": str(session.user_id), "name": session.name},
        }
    )


class SocketPeer:
    """A player's socket, as the hub sees it."""

    def __init__(self, session: Session, ws: web.WebSocketResponse) -> None:
        self.session = session
        self.ws = ws

    @property
    def user_id(self) -> int | None:
        return self.session.user_id

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_json(message)


def table_of_channel(service: TableService, session: Session) -> int | None:
    """The open table of the Activity's channel (the newest, if several)."""
    if session.guild_id is None:
        return None
    found = [
        t.id for t in service.open_tables(session.guild_id) if t.channel_id == session.channel_id
    ]
    return max(found) if found else None


async def socket(request: web.Request) -> web.StreamResponse:
    """A player's socket at the table of their Activity's channel."""
    try:
        session = verify(
            request.query.get("session", ""), request.app[SECRET], request.app[CLOCK]()
        )
    except WebAuthError as error:
        return web.json_response({"error": error.reason}, status=401)
    hub = request.app[HUB]
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    peer = SocketPeer(session, ws)
    table_id = table_of_channel(hub.service, session)
    try:
        if table_id is None:
            raise TableError("gone")
        await hub.join(table_id, peer)
    except TableError:  # nothing plays there, or the table ended a moment ago
        await ws.send_json({"type": "no_table"})
        await ws.close()
        return ws
    try:
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            await _take(hub, table_id, peer, message.data)
    finally:
        hub.leave(table_id, peer)
    return ws


async def _take(hub: TableHub, table_id: int, peer: SocketPeer, data: str) -> None:
    """One message from the page: an action, which the table takes or refuses in words."""
    try:
        message: Any = json.loads(data)
        if not isinstance(message, dict) or message.get("type") != "act":
            raise ValueError("not an action")
        code, deal, trick = str(message["code"]), int(message["deal"]), int(message["trick"])
    except (ValueError, KeyError, TypeError):
        await _refuse(peer, TableError("malformed"))
        return
    try:
        await hub.act(table_id, peer, code, deal_no=deal, trick_no=trick)
    except TableError as error:
        await _refuse(peer, error)


async def _refuse(peer: SocketPeer, error: TableError) -> None:
    params = {k: v for k, v in error.params.items() if isinstance(v, int | str)}
    await peer.send({"type": "refused", "key": f"tables.errors.{error.key}", "params": params})
