"""The ``/tute`` command group. Every Tute command is a subcommand of it: add the next ones
(``/tute new``, ``/tute rules``...) as methods of :class:`Tute`, with their names and
descriptions in the catalog under ``commands.tute.<name>.name`` and ``.description``."""

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TuteBot, catalog_str
from bot.i18n import language_of, t
from cogs._base import anywhere, command_path, in_server_with_bot, works_anywhere
from cogs.daily import ChallengeCommands
from cogs.learn import LearnCommands
from cogs.privacy import PrivacyCommands
from cogs.standings import StandingsCommands
from cogs.tables import TablesCommands
from cogs.tables.launch import launch
from cogs.tournaments import TournamentCommands

AnyCommand = app_commands.Command[Any, ..., Any]
FIELD_LIMIT = 1024
"""The most characters Discord takes in an embed field's value."""


# offered in servers, in DMs with the bot and in group DMs, installed to a server or to a
# user (to a user only where the app's User Install is on: the sync leaves it out otherwise,
# bot.client.user_install_of): /tute play opens the web table anywhere (Discord launches
# it, the bot need not be in the channel). Discord reads the contexts of the group, not of a
# subcommand (their ``guild_only`` hides nothing), so the commands that need a server say
# so themselves (:meth:`Tute.needs_server`), before they run.
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=True)
class Tute(
    ChallengeCommands,
    LearnCommands,
    PrivacyCommands,
    TournamentCommands,
    StandingsCommands,
    TablesCommands,
    commands.GroupCog,
    group_name=catalog_str("commands.tute.name"),
    group_description=catalog_str("commands.tute.description"),
):
    def __init__(self, bot: TuteBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        tree = self.bot.tute_tree
        tree.refusals.append(self.needs_server)
        # the Activity's Entry Point, where Discord leaves its answer to the app: the web
        # table, as /tute play opens it
        tree.entry_point = launch
        await super().cog_load()

    async def cog_unload(self) -> None:
        tree = self.bot.tute_tree
        if self.needs_server in tree.refusals:
            tree.refusals.remove(self.needs_server)
        tree.entry_point = None
        await super().cog_unload()

    def needs_server(self, interaction: discord.Interaction[Any]) -> str | None:
        """Every command of the group but those marked :func:`anywhere` needs a server the
        bot is in (its tables, chips and standings live there): elsewhere it is refused in
        words, which point to ``/tute play`` where the bot has a web table."""
        command = interaction.command
        if (
            not isinstance(command, app_commands.Command)
            or command.binding is not self
            or works_anywhere(command)
            or in_server_with_bot(interaction)
        ):
            return None
        lang = language_of(interaction.locale.value)
        if not self.bot.web.serving:
            return t("errors.needs_server", lang)
        return t("errors.needs_server_play", lang, command=localized_path(self.play, lang))

    @anywhere
    @app_commands.command(
        name=catalog_str("commands.tute.about.name"),
        description=catalog_str("commands.tute.about.description"),
    )
    async def about(self, interaction: discord.Interaction[TuteBot]) -> None:
        """What the bot is and the commands it offers, for the user alone."""
        await interaction.response.send_message(
            embed=self.about_embed(interaction.locale.value), ephemeral=True
        )

    def about_embed(self, locale: str) -> discord.Embed:
        embed = discord.Embed(
            title=t("about.title", locale),
            description=t("about.description", locale),
            colour=discord.Colour.dark_green(),
        )
        lines = [
            t(
                "about.command_line",
                locale,
                command=localized_path(command, locale),
                description=t(f"{catalog_key(command)}.description", locale),
            )
            for command in self.walk_app_commands()
            if isinstance(command, app_commands.Command)
        ]
        # a field holds 1024 characters: the list goes on in fields of its own
        name = t("about.commands", locale)
        chunk: list[str] = []
        for line in lines:
            if chunk and len("\n".join([*chunk, line])) > FIELD_LIMIT:
                embed.add_field(name=name, value="\n".join(chunk), inline=False)
                name, chunk = "\u200b", []
            chunk.append(line[:FIELD_LIMIT])
        embed.add_field(name=name, value="\n".join(chunk), inline=False)
        return embed


def catalog_key(command: AnyCommand | app_commands.Group) -> str:
    """The catalog prefix of a command: ``commands.tute.about`` for ``/tute about``."""
    return "commands." + command.qualified_name.replace(" ", ".")


def localized_path(command: AnyCommand, locale: str) -> str:
    """How the user types the command in their language: ``tute acerca-de`` in Spanish."""
    return command_path(locale, *command.qualified_name.split())[1:]


async def setup(bot: TuteBot) -> None:
    # the services it stands on were built at the start (bot.app)
    await bot.add_cog(Tute(bot))
