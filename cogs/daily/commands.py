"""``/tute challenge``: ``play`` deals the member today's deal of the server in their DMs
(the table machinery's own table, shown by its presenter), ``board`` shows the day's board,
to the member alone or posted in the channel. The member hears their result, with the line
to share, in their DMs when the table ends.

:class:`ChallengeCommands` is mixed into the ``/tute`` GroupCog; it starts the
:class:`~bot.tables.daily.DailyService` on the bot's table service when the cog loads.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.client import TuteBot, catalog_str, tell
from bot.engine.shuffle import SHORT
from bot.i18n import t
from bot.tables.daily import DAY, DailyRefusal, DailyService, Scored, date_of
from bot.tables.errors import TableError
from cogs._base import CommandsMixin, channel_url, command_path, shown_name
from cogs.standings.common import server_language
from cogs.tables.common import locale_of, refuse, service_of

from .texts import board_embed, share_line

log = logging.getLogger(__name__)

CMD = "commands.tute.challenge"


def challenge_path(lang: str, sub: str) -> str:
    """How the member types ``/tute challenge <sub>`` in their language."""
    return command_path(lang, "tute", "challenge", sub)


class ChallengeCommands(CommandsMixin):
    """``/tute challenge`` (mixed into the Tute cog, which sets ``bot``). A cog_load of a
    class after it in the cog's bases must call super() too."""

    bot: TuteBot

    challenge = app_commands.Group(
        name=catalog_str(f"{CMD}.name"), description=catalog_str(f"{CMD}.description")
    )

    def _daily(self) -> DailyService:
        return self.bot.daily

    @challenge.command(
        name=catalog_str(f"{CMD}.play.name"), description=catalog_str(f"{CMD}.play.description")
    )
    async def challenge_play(self, interaction: discord.Interaction[TuteBot]) -> None:
        """Today's deal, in the member's DMs, once. Its introduction is sent to their DMs
        before anything is written: refused, the member is told how to open them, and
        nothing is played. A second press while the first is dealing is refused before
        anything is sent (``DailyService.deal``)."""
        lang = locale_of(interaction)
        guild = interaction.guild
        assert guild is not None  # the group's commands need a server (Tute.needs_server)
        daily = self._daily()
        user = interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        intro = t("daily.intro", lang, server=shown_name(guild.name), date=date_of(daily.today()))
        committed = await daily.commitment(guild.id, daily.today())
        intro += "\n-# " + t("tables.shuffle", lang, code=committed[:SHORT])

        async def deliver() -> int:
            dm = await user.create_dm()
            await dm.send(intro)
            return dm.id

        try:
            outcome = await daily.deal(
                guild_id=guild.id,
                user_id=user.id,
                name=user.display_name,
                language=lang,
                deliver=deliver,
            )
        except DailyRefusal as refusal:
            await tell(interaction, await self._played_text(refusal, lang))
            return
        except discord.HTTPException as error:
            log.info("The daily deal of %s cannot go to their DMs (%s)", user.id, error)
            await tell(interaction, t("daily.dms_closed", lang))
            return
        except TableError as error:
            await refuse(interaction, error)
            return
        link = channel_url(None, outcome.show.table.channel_id)
        await tell(interaction, t("daily.started", lang, link=link))

    async def _played_text(self, refusal: DailyRefusal, lang: str) -> str:
        """Why there is no second deal today: the first one's line, once it is scored."""
        daily = self._daily()
        when = f"<t:{(daily.today() + 1) * DAY}:R>"
        attempt = refusal.attempt
        if attempt is not None and attempt.status == "playing" and attempt.table_id is not None:
            try:
                where = service_of(self.bot).view(attempt.table_id).channel_id
            except TableError:
                return t("daily.played", lang, when=when)  # its end is being scored
            return t("daily.in_play", lang, link=channel_url(None, where))
        if attempt is None or attempt.status == "playing":
            return t("daily.played", lang, when=when)
        streak = await daily.streak(attempt.guild_id, attempt.user_id, attempt.day)
        return t("daily.played_line", lang, line=share_line(attempt, streak, lang), when=when)

    @challenge.command(
        name=catalog_str(f"{CMD}.board.name"),
        description=catalog_str(f"{CMD}.board.description"),
    )
    @app_commands.rename(public=catalog_str(f"{CMD}.board.public.name"))
    @app_commands.describe(public=catalog_str(f"{CMD}.board.public.description"))
    async def challenge_board(
        self, interaction: discord.Interaction[TuteBot], public: bool = False
    ) -> None:
        """The server's board of today: for the member alone unless they post it."""
        guild = interaction.guild
        assert guild is not None
        # a board posted for everyone speaks the server's language
        lang = await server_language(interaction, guild.id) if public else locale_of(interaction)
        board = await self._daily().board(guild.id)
        embed = board_embed(board, lang, play_command=challenge_path(lang, "play"))
        await interaction.response.send_message(
            embed=embed,
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def tell_scored(bot: discord.Client, scored: Scored) -> None:
    """The member's result, in the DMs where they played: the line to share."""
    lang = scored.language
    text = t(
        "daily.scored",
        lang,
        line=share_line(scored.attempt, scored.streak, lang),
        command=challenge_path(lang, "board"),
    )
    try:
        await bot.get_partial_messageable(scored.channel_id).send(text)
    except discord.HTTPException as error:
        # the result is on the board all the same
        log.info("Could not tell %s their daily deal (%s)", scored.attempt.user_id, error)
