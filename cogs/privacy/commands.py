"""``/tute privacy show``: what the bot keeps about the member, in words, for them alone;
``/tute privacy erase``: a question for them alone, with two buttons (:mod:`.buttons`):
Erase it all erases everything the bot keeps about them, in every server, and says what
went; Keep it changes nothing. Both work anywhere (DMs, group DMs, servers), since what is
kept spans every server. The service (:class:`bot.tables.privacy.Privacy`) refuses a
member who still plays, and a confirmation that ran out or is not theirs.

:class:`PrivacyCommands` is mixed into the ``/tute`` GroupCog."""

from __future__ import annotations

import weakref
from typing import Any

import discord
from discord import app_commands

from bot.client import TuteBot, catalog_str, tell
from bot.i18n import t
from bot.storage.privacy import Erased, MemberData, ServerData
from bot.tables.errors import TableError
from bot.tables.privacy import Privacy
from bot.words.refusals import refusal_text
from cogs._base import CommandsMixin, answers_errors, anywhere, command_path, number, shown_name
from cogs.tables.common import clock_of, db_of, locale_of, service_of

from .buttons import ERASE, KEEP, PrivacyButton

CMD = "commands.tute.privacy"
MESSAGE_LIMIT = 2000
"""The most characters a message's content holds: ``show`` lists the servers that fit, and
counts the rest."""

_privacies: weakref.WeakKeyDictionary[discord.Client, Privacy] = weakref.WeakKeyDictionary()
"""Each running bot's :class:`Privacy` (its confirmations are signed by its own secret)."""


def privacy_of(client: discord.Client) -> Privacy:
    found = _privacies.get(client)
    if found is None:
        uninvite = service_of(client).notes.forget
        found = _privacies[client] = Privacy(db_of(client), clock_of(client), uninvite)
    return found


def former_name(lang: str) -> str:
    """What a former player is called in a record in ``lang``: the catalog's."""
    return t("privacy.former_player", lang)


def erase_path(lang: str) -> str:
    return command_path(lang, "tute", "privacy", "erase")


def server_label(client: discord.Client, guild_id: int, lang: str) -> str:
    guild = client.get_guild(guild_id)
    if guild is None:
        return t("privacy.unknown_server", lang, id=guild_id)
    return shown_name(guild.name)


def kept_text(client: discord.Client, data: MemberData, lang: str, days: int) -> str:
    """What the bot keeps about the member, in words: per server (as many as one message
    holds, the rest counted), then in the records, then how long (``days``: how long a
    server's data outlives the bot's leaving it)."""
    if data.empty:
        return t("privacy.nothing", lang)
    tail: list[str] = []
    if data.tables or data.deals or data.tournaments or data.rated_games:
        tail.append(t("privacy.records", lang))
        tail.append(
            t(
                "privacy.records_line",
                lang,
                tables=number(data.tables, lang),
                deals=number(data.deals, lang),
                tournaments=number(data.tournaments, lang),
                rated=number(data.rated_games, lang),
            )
        )
    tail.append(t("privacy.how_long", lang, command=erase_path(lang)))
    tail.append(t("privacy.server_left", lang, days=number(days, lang)))
    lines = [t("privacy.title", lang)]
    more = t("privacy.more_servers", lang, count=number(len(data.servers), lang))
    room = MESSAGE_LIMIT - len("\n".join([*lines, *tail])) - len(more) - 2
    for shown, server in enumerate(data.servers):
        block = server_lines(client, server, lang)
        if len("\n".join(block)) + 1 > room:
            left = len(data.servers) - shown
            lines.append(t("privacy.more_servers", lang, count=number(left, lang)))
            break
        lines += block
        room -= len("\n".join(block)) + 1
    return "\n".join([*lines, *tail])


