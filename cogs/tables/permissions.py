"""A permission the bot lacks in a table's channel: its host is told once, in the channel,
and the table's lobby and table message wait while optional work stops."""

from __future__ import annotations

import logging

import discord

from bot.i18n import t
from bot.tables.views import TableView
from cogs._base import pings

from .outlet import Outlet

log = logging.getLogger(__name__)


class PermissionNotes:
    """The permission problems each table's host was told of: their error codes, by table."""

    def __init__(self, bot: discord.Client, outlet: Outlet) -> None:
        self.bot = bot
        self.outlet = outlet
        self._told: dict[int, set[int]] = {}

    def holds_back(self, table_id: int) -> bool:
        """Whether the table's lobby and table message wait: its channel refused the bot
        something (a permission), and optional work stops (refused requests near the limit
        that bans the bot's IP)."""
        return table_id in self._told and not self.outlet.optional()

    def forget(self, table_id: int) -> None:
        self._told.pop(table_id, None)

    async def missing(self, table: TableView, what: str, error: discord.Forbidden) -> None:
        """The bot may not do something in the table's channel: the host is told once (in
        the channel, where an admin can see it too); what else works goes on."""
        places = self.outlet.places
        if what == "hand" or places.peek(table).closed:
            return  # a closed DM is handled by the hand itself; a closed channel hears nothing
        log.warning("Table %s: no permission for its %s (%s)", table.id, what, error)
        told = self._told.setdefault(table.id, set())
        if error.code in told:
            return
        told.add(error.code)
        if not self.outlet.optional():
            return  # refused requests near Discord's limit: the host is not told now
        where = places.peek(table).where_id
        text = t(
            "tables.missing_permissions",
            table.language,
            host=f"<@{table.host_id}>",
            channel=f"<#{where}>",
        )
        try:
            await self.bot.get_partial_messageable(table.channel_id).send(
                text,
                allowed_mentions=pings([table.host_id]),
            )
        except discord.HTTPException:
            log.warning("Table %s: could not tell its host about permissions", table.id)
