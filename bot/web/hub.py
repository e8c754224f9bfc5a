"""The web table's sockets, by table: each is sent what its viewer may see whenever the
table changes, and a player's action goes through the same service call as a Discord
button. The hub is a presenter of the table service (beside the Discord one): the service
says what changed, the hub only sends it.

A socket is anything that can send a JSON message (:class:`Peer`): the app wraps aiohttp's
WebSocket in one; a test uses a list. A socket that fails to take a message is dropped, and
nothing else is touched: not the table, not the other sockets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, runtime_checkable

from bot.tables.audience import may_watch
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.surroundings import LostTable
from bot.tables.views import HandView, Outcome, Show

from . import lobby, wire
from .hint_words import hint_message
from .sessions import Session

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


Work = Callable[[], Coroutine[Any, Any, Outcome]]
"""A change the page asked for: the service's call and the redraw after it."""


async def at_once(work: Work) -> Outcome:
    return await work()


class TableHub:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._peers: dict[int, set[Peer]] = {}
        self._waiting: dict[int, set[Waiting]] = {}
        """Sockets waiting for a table, by channel."""
        self._kept_from: set[Peer] = set()
        """Sockets following a table whose play the audience rule keeps from their viewer,
        already told so."""
        self.runner: Callable[[Work], Awaitable[Outcome]] = at_once
        """How a change from a page runs (the sandbox runs it as its simulated Discord's
        work); at once, on the socket's task, otherwise."""

    def peers(self, table_id: int) -> frozenset[Peer]:
        return frozenset(self._peers.get(table_id, ()))

    async def join(self, table_id: int, peer: Peer) -> None:
        """A socket opens at a table: from now on it follows it; it is sent the table as it
        is (its viewer's hand too, when they sit at it), or, where the audience rule keeps
        its play from the viewer (a game without spectators), only that it is private."""
        table = self.service.view(table_id)  # a TableError when there is no such table
        self._peers.setdefault(table_id, set()).add(peer)
        if not may_watch(table, peer.user_id, peer.place):
            await self._keep_from(table_id, peer)
            return
        seat = wire.seat_of(table, peer.user_id)
        hand = None if seat is None else self.service.hand_view(table_id, seat)
        message = wire.state(table, hand, peer.language, self._now(), viewer=peer.user_id)
        await self._send(table_id, peer, message)

    def wait(self, peer: Waiting) -> None:
        """A socket whose channel has no table: the next table shown there, it follows (a
        lobby opened with ``/tute new``, or from another page)."""
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

    async def act(
        self, table_id: int, peer: Peer, code: str, *, deal_no: int, trick_no: int
    ) -> Outcome:
        """A player's action from the page, as a button's click: the service decides, and
        everything the table shows is redrawn (Discord's messages and every socket)."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        return await self._shown(
            lambda: self.service.click(table_id, user_id, code, deal_no=deal_no, trick_no=trick_no)
        )

    async def hint(self, table_id: int, peer: Peer) -> None:
        """What the hard robot would do in the player's seat, and why, to their page alone
        (as the hand's Hint button: counted once per decision, refused in words)."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        hint = await self.service.hint(table_id, user_id)
        await peer.send(hint_message(hint, peer.language))

    async def back(self, table_id: int, peer: Peer) -> Outcome:
        """A player a robot stands in for (away) comes back to play their own cards, as the
        table's I'm back button."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        return await self._shown(lambda: self.service.im_back(table_id, user_id))

    async def open(self, session: Session, peer: Peer, variant: str) -> int:
        """The Activity's channel has no table: its player opens a lobby there (the chat
        posts it too), and their socket follows it. The new table's id."""
        outcome = await self._shown(
            lambda: lobby.open_lobby(self.service, session, variant, peer.language)
        )
        table_id = outcome.show.table.id
        await self.join(table_id, peer)
        return table_id

    async def lobby(self, table_id: int, session: Session, peer: Peer, what: str) -> Outcome:
        """One of the lobby's buttons (join, robot, start, leave), pressed from the page."""
        return await self._shown(
            lambda: lobby.lobby_action(self.service, table_id, session, what, peer.language)
        )

    async def _shown(self, call: Work) -> Outcome:
        """The service's call, then everything the table shows redrawn (Discord's messages
        and every socket), run by the hub's runner."""

        async def work() -> Outcome:
            outcome = await call()
            await self.service.presenter.refresh(outcome.show)
            return outcome

        return await self.runner(work)

    # the presenter's side ----------------------------------------------------

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
        return self.service.clock()

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
