"""The way out to Discord that every part of the presenter shares: where each table's
messages live (:class:`Places`), what each message last showed (:class:`Shown`), the
drawing thread, and the edit that sends a message only what changed in it. The presenter,
the hands' delivery and the deals' summaries all stand on it; it knows none of them."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.storage import Database
from bot.tables.views import TableView

from . import messages
from .drawing import Drawing, Files
from .faces import CardFaces, faces_of
from .messages import MessageKey, Payload, Shown
from .places import Place, Places

log = logging.getLogger(__name__)

MISSING_ACCESS = 50001
"""The bot cannot see the channel (a group DM, another's DM, a server it is not in)."""
CANNOT_MESSAGE = 50007
"""Discord refuses the bot a message to that user (their DM, or one between members)."""


class Outlet:
    def __init__(
        self,
        bot: discord.Client,
        db: Database,
        sleep: Callable[[float], Awaitable[None]],
        optional: Callable[[], bool] = lambda: True,
    ) -> None:
        """``db``: where the Discord side keeps where each message lives; ``sleep``: how its
        waits (a write put off, a summary, a ping, a retry) wait (the runtime's);
        ``optional``: whether what may be left undone (a turn's ping, a redraw in a channel
        that refuses the bot, a retry) goes on now: not while Discord's refusals near the
        limit that bans the bot's IP (``bot.metrics.RefusalGuard``)."""
        self.bot = bot
        self.sleep = sleep
        self.optional = optional
        self.shown = Shown()
        self.places = Places(lambda: db, sleep)
        self.drawing = Drawing()

    @property
    def faces(self) -> CardFaces:
        """The card faces the application has as emojis (none: cards in text)."""
        return faces_of(self.bot)

    async def draw(self, payload: Payload, files: Callable[[], Files]) -> None:
        """Draw a message's pictures (off the event loop) into its payload."""
        await self.drawing.attach(payload, files)

    async def edit(
        self,
        channel_id: int,
        message_id: int,
        key: MessageKey,
        payload: Payload,
        files: Callable[[], Files] | None = None,
        digest: str | None = None,
    ) -> None:
        """Edit a message, unless it already shows this (its pictures, ``files``, are drawn
        only then); ``digest`` says what counts as a change (by default, everything it
        shows)."""
        digest = digest or messages.digest(payload)
        if self.shown.digests.get(key) == digest:
            return
        if files is not None:
            await self.draw(payload, files)
        await (
            self.bot.get_partial_messageable(channel_id)
            .get_partial_message(message_id)
            .edit(**payload)
        )
        self.shown.digests[key] = digest

    def closes(self, table: TableView, error: discord.HTTPException) -> bool:
        """Whether Discord's refusal of a call in the table's channel lasts as long as the
        table: the bot cannot see the channel, or it is not one the bot knows (a group DM,
        a DM between two members, a server without the bot). A channel the bot sees, only
        missing a permission an admin may give back, is not closed; nor is an outage or a
        rate limit."""
        if not isinstance(error, discord.Forbidden):
            return False
        if error.code in (MISSING_ACCESS, CANNOT_MESSAGE):
            return True
        return self.bot.get_channel(table.channel_id) is None

    def shut(self, place: Place, reason: object) -> None:
        """The table's channel is closed to the bot: nothing more is posted, edited,
        threaded or pinged there for the table (it plays on the web table and in interaction
        answers), after a restart too."""
        if place.closed:
            return
        log.info("Table %s: its channel is closed to the bot (%s)", place.table_id, reason)
        place.closed = True
        self.places.changed(place)

    async def delete(self, table_id: int, channel_id: int, message_id: int) -> None:
        """A message of the bot's that has had its day (of table ``table_id``), tried once;
        one already gone, or that Discord will not delete now, stays as it is (its buttons
        answer that they are stale)."""
        try:
            await (
                self.bot.get_partial_messageable(channel_id)
                .get_partial_message(message_id)
                .delete()
            )
        except discord.HTTPException as error:
            log.info("Table %s: message %s stays (%s)", table_id, message_id, error)

    async def close(self) -> None:
        """The bot stops: where each message lives is written, nothing more is drawn."""
        await self.places.close()
        self.drawing.close()
