"""Standings on Discord: ``/tute leaderboard``, ``stats``, ``config`` and ``daily`` (and,
from :class:`~cogs.standings.seasons.SeasonCommands`, ``/tute season``).

:class:`StandingsCommands` is mixed into the ``/tute`` GroupCog (discord.py collects app
commands from the whole MRO), so these are subcommands of ``/tute``. Everything a member
reads comes from the catalog: ephemeral answers in the member's language, the public
leaderboard in the server's.

The leaderboard's Previous/Next buttons are :class:`LeaderboardPage` dynamic items: the
custom_id (``tute:lb:<board>:<page>``, ``tute:lb:rating:<family>:<page>``) is all they
need, so they keep working on messages posted before a restart; a season's rating board
names its season too (``tute:lb:rating:<family>:s<season>:<page>``).

Skill ratings show in three places here: a member's rating per family in ``stats``, the
rating board of a family in ``leaderboard by:rating``, and ``config``'s rating settings
with ``rebuild_ratings``, which recomputes every rating of the server from its kept games.
While a season runs, ``stats`` shows the member's rating in it too.

The daily chips follow the server's fair-play minimums (``min_account_days``,
``min_member_days`` in ``config``): a member with a newer account, or newer in the server,
is told how many more days to wait.
"""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands

from bot.client import TuteBot, catalog_str
from bot.i18n import t
from bot.storage import ledger, members
from bot.storage import ratings as stored_ratings
from bot.storage.seasons import Season, running_season, season_number
from bot.storage.settings import InvalidSetting, get_settings, update_settings
from bot.tables import ratings
from bot.tables.competition import seasons

from . import config_form
from .common import (
    CMD,
    NO_PINGS,
    database,
    fair_play_wait,
    in_guild,
    managing_guild,
    moment,
    next_utc_midnight,
    number,
    reply,
    server_language,
    think,
    user_language,
)
from .embeds import stats_embed
from .leaderboard import (
    BOARDS,
    FAMILIES,
    RATING,
    Board,
    LeaderboardPage,
    busiest_family,
    leaderboard_message,
)
from .seasons import SeasonCommands


def _choices(option: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=catalog_str(f"{CMD}.{option}.{value}"), value=value)
        for value in values
    ]


def _names(command: str, *options: str) -> dict[str, app_commands.locale_str]:
    return {o: catalog_str(f"{CMD}.{command}.{o}.name") for o in options}


def _descriptions(command: str, *options: str) -> dict[str, app_commands.locale_str]:
    return {o: catalog_str(f"{CMD}.{command}.{o}.description") for o in options}


CONFIG_OPTIONS = (
    "starting_chips",
    "daily_grant",
    "turn_time",
    "language",
    "hand_delivery",
    "opener_role",
    "max_tables",
    "robot_rating_weight",
    "min_rated_games",
    "pair_daily_cap",
    "min_account_days",
    "min_member_days",
    "daily_experience",
    "rebuild_ratings",
)


