"""Each deal keeps its message: once the next deal's message has come, the old one becomes
the deal's summary (its lines, and the picture of what each side took), a moment later so
that the click that ended the deal costs no more than three calls; at once when the bot is
about to stop. So does a game's lobby in the channel: the click that ended the game shows
its end in the table message and the hands, and the lobby says how it ended a moment
later."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import discord

from bot.tables.views import TableView

from . import messages
from .drawing import Files
from .messages import Payload
from .outlet import Outlet

log = logging.getLogger(__name__)

ARCHIVE_AFTER = 1.5
"""Seconds after a deal's end before its message becomes the deal's summary: the next deal's
fresh message goes first, with the play that ended the deal (no click costs more than three
calls), and this edit a moment later."""
STOP_TIMEOUT = 5.0
"""Seconds the stop gives the summaries still to be made."""
LOBBY: Final = -1
"""The key of a table's lobby among its deals' summaries (a deal is numbered from 0)."""


@dataclass(slots=True)
class Archive:
    """A deal's message to turn into its summary: the table as the deal ended, and where
    the message is."""

    table: TableView
    where_id: int
    message_id: int
    over: bool = False
    """The table has ended since, and the presenter forgot it: the summary's picture is
    drawn for this edit alone, and not kept."""


@dataclass(frozen=True, slots=True)
class GameEnd:
    """A game's lobby to show how the game ended: what it shows then, and where it is."""

    table: TableView
    message_id: int
    payload: Payload


class DealSummaries:
    """The deals' messages waiting to become their summaries, and the lobbies of the games
    just ended."""

    def __init__(self, outlet: Outlet, retry_after: tuple[float, ...]) -> None:
        self.outlet = outlet
        self.retry_after = retry_after
        """Seconds before each new try while Discord fails."""
        self._waiting: dict[tuple[int, int], tuple[asyncio.Task[None], Archive | GameEnd]] = {}
        """(table, deal or :data:`LOBBY`) -> the edit, a moment away, and what it edits."""

    def later(self, table: TableView, where_id: int, message_id: int) -> None:
        """The deal of ``table.summary`` is over and the next has its message: its own
        message becomes its summary in ARCHIVE_AFTER seconds (once, however often asked)."""
        summary = table.summary
        assert summary is not None
        self._later((table.id, summary.deal_no), Archive(table, where_id, message_id))

    def game_over(self, table: TableView, message_id: int, payload: Payload) -> None:
        """The game of ``table`` has just ended: its lobby (message ``message_id`` in the
        table's channel) shows ``payload`` in ARCHIVE_AFTER seconds."""
        self._later((table.id, LOBBY), GameEnd(table, message_id, payload))

    def _later(self, key: tuple[int, int], edit: Archive | GameEnd) -> None:
        if key not in self._waiting:
            task = asyncio.get_running_loop().create_task(
                self._edit_later(key, edit), name=f"table-{key[0]}-later-{key[1]}"
            )
            self._waiting[key] = (task, edit)

    def forget_table(self, table_id: int) -> None:
        """The table has ended and the presenter forgot it: what it drew of the table's deals
        still to become their summaries is not kept (a game's last deal may end before the
        one before it has become its summary)."""
        for (table, _), (_, edit) in self._waiting.items():
            if table == table_id and isinstance(edit, Archive):
                edit.over = True

    async def now(self) -> None:
        """The bot is about to stop: the messages still waiting become their summaries now
        (within STOP_TIMEOUT seconds in all), not never."""
        waiting = list(self._waiting.values())
        for task, _ in waiting:
            task.cancel()
        try:
            async with asyncio.timeout(STOP_TIMEOUT):
                for _, edit in waiting:
                    await self._edit(edit)
        except TimeoutError:
            log.warning("%d deal summaries left undone at the stop", len(waiting))

    async def _edit_later(self, key: tuple[int, int], edit: Archive | GameEnd) -> None:
        """Make the edit a moment from now (a deal's summary, after the next deal's message
        came; a lobby, after the game's end); tried again a little later while Discord
        fails."""
        try:
            for delay in (ARCHIVE_AFTER, *self.retry_after):
                await self.outlet.sleep(delay)
                if await self._edit(edit):
                    return
            what = "its lobby" if isinstance(edit, GameEnd) else f"deal {key[1] + 1}'s message"
            log.warning("Table %s: %s stays as it was", edit.table.id, what)
        finally:
            self._waiting.pop(key, None)

    async def _edit(self, edit: Archive | GameEnd) -> bool:
        if isinstance(edit, Archive):
            return await self._summarize(edit)
        return await self._end_lobby(edit)

    async def _end_lobby(self, end: GameEnd) -> bool:
        """One try at the lobby's edit; False when Discord failed in a way worth another
        try (a lobby gone stays gone)."""
        table = end.table
        key = messages.MessageKey.lobby(table.id)
        return await self._try(table, table.channel_id, end.message_id, key, end.payload)

    async def _summarize(self, archive: Archive) -> bool:
        """One try at the edit; False when Discord failed in a way worth another try (a
        message gone, or too old to edit, stays as it was)."""
        outlet = self.outlet
        table = archive.table
        summary = table.summary
        assert summary is not None
        key = messages.MessageKey.summary(table.id, summary.deal_no)
        payload = messages.summary_payload(table, summary)
        files = functools.partial(messages.summary_files, outlet.shown, table, summary)
        try:
            return await self._try(
                table, archive.where_id, archive.message_id, key, payload, files, shut=True
            )
        finally:
            if archive.over:
                outlet.shown.forget_table(table.id)

    async def _try(
        self,
        table: TableView,
        where_id: int,
        message_id: int,
        key: messages.MessageKey,
        payload: Payload,
        files: Callable[[], Files] | None = None,
        *,
        shut: bool = False,
    ) -> bool:
        """One try at a message's last edit; False when Discord failed in a way worth
        another try. A message gone, too old to edit, or in a channel closed to the bot
        since, stays as it was (``shut``: a channel that refuses the bot is closed to it)."""
        outlet = self.outlet
        place = outlet.places.known(table.id)
        if place is not None and place.closed:
            return True
        try:
            await outlet.edit(where_id, message_id, key, payload, files)
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                return False
            if shut and place is not None and outlet.closes(table, error):
                outlet.shut(place, error)
            log.info("Table %s: message %s stays as it was (%s)", table.id, message_id, error)
        finally:
            outlet.shown.digests.pop(key, None)
        return True
