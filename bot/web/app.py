"""The web table's HTTP side, served by the bot's own process (an aiohttp app on the bot's
event loop).

- ``GET /``: the table's page, and ``GET /static/{name}``: the files it is built into
  (``web/`` at the repository's root builds them into ``static/``; the package ships them,
  so running the bot needs no Node);
- ``GET /cards/{code}.png`` and ``/cards/back.png``: the bot's own card pictures (with
  ``?v=``, their version from ``/api/config``, cached for good);
- ``GET /api/words?lang=en|es``: the page's words, from the message catalog (``web.*``),
  and ``GET /api/config``: the Discord application id its SDK needs;
- ``POST /api/token`` logs a player in (Discord proves who they are, :mod:`activity`; the
  sandbox, its own way) and answers with a signed session;
- ``GET /api/ws?session=...&lang=...`` is that player's socket: it follows the table of the
  Activity's channel (:class:`TableHub`) and takes their actions as the buttons' clicks.

A socket's messages are JSON objects with a ``type``: the server sends ``state`` (the table
and the viewer's own hand, :mod:`wire`), ``refused`` (an action the table did not take: its
catalog key, ``tables.errors.<key>``, parameters and the sentence in the socket's language),
``no_table`` (nothing plays in that channel now) and ``lost``; the page sends ``act``
(``code``, ``deal``, ``trick``: what a hand's button carries) and ``back`` (a player a robot
stands in for plays again).

A session is checked on every message the page sends and before every change pushed to its
socket: once it has run out, the page is told so (``refused``, ``tables.errors.expired``)
and its socket is closed with :data:`SESSION_ENDED`, on which the page logs in again. A
socket opening with a session asks Discord again whether its instance is still there and
still lists the player (:mod:`instances`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol, cast

from aiohttp import WSCloseCode, WSMsgType, web

from bot.engine import CODES, SUITS
from bot.i18n import CATALOGS, LANGUAGES, Language, language_of, t
from bot.tables.errors import TableError
from bot.words import card_name, suit_text

from . import cards, wire
from .activity import DiscordCallError, Instance, Login
from .hub import TableHub
from .instances import InstanceCheck
from .lobby import channel_table, server_of
from .relay import relay_if_elsewhere, relayed_by_peer
from .replays import replays_answer, review_answer
from .sessions import Session, WebAuthError, sign, verify

log = logging.getLogger(__name__)

MAX_MESSAGE: Final = 4096
"""The largest message a page may send on its socket, in bytes."""
HEARTBEAT: Final = 25.0
"""Seconds between pings on a socket, so a dropped one is noticed."""
SESSION_ENDED: Final = 4401
"""The close code of a socket whose session ran out: the page logs in again at once."""

STATIC: Final = Path(__file__).with_name("static")
"""The page as ``web/`` builds it (``npm run build``), shipped with the package."""
STATIC_TYPES: Final = {
    "table.js": "text/javascript; charset=utf-8",
    "table.css": "text/css; charset=utf-8",
}
"""The files ``/static/`` serves, and what each is; nothing else there is served."""
INDEX: Final = "index.html"
LONG_CACHE: Final = "public, max-age=31536000, immutable"
"""A built file asked by its digest (the page names it so) never changes under its
address."""
SHORT_CACHE: Final = "public, max-age=300"
NO_CACHE: Final = "no-cache"
WORDS_PREFIX: Final = "web."
CONTENT_SECURITY: Final = "base-uri 'none'; form-action 'none'; object-src 'none'"
"""What the page never needs (its scripts are its own file; Discord's proxy adds its own
policy around the Activity)."""


class Authority(Protocol):
    """Who proves a player of the page: Discord (:class:`ActivityAuth`), or the sandbox's
    own stand-in. ``body`` is the whole JSON object the page posted (the sandbox reads its
    ``user_id``)."""

    async def login(self, code: str, instance_id: str, body: Mapping[str, Any]) -> Login: ...

    async def instance(self, instance_id: str) -> Instance:
        """Where the instance runs and who is in it now; a WebAuthError when there is no
        such instance, a DiscordCallError when Discord does not answer."""
        ...


AUTH: web.AppKey[Authority | None] = web.AppKey("auth")
HUB: web.AppKey[TableHub] = web.AppKey("hub")
SECRET: web.AppKey[bytes] = web.AppKey("secret")
CLOCK: web.AppKey[Callable[[], float]] = web.AppKey("clock")
SOCKETS: web.AppKey[weakref.WeakSet[web.WebSocketResponse]] = web.AppKey("sockets")
APPLICATION: web.AppKey[int | None] = web.AppKey("application")
FILES: web.AppKey[dict[str, tuple[bytes, str]]] = web.AppKey("files")
"""The built files, each with its digest, read once."""
CARDS: web.AppKey[dict[str, bytes]] = web.AppKey("cards")
INSTANCES: web.AppKey[InstanceCheck | None] = web.AppKey("instances")
"""Whether a session's instance is still there (None: nobody logs in, nothing to ask)."""


