"""The web table in the sandbox: the same page and sockets as the Activity inside Discord,
served on 127.0.0.1 beside the simulated server, so ``tute-bot --sandbox`` is a real card
table in the browser too.

Nobody logs in through Discord here: the page has no ``frame_id`` (it is not inside
Discord's frame), so it uses the SDK's mock and posts its ``?user_id=`` with the mock's
code; :class:`SandboxAuth` signs a session for that member of the sandbox's server, in its
channel. Each tab may name another member (``?user_id=`` per tab), and ``?instance_id=``
names the instance the mock reports: one that Play at the table launched
(:mod:`.launch`) runs where it was pressed, the sandbox's channel or a member's DMs with
the bot (whose deal the card table then shows, and only to that member), as Discord's
instance does.

SimCord internals: SimCord drives the bot's work through its own operations and refuses
work that starts outside them (a robot's wait on the simulated clock must run inside
bot-owned work). So an action from a socket runs as bot-owned work, between two ticks of
the sandbox's clock, and SimCord settles it before the socket is answered
(:func:`as_bot_work`). The bot serves it (it was built with the sandbox's door:
:func:`sandbox_door`), so its tables offer Play at the table.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

from simcord import _runtime as simcord_runtime

from bot.web.activity import Instance, Login
from bot.web.hub import Runner, Work
from bot.web.server import WebDoor, WebTable
from bot.web.sessions import SESSION_TTL, Session, WebAuthError

from .launch import Launch
from .waits import SimulatedWaits

log = logging.getLogger(__name__)

WEB_PORT: Final = 8765
"""The web table's port on 127.0.0.1 (0 in tests: the system picks a free one; one that is
taken gives way to a free one, which its addresses name)."""


class SandboxAuth:
    """Signs a session for a member of the sandbox's server who names themselves: only the
    sandbox does this (its page is on loopback, its members are made up). With a ``key``,
    only a page that posts it (its address carries it, as the sandbox's page's address
    carries its own secret) is signed in: another program on this computer is not.

    It is built with the bot (its card table's door); the server, its channel and its
    members are made right after, before the bot starts, and :meth:`admit` names them."""

    def __init__(self, *, clock: Callable[[], float], key: str | None = None) -> None:
        self.key = key
        self.clock = clock
        self.members: dict[int, str] = {}
        self.channel_id = 0
        self.guild_id = 0
        self.launched: Sequence[Launch] = ()

    def admit(
        self,
        members: Mapping[int, str],
        *,
        channel_id: int,
        guild_id: int,
        launched: Sequence[Launch] = (),
    ) -> None:
        """The members who may sign in (their ids and names), in this channel and server;
        ``launched``: the Activity's launches (it fills as members press Play at the table),
        whose instances run where they were launched."""
        self.members = dict(members)
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.launched = launched

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
        except (ValueError, StopIteration):
            raise WebAuthError("not in the instance") from None
        name = self.members.get(user_id)
        instance = await self.instance(instance_id or "sandbox")
        if name is None or user_id not in instance.users:
            raise WebAuthError("not in the instance")
        session = Session(
            user_id=user_id,
            name=name,
            instance_id=instance.instance_id,
            channel_id=instance.channel_id,
            guild_id=instance.guild_id,
            expires=self.clock() + SESSION_TTL,
        )
        return Login(session=session, access_token="sandbox")

    async def instance(self, instance_id: str) -> Instance:
        """Where the instance runs: one launched in a member's DMs runs there and lists
        that member alone; any other runs in the sandbox's channel (or the thread it was
        launched in) and lists all its members."""
        launch = next((x for x in self.launched if x.instance_id == instance_id), None)
        if launch is not None and launch.guild_id is None:
            return Instance(
                instance_id=instance_id,
                channel_id=launch.channel_id,
                guild_id=None,
                users=frozenset({launch.user_id}),
            )
        return Instance(
            instance_id=instance_id,
            channel_id=self.channel_id if launch is None else launch.channel_id,
            guild_id=self.guild_id,
            users=frozenset(self.members),
        )


def as_bot_work(waits: SimulatedWaits, gate: asyncio.Lock) -> Runner:
    """How the changes the pages ask for run: as bot-owned work that SimCord settles (see
    the module's note), in the SimCord its ``waits`` wait on. ``gate`` is the sandbox
    clock's: a change and a tick take turns."""

    async def in_simcord(work: Work) -> Any:
        env = waits.env
        if env is None:
            raise RuntimeError("the card table runs in the sandbox's SimCord, once it is made")
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


async def outside_bot_work(start: Callable[[], Awaitable[None]]) -> None:
    """The card table starts listening outside the bot's work, though the bot starts it (at
    its start-up, inside SimCord's bot work), so that its open sockets are not work SimCord
    waits on before it answers a click.

    SimCord internals: it counts as the bot's every task made while its bot scope (a
    context variable) is set, and the tasks those make: the server's, made here with the
    scope cleared, are not."""
    context = contextvars.copy_context()
    context.run(simcord_runtime._BOT_SCOPE.set, None)  # pyright: ignore[reportPrivateUsage]

    async def started() -> None:
        await start()

    await context.run(asyncio.get_running_loop().create_task, started())


def sandbox_door(
    waits: SimulatedWaits, gate: asyncio.Lock, clock: Callable[[], float]
) -> tuple[WebDoor, SandboxAuth]:
    """The card table's door, which the bot is built with: its members sign in with the
    key their addresses carry, their requests run in SimCord (:func:`as_bot_work`), and a
    port that is taken gives way to a free one. Its :class:`SandboxAuth`, to admit the
    sandbox's members once they are made."""
    auth = SandboxAuth(clock=clock, key=secrets.token_urlsafe(24))
    door = WebDoor(auth, as_bot_work(waits, gate), outside_bot_work, any_port_when_taken=True)
    return door, auth


@dataclass(frozen=True, slots=True)
class CardTable:
    """The card table as the sandbox serves it: its server, and the key its addresses
    carry."""

    web: WebTable
    key: str | None

    @property
    def port(self) -> int | None:
        return self.web.port

    @property
    def origin(self) -> str:
        """Where its pages come from (the sandbox's page shows them in a frame)."""
        return f"http://127.0.0.1:{self.port}"

    def url(self, user_id: int, language: str, instance_id: str | None = None) -> str:
        """The address of the card table for one member (one per tab), in the Activity
        instance that Play at the table launched (None: the sandbox's channel)."""
        key = "" if self.key is None else f"&key={self.key}"
        instance = "" if instance_id is None else f"&instance_id={quote(instance_id)}"
        return f"{self.origin}/?user_id={user_id}&lang={language}{instance}{key}"
