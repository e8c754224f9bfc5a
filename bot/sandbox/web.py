"""The web table in the sandbox: the same page and sockets as the Activity inside Discord,
served on 127.0.0.1 beside the simulated server, so ``tute-bot --sandbox`` is a real card
table in the browser too.

Nobody logs in through Discord here: the page has no ``frame_id`` (it is not inside
Discord's frame), so it uses the SDK's mock and posts its ``?user_id=`` with the mock's
code; :class:`SandboxAuth` signs a session for that member of the sandbox's server, in its
channel. Each tab may name another member (``?user_id=`` per tab), and ``?instance_id=``
names the instance the mock reports.

SimCord internals: SimCord drives the bot's work through its own operations and refuses
work that starts outside them (a robot's wait on the simulated clock must run inside
bot-owned work). So an action from a socket runs as bot-owned work, between two ticks of
the sandbox's clock, and SimCord settles it before the socket is answered
(:func:`act_as_bot_work`); the server itself is started outside the bot's scope, so an open
socket is not work SimCord waits on.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import simcord

from bot.client import TuteBot
from bot.web.activity import Instance, Login
from bot.web.hub import Runner, Work
from bot.web.server import WebTable
from bot.web.sessions import SESSION_TTL, Session, WebAuthError

log = logging.getLogger(__name__)

WEB_PORT: Final = 8765
"""The web table's port on 127.0.0.1 (0 in tests: the system picks a free one)."""


class SandboxAuth:
    """Signs a session for a member of the sandbox's server who names themselves: only the
    sandbox does this (its page is on loopback, its members are made up). With a ``key``,
    only a page that posts it (its address carries it, as the sandbox's page's address
    carries its own secret) is signed in: another program on this computer is not."""

    def __init__(
        self,
        members: Mapping[int, str],
        *,
        channel_id: int,
        guild_id: int,
        clock: Callable[[], float],
        key: str | None = None,
    ) -> None:
        self.key = key
        self.members = dict(members)
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.clock = clock

    async def login(self, code: str, instance_id: str, body: Mapping[str, Any]) -> Login:
        """``body["user_id"]``: the member the tab plays as (the first one when absent)."""
        del code  # the mock's code proves nothing: the key does
        if self.key is not None and not secrets.compare_digest(
            str(body.get("key", "")).encode(), self.key.encode()
        ):
            raise WebAuthError("code refused")
        raw = body.get("user_id")
        try:
            user_id = next(iter(self.members)) if raw in (None, "") else int(str(raw))
        except ValueError:
            raise WebAuthError("not in the instance") from None
        name = self.members.get(user_id)
        if name is None:
            raise WebAuthError("not in the instance")
        session = Session(
            user_id=user_id,
            name=name,
            instance_id=instance_id or "sandbox",
            channel_id=self.channel_id,
            guild_id=self.guild_id,
            expires=self.clock() + SESSION_TTL,
        )
        return Login(session=session, access_token="sandbox")

    async def instance(self, instance_id: str) -> Instance:
        """Every instance runs in the sandbox's one channel, and lists all its members."""
        return Instance(
            instance_id=instance_id,
            channel_id=self.channel_id,
            guild_id=self.guild_id,
            users=frozenset(self.members),
        )


def as_bot_work(env: simcord.Env, gate: asyncio.Lock) -> Runner:
    """How the changes the pages ask for run: as bot-owned work that SimCord settles (see
    the module's note). ``gate`` is the sandbox clock's: a change and a tick take turns."""

    async def in_simcord(work: Work) -> Any:
        async with gate:
            with env._bot_scope():  # pyright: ignore[reportPrivateUsage]
                task = asyncio.get_running_loop().create_task(work())
            try:
                await env.settle()
            except Exception:
                # The bot took longer than SimCord's settle timeout: what it did is kept,
                # and the rest settles with the next tick.
                log.warning("A web table action could not settle", exc_info=True)
            return await task

    return in_simcord


async def serve_web_table(
    env: simcord.Env,
    bot: TuteBot,
    where: tuple[Mapping[int, str], int, int],
    gate: asyncio.Lock,
    port: int = WEB_PORT,
) -> CardTable | None:
    """Serve the web table on 127.0.0.1:``port`` to the sandbox's members (their ids and
    names), in its channel and server: ``where``. None when the port is taken (the log says
    so, and the sandbox goes on without it). Its sockets are the bot's (one of its table
    service's presenters since the start)."""
    members, channel_id, guild_id = where
    auth = SandboxAuth(
        members,
        channel_id=channel_id,
        guild_id=guild_id,
        clock=lambda: env.now().timestamp(),
        key=secrets.token_urlsafe(24),
    )
    web = WebTable(
        bot.tables,
        bot.sockets,
        secret=secrets.token_bytes(32),
        clock=auth.clock,
        application_id=None,
        client_secret="",
        bot_token="",
        auth=auth,
        runner=as_bot_work(env, gate),
    )
    try:
        await web.start("127.0.0.1", port)
    except OSError as error:
        log.warning("The card table could not be served on port %s: %s", port, error)
        return None
    return CardTable(web, auth.key)


@dataclass(frozen=True, slots=True)
class CardTable:
    """The card table as the sandbox serves it: its server, and the key its addresses
    carry."""

    web: WebTable
    key: str | None

    @property
    def port(self) -> int | None:
        return self.web.port

    def url(self, user_id: int, language: str) -> str:
        """The address of the card table for one member (one per tab)."""
        key = "" if self.key is None else f"&key={self.key}"
        return f"http://127.0.0.1:{self.port}/?user_id={user_id}&lang={language}{key}"

    async def stop(self) -> None:
        await self.web.stop()