def server_lines(client: discord.Client, server: ServerData, lang: str) -> list[str]:
    lines = [t("privacy.server", lang, server=server_label(client, server.guild_id, lang))]
    if server.standing:
        lines.append(t("privacy.standing", lang, games=number(server.games_played, lang)))
    if server.ledger_rows:
        chips, rows = number(server.chips, lang), number(server.ledger_rows, lang)
        lines.append(t("privacy.chips", lang, chips=chips, rows=rows))
    if server.ratings:
        lines.append(t("privacy.ratings", lang, count=number(server.ratings, lang)))
    if server.daily:
        lines.append(t("privacy.daily", lang, count=number(server.daily, lang)))
    if server.preferences:
        lines.append(t("privacy.preferences", lang))
    if server.reviews:
        lines.append(t("privacy.reviews", lang, count=number(server.reviews, lang)))
    return lines


def erased_text(erased: Erased, lang: str) -> str:
    return t(
        "privacy.erased",
        lang,
        servers=number(len(erased.servers), lang),
        standings=number(erased.standings, lang),
        ratings=number(erased.ratings, lang),
        daily=number(erased.daily, lang),
        reviews=number(erased.reviews, lang),
        preferences=number(erased.preferences, lang),
        chips=number(erased.chips, lang),
        tables=number(erased.tables, lang),
        tournaments=number(erased.tournaments, lang),
        rated=number(erased.rated_games, lang),
    )


def question(token: str, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        PrivacyButton(
            ERASE, token, t("privacy.erase_button", lang), style=discord.ButtonStyle.danger
        )
    )
    view.add_item(PrivacyButton(KEEP, label=t("privacy.keep_button", lang)))
    return view


@answers_errors
async def on_click(button: PrivacyButton, interaction: discord.Interaction[Any]) -> None:
    """Keep it: the question goes, nothing changes. Erase it all: the service checks the
    confirmation (refused in words, for the member alone, when it ran out or is not
    theirs), erases, and the question becomes what went."""
    lang = locale_of(interaction)
    if button.op == KEEP:
        await interaction.response.edit_message(content=t("privacy.kept", lang), view=None)
        return
    privacy = privacy_of(interaction.client)
    user_id = interaction.user.id
    try:
        privacy.check(user_id, button.token)
    except TableError as refusal:
        await tell(interaction, refusal_text(refusal.key, refusal.params, lang))
        return
    await interaction.response.defer()
    try:
        erased = await privacy.erase(user_id, button.token, former_name)
    except TableError as refusal:
        text = refusal_text(refusal.key, refusal.params, lang)
        await interaction.edit_original_response(content=text, view=None)
        return
    await interaction.edit_original_response(content=erased_text(erased, lang), view=None)


PrivacyButton.click = on_click


class PrivacyCommands(CommandsMixin):
    """``/tute privacy``, mixed into the Tute cog (which sets ``bot``). A cog_load of a class
    after it in the cog's bases must call super() too."""

    bot: TuteBot

    privacy = app_commands.Group(
        name=catalog_str(f"{CMD}.name"), description=catalog_str(f"{CMD}.description")
    )

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PrivacyButton)
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PrivacyButton)
        await super().cog_unload()

    @anywhere
    @privacy.command(
        name=catalog_str(f"{CMD}.show.name"), description=catalog_str(f"{CMD}.show.description")
    )
    async def privacy_show(self, interaction: discord.Interaction[TuteBot]) -> None:
        """What the bot keeps about you, in every server, for you alone."""
        lang = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await privacy_of(interaction.client).kept(interaction.user.id)
        await tell(
            interaction,
            kept_text(interaction.client, data, lang, interaction.client.config.retention_days),
        )

    @anywhere
    @privacy.command(
        name=catalog_str(f"{CMD}.erase.name"), description=catalog_str(f"{CMD}.erase.description")
    )
    async def privacy_erase(self, interaction: discord.Interaction[TuteBot]) -> None:
        """Erase everything the bot keeps about you, in every server, once you confirm."""
        lang = locale_of(interaction)
        try:
            token = await privacy_of(interaction.client).ask(interaction.user.id)
        except TableError as refusal:
            await tell(interaction, refusal_text(refusal.key, refusal.params, lang))
            return
        if token is None:
            await tell(interaction, t("privacy.nothing_to_erase", lang))
            return
        await interaction.response.send_message(
            t("privacy.confirm", lang), view=question(token, lang), ephemeral=True
        )
