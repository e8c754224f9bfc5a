"""``/tute tournament new`` and ``show``, the clock that starts a tournament when its
sign-up ends, and the start of the tournament service with the bot.

:class:`TournamentCommands` is mixed into the ``/tute`` GroupCog; its ``tournament`` group
becomes ``/tute tournament``. The sign-up ends on the bot's clock (``discord.utils.utcnow``,
which SimCord drives), looked at every minute.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import tasks

from bot.client import TuteBot, catalog_str
from bot.engine import Options, Preset, Variant
from bot.i18n import DEFAULT_LANGUAGE, t
from bot.storage.settings import get_settings
from bot.tables.competition.tournament import Format
from bot.tables.competition.tournaments import (
    CaughtUp,
    TournamentStatus,
)
from bot.tables.errors import TableError
from bot.tables.house import opening_options, parse_house
from cogs._base import CommandsMixin, shown_name
from cogs.standings.common import utc_moment
from cogs.tables.commands import RULES_CHOICES, VARIANT_CHOICES, house_choices
from cogs.tables.common import db_of, locale_of, refuse

from . import announce, posts
from .buttons import close_signup, signup_payload, tournaments_of
from .places import places_of

log = logging.getLogger(__name__)

CMD = "commands.tute.tournament"
CLOCK_SECONDS = 60.0
"""How often the bot looks whether a tournament's sign-up has ended."""
NEW_OPTIONS = ("format", "swiss_rounds", "signup", "starts", "entry", "game_rounds", "target")
TABLE_OPTIONS = ("variant", "rules", "house")
"""Options it shares with ``/tute new``, named and described as there."""
LONGEST_SIGNUP = 30 * 86_400.0
"""A sign-up stays open 30 days at most."""


