"""What the table cogs share: the service and presenter of a client, the user's language,
and how a click is refused or answered."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.client import TuteBot, answer_error, tell
from bot.i18n import language_of
from bot.storage import Database
from bot.tables.cluster import Cluster
from bot.tables.errors import TableError
from bot.tables.service import TableService

from . import embeds as ui

log = logging.getLogger(__name__)


def service_of(client: discord.Client) -> TableService:
    if not isinstance(client, TuteBot):
        raise RuntimeError("the table service is not running")
    return client.tables


def db_of(client: discord.Client) -> Database:
    """The Discord side's own handle on the database (the bot's, opened at its start)."""
    if not isinstance(client, TuteBot):
        raise RuntimeError("the database is not open")
    return client.db


def clock_of(client: discord.Client) -> Callable[[], float]:
    """The Discord side's wall clock (the bot's runtime's)."""
    if not isinstance(client, TuteBot):
        raise RuntimeError("not the Tute bot")
    return client.runtime.clock


def web_on(client: discord.Client) -> bool:
    """Whether this bot serves the web table (the Activity's page and sockets)."""
    return isinstance(client, TuteBot) and client.web.serving


def cluster_of(client: discord.Client) -> Cluster | None:
    """This process's place among the bot's processes (None: not the Tute bot)."""
    return client.cluster if isinstance(client, TuteBot) else None


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return language_of(interaction.locale.value)


def since_of(user: discord.User | discord.Member) -> tuple[float | None, float | None]:
    """When the user's Discord account was made and when they joined the server (None
    where Discord does not say), for the fair-play minimums of rated play."""
    joined = user.joined_at if isinstance(user, discord.Member) else None
    return (user.created_at.timestamp(), None if joined is None else joined.timestamp())


async def refuse(interaction: discord.Interaction[Any], error: TableError) -> None:
    """A short ephemeral explanation, in the user's language; nothing changes."""
    await tell(interaction, ui.refusal_text(error.key, error.params, locale_of(interaction)))


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """A persistent item's click: a refusal is a short ephemeral explanation; anything else
    goes through the one error path."""
    try:
        await work
    except TableError as error:
        await refuse(interaction, error)
    except Exception as error:
        await answer_error(interaction, error)


async def answered(interaction: discord.Interaction[Any], answer: Awaitable[Any]) -> bool:
    """Send a click's answer; False when Discord did not take it (the click's token ran out,
    10062, or an outage). What the click did is saved and stands: the caller shows it by
    other means (the table's refresh), never undoes it."""
    try:
        await answer
    except discord.HTTPException as error:
        log.warning("Could not answer %s's click (%s)", interaction.user.id, error)
        return False
    return True


# ----------------------------------------------------------------------- buttons


def drawn_v2(interaction: discord.Interaction[Any]) -> bool:
    """Whether the message clicked is drawn with layout components (an answer that edits it
    must be drawn the same way: a message sent with embeds cannot take them)."""
    message = interaction.message
    return message is None or message.flags.components_v2
