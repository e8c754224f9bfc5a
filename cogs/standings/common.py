"""What the standings commands share: the database and languages of an interaction, how
numbers read in each language, and an ephemeral answer that pings nobody."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord

from bot.client import TuteBot
from bot.i18n import DEFAULT_LANGUAGE, Language, language_of
from bot.storage import Database
from bot.storage.settings import get_settings
from cogs._base import number as number  # how numbers read: the standings use it throughout
from cogs._base import signed as signed

PAGE_SIZE = 10
MEDALS = ("🥇", "🥈", "🥉")
NO_PINGS = discord.AllowedMentions.none()
CMD = "commands.tute"


def database(interaction: discord.Interaction[Any]) -> Database:
    client = interaction.client
    db = client.db if isinstance(client, TuteBot) else None
    if db is None:
        raise RuntimeError("the database is not open")
    return db


def bot_language(interaction: discord.Interaction[Any]) -> Language:
    """The bot's own default for public messages (``TUTE_LANGUAGE``)."""
    client = interaction.client
    return client.config.language if isinstance(client, TuteBot) else DEFAULT_LANGUAGE


def user_language(interaction: discord.Interaction[Any]) -> str:
    return language_of(interaction.locale.value)


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def moment(now: dt.datetime) -> tuple[float, str]:
    """The ledger's time (POSIX seconds) and the UTC date of ``now``."""
    return now.timestamp(), now.astimezone(dt.UTC).date().isoformat()


def next_utc_midnight(now: dt.datetime) -> dt.datetime:
    day = now.astimezone(dt.UTC).date() + dt.timedelta(days=1)
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


async def reply(interaction: discord.Interaction[Any], content: str) -> None:
    await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_PINGS)


async def server_language(interaction: discord.Interaction[Any], guild_id: int) -> str:
    """The language of the server's public messages: its setting, or the bot's default."""
    settings = await get_settings(database(interaction), guild_id)
    return settings.language_or(bot_language(interaction))