def make_app(
    *,
    hub: TableHub,
    secret: bytes,
    clock: Callable[[], float],
    auth: Authority | None,
    application_id: int | None = None,
    static: Path = STATIC,
) -> web.Application:
    """The app; ``auth`` None: nobody logs in (no Activity is set up, no client secret).
    ``application_id``: the Discord application whose Activity the page is (its SDK needs
    it; None outside Discord). ``static``: where the built page lies."""
    app = web.Application(client_max_size=MAX_MESSAGE)
    app[AUTH] = auth
    app[HUB] = hub
    app[SECRET] = secret
    app[CLOCK] = clock
    app[SOCKETS] = weakref.WeakSet()
    app[APPLICATION] = application_id
    app[FILES] = _read_static(static)
    app[CARDS] = {}
    app[INSTANCES] = None if auth is None else InstanceCheck(auth, clock)
    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static_file)
    app.router.add_get("/cards/{code}.png", card_picture)
    app.router.add_get("/api/words", words)
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/token", token)
    app.router.add_get("/api/ws", socket)
    app.router.add_get("/api/replays", replays)
    app.router.add_get(r"/api/replays/{table:[0-9]+}/{deal:[0-9]+}", replays)
    app.router.add_get(r"/api/replays/{table:[0-9]+}/{deal:[0-9]+}/review", review)
    app.on_shutdown.append(_close_sockets)
    return app


def _read_static(folder: Path) -> dict[str, tuple[bytes, str]]:
    """The built page's files and their digests, read once (a missing one is answered
    404, and logged)."""
    found: dict[str, tuple[bytes, str]] = {}
    for name in (INDEX, *STATIC_TYPES):
        try:
            data = (folder / name).read_bytes()
            found[name] = (data, digest(data))
        except OSError:
            log.warning("The web table's page has no %s: build it (npm run build in web/)", name)
    return found


def digest(data: bytes) -> str:
    """The short digest a built file's address carries (``table.js?v=...``)."""
    return hashlib.sha256(data).hexdigest()[:16]


async def _close_sockets(app: web.Application) -> None:
    """The bot stops: every socket is told it goes away (the page may come back later)."""
    for ws in list(app[SOCKETS]):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the table is going away")


# ------------------------------------------------------------------ the page and its files


async def index(request: web.Request) -> web.Response:
    found = request.app[FILES].get(INDEX)
    if found is None:
        raise web.HTTPNotFound()
    return web.Response(
        body=found[0],
        content_type="text/html",
        charset="utf-8",
        headers={
            "Cache-Control": NO_CACHE,
            "Content-Security-Policy": CONTENT_SECURITY,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        },
    )


async def static_file(request: web.Request) -> web.Response:
    """One of the built files, by its name alone (no folder, nothing else there)."""
    name = request.match_info["name"]
    found = request.app[FILES].get(name) if name in STATIC_TYPES else None
    if found is None:
        raise web.HTTPNotFound()
    data, tag = found
    return web.Response(
        body=data,
        headers={
            "Content-Type": STATIC_TYPES[name],
            "Cache-Control": LONG_CACHE if request.query.get("v") == tag else NO_CACHE,
            "ETag": f'"{tag}"',
            "X-Content-Type-Options": "nosniff",
        },
    )


async def card_picture(request: web.Request) -> web.Response:
    """A card's face (``12O``) or its back (``back``), as the bot draws them, in PNG; drawn
    once, off the event loop, and kept. Asked with this release's version (``?v=``, which
    the page has from ``/api/config``) it is cached for good; else briefly."""
    code = request.match_info["code"]
    if code != cards.BACK and code not in cards.CODES:
        raise web.HTTPNotFound()
    drawn = request.app[CARDS]
    png = drawn.get(code)
    if png is None:
        png = await asyncio.to_thread(cards.card_png, code)
        drawn[code] = png
    cache = LONG_CACHE if request.query.get("v") == cards.card_version() else SHORT_CACHE
    return web.Response(
        body=png,
        headers={
            "Content-Type": "image/png",
            "Cache-Control": cache,
            "X-Content-Type-Options": "nosniff",
        },
    )


