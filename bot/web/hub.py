"""The card table's way in: a socket's requests (a card, I'm back, a hint, the lobby's
buttons, a table opened from the page) go through the same service calls as Discord's
buttons, and the service publishes what they changed to every presenter, the sockets
(:class:`Sockets`) among them. Nothing here shows a change itself."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.i18n import t
from bot.tables.errors import TableError
from bot.tables.model import Status
from bot.tables.numbers import parse_number
from bot.tables.service import TableService
from bot.tables.views import Outcome
from bot.words.result import cancel_question, done_key, leave_question
from bot.words.settings import saved_text

from . import lobby, wire
from .hint_words import hint_message
from .sessions import Session
from .sockets import Peer as Peer
from .sockets import Sockets
from .sockets import Waiting as Waiting
from .wire import Json

log = logging.getLogger(__name__)


Work = Callable[[], Coroutine[Any, Any, Any]]
"""A request from a page: the service's call (which publishes what it changed)."""
Runner = Callable[[Work], Awaitable[Any]]
"""How a page's request runs: at once, on its socket's task, or (the sandbox) as its
simulated Discord's work."""


async def at_once(work: Work) -> Any:
    return await work()


class TableHub:
    """A socket's requests, on the service; the sockets themselves (the presenter the
    service publishes to) are ``sockets``."""

    def __init__(
        self, service: TableService, sockets: Sockets, *, runner: Runner = at_once
    ) -> None:
        self.service = service
        self.sockets = sockets
        self._runner = runner
        self._opening = asyncio.Lock()
        """Pages open tables one at a time, so that two pressing at once in one channel
        open one (:meth:`open`)."""

    def peers(self, table_id: int) -> frozenset[Peer]:
        return self.sockets.peers(table_id)

    async def join(self, table_id: int, peer: Peer) -> None:
        """A socket opens at a table and follows it from now on (:meth:`Sockets.join`)."""
        table = self.service.view(table_id)  # a TableError when there is no such table
        seat = wire.seat_of(table, peer.user_id)
        hand = None if seat is None else self.service.hand_view(table_id, seat)
        await self.sockets.join(table, hand, peer)

    def wait(self, peer: Waiting) -> None:
        self.sockets.wait(peer)

    def stop_waiting(self, peer: Waiting) -> None:
        self.sockets.stop_waiting(peer)

    def leave(self, table_id: int, peer: Peer) -> None:
        self.sockets.leave(table_id, peer)

    async def act(
        self, table_id: int, peer: Peer, code: str, *, deal_no: int, trick_no: int
    ) -> Outcome:
        """A player's action from the page, as a button's click: the service decides and
        publishes the change (Discord's messages and every socket)."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        return await self._runner(
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
        return await self._runner(lambda: self.service.im_back(table_id, user_id))

    def question(self, table_id: int, peer: Peer, what: str) -> Json:
        """The question before a leave or a vote to cancel, saying what it costs, as the
        chat's Leave and Vote to cancel ask it (refused in words to whoever may not)."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        lang = peer.language
        if what == "leave":
            case, stake = self.service.leave_terms(table_id, user_id)
            if case == "lobby":  # only getting up: nothing to ask (the page leaves at once)
                return {"type": "question", "what": what, "text": None}
            if case == "close":  # the host alone in the lobby: the chat's Leave asks so
                return {
                    "type": "question",
                    "what": what,
                    "text": t("tables.confirm.close_alone", lang),
                    "yes": t("tables.btn.confirm_close", lang),
                    "no": t("tables.btn.keep_open", lang),
                }
            text = leave_question(case, stake, lang)
        elif what == "cancel":
            text = cancel_question(*self.service.vote_terms(table_id, user_id), lang)
        else:
            raise ValueError("not a question")
        return {
            "type": "question",
            "what": what,
            "text": text,
            "yes": t(f"tables.btn.confirm_{what}", lang),
            "no": t("tables.btn.keep", lang),
        }

    async def leave_game(self, table_id: int, peer: Peer) -> None:
        """Yes to the leave's question: a robot plays the seat on (or the game ends), as the
        chat's Yes, leave; the page is told what was done."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        outcome = await self._runner(lambda: self.service.leave(table_id, user_id))
        await peer.send(_done("leave", outcome, peer.language))

    async def vote_cancel(self, table_id: int, peer: Peer) -> None:
        """Yes to the vote's question, as the chat's Yes, vote to cancel."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("not_seated")
        outcome = await self._runner(lambda: self.service.vote_cancel(table_id, user_id))
        await peer.send(_done("cancel", outcome, peer.language))

    async def tricks(self, table_id: int, peer: Peer) -> None:
        """The deal's tricks so far, to this page alone, as the chat's Tricks: for whoever
        may watch the table (the audience rule), refused in words to anybody else."""
        history = self.service.history(table_id, peer.user_id or 0, peer.place)
        await peer.send(wire.tricks(self.service.view(table_id), history, peer.language))

    async def rematch(self, table_id: int, session: Session, peer: Peer) -> None:
        """The finished game again, as the chat's Rematch: the first member to ask opens its
        lobby in the table's channel (the page follows it there), a later one sits in it."""
        await self._runner(
            lambda: self.service.rematch(
                table_id, session.user_id, session.name, locale=peer.language
            )
        )

    async def take(
        self, table_id: int, peer: Peer, session: Session, kind: Any, message: dict[str, Any]
    ) -> None:
        """A message about the table the socket follows (a leave and a vote are asked
        first); a message of no such kind, or missing its fields, is a ValueError (or a
        KeyError, a TypeError), which the app refuses in words."""
        simple = {
            "back": self.back,
            "hint": self.hint,
            "leave": self.leave_game,
            "cancel": self.vote_cancel,
            "tricks": self.tricks,
            "settings": self.settings,
        }
        if kind in simple:
            await simple[kind](table_id, peer)
        elif kind == "lobby":
            what = lobby.LobbyAction(str(message["do"]))  # no such button: a ValueError
            nonce = lobby.start_nonce(message.get("nonce"))
            await self.lobby(table_id, session, peer, what, nonce)
        elif kind == "ask":
            await peer.send(self.question(table_id, peer, str(message["what"])))
        elif kind == "set":
            await self.set_option(table_id, peer, str(message["name"]), str(message["value"]))
        elif kind == "rematch":
            await self.rematch(table_id, session, peer)
        elif kind == "act":
            deal, trick = parse_number(message["deal"]), parse_number(message["trick"])
            if deal is None or trick is None:
                raise ValueError("not a deal and a trick")
            await self.act(table_id, peer, str(message["code"]), deal_no=deal, trick_no=trick)
        else:
            raise ValueError("not an action")

    async def settings(self, table_id: int, peer: Peer) -> None:
        """The lobby's Settings form, to its host's page alone (the service refuses anybody
        else, and a game that has started), as the chat's Settings."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("settings_host")
        table = self.service.settings_form(table_id, user_id)
        await peer.send(wire.settings(table, peer.language))

    async def set_option(self, table_id: int, peer: Peer, name: str, value: str) -> None:
        """A value chosen in the form: the service checks it (:mod:`bot.tables.form`, a
        forged one refused in words) and changes the lobby; the form says it was saved."""
        user_id = peer.user_id
        if user_id is None:
            raise TableError("settings_host")
        outcome = await self._runner(
            lambda: self.service.set_option(table_id, user_id, name, value)
        )
        saved = saved_text(name, value, peer.language)
        await peer.send(wire.settings(outcome.show.table, peer.language, saved))

    async def open(self, session: Session, peer: Peer, variant: str) -> int:
        """The Activity's channel has no table: its player opens a lobby there (the chat
        posts it too), and their socket follows it. Its id. A table opened there meanwhile
        (another page pressed too, at once) is the one the socket follows instead: one
        lobby, not two of which the channel's card table shows only the newest."""
        async with self._opening:
            table = await lobby.channel_table(self.service, session)
            if table is None:
                table = await self._runner(
                    lambda: lobby.open_lobby(self.service, session, variant, peer.language)
                )
        await self.join(table.id, peer)
        return table.id

    async def lobby(
        self,
        table_id: int,
        session: Session,
        peer: Peer,
        what: lobby.LobbyAction,
        nonce: str | None = None,
    ) -> Outcome:
        """One of the lobby's buttons (join, robot, start, leave), pressed from the page
        (``nonce``: the page's, with a start)."""
        return await self._runner(
            lambda: lobby.lobby_action(
                self.service, table_id, session, what, peer.language, nonce=nonce
            )
        )


def _done(what: str, outcome: Outcome, lang: str) -> Json:
    """What a leave or a vote did, in words, for the page's notice line (a leave from a
    lobby: as the chat's lobby says it)."""
    status = outcome.show.table.status
    if what == "leave" and status in (Status.LOBBY, Status.CLOSED):
        key = "tables.done.left_lobby" if status is Status.LOBBY else "tables.done.closed"
    else:
        key = done_key(what, outcome)
    return {"type": "done", "what": what, "text": t(key, lang)}
