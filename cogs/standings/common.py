"""What the standings commands share: the database and languages of an interaction, how
numbers read in each language, and an ephemeral answer that pings nobody."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import discord

from bot.client import TuteBot
from bot.i18n import DEFAULT_LANGUAGE, Language, language_of, t
from bot.i18n import number as number  # how numbers read: the standings use it throughout
from bot.i18n import signed as signed
from bot.storage import Database
from bot.storage.settings import GuildSettings, get_settings
from bot.tables.ratings import NEWCOMER, Rating

DAY = 86_400.0
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


def rated_games(rating: Rating, lang: str) -> str:
    """What follows a rating on the boards and in the stats: its rated games, and while
    the rating is still settling, that in words ("still settling, 3 rated games")."""
    key = "standings.rating.settling" if rating.settling else "standings.rating.games"
    if rating.games == 1:
        key += "_one"
    return t(key, lang, games=number(rating.games, lang))


def rating_legend(lang: str) -> str:
    """One line under ratings: where everyone starts, and what "still settling" means."""
    return t("standings.rating.legend", lang, start=number(NEWCOMER.shown, lang))


def moment(now: dt.datetime) -> tuple[float, str]:
    """The ledger's time (POSIX seconds) and the UTC date of ``now``."""
    return now.timestamp(), now.astimezone(dt.UTC).date().isoformat()


def next_utc_midnight(now: dt.datetime) -> dt.datetime:
    day = now.astimezone(dt.UTC).date() + dt.timedelta(days=1)
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


async def reply(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer with ``content``: for the user alone, or, once the answer was deferred with
    "thinking", as the edit of that deferred answer (as Discord documents it)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, allowed_mentions=NO_PINGS)
        return
    await interaction.response.send_message(content, ephemeral=True, allowed_mentions=NO_PINGS)


async def think(interaction: discord.Interaction[Any], *, ephemeral: bool) -> None:
    """Answer "thinking" at once, before work that may outlast the 3 seconds Discord gives
    an answer (a season's ratings replay its games); the answer then edits it."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def in_guild(interaction: discord.Interaction[Any], lang: str) -> discord.Guild | None:
    """The server the command comes from; None (the user told so) in a DM."""
    guild = interaction.guild
    if guild is None:
        await reply(interaction, t("standings.guild_only", lang))
    return guild


async def managing_guild(
    interaction: discord.Interaction[Any], lang: str, forbidden: str
) -> discord.Guild | None:
    """The server, when the command comes from one and from a member who may manage it;
    else None, the user told why (``forbidden``: the catalog key of the refusal)."""
    guild = await in_guild(interaction, lang)
    if guild is None:
        return None
    if not interaction.permissions.manage_guild:
        await reply(interaction, t(forbidden, lang))
        return None
    return guild


async def server_language(interaction: discord.Interaction[Any], guild_id: int) -> str:
    """The language of the server's public messages: its setting, or the bot's default."""
    settings = await get_settings(database(interaction), guild_id)
    return settings.language_or(bot_language(interaction))


_DAY_FORMAT = re.compile(r"\d{4}-\d{2}-\d{2}")


def utc_day_start(text: str) -> dt.datetime | None:
    """00:00 UTC of the day ``text`` names as ``YYYY-MM-DD`` (None when it names none)."""
    text = text.strip()
    if not _DAY_FORMAT.fullmatch(text):
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:  # 2026-02-30
        return None
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


_MOMENT_FORMAT = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2}))?")
_DISCORD_TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")


def utc_moment(text: str) -> dt.datetime | None:
    """The moment ``text`` names: ``YYYY-MM-DD HH:MM`` or ``YYYY-MM-DD`` (UTC, 00:00 when
    no time is given), or a Discord timestamp (``<t:1764360000:F>``) as members paste them;
    None when it names none."""
    text = text.strip()
    stamp = _DISCORD_TIMESTAMP.fullmatch(text)
    if stamp is not None:
        try:
            return dt.datetime.fromtimestamp(int(stamp.group(1)), dt.UTC)
        except (OverflowError, OSError, ValueError):
            return None
    found = _MOMENT_FORMAT.fullmatch(text)
    if found is None:
        return None
    day = utc_day_start(found.group(1))
    if day is None or found.group(2) is None:
        return day
    hour, minute = int(found.group(2)), int(found.group(3))
    if hour > 23 or minute > 59:
        return None
    return day.replace(hour=hour, minute=minute)


def utc_day(at: float) -> str:
    """The UTC date of a time (POSIX seconds) as ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(at, dt.UTC).date().isoformat()


def fair_play_wait(
    settings: GuildSettings, account_created: float | None, joined: float | None, now: float
) -> tuple[str, int] | None:
    """Why a member is under the server's fair-play minimums (``"account"`` or
    ``"member"``, whichever lasts longer) and in how many days both are met; None when
    :meth:`GuildSettings.old_enough` lets them in. An unknown time counts as now."""
    if settings.old_enough(account_created, joined, now):
        return None
    waits: list[tuple[int, str]] = []
    for reason, since, minimum in (
        ("account", account_created, settings.min_account_days),
        ("member", joined, settings.min_member_days),
    ):
        left = minimum * DAY - (now - (now if since is None else since))
        if minimum and left > 0:
            waits.append((max(1, math.ceil(left / DAY)), reason))
    days, reason = max(waits, default=(1, "account"))
    return reason, days
