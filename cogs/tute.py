"""The ``/tute`` command group. Every Tute command is a subcommand of it: add the next ones
(``/tute new``, ``/tute rules``...) as methods of :class:`Tute`, with their names and
descriptions in the catalog under ``commands.tute.<name>.name`` and ``.description``."""

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TuteBot, catalog_str
from bot.i18n import t
from cogs.standings import StandingsCommands
from cogs.tables import TablesCommands, start_faces, start_tables
from cogs.tournaments import TournamentCommands, start_tournaments

AnyCommand = app_commands.Command[Any, ..., Any]
FACES_WAIT = 5.0
"""Seconds the start waits for the card faces before restoring the tables."""
FIELD_LIMIT = 1024
"""The most characters Discord takes in an embed field's value."""


# every command needs a server (its tables, chips and standings): not offered in DMs at all
# (``guild_only`` on a subcommand hides nothing: Discord reads contexts of the group)
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class Tute(
    TournamentCommands,
    StandingsCommands,
    TablesCommands,
    commands.GroupCog,
    group_name=catalog_str("commands.tute.name"),
    group_description=catalog_str("commands.tute.description"),
):
    def __init__(self, bot: TuteBot) -> None:
        self.bot = bot

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
    names: list[str] = []
    node: AnyCommand | app_commands.Group | None = command
    while node is not None:
        names.append(t(f"{catalog_key(node)}.name", locale))
        node = node.parent
    return " ".join(reversed(names))


async def setup(bot: TuteBot) -> None:
    # the card faces sync in the background; the tables wait a moment for them (finding
    # them again is one call), so that they are drawn with faces from the first redraw:
    # the first start of a bot, which uploads them, goes on without them meanwhile
    await start_faces(bot).wait_synced(FACES_WAIT)
    await start_tables(bot, then=lambda: start_tournaments(bot))
    await bot.add_cog(Tute(bot))
