"""The game's own thread: a public one from the lobby message when spectators may watch, a
private one (its players invited) when they may not, or none (the game plays in the channel)
when the bot may not make threads there. A tournament's match invites its players to its
thread either way."""

from __future__ import annotations

import logging

import discord

from bot.i18n import t
from bot.tables.views import TableView

from . import embeds as ui
from .places import Place

log = logging.getLogger(__name__)


async def make_thread(bot: discord.Client, table: TableView, place: Place) -> int | None:
    channel = bot.get_channel(table.channel_id)
    if not isinstance(channel, discord.TextChannel):
        return None
    me = channel.guild.me
    perms = channel.permissions_for(me)
    name = ui.variant_title(table, table.language)[:90]
    if table.options.spectators:
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            return None
    elif not (perms.create_private_threads and perms.send_messages_in_threads):
        await channel.send(t("tables.no_private_thread", table.language))
        return None
    try:
        if table.options.spectators:
            if place.message_id is not None:
                thread = await channel.get_partial_message(place.message_id).create_thread(
                    name=name
                )
            else:
                thread = await channel.create_thread(
                    name=name, type=discord.ChannelType.public_thread
                )
        else:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.private_thread, invitable=False
            )
    except discord.HTTPException:
        log.info("Table %s plays in its channel: no thread could be made", table.id)
        if not table.options.spectators:
            await channel.send(t("tables.no_private_thread", table.language))
        return None
    if table.options.spectators and table.tournament_id is None:
        return thread.id  # its players opened it from the lobby: they know where it is
    await invite(thread, table)
    return thread.id


async def invite(thread: discord.Thread, table: TableView) -> None:
    """Add the table's members to its thread: to a private thread, so that they can see
    it; to a tournament match's public one, which they did not open themselves, so that it
    is in their list."""
    for user_id in table.humans():
        try:
            await thread.add_user(discord.Object(user_id))
        except discord.HTTPException:
            # the others are in; this player still gets their hand, and can be added
            log.warning("Table %s: could not add %s to its thread", table.id, user_id)
