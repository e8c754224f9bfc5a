"""Whether the bot can reach a table's channel at all: known before it posts there, so that
it never sends a request Discord is sure to refuse (refused requests count towards a ban of
the bot's address)."""

from __future__ import annotations

import discord

from bot.tables.cluster import shard_of
from bot.tables.lobby import NO_SERVER
from bot.tables.views import TableView

from .places import Places


async def closed_to_bot(bot: discord.Client, places: Places, table: TableView) -> bool:
    """Whether the bot can tell, before posting, that it may not post in the table's
    channel: one an interaction's context said was closed; a server this process would
    know, but the bot is not in; no server, and not the host's DM with the bot (a group
    DM, or a DM between two members). Unsure, it posts: the first refusal closes it."""
    if bot.get_guild(table.guild_id) is not None:
        return False  # the bot is in the server (now)
    if table.channel_id in places.closed_channels:
        return True
    if table.guild_id not in (table.channel_id, NO_SERVER):
        # a server's channel (a DM from the web table is its own server)
        return bot.is_ready() and _our_shard(bot, table.guild_id)
    known = bot.get_channel(table.channel_id)
    if isinstance(known, discord.DMChannel):
        return False
    try:
        # the host's DM with the bot: one call, once (discord.py keeps it)
        dm = await bot.create_dm(discord.Object(table.host_id))
    except discord.HTTPException:
        return False
    return dm.id != table.channel_id


def _our_shard(bot: discord.Client, guild_id: int) -> bool:
    """Whether the server's events come to this process (else it cannot know the server)."""
    shard_ids = getattr(bot, "shard_ids", None)
    count = bot.shard_count or 1
    return shard_ids is None or shard_of(guild_id, count) in shard_ids
