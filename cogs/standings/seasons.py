"""Seasons on Discord: ``/tute season start [ends]`` and ``end`` (Manage Server), ``show
[number]`` for anyone, and the clock that ends a season when its planned end comes.

:class:`SeasonCommands` is mixed into the ``/tute`` GroupCog through
:class:`~cogs.standings.commands.StandingsCommands`; its ``season`` group becomes
``/tute season``. The service (``bot.tables.competition.seasons``) decides; this parses, asks it and
renders. A season's podium is posted publicly in the server's language, with mentions that
ping nobody. The planned end is checked every minute on the bot's clock
(``discord.utils.utcnow``, which SimCord drives), against the planned ends as last read
from the database (read again when one comes, when this process starts or ends a season,
and every hour); a podium that cannot be posted (the channel gone, the bot no longer
allowed there) is logged and dropped, and the other servers and the next minutes go on.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import tasks

from bot.client import TuteBot, catalog_str
from bot.i18n import t
from bot.storage import Database
from bot.storage.seasons import due_seasons, running_season, season_number
from bot.storage.settings import get_settings
from bot.tables.competition import seasons
from bot.tables.errors import TableError
from bot.tables.ratings import Family, Rating
from cogs._base import CommandsMixin

from .common import (
    CMD,
    NO_PINGS,
    database,
    in_guild,
    managing_guild,
    reply,
    server_language,
    think,
    user_language,
    utc_day,
    utc_day_start,
)
from .embeds import season_embed

log = logging.getLogger(__name__)

SEASON_CLOCK_SECONDS = 60.0
"""How often the bot looks whether a season's planned end has come."""
REREAD_SECONDS = 3600.0
"""How often the clock reads the planned ends again from the database even though this
process started or ended no season: one started by another process of the bot is seen
within this time (the minute checks in between cost no query)."""


def season_podium_message(
    end: seasons.SeasonEnd, min_games: int, lang: str
) -> tuple[str, discord.Embed]:
    """What the end of a season posts: a line saying so, and its podium per family."""
    number = end.season.number
    embed = season_embed(end.season, best_of(end.podiums), min_games, lang, podium=True)
    return t("standings.season.ended", lang, number=number), embed


