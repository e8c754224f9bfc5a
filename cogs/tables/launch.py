"""The web table opened from Discord: ``/tute play`` and the "Play at the table" button
answer with Discord's Activity (the interaction callback LAUNCH_ACTIVITY, type 12), which
opens the web table for the person who asked, in that channel. Where the bot has no web
table (no TUTE_WEB_PORT or no DISCORD_CLIENT_SECRET: ``bot.web`` is None) the answer says,
privately and in words, how an admin turns it on. A launch Discord refuses touches only
that command or click."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.client import TuteBot, tell
from bot.i18n import t
from cogs._base import in_server_with_bot

from .common import locale_of, web_on
from .presenter import presenter_of

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062
"""The answer came too late (or twice): nothing more can be said to that interaction."""
ALREADY_ANSWERED = 40060


async def launch(interaction: discord.Interaction[Any]) -> bool:
    """Open the web table for whoever asked; without one, say how it is turned on. Whether
    Discord opened it. A refusal is logged and, while the interaction may still be answered,
    said in words; it never reaches the one error path."""
    lang = locale_of(interaction)
    if not web_on(interaction.client):
        await _say(interaction, t("tables.web.off", lang))
        return False
    if interaction.channel_id is not None:
        # a table opened from this web table where the bot may not post plays there, and
        # in interaction answers, without a single call refused in the channel
        remember_closed(interaction.client, interaction.channel_id, not bot_may_post(interaction))
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.warning("Could not open the web table for %s (%s)", interaction.user.id, error)
        if error.code not in (UNKNOWN_INTERACTION, ALREADY_ANSWERED):
            # Discord refused the launch itself (the Activity not enabled...): the
            # interaction is still unanswered, and the words explain
            await _say(interaction, t("tables.web.failed", lang))
        return False
    return True


def bot_may_post(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post in the interaction's channel: a server it is in, or its own
    DM with the user. Not a group DM or a DM between two members (discord.py gives a
    ``DMChannel`` for both, and for the bot's own DM: the interaction's context tells them
    apart), nor a server where only the user installed the app."""
    if interaction.guild_id is not None:
        return in_server_with_bot(interaction)
    return not interaction.context.private_channel


def remember_closed(client: discord.Client, channel_id: int, closed: bool) -> None:
    """The tables' Discord side learns whether the bot may post in ``channel_id``."""
    if isinstance(client, TuteBot) and hasattr(client, "tables"):  # built at the start
        known = presenter_of(client).places.closed_channels
        if closed:
            known.add(channel_id)
        else:
            known.discard(channel_id)


async def _say(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        await tell(interaction, text)
    except discord.HTTPException as error:
        log.warning("Could not answer %s about the web table (%s)", interaction.user.id, error)
