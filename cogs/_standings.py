"""Standings on Discord: ``/tute leaderboard``, ``stats``, ``config`` and ``daily``.

:class:`StandingsCommands` is mixed into the ``/tute`` GroupCog (discord.py collects app
commands from the whole MRO), so these are subcommands of ``/tute``. Everything a member
reads comes from the catalog: ephemeral answers in the member's language, the public
leaderboard in the server's.

The leaderboard's Previous/Next buttons are :class:`LeaderboardPage` dynamic items: the
custom_id (``tute:lb:<board>:<page>``) is all they need, so they keep working on messages
posted before a restart.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.client import TuteBot, catalog_str
from bot.i18n import DEFAULT_LANGUAGE, Language, language_of, t
from bot.storage import Database
from bot.storage import standings as st
from bot.storage.settings import GuildSettings, InvalidSetting, get_settings, update_settings
from cogs._base import answers_errors, shown_name

if TYPE_CHECKING:
    from discord.ext.commands import Cog as _CommandsMixin
else:
    # A plain class at run time: the Tute GroupCog it is mixed into is the Cog. The type
    # checker sees a Cog, as the app_commands decorators expect of a method's owner.
    _CommandsMixin = object

PAGE_SIZE = 10
MEDALS = ("🥇", "🥈", "🥉")
NO_PINGS = discord.AllowedMentions.none()
BOARD_PATTERN = "|".join(st.BOARDS)

_CMD = "commands.tute"


# ------------------------------------------------------------------------------- helpers


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


def number(value: int, lang: str) -> str:
    """1234567 as ``1,234,567`` in English and ``1.234.567`` in Spanish."""
    return f"{value:,}".replace(",", t("standings.thousands_separator", lang))


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


# ------------------------------------------------------------------------------- leaderboard


async def leaderboard_message(
    db: Database, guild_id: int, by: st.Board, page: int, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed of one page of a board (clamped to the pages there are) and its buttons."""
    size = await st.leaderboard_size(db, guild_id, by)
    pages = max(1, -(-size // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    entries = await st.leaderboard(db, guild_id, by, page * PAGE_SIZE, PAGE_SIZE)
    lines = [
        t(
            "standings.leaderboard.line",
            lang,
            rank=MEDALS[e.rank - 1] if e.rank <= len(MEDALS) else f"`#{e.rank}`",
            member=f"<@{e.user_id}>",
            value=number(e.value, lang),
        )
        for e in entries
    ]
    embed = discord.Embed(
        title=t(f"standings.leaderboard.title.{by}", lang),
        description="\n".join(lines) or t("standings.leaderboard.empty", lang),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=t("standings.leaderboard.page", lang, page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    # Previous points below the page shown and Next above it, so their ids always differ.
    previous = t("standings.leaderboard.previous", lang)
    following = t("standings.leaderboard.next", lang)
    view.add_item(LeaderboardPage(by, page - 1, label=previous, disabled=page == 0))
    view.add_item(LeaderboardPage(by, page + 1, label=following, disabled=page >= pages - 1))
    return embed, view


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"tute:lb:(?P<by>{BOARD_PATTERN}):(?P<page>-?\d{{1,6}})",
):
    """Previous or Next on a leaderboard: shows page ``page`` of board ``by``, for anyone."""

    def __init__(
        self, by: st.Board, page: int, *, label: str | None = None, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"tute:lb:{by}:{page}",
                disabled=disabled,
            )
        )
        self.by: st.Board = by
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LeaderboardPage:
        return cls(cast(st.Board, match["by"]), int(match["page"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        guild = interaction.guild
        if guild is None:
            await reply(interaction, t("standings.guild_only", user_language(interaction)))
            return
        db = database(interaction)
        lang = (await get_settings(db, guild.id)).language_or(bot_language(interaction))
        embed, view = await leaderboard_message(db, guild.id, self.by, self.page, lang)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


# ------------------------------------------------------------------------------- commands


def _choices(option: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=catalog_str(f"{_CMD}.{option}.{value}"), value=value)
        for value in values
    ]


def _names(command: str, *options: str) -> dict[str, app_commands.locale_str]:
    return {o: catalog_str(f"{_CMD}.{command}.{o}.name") for o in options}


def _descriptions(command: str, *options: str) -> dict[str, app_commands.locale_str]:
    return {o: catalog_str(f"{_CMD}.{command}.{o}.description") for o in options}


CONFIG_OPTIONS = (
    "starting_chips",
    "daily_grant",
    "turn_time",
    "language",
    "hand_delivery",
    "opener_role",
    "max_tables",
)


class StandingsCommands(_CommandsMixin):
    """The standings commands of the ``/tute`` group (mixed into the Tute cog, which sets
    ``bot``). A cog_load of a class after it in the cog's bases must call super() too."""

    bot: TuteBot

    async def cog_load(self) -> None:
        # The buttons of leaderboards posted before a restart must work as soon as the bot is.
        self.bot.add_dynamic_items(LeaderboardPage)
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardPage)
        await super().cog_unload()

    @app_commands.command(
        name=catalog_str(f"{_CMD}.leaderboard.name"),
        description=catalog_str(f"{_CMD}.leaderboard.description"),
    )
    @app_commands.rename(**_names("leaderboard", "by"))
    @app_commands.describe(**_descriptions("leaderboard", "by"))
    @app_commands.choices(by=_choices("leaderboard.by", st.BOARDS))
    async def leaderboard(
        self, interaction: discord.Interaction[TuteBot], by: str = "chips"
    ) -> None:
        """The server's best players, ten a page, for everyone in the channel to see."""
        guild = interaction.guild
        if guild is None:
            await reply(interaction, t("standings.guild_only", user_language(interaction)))
            return
        db = database(interaction)
        lang = (await get_settings(db, guild.id)).language_or(bot_language(interaction))
        embed, view = await leaderboard_message(db, guild.id, cast(st.Board, by), 0, lang)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @app_commands.command(
        name=catalog_str(f"{_CMD}.stats.name"),
        description=catalog_str(f"{_CMD}.stats.description"),
    )
    @app_commands.rename(**_names("stats", "member"))
    @app_commands.describe(**_descriptions("stats", "member"))
    async def stats(
        self, interaction: discord.Interaction[TuteBot], member: discord.Member | None = None
    ) -> None:
        """One member's standing in this server (yours by default), for you alone."""
        lang = user_language(interaction)
        guild = interaction.guild
        if guild is None:
            await reply(interaction, t("standings.guild_only", lang))
            return
        db = database(interaction)
        target = member or interaction.user
        if target.id == interaction.user.id:
            # Asking is being seen: a new member gets the starting chips now.
            settings = await get_settings(db, guild.id)
            async with db.transaction() as conn:
                now, _ = moment(discord.utils.utcnow())
                await st.ensure_member(conn, guild.id, target.id, settings.starting_chips, now)
        found = await st.member_stats(db, guild.id, target.id)
        if found is None:
            await reply(interaction, t("standings.stats.none", lang, member=target.mention))
            return
        await interaction.response.send_message(
            embed=stats_embed(found, target, lang), ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(
        name=catalog_str(f"{_CMD}.config.name"),
        description=catalog_str(f"{_CMD}.config.description"),
    )
    # Discord applies default permissions to a whole command, not to one subcommand, so
    # Manage Server is checked in the command itself.
    @app_commands.rename(**_names("config", *CONFIG_OPTIONS))
    @app_commands.describe(**_descriptions("config", *CONFIG_OPTIONS))
    @app_commands.choices(
        language=_choices("config.language", ("en", "es")),
        hand_delivery=_choices("config.hand_delivery", ("dm", "ephemeral")),
    )
    async def config(
        self,
        interaction: discord.Interaction[TuteBot],
        starting_chips: app_commands.Range[int, 0, 1_000_000] | None = None,
        daily_grant: app_commands.Range[int, 0, 1_000_000] | None = None,
        turn_time: app_commands.Range[int, 10, 3600] | None = None,
        language: str | None = None,
        hand_delivery: str | None = None,
        opener_role: discord.Role | None = None,
        max_tables: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        """Show this server's settings, or change the ones given (Manage Server)."""
        lang = user_language(interaction)
        guild = interaction.guild
        if guild is None:
            await reply(interaction, t("standings.guild_only", lang))
            return
        if not interaction.permissions.manage_guild:
            await reply(interaction, t("standings.config.forbidden", lang))
            return
        changes: dict[str, object] = {
            name: value
            for name, value in (
                ("starting_chips", starting_chips),
                ("daily_grant", daily_grant),
                ("turn_time", turn_time),
                ("language", language),
                ("hand_delivery", hand_delivery),
                ("max_tables", max_tables),
            )
            if value is not None
        }
        if opener_role is not None:
            # Choosing @everyone lets every member open tables again.
            changes["opener_role_id"] = None if opener_role.is_default() else opener_role.id
        db = database(interaction)
        try:
            async with db.transaction() as conn:
                settings = await update_settings(conn, guild.id, **changes)
        except InvalidSetting as error:
            await reply(interaction, t("standings.config.invalid", lang, setting=error.name))
            return
        title = "standings.config.updated" if changes else "standings.config.title"
        await interaction.response.send_message(
            embed=settings_embed(settings, t(title, lang), lang, bot_language(interaction)),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(
        name=catalog_str(f"{_CMD}.daily.name"),
        description=catalog_str(f"{_CMD}.daily.description"),
    )
    async def daily(self, interaction: discord.Interaction[TuteBot]) -> None:
        """The server's daily chips, once per UTC day."""
        lang = user_language(interaction)
        guild = interaction.guild
        if guild is None:
            await reply(interaction, t("standings.guild_only", lang))
            return
        db = database(interaction)
        settings = await get_settings(db, guild.id)
        if settings.daily_grant == 0:
            await reply(interaction, t("standings.daily.off", lang))
            return
        clock = discord.utils.utcnow()
        now, today = moment(clock)
        user_id = interaction.user.id
        async with db.transaction() as conn:
            await st.ensure_member(conn, guild.id, user_id, settings.starting_chips, now)
            claimed = await st.claim_daily(
                conn, guild.id, user_id, settings.daily_grant, today, now
            )
            chips = await st.balance(conn, guild.id, user_id)
        next_one = discord.utils.format_dt(next_utc_midnight(clock), "R")
        if claimed:
            text = t(
                "standings.daily.claimed",
                lang,
                amount=number(settings.daily_grant, lang),
                balance=number(chips, lang),
                next=next_one,
            )
        else:
            text = t("standings.daily.already", lang, balance=number(chips, lang), next=next_one)
        await reply(interaction, text)


# ------------------------------------------------------------------------------- embeds


def stats_embed(
    found: st.MemberStats, member: discord.User | discord.Member, lang: str
) -> discord.Embed:
    embed = discord.Embed(
        title=t("standings.stats.title", lang, name=shown_name(member.display_name)),
        colour=discord.Colour.dark_green(),
    )
    embed.set_thumbnail(url=member.display_avatar.url)

    def field(key: str, value: str) -> None:
        embed.add_field(name=t(f"standings.stats.{key}", lang), value=value)

    field("chips", number(found.balance, lang))
    field(
        "rank",
        t("standings.stats.rank_of", lang, rank=found.rank, members=number(found.members, lang)),
    )
    field("xp", number(found.xp, lang))
    for key, won, played in (
        ("games", found.games_won, found.games_played),
        ("rounds", found.rounds_won, found.rounds_played),
    ):
        field(
            key,
            t(
                "standings.stats.won_of",
                lang,
                won=number(won, lang),
                played=number(played, lang),
                percent=percent(won, played),
            ),
        )
    field("cantes", number(found.cantes, lang))
    field("tutes", number(found.tutes, lang))
    return embed


def settings_embed(
    settings: GuildSettings, title: str, lang: str, default_language: Language
) -> discord.Embed:
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())

    def field(key: str, value: str) -> None:
        embed.add_field(name=t(f"{_CMD}.config.{key}.name", lang), value=value)

    role = settings.opener_role_id
    field("starting_chips", number(settings.starting_chips, lang))
    field("daily_grant", number(settings.daily_grant, lang))
    field("turn_time", t("standings.config.seconds", lang, seconds=settings.turn_time))
    shown = t(f"{_CMD}.config.language.{settings.language_or(default_language)}", lang)
    if settings.language is None:
        shown = t("standings.config.default", lang, value=shown)
    field("language", shown)
    field("hand_delivery", t(f"{_CMD}.config.hand_delivery.{settings.hand_delivery}", lang))
    field("opener_role", f"<@&{role}>" if role else t("standings.config.everyone", lang))
    field("max_tables", number(settings.max_tables, lang))
    embed.set_footer(text=t("standings.config.hint", lang))
    return embed