class SeasonCommands(CommandsMixin):
    """``/tute season`` and the clock of planned ends (mixed into the Tute cog, which sets
    ``bot``). A cog_load of a class after it in the cog's bases must call super() too."""

    bot: TuteBot
    _next_season_end: float | None = None
    """The earliest planned end of a running season, as last read (None: none planned)."""
    _season_ends_read_at: float | None = None
    """When (the bot's clock) the planned ends were read; None: read them at the next tick."""

    season = app_commands.Group(
        name=catalog_str(f"{CMD}.season.name"),
        description=catalog_str(f"{CMD}.season.description"),
    )

    async def cog_load(self) -> None:
        self.season_clock.start()
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.season_clock.cancel()
        await super().cog_unload()

    # ------------------------------------------------------------------ the clock

    @tasks.loop(seconds=SEASON_CLOCK_SECONDS)
    async def season_clock(self) -> None:
        await self.end_due_seasons()

    async def end_due_seasons(self) -> None:
        """End every season whose planned end has come and post each podium in the channel
        the season was started in. Nothing here may stop the clock: a failure is logged.

        The database is read only when the earliest planned end known has come, when this
        process started or ended a season, or every :data:`REREAD_SECONDS`: a check a
        minute stays free."""
        db, cluster = self.bot.db, self.bot.cluster
        if db is None or cluster is None:
            return
        now = discord.utils.utcnow().timestamp()
        read_at, next_end = self._season_ends_read_at, self._next_season_end
        if (
            read_at is not None
            and now - read_at < REREAD_SECONDS
            and (next_end is None or now < next_end)
        ):
            return
        try:
            planned = [
                s.ends_at
                for s in await due_seasons(db, math.inf)
                if s.ends_at is not None and cluster.owns(s.guild_id)
            ]
            due = min(planned, default=math.inf) <= now
            ended = await seasons.end_due(db, now, cluster.owns) if due else []
        except Exception:
            log.exception("Could not end the seasons whose planned end has come")
            return
        self._next_season_end = min((e for e in planned if e > now), default=None)
        self._season_ends_read_at = now
        for end in ended:
            try:
                await self._post_podium(db, end)
            except Exception:
                season = end.season
                log.exception(
                    "Could not post the podium of season %d of server %d in channel %s",
                    season.number,
                    season.guild_id,
                    season.channel_id,
                )

    async def _post_podium(self, db: Database, end: seasons.SeasonEnd) -> None:
        season = end.season
        if season.channel_id is None:
            log.info(
                "Season %d of server %d ended; no channel to tell", season.number, season.guild_id
            )
            return
        settings = await get_settings(db, season.guild_id)
        lang = settings.language_or(self.bot.config.language)
        content, embed = season_podium_message(end, settings.min_rated_games, lang)
        channel = self.bot.get_partial_messageable(season.channel_id, guild_id=season.guild_id)
        try:
            await channel.send(content, embed=embed, allowed_mentions=NO_PINGS)
        except discord.HTTPException as error:  # 403, 404, an outage: this post only
            log.warning(
                "Could not post the podium of season %d of server %d in channel %d: %s",
                season.number,
                season.guild_id,
                season.channel_id,
                error,
            )

    # ------------------------------------------------------------------ commands

    @season.command(
        name=catalog_str(f"{CMD}.season.start.name"),
        description=catalog_str(f"{CMD}.season.start.description"),
    )
    @app_commands.rename(ends=catalog_str(f"{CMD}.season.start.ends.name"))
    @app_commands.describe(ends=catalog_str(f"{CMD}.season.start.ends.description"))
    async def season_start(
        self, interaction: discord.Interaction[TuteBot], ends: str | None = None
    ) -> None:
        """Start the server's next season (Manage Server): ratings start afresh in it. With
        ``ends`` (``YYYY-MM-DD``), it ends by itself at 00:00 UTC of that day."""
        lang = user_language(interaction)
        guild = await managing_guild(interaction, lang, "standings.season.forbidden")
        if guild is None:
            return
        ends_at: dt.datetime | None = None
        if ends is not None:
            ends_at = utc_day_start(ends)
            if ends_at is None:
                await reply(interaction, t("standings.season.bad_date", lang, value=ends[:40]))
                return
        now = discord.utils.utcnow()
        try:
            season = await seasons.start(
                database(interaction),
                guild.id,
                now.timestamp(),
                None if ends_at is None else ends_at.timestamp(),
                interaction.channel_id,
            )
        except TableError as error:
            if error.key == "season_running":
                said = t("standings.season.running", lang, **error.params)
            else:  # season_end_past
                assert ends_at is not None
                said = t("standings.season.end_past", lang, date=utc_day(ends_at.timestamp()))
            await reply(interaction, said)
            return
        self._season_ends_read_at = None  # the clock reads its planned end at the next tick
        public = await server_language(interaction, guild.id)
        if season.ends_at is None:
            said = t("standings.season.started_open", public, number=season.number)
        else:
            said = t(
                "standings.season.started",
                public,
                number=season.number,
                date=utc_day(season.ends_at),
                relative=discord.utils.format_dt(
                    dt.datetime.fromtimestamp(season.ends_at, dt.UTC), "R"
                ),
            )
        await interaction.response.send_message(said, allowed_mentions=NO_PINGS)

    @season.command(
        name=catalog_str(f"{CMD}.season.end.name"),
        description=catalog_str(f"{CMD}.season.end.description"),
    )
    async def season_end(self, interaction: discord.Interaction[TuteBot]) -> None:
        """End the running season now (Manage Server) and post its podium here."""
        lang = user_language(interaction)
        guild = await managing_guild(interaction, lang, "standings.season.forbidden")
        if guild is None:
            return
        db = database(interaction)
        if await running_season(db, guild.id) is None:
            await reply(interaction, t("standings.season.none_running", lang))
            return
        # replaying the season's games for its podium may outlast the 3 seconds of an answer
        await think(interaction, ephemeral=False)
        end = await seasons.end(db, guild.id, discord.utils.utcnow().timestamp())
        self._season_ends_read_at = None
        if end is None:  # another admin ended it a moment ago: their answer has the podium
            await reply(interaction, t("standings.season.none_running", lang))
            return
        settings = await get_settings(db, guild.id)
        public = await server_language(interaction, guild.id)
        content, embed = season_podium_message(end, settings.min_rated_games, public)
        await interaction.edit_original_response(
            content=content, embed=embed, allowed_mentions=NO_PINGS
        )

    @season.command(
        name=catalog_str(f"{CMD}.season.show.name"),
        description=catalog_str(f"{CMD}.season.show.description"),
    )
    @app_commands.rename(number=catalog_str(f"{CMD}.season.show.number.name"))
    @app_commands.describe(number=catalog_str(f"{CMD}.season.show.number.description"))
    async def season_show(
        self,
        interaction: discord.Interaction[TuteBot],
        number: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        """The running season (or season ``number``): its dates and the best three of each
        family, for everyone in the channel to see."""
        lang = user_language(interaction)
        guild = await in_guild(interaction, lang)
        if guild is None:
            return
        db = database(interaction)
        if number is None:
            season = await running_season(db, guild.id)
            if season is None:
                await reply(interaction, t("standings.season.none_running", lang))
                return
        else:
            season = await season_number(db, guild.id, number)
            if season is None:
                await reply(interaction, t("standings.season.unknown", lang, number=number))
                return
        # the podiums replay the season's games: the answer comes once they are
        await think(interaction, ephemeral=False)
        settings = await get_settings(db, guild.id)
        best = best_of(await seasons.podiums(db, season, settings))
        public = await server_language(interaction, guild.id)
        embed = season_embed(season, best, settings.min_rated_games, public)
        await interaction.edit_original_response(embed=embed, allowed_mentions=NO_PINGS)


def best_of(podiums: Sequence[seasons.Podium]) -> dict[Family, Sequence[tuple[int, Rating]]]:
    """A season's podiums by family, for ``season_embed``."""
    return {p.family: p.places for p in podiums}