class TournamentCommands(CommandsMixin):
    """``/tute tournament`` and the sign-up clock (mixed into the Tute cog, which sets
    ``bot``). A cog_load of a class after it in the cog's bases must call super() too."""

    bot: TuteBot

    tournament = app_commands.Group(
        name=catalog_str(f"{CMD}.name"), description=catalog_str(f"{CMD}.description")
    )

    async def cog_load(self) -> None:
        self.tournament_clock.start()
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.tournament_clock.cancel()
        await super().cog_unload()

    @tasks.loop(seconds=CLOCK_SECONDS)
    async def tournament_clock(self) -> None:
        await self.start_due_tournaments()

    async def start_due_tournaments(self) -> None:
        """Start every tournament whose sign-up has ended (or call it off when fewer than
        two signed up) and post what follows. Nothing here may stop the clock."""
        service = self.bot.tournaments
        try:
            started = await service.start_due(discord.utils.utcnow().timestamp())
        except Exception:
            log.exception("Could not start the tournaments whose sign-up ended")
            return
        for tour in started:
            await close_signup(self.bot, tour)
            try:
                if tour.status is TournamentStatus.CANCELLED:
                    await announce.cancelled(self.bot, tour)
                else:
                    pairings = await announce.round_started(self.bot, tour)
                    if pairings is not None:
                        await close_signup(self.bot, tour, pairings)
            except Exception:
                log.exception("Tournament %s: could not tell its start", tour.id)

    @tournament.command(
        name=catalog_str(f"{CMD}.new.name"), description=catalog_str(f"{CMD}.new.description")
    )
    @app_commands.guild_only()
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        rules=RULES_CHOICES,
        format=[
            app_commands.Choice(name=catalog_str(f"tournaments.choice.{f.value}"), value=f.value)
            for f in Format
        ],
    )
    @app_commands.rename(
        **{name: catalog_str(f"options.{name}.name") for name in TABLE_OPTIONS},
        **{name: catalog_str(f"{CMD}.new.{name}.name") for name in NEW_OPTIONS},
    )
    @app_commands.describe(
        **{name: catalog_str(f"options.{name}.description") for name in TABLE_OPTIONS},
        **{name: catalog_str(f"{CMD}.new.{name}.description") for name in NEW_OPTIONS},
    )
    async def tournament_new(
        self,
        interaction: discord.Interaction[TuteBot],
        variant: str,
        format: str = Format.KNOCKOUT.value,
        swiss_rounds: app_commands.Range[int, 1, 10] = 3,
        signup: app_commands.Range[int, 1, 10_080] = 15,
        starts: app_commands.Range[str, 1, 40] | None = None,
        entry: app_commands.Range[int, 0, 1_000_000] = 0,
        game_rounds: app_commands.Range[int, 1, 9] = 1,
        target: app_commands.Range[int, 30, 1000] = 101,
        rules: str = Preset.STANDARD.value,
        house: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        """Open a tournament's sign-up here: a public message with Join, Leave and Start
        now; it starts by itself when sign-up ends (``signup`` minutes from now, or at the
        moment ``starts`` names). With an ``entry`` fee, the entries are paid out as
        prizes. Its tables play ``rules`` and the ``house`` rules as ``/tute new`` would."""
        guild = interaction.guild
        assert guild is not None
        service = tournaments_of(interaction.client)
        settings = await get_settings(db_of(interaction.client), guild.id)
        v = Variant(variant)
        given = {
            option
            for option, name in (("rounds", "game_rounds"), ("target", "target"))
            if t(f"{CMD}.new.{name}.name", DEFAULT_LANGUAGE) in interaction.namespace
        }
        try:
            house_rules = parse_house(v, house or "")
            options = opening_options(
                v,
                Options(
                    rounds=game_rounds,
                    target=target,
                    turn_time=settings.turn_time,
                    rules=Preset(rules),
                    **house_rules,
                ),
                given | set(house_rules),
                quiet=frozenset(given),
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        now = discord.utils.utcnow().timestamp()
        deadline = now + signup * 60
        if starts is not None:
            refused = start_refusal(starts, now, locale_of(interaction))
            if isinstance(refused, str):
                await interaction.response.send_message(refused, ephemeral=True)
                return
            deadline = refused
        try:
            tour = await service.create(
                guild_id=guild.id,
                channel_id=interaction.channel_id or 0,
                host_id=interaction.user.id,
                variant=v,
                options=options,
                format=Format(format),
                deadline=deadline,
                swiss_rounds=swiss_rounds,
                language=settings.language_or(interaction.client.config.language),
                entry=entry,
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        callback = await interaction.response.send_message(
            allowed_mentions=discord.AllowedMentions.none(), **signup_payload(tour)
        )
        # where the sign-up message is, from the answer itself (as /tute new's lobby): the
        # start closes it
        places = places_of(interaction.client)
        if places is not None and isinstance(callback.resource, discord.InteractionMessage):
            await places.posted(tour.id, callback.resource.id)

    @tournament_new.autocomplete("house")
    async def tournament_house_autocomplete(
        self, interaction: discord.Interaction[TuteBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return house_choices(interaction, current)

    @tournament.command(
        name=catalog_str(f"{CMD}.show.name"), description=catalog_str(f"{CMD}.show.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(id=catalog_str(f"{CMD}.show.id.name"))
    @app_commands.describe(id=catalog_str(f"{CMD}.show.id.description"))
    async def tournament_show(
        self,
        interaction: discord.Interaction[TuteBot],
        id: app_commands.Range[int, 1, 1_000_000_000] | None = None,
    ) -> None:
        """The bracket (knockout) or standings (Swiss) of the latest tournament here, or of
        tournament ``id``, for everyone in the channel."""
        lang = locale_of(interaction)
        guild_id = interaction.guild_id or 0
        service = tournaments_of(interaction.client)
        try:
            tour = await (service.load(id) if id is not None else service.latest_in(guild_id))
        except TableError:
            tour = None
        if tour is None or tour.guild_id != guild_id:
            key = "tournaments.show.none" if id is None else "tournaments.show.unknown"
            await interaction.response.send_message(t(key, lang, id=id), ephemeral=True)
            return
        content = f"**{t('tournaments.picture.title', tour.language, id=tour.id)}**: " + (
            posts.status_text(tour)
        )
        if tour.draw is None:
            await interaction.response.send_message(
                content, allowed_mentions=discord.AllowedMentions.none(), **signup_payload(tour)
            )
            return
        await interaction.response.defer(thinking=True)
        file = await posts.picture_file(tour)
        # the answer "thinking..." becomes the picture (a follow-up would be a second message)
        await interaction.edit_original_response(
            content=content, attachments=[file], allowed_mentions=discord.AllowedMentions.none()
        )


def start_refusal(text: str, now: float, lang: str) -> float | str:
    """When a sign-up given as ``starts`` ends, or why it cannot (in ``lang``)."""
    moment = utc_moment(text)
    if moment is None:
        return t("tournaments.starts.unreadable", lang, value=shown_name(text))
    at = moment.timestamp()
    if at <= now:
        return t("tournaments.starts.past", lang, at=discord.utils.format_dt(moment, "F"))
    if at - now > LONGEST_SIGNUP:
        return t("tournaments.starts.too_far", lang, days=round(LONGEST_SIGNUP / 86_400))
    return at


async def tell_caught_up(bot: TuteBot, caught: list[CaughtUp]) -> None:
    await bot.wait_until_ready()
    for each in caught:
        try:
            await announce.caught_up(bot, each)
        except Exception:
            log.exception("Tournament %s: could not tell its catch-up", each.tournament.id)