@functools.cache
def page_words(lang: Language) -> dict[str, Any]:
    """What the page says, in ``lang``: its own texts (the catalog's ``web.*``, and the
    chat's buttons it has too), each card's name and each suit's, by code. Made once per
    language (the catalog does not change while the bot runs); not to be changed."""
    catalog, english = CATALOGS[lang], CATALOGS["en"]
    texts = {
        key: catalog.get(key, text) for key, text in english.items() if key.startswith(WORDS_PREFIX)
    } | {key: t(key, lang) for key in wire.SHARED_WORDS}
    cards = {code: card_name(n, lang) for n, code in enumerate(CODES)}
    suits = {letter: suit_text(n, lang, symbol=False) for n, letter in enumerate(SUITS)}
    return {"lang": lang, "words": texts, "cards": cards, "suits": suits}


def _language(asked: str | None) -> Language | None:
    """The language a page asks for (``en``, ``es``), or None for any other word."""
    return asked if asked in LANGUAGES else None  # type: ignore[return-value]


async def words(request: web.Request) -> web.Response:
    lang = language_of(request.query.get("lang"))
    return web.json_response(page_words(lang), headers={"Cache-Control": SHORT_CACHE})


async def config(request: web.Request) -> web.Response:
    """What the page needs before it logs in: the application its Discord SDK speaks for
    (None: no Activity, the page logs in as the sandbox does), the messages' version and the
    cards' pictures' (their addresses carry it)."""
    application = request.app[APPLICATION]
    return web.json_response(
        {
            "client_id": None if application is None else str(application),
            "protocol": wire.PROTOCOL,
            "cards": cards.card_version(),
        },
        headers={"Cache-Control": NO_CACHE},
    )


# ------------------------------------------------------------------ login and the socket


async def token(request: web.Request) -> web.Response:
    """``{"code", "instance_id", ...}`` -> ``{"session", "access_token", "user"}``; 401 with
    a word when the login is not proved, 503 when Discord does not answer."""
    auth = request.app[AUTH]
    if auth is None:
        return web.json_response({"error": "no activity"}, status=404)
    try:
        body: Any = await request.json()
        code, instance_id = str(body["code"]), str(body["instance_id"])
    except (ValueError, KeyError, TypeError, RecursionError):  # nested past json's depth
        return web.json_response({"error": "malformed"}, status=400)
    try:
        login = await auth.login(code, instance_id, body)
    except WebAuthError as error:
        return web.json_response({"error": error.reason}, status=401)
    except DiscordCallError as error:
        log.warning("A web table login could not reach Discord: %s", error)
        return web.json_response({"error": "discord unavailable"}, status=503)
    session = login.session
    instances = request.app[INSTANCES]
    if instances is not None:
        instances.vouch(session)
    return web.json_response(
        {
            "session": sign(session, request.app[SECRET]),
            "access_token": login.access_token,
            "user": {"id": str(session.user_id), "name": session.name},
        }
    )


async def review(request: web.Request) -> web.Response:
    """The review of a member's own decisions in a finished deal (:mod:`replays`)."""
    app = request.app
    return await review_answer(request, app[HUB].service, app[SECRET], app[CLOCK])


async def replays(request: web.Request) -> web.Response:
    """A member's finished deals of their Activity's server, and one replayed (:mod:`replays`)."""
    app = request.app
    return await replays_answer(request, app[HUB].service, app[SECRET], app[CLOCK])


class SessionEnded(Exception):
    """The socket's session ran out: nothing more is sent on it."""


