"""Each deal keeps its message: once the next deal's message has come, the old one becomes
the deal's summary (its lines, and the picture of what each side took), a moment later so
that the click that ended the deal costs no more than three calls; at once when the bot is
about to stop."""

from __future__ import annotations

import asyncio
import functools
import logging
from dataclasses import dataclass

import discord

from bot.tables.views import TableView

from . import messages
from .outlet import Outlet

log = logging.getLogger(__name__)

ARCHIVE_AFTER = 1.5
"""Seconds after a deal's end before its message becomes the deal's summary: the next deal's
fresh message goes first, with the play that ended the deal (no click costs more than three
calls), and this edit a moment later."""
STOP_TIMEOUT = 5.0
"""Seconds the stop gives the summaries still to be made."""


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


class DealSummaries:
    """The deals' messages waiting to become their summaries."""

    def __init__(self, outlet: Outlet, retry_after: tuple[float, ...]) -> None:
        self.outlet = outlet
        self.retry_after = retry_after
        """Seconds before each new try while Discord fails."""
        self._waiting: dict[tuple[int, int], tuple[asyncio.Task[None], Archive]] = {}
        """(table, deal) -> the edit, a moment away, and what it edits."""

    def later(self, table: TableView, where_id: int, message_id: int) -> None:
        """The deal of ``table.summary`` is over and the next has its message: its own
        message becomes its summary in ARCHIVE_AFTER seconds (once, however often asked)."""
        summary = table.summary
        assert summary is not None
        key = (table.id, summary.deal_no)
        if key not in self._waiting:
            archive = Archive(table, where_id, message_id)
            task = asyncio.get_running_loop().create_task(
                self._archive(archive), name=f"table-{table.id}-deal-{summary.deal_no}"
            )
            self._waiting[key] = (task, archive)

    def forget_table(self, table_id: int) -> None:
        """The table has ended and the presenter forgot it: what it drew of the table's deals
        still to become their summaries is not kept (a game's last deal may end before the
        one before it has become its summary)."""
        for (table, _), (_, archive) in self._waiting.items():
            if table == table_id:
                archive.over = True

    async def now(self) -> None:
        """The bot is about to stop: the messages still waiting become their summaries now
        (within STOP_TIMEOUT seconds in all), not never."""
        waiting = list(self._waiting.values())
        for task, _ in waiting:
            task.cancel()
        try:
            async with asyncio.timeout(STOP_TIMEOUT):
                for _, archive in waiting:
                    await self._summarize(archive)
        except TimeoutError:
            log.warning("%d deal summaries left undone at the stop", len(waiting))

    async def _archive(self, archive: Archive) -> None:
        """Turn a deal's message into the deal's summary, a moment after the next deal's
        message came; tried again a little later while Discord fails."""
        try:
            for delay in (ARCHIVE_AFTER, *self.retry_after):
                await self.outlet.sleep(delay)
                if await self._summarize(archive):
                    return
            log.warning("Table %s: a deal keeps its message", archive.table.id)
        finally:
            summary = archive.table.summary
            assert summary is not None
            self._waiting.pop((archive.table.id, summary.deal_no), None)

    async def _summarize(self, archive: Archive) -> bool:
        """One try at the edit; False when Discord failed in a way worth another try (a
        message gone, or too old to edit, stays as it was)."""
        outlet = self.outlet
        table = archive.table
        summary = table.summary
        assert summary is not None
        place = outlet.places.known(table.id)
        if place is not None and place.closed:
            return True  # its channel closed to the bot since: the message stays as it was
        key = messages.MessageKey.summary(table.id, summary.deal_no)
        payload = messages.summary_payload(table, summary)
        files = functools.partial(messages.summary_files, outlet.shown, table, summary)
        try:
            await outlet.edit(archive.where_id, archive.message_id, key, payload, files)
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                return False
            if place is not None and outlet.closes(table, error):
                outlet.shut(place, error)
            log.info(
                "Table %s: deal %s keeps its message (%s)", table.id, summary.deal_no + 1, error
            )
        finally:
            outlet.shown.digests.pop(key, None)
            if archive.over:
                outlet.shown.forget_table(table.id)
        return True
