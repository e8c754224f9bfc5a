"""The card table's sockets, by table: the card table's presenter. The service publishes
each saved change to it (beside Discord's messages); each socket at the table is sent what
its viewer may see (the one audience rule decides), and nothing else is decided here.

A socket is anything that can send a JSON message (:class:`Peer`): the app wraps aiohttp's
WebSocket in one; a test uses a list. A socket that fails to take a message is dropped, and
nothing else is touched: not the table, not the other sockets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bot.tables.audience import may_watch
from bot.tables.surroundings import LostTable
from bot.tables.views import HandView, Show, TableView

from . import wire

log = logging.getLogger(__name__)


class Peer(Protocol):
    """One open socket of the web table: who it is (a member, or None for a spectator),
    where it was opened (``place``: the server, or the DM's channel, as tables are filed),
    and the language its page reads (``en`` or ``es``)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def place(self) -> int: ...

    @property
    def language(self) -> str: ...

    async def send(self, message: dict[str, Any]) -> None: ...


@runtime_checkable
class Waiting(Peer, Protocol):
    """A socket in a channel with no table yet: it follows the first one opened there."""

    @property
    def channel_id(self) -> int: ...

    def follow(self, table_id: int) -> None: ...


class Sockets:
    """Every open socket of the card table, by the table it follows (and, in a channel with
    no table yet, by channel): built before the service, which publishes to it."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._peers: dict[int, set[Peer]] = {}
        self._waiting: dict[int, set[Waiting]] = {}
        """Sockets waiting for a table, by channel."""
        self._kept_from: set[Peer] = set()
        """Sockets following a table whose play the audience rule keeps from their viewer,
        already told so."""

    def peers(self, table_id: int) -> frozenset[Peer]:
        return frozenset(self._peers.get(table_id, ()))

    def count(self) -> int:
        """How many sockets are open: following a table, or waiting for one (the figures)."""
        following = sum(len(peers) for peers in self._peers.values())
        return following + sum(len(waiting) for waiting in self._waiting.values())

    async def join(self, table: TableView, hand: HandView | None, peer: Peer) -> None:
        """A socket opens at a table: from now on it follows it; it is sent the table as it
        is (``hand``: its viewer's, when they sit at it), or, where the audience rule keeps
        its play from the viewer (a game without spectators), only that it is private."""
        self._peers.setdefault(table.id, set()).add(peer)
        if not may_watch(table, peer.user_id, peer.place):
            await self._keep_from(table.id, peer)
            return
        message = wire.state(table, hand, peer.language, self._clock(), viewer=peer.user_id)
        await self._send(table.id, peer, message)

    def wait(self, peer: Waiting) -> None:
        """A socket whose channel has no table: the next table shown there, it follows (a
        lobby opened with ``/tute new``, from another page, or by a tournament)."""
        self._waiting.setdefault(peer.channel_id, set()).add(peer)

    def stop_waiting(self, peer: Waiting) -> None:
        waiting = self._waiting.get(peer.channel_id)
        if waiting is not None:
            waiting.discard(peer)
            if not waiting:
                del self._waiting[peer.channel_id]

    def leave(self, table_id: int, peer: Peer) -> None:
        self._kept_from.discard(peer)
        peers = self._peers.get(table_id)
        if peers is not None:
            peers.discard(peer)
            if not peers:
                del self._peers[table_id]

    # what the service publishes ----------------------------------------------

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        """The table changed: each socket at it is sent what its viewer sees now (every
        socket: ``skip_seat`` is a Discord message's business)."""
        table_id = show.table.id
        if show.table.status.is_open:
            for waiting in self._waiting.pop(show.table.channel_id, set()):
                waiting.follow(table_id)
                self._peers.setdefault(table_id, set()).add(waiting)
        watching: list[Peer] = []
        kept: list[Peer] = []  # kept from its play, and not told so yet
        for peer in self._peers.get(table_id, ()):
            if may_watch(show.table, peer.user_id, peer.place):
                watching.append(peer)
                self._kept_from.discard(peer)
            elif peer not in self._kept_from:
                kept.append(peer)
        shown = wire.table_state(show.table, self._now())  # the same for every socket
        await asyncio.gather(
            *(
                self._send(
                    table_id,
                    p,
                    wire.state(
                        show.table,
                        self._hand_of(show, p),
                        p.language,
                        viewer=p.user_id,
                        shown=shown,
                    ),
                )
                for p in watching
            ),
            *(self._keep_from(table_id, p) for p in kept),
        )
        if not show.table.status.is_open:
            # the game is over: its pages wait for the channel's next table (a rematch)
            for peer in self._peers.pop(table_id, set()):
                self._kept_from.discard(peer)
                if isinstance(peer, Waiting):
                    self.wait(peer)

    async def table_lost(self, lost: LostTable) -> None:
        peers = self._peers.pop(lost.table_id, set())
        message = {"type": "lost", "table": lost.table_id}
        await asyncio.gather(*(self._send(lost.table_id, p, message) for p in peers))

    # ------------------------------------------------------------------------------

    def _now(self) -> float:
        return self._clock()

    @staticmethod
    def _hand_of(show: Show, peer: Peer) -> HandView | None:
        """The viewer's own hand, if they sit at the table (never another seat's)."""
        seat = wire.seat_of(show.table, peer.user_id)
        if seat is None:
            return None
        return next((h for h in show.hands if h.seat == seat), None)

    async def _keep_from(self, table_id: int, peer: Peer) -> None:
        """The viewer may not watch the table's play: they are told so once (and nothing
        of the game), and the socket still follows the table, to see the next one here."""
        self._kept_from.add(peer)
        await self._send(table_id, peer, wire.kept_from(table_id))

    async def _send(self, table_id: int, peer: Peer, message: dict[str, Any]) -> None:
        try:
            await peer.send(message)
        except Exception as error:  # a socket gone, or broken: it alone is dropped
            log.info("Table %s: a web socket is dropped (%s)", table_id, error)
            self.leave(table_id, peer)
