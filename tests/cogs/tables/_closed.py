"""A channel closed to the bot, which SimCord has no room for: a group DM, a DM between two
members, a server without the bot, or a channel of the bot's server it may no longer see.
Every call the bot makes in it is refused as Discord refuses it (403, Missing Access), and
counted: each one counts against the limit of refused requests that bans an IP.

And the web table's side of a game there: its players' sockets, each change asked from the
page as the bot's own work (the page's socket runs in the bot's process), a whole game
played from the page to its end."""

from __future__ import annotations

import asyncio
import dataclasses
import fnmatch
import functools
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
import simcord
from simcord import interactions as sim_interactions

from bot.client import TuteBot
from bot.config import Config
from bot.engine import Kind
from bot.tables.codes import encode_action
from bot.tables.model import Status, Table
from bot.web.hub import TableHub
from bot.web.lobby import LobbyAction, server_of
from bot.web.sessions import Session
from tests.conftest import fast_bot
from tests.tables._play import table_of

T = TypeVar("T")

MISSING_ACCESS = 50001
MAX_MOVES = 2_000
"""More moves than any game here takes: a game that never ends fails instead of hanging."""
_ORDINARY = (Kind.PLAY, Kind.PASS, Kind.EXCHANGE, Kind.SING, Kind.TUTE)
"""What a player at the page does; never a capote, a claim or resigning."""


GROUP_DM = 990_000_000_000_000_101
MEMBERS_DM = 990_000_000_000_000_102
NO_BOT_SERVER, NO_BOT_CHANNEL = 990_000_000_000_000_201, 990_000_000_000_000_202
PRIVATE_CHANNEL = 2
"""An interaction's context in a group DM or a DM between members (not the bot's DM)."""


def between_members(patch: pytest.MonkeyPatch) -> None:
    """From now on interactions come from a DM between two members: a ``DMChannel``, as in
    the bot's own DM, whose context (2) alone tells the bot it may not post there."""
    build = sim_interactions.base_payload

    def from_members_dm(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(*args, **kwargs)
        payload["channel_id"] = str(MEMBERS_DM)
        payload["channel"] = {**payload["channel"], "id": str(MEMBERS_DM)}
        payload["context"] = PRIVATE_CHANNEL
        return record, payload

    patch.setattr(sim_interactions, "base_payload", from_members_dm)


def web_bot(config: Config) -> TuteBot:
    """The quick bot with its web table, on a port the system gives."""
    return fast_bot(dataclasses.replace(config, web_port=0, client_secret="oauth-secret"))


@dataclass
class Closed:
    """A channel in which every call of the bot is refused, and those refusals counted."""

    env: simcord.Env
    channel_id: int
    cursor: int

    @property
    def paths(self) -> tuple[str, str]:
        return (f"/channels/{self.channel_id}", f"/channels/{self.channel_id}/*")

    @property
    def refused(self) -> int:
        """The bot's calls in the channel since it closed: each one refused."""
        return sum(
            1
            for call in self.env.http_requests[self.cursor :]
            if any(fnmatch.fnmatch(call.path, p) for p in self.paths)
        )


def closed_channel(env: simcord.Env, channel_id: int) -> Closed:
    """From now on the bot may not post, edit, thread or read in ``channel_id``."""
    closed = Closed(env, channel_id, len(env.http_requests))
    for path in closed.paths:
        env.inject_error(
            "*", path, status=403, code=MISSING_ACCESS, message="Missing Access", times=None
        )
    return closed


class Socket:
    """A player's socket at the web table: what it was sent."""

    def __init__(self, session: Session, language: str = "en") -> None:
        self.session = session
        self.language = language
        self.sent: list[dict[str, Any]] = []
        self.table_id: int | None = None

    @property
    def user_id(self) -> int | None:
        return self.session.user_id

    @property
    def channel_id(self) -> int:
        return self.session.channel_id

    @property
    def place(self) -> int:
        return server_of(self.session)

    def follow(self, table_id: int) -> None:
        self.table_id = table_id

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def session(user_id: int, name: str, channel_id: int, guild_id: int | None) -> Session:
    return Session(
        user_id=user_id,
        name=name,
        instance_id="i-1",
        channel_id=channel_id,
        guild_id=guild_id,
        expires=2e9,
    )


@dataclass
class Page:
    """The web table of one channel, with a socket for each of its players."""

    env: simcord.Env
    sockets: list[Socket] = field(default_factory=list[Socket])

    @property
    def hub(self) -> TableHub:
        bot = self.env.bot
        assert isinstance(bot, TuteBot) and bot.web is not None
        return bot.web.hub

    async def run(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """One thing asked from the page, once the bot's work it made has settled."""
        with self.env._bot_scope():  # pyright: ignore[reportPrivateUsage]
            task = asyncio.get_running_loop().create_task(work())
        await self.env.settle()
        return task.result()

    async def open_and_start(self, variant: str = "habanero") -> int:
        """The first socket's player opens a lobby, the others sit down, and it starts."""
        host, *others = self.sockets
        table_id = await self.run(lambda: self.hub.open(host.session, host, variant))
        host.follow(table_id)
        for socket in others:
            await self.run(lambda s=socket: self.hub.join(table_id, s))
            socket.follow(table_id)
            await self.run(
                lambda s=socket: self.hub.lobby(table_id, s.session, s, LobbyAction.JOIN)
            )
        await self.run(lambda: self.hub.lobby(table_id, host.session, host, LobbyAction.START))
        return table_id

    def table(self, table_id: int) -> Table:
        bot = self.env.bot
        assert isinstance(bot, TuteBot) and bot.tables is not None
        return table_of(bot.tables, table_id)

    async def rejoin(self, table_id: int) -> None:
        """Every socket opens again at the table (the bot restarted: a new web table)."""
        for socket in self.sockets:
            await self.run(lambda s=socket: self.hub.join(table_id, s))

    async def play_out(self, table_id: int, moves: int = MAX_MOVES) -> Table:
        """Every player plays from the page until the game is over (or ``moves`` were
        made): the one on turn, the first thing the rules let them do."""
        by_user = {s.user_id: s for s in self.sockets}
        for _ in range(moves):
            table = self.table(table_id)
            if table.status is not Status.PLAYING:
                return table
            deal = table.deal
            assert deal is not None
            ours = [
                a
                for a in deal.legal_actions()
                if a.kind in _ORDINARY
                and a.seat == deal.turn
                and (seat := table.seats[a.seat]) is not None
                and seat.user_id in by_user
                and not seat.robot_plays
            ]
            if not ours:
                await self.env.advance_time(1)  # a robot, or a pause between deals
                continue
            action = next((a for a in ours if a.kind is Kind.PLAY), ours[0])
            seat = table.seats[action.seat]
            assert seat is not None and seat.user_id is not None
            socket = by_user[seat.user_id]
            act = functools.partial(
                self.hub.act,
                table_id,
                socket,
                encode_action(action),
                deal_no=table.deal_no,
                trick_no=len(deal.tricks),
            )
            await self.run(act)
        if moves < MAX_MOVES:
            return self.table(table_id)
        raise AssertionError(f"table {table_id} still plays after {MAX_MOVES} moves")