class SocketPeer:
    """A player's socket, as the hub sees it; ``language``: what its page reads;
    ``clock``: the app's, against which its session runs out."""

    def __init__(
        self,
        session: Session,
        ws: web.WebSocketResponse,
        language: str,
        clock: Callable[[], float],
    ) -> None:
        self.session = session
        self.ws = ws
        self.language = language
        self.clock = clock
        self.table_id: int | None = None
        """The table it follows, once it follows one."""
        self._ending: asyncio.Task[None] | None = None
        self._ended = False

    @property
    def channel_id(self) -> int:
        return self.session.channel_id

    def follow(self, table_id: int) -> None:
        self.table_id = table_id

    @property
    def user_id(self) -> int | None:
        return self.session.user_id

    @property
    def place(self) -> int:
        return server_of(self.session)

    @property
    def expired(self) -> bool:
        return self.session.expires <= self.clock()

    async def send(self, message: dict[str, Any]) -> None:
        """A change for the page; none once its session ran out: the socket is then ended
        (on its own, so the other sockets are not kept waiting) and the hub drops it."""
        if self.expired:
            if self._ending is None:
                self._ending = asyncio.create_task(self.end())
            raise SessionEnded
        await self.ws.send_json(message)

    async def ended(self) -> None:
        """Until the socket's end, when a push began it, is done."""
        if self._ending is not None:
            await self._ending

    async def end(self) -> None:
        """The session ran out: the page is told so, in words, and its socket closed with
        :data:`SESSION_ENDED` (the page logs in again); once, whoever notices first."""
        if self._ended:
            if self._ending is not None and self._ending is not asyncio.current_task():
                await self._ending
            return
        self._ended = True
        try:
            await self.ws.send_json(wire.refused("expired", {}, self.language))
            await self.ws.close(code=SESSION_ENDED, message=b"the session ran out")
        except Exception as error:  # the socket is gone already
            log.info("A web socket whose session ran out could not be closed (%s)", error)


async def socket(request: web.Request) -> web.StreamResponse:
    """A player's socket at the table of their Activity's channel, in the language the page
    asks (``lang``; else the table's). With no table there, the page is told so and may
    open one (``open``); the socket then follows it."""
    app = request.app
    secret, clock = app[SECRET], app[CLOCK]
    try:
        session = verify(request.query.get("session", ""), secret, clock())
    except WebAuthError as error:
        return web.json_response({"error": error.reason}, status=401)
    instances = app[INSTANCES]
    if instances is not None and not relayed_by_peer(request, secret, clock()):
        # a peer that relays a socket has asked already
        refusal = await instances.refusal(session)
        if refusal is not None:
            return web.json_response({"error": refusal}, status=401)
    hub = app[HUB]
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
    await ws.prepare(request)
    app[SOCKETS].add(ws)
    if await relay_if_elsewhere(request, session, ws, secret=secret, now=clock()):
        return ws  # its table is played by another process: piped there until it closed
    table = await channel_table(hub.service, session)
    asked = _language(request.query.get("lang"))
    language = asked or language_of(table.language if table else None)
    peer = SocketPeer(session, ws, language, clock)
    try:
        if table is not None:
            await hub.join(table.id, peer)
            peer.follow(table.id)
    except TableError:  # the table ended a moment ago
        pass
    if peer.table_id is None:
        hub.wait(peer)
        await ws.send_json({"type": "no_table", "may_open": True})
    try:
        async for message in ws:
            if message.type is TEXT:
                if peer.expired:  # nothing is taken from a session that ran out
                    await peer.end()
                    break
                try:
                    await _take(hub, peer, message.data)
                except SessionEnded:  # it ran out meanwhile
                    await peer.end()
                    break
    finally:
        hub.stop_waiting(peer)
        if peer.table_id is not None:
            hub.leave(peer.table_id, peer)
        await peer.ended()
    return ws


TEXT: Final = WSMsgType.TEXT


async def _take(hub: TableHub, peer: SocketPeer, data: str) -> None:
    """One message from the page: an action, which the table takes or refuses in words."""
    try:
        raw: Any = json.loads(data)
        if not isinstance(raw, dict):
            raise ValueError("not an object")
        message = cast("dict[str, Any]", raw)
        kind = message.get("type")
        if kind == "open":
            if peer.table_id is not None and peer in hub.peers(peer.table_id):
                raise TableError("table_here")
            hub.stop_waiting(peer)
            try:
                peer.follow(await hub.open(peer.session, peer, str(message["variant"])))
            except TableError:
                hub.wait(peer)  # refused: it still follows a table opened there later
                raise
            return
        table_id = peer.table_id
        if table_id is None:
            raise TableError("gone")
        await hub.take(table_id, peer, peer.session, kind, message)
    except TableError as error:
        await _refuse(peer, error)
    except (ValueError, KeyError, TypeError, RecursionError):  # nested past json's depth
        await _refuse(peer, TableError("malformed"))


async def _refuse(peer: SocketPeer, error: TableError) -> None:
    params = {k: v for k, v in error.params.items() if isinstance(v, int | str)}
    await peer.send(wire.refused(error.key, params, peer.language))
