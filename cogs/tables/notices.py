"""Discord's own notice of a game's thread: when the bot makes a thread (from a lobby that
others have talked under since, or without a message), Discord posts "Tute started a thread"
in the channel, as the bot's message. The lobby already links to the thread, so the notice
is noise that would stay in the channel after the game: it goes as soon as it is seen, once
(a delete Discord refuses is not tried again). Its gateway event and the answer to the
thread's creation may come in either order; each side waits for the other a little while.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TypeVar

import discord

log = logging.getLogger(__name__)

V = TypeVar("V")

KEEP = 64
"""How many threads (or notices) each side remembers while waiting for the other: a notice
that never comes (a thread from a fresh lobby has none) is forgotten in time."""


class ThreadNotices:
    """The threads the bot made for its tables, and Discord's notices of them."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._made: OrderedDict[int, None] = OrderedDict()
        """Threads made for a table whose notice has not been seen."""
        self._seen: OrderedDict[int, tuple[int, int]] = OrderedDict()
        """thread -> (channel, message): notices seen before their thread was known."""

    async def made(self, thread_id: int) -> None:
        """The bot made ``thread_id`` for a table: its notice goes, now or when it comes."""
        notice = self._seen.pop(thread_id, None)
        if notice is not None:
            await self._delete(*notice)
            return
        _remember(self._made, thread_id, None)

    async def seen(self, message: discord.Message) -> None:
        """A message of the gateway: the notice of a table's thread goes."""
        me = self.bot.user
        reference = message.reference
        if (
            message.type is not discord.MessageType.thread_created
            or me is None
            or message.author.id != me.id
            or reference is None
            or reference.channel_id is None
        ):
            return
        thread_id = reference.channel_id
        if thread_id == message.channel.id and reference.message_id is not None:
            # pointing to the message the thread was started from, whose id it has
            thread_id = reference.message_id
        if thread_id in self._made:
            del self._made[thread_id]
            await self._delete(message.channel.id, message.id)
        else:
            _remember(self._seen, thread_id, (message.channel.id, message.id))

    async def _delete(self, channel_id: int, message_id: int) -> None:
        try:
            await (
                self.bot.get_partial_messageable(channel_id)
                .get_partial_message(message_id)
                .delete()
            )
        except discord.HTTPException as error:
            log.info("The notice of a table's thread stays (%s)", error)


def _remember(kept: OrderedDict[int, V], key: int, value: V) -> None:
    kept[key] = value
    while len(kept) > KEEP:
        kept.popitem(last=False)