class StandingsCommands(SeasonCommands):
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
        name=catalog_str(f"{CMD}.leaderboard.name"),
        description=catalog_str(f"{CMD}.leaderboard.description"),
    )
    @app_commands.rename(**_names("leaderboard", "by", "family", "season"))
    @app_commands.describe(**_descriptions("leaderboard", "by", "family", "season"))
    @app_commands.choices(
        by=_choices("leaderboard.by", BOARDS), family=_choices("leaderboard.family", FAMILIES)
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[TuteBot],
        by: str | None = None,
        family: str | None = None,
        season: app_commands.Range[int, 0, 1_000_000] | None = None,
    ) -> None:
        """The server's best players, ten a page, for everyone in the channel to see.

        Chips by default. A ``family`` or a ``season`` alone asks for a rating board;
        ``by:rating`` alone shows the family whose board lists the most members (pairs while
        none lists any). ``season``: that season's rating board (0: the running season's),
        all-time without it. Another board ignores a family and a season: only ratings are
        kept per family and per season."""
        lang = user_language(interaction)
        guild = await in_guild(interaction, lang)
        if guild is None:
            return
        db = database(interaction)
        board = cast(Board, by or (RATING if family or season is not None else "chips"))
        of_season: Season | None = None
        if board == RATING and season is not None:
            if season == 0:
                of_season = await running_season(db, guild.id)
                missing = t("standings.season.none_running", lang)
            else:
                of_season = await season_number(db, guild.id, season)
                missing = t("standings.season.unknown", lang, number=season)
            if of_season is None:
                await reply(interaction, missing)
                return
        # a season's board replays its games: the answer comes once they are
        await think(interaction, ephemeral=False)
        public = await server_language(interaction, guild.id)
        if family is not None:
            chosen = ratings.Family(family)
        elif board == RATING:
            chosen = await busiest_family(db, guild.id, of_season)
        else:
            chosen = ratings.Family.PAIRS  # not shown
        embed, view = await leaderboard_message(db, guild.id, board, 0, public, chosen, of_season)
        await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @app_commands.command(
        name=catalog_str(f"{CMD}.stats.name"),
        description=catalog_str(f"{CMD}.stats.description"),
    )
    @app_commands.rename(**_names("stats", "member"))
    @app_commands.describe(**_descriptions("stats", "member"))
    async def stats(
        self, interaction: discord.Interaction[TuteBot], member: discord.Member | None = None
    ) -> None:
        """One member's standing in this server (yours by default), for you alone."""
        lang = user_language(interaction)
        guild = await in_guild(interaction, lang)
        if guild is None:
            return
        # the running season's ratings replay its games: the answer comes once they are
        await think(interaction, ephemeral=True)
        db = database(interaction)
        target = member or interaction.user
        settings = await get_settings(db, guild.id)
        if target.id == interaction.user.id:
            # Asking is being seen: a new member gets the starting chips now.
            async with db.transaction() as conn:
                now, _ = moment(discord.utils.utcnow())
                await members.ensure_member(conn, guild.id, target.id, settings.starting_chips, now)
        found = await members.member_stats(db, guild.id, target.id)
        if found is None:
            await reply(interaction, t("standings.stats.none", lang, member=target.mention))
            return
        rated = {
            family: ratings.last_change(rating)
            for family, rating in (
                await stored_ratings.member_ratings(db, guild.id, target.id)
            ).items()
        }
        in_season = None
        running = await running_season(db, guild.id)
        if running is not None:
            season_rated = await seasons.season_ratings(db, running)
            mine = {f: r for (u, f), r in season_rated.items() if u == target.id}
            in_season = (running.number, mine)
        await interaction.edit_original_response(
            embed=stats_embed(found, target, lang, rated, in_season, settings.min_rated_games),
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(
        name=catalog_str(f"{CMD}.config.name"),
        description=catalog_str(f"{CMD}.config.description"),
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
        robot_rating_weight: app_commands.Range[int, 0, 100] | None = None,
        min_rated_games: app_commands.Range[int, 1, 100] | None = None,
        pair_daily_cap: app_commands.Range[int, 0, 100] | None = None,
        min_account_days: app_commands.Range[int, 0, 3650] | None = None,
        min_member_days: app_commands.Range[int, 0, 3650] | None = None,
        daily_experience: bool | None = None,
        rebuild_ratings: bool = False,
    ) -> None:
        """Show this server's settings, or change the ones given (Manage Server).

        ``rebuild_ratings`` recomputes every rating of the server from its kept games with
        the settings as they are after this change (a new ``robot_rating_weight`` or
        ``pair_daily_cap`` then applies to past games too); it may take a moment, so the
        answer is deferred."""
        lang = user_language(interaction)
        guild = await managing_guild(interaction, lang, "standings.config.forbidden")
        if guild is None:
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
                ("robot_rating_weight", robot_rating_weight),
                ("min_rated_games", min_rated_games),
                ("pair_daily_cap", pair_daily_cap),
                ("min_account_days", min_account_days),
                ("min_member_days", min_member_days),
                ("daily_experience", daily_experience),
            )
            if value is not None
        }
        if opener_role is not None:
            # Choosing @everyone lets every member open tables again.
            changes["opener_role_id"] = None if opener_role.is_default() else opener_role.id
        db = database(interaction)
        if rebuild_ratings:
            # Replaying a server's whole history may outlast the 3 seconds of an answer.
            await think(interaction, ephemeral=True)
        games: int | None = None
        try:
            async with db.transaction() as conn:
                settings = await update_settings(conn, guild.id, **changes)
                if rebuild_ratings:
                    games = await ratings.rebuild(conn, guild.id, ratings.RatingRules.of(settings))
        except InvalidSetting as error:
            await reply(interaction, config_form.refusal(error.name, lang))
            return
        title = "standings.config.updated" if changes else "standings.config.title"
        said = None
        if games is not None:
            said = t("standings.config.rebuilt", lang, games=number(games, lang))
        elif robot_rating_weight is not None or pair_daily_cap is not None:
            # The settlement rates each game as it ends: past games keep the old rules.
            option = t(f"{CMD}.config.rebuild_ratings.name", lang)
            said = t("standings.config.weight_from_now", lang, option=option)
        # the settings in words, and a form to change them
        await config_form.answer(interaction, settings, said, title=title)

    @app_commands.command(
        name=catalog_str(f"{CMD}.daily.name"),
        description=catalog_str(f"{CMD}.daily.description"),
    )
    async def daily(self, interaction: discord.Interaction[TuteBot]) -> None:
        """The server's daily chips, once per UTC day, for members past the server's
        fair-play minimums (account age, time in the server)."""
        lang = user_language(interaction)
        guild = await in_guild(interaction, lang)
        if guild is None:
            return
        db = database(interaction)
        settings = await get_settings(db, guild.id)
        if settings.daily_grant == 0:
            await reply(interaction, t("standings.daily.off", lang))
            return
        clock = discord.utils.utcnow()
        now, today = moment(clock)
        joined = getattr(interaction.user, "joined_at", None)
        wait = fair_play_wait(
            settings,
            interaction.user.created_at.timestamp(),
            None if joined is None else joined.timestamp(),
            now,
        )
        if wait is not None:
            reason, days = wait
            needed = settings.min_account_days if reason == "account" else settings.min_member_days
            key = f"standings.daily.too_new_{reason}" + ("_one" if days == 1 else "")
            await reply(
                interaction, t(key, lang, days=number(days, lang), needed=number(needed, lang))
            )
            return
        user_id = interaction.user.id
        async with db.transaction() as conn:
            await members.ensure_member(conn, guild.id, user_id, settings.starting_chips, now)
            claimed = await ledger.claim_daily(
                conn, guild.id, user_id, settings.daily_grant, today, now
            )
            chips = await ledger.balance(conn, guild.id, user_id)
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
