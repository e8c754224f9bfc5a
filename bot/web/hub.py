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
from typing import Any, Protocol

from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.surroundings import LostTable
from bot.tables.views import HandView, Outcome, Show, TableView

from . import wire

log = logging.getLogger(__name__)


class Peer(Protocol):
    """One open socket of the web table: who it is (a member, or None for a spectator), and
    the language its page reads (``en`` or ``es``)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def language(self) -> str: ...

    async def send(self, message: dict[str, Any]) -> None: ...


class TableHub:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._peers: dict[int, set[Peer]] = {}

    def peers(self, table_id: int) -> frozenset[Peer]:
        return frozenset(self._peers.get(table_id, ()))

    async def join(self, table_id: int, peer: Peer) -> None:
        """A socket opens at a table: from now on it follows it; it is sent the table as it
        is (its viewer's hand too, when they sit at it)."""
        table = self.service.view(table_id)  # a TableError when there is no such table
        self._peers.setdefault(table_id, set()).add(peer)
        seat = None if peer.user_id is None else _seat_of(table, peer.user_id)
        hand = None if seat is None else self.service.hand_view(table_id, seat)
        await self._send(table_id, peer, wire.state(table, hand, peer.language, self._now()))

    def leave(self, table_id: int, peer: Peer) -> None:
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
        if peer.user_id is None:
            raise TableError("not_seated")
        outcome = await self.service.click(
            table_id, peer.user_id, code, deal_no=deal_no, trick_no=trick_no
        )
        await self.service.presenter.refresh(outcome.show)
        return outcome

    async def back(self, table_id: int, peer: Peer) -> Outcome:
        """A player a robot stands in for (away) comes back to play their own cards, as the
        table's I'm back button."""
        if peer.user_id is None:
            raise TableError("not_seated")
        outcome = await self.service.im_back(table_id, peer.user_id)
        await self.service.presenter.refresh(outcome.show)
        return outcome

    # the presenter's side ----------------------------------------------------

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        """The table changed: each socket at it is sent what its viewer sees now (every
        socket: ``skip_seat`` is a Discord message's business)."""
        table_id = show.table.id
        peers = list(self._peers.get(table_id, ()))
        now = self._now()
        await asyncio.gather(
            *(
                self._send(
                    table_id, p, wire.state(show.table, self._hand_of(show, p), p.language, now)
                )
                for p in peers
            )
        )
        if not show.table.status.is_open:
            self._peers.pop(table_id, None)

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
        if peer.user_id is None:
            return None
        seat = _seat_of(show.table, peer.user_id)
        return next((h for h in show.hands if h.seat == seat), None)

    async def _send(self, table_id: int, peer: Peer, message: dict[str, Any]) -> None:
        try:
            await peer.send(message)
        except Exception as error:  # a socket gone, or broken: it alone is dropped
            log.info("Table %s: a web socket is dropped (%s)", table_id, error)
            self.leave(table_id, peer)


def _seat_of(table: TableView, user_id: int) -> int | None:
    return next(
        (i for i, seat in enumerate(table.seats) if seat is not None and seat.user_id == user_id),
        None,
    )
