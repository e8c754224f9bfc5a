"""The table commands of ``/tute``: ``new``, ``rules``, ``tables``, ``history``; and the
start of the table service with the bot."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TuteBot, catalog_str
from bot.engine import Options, Preset, Variant
from bot.engine.options import OPTION_NAMES
from bot.i18n import DEFAULT_LANGUAGE, t
from bot.storage.settings import get_settings
from bot.tables.errors import TableError
from bot.tables.house import completions, opening_options, parse_house, values_of
from bot.tables.model import DEFAULT_ROBOT, ROBOT_LEVELS, Level
from bot.tables.views import Outcome
from cogs._base import CommandsMixin, anywhere, channel_url, pings

from . import embeds as ui
from . import (
    reviews,  # noqa: F401  (registers the Review click)
    rules_text,
)
from .common import db_of, locale_of, refuse, service_of, since_of
from .guide import show_guide
from .launch import launch
from .presenter import presenter_of
from .replays import history_choices, show_history

log = logging.getLogger(__name__)

NEW_OPTIONS = (
    "variant",
    "rules",
    "rounds",
    "bet",
    "robots",
    "private",
    "house",
    "invite",
    "invite2",
    "invite3",
)
"""The options of ``/tute new``, each named and described in the catalog: what a host
decides when opening. The other table options are the lobby's Settings form's
(:mod:`settings_form`); the house rules share one option, ``house``."""

TABLE_OPTIONS = frozenset(NEW_OPTIONS) & frozenset(OPTION_NAMES)
"""The options of ``/tute new`` that are table options (``Options`` fields)."""

CHOICE_LENGTH = 100
"""The longest name or value of a choice Discord takes."""
MAX_CHOICES = 25
"""The most choices an autocomplete may offer."""

VARIANT_CHOICES = [
    app_commands.Choice(name=catalog_str(f"variants.{v.value}"), value=v.value) for v in Variant
]


def _given(interaction: discord.Interaction[TuteBot], option: str) -> Any:
    """What the user gave option ``option`` of the command (None: nothing). Discord names
    an option by its English name, whatever the user's language."""
    return getattr(interaction.namespace, t(f"options.{option}.name", DEFAULT_LANGUAGE), None)


def house_choices(
    interaction: discord.Interaction[TuteBot], current: str
) -> list[app_commands.Choice[str]]:
    """``name=value`` completions of the house rules of the variant chosen, each with what
    it does in the user's language (``/tute new`` and ``/tute tournament new``)."""
    lang = locale_of(interaction)
    chosen = _given(interaction, "variant")
    variant = Variant(chosen) if chosen in {v.value for v in Variant} else None
    offered: list[app_commands.Choice[str]] = []
    for whole, name, value in completions(variant, current, Options()):
        if len(whole) > CHOICE_LENGTH:
            continue
        label = f"{name}={value}: {rules_text.rule_text(name, value, lang)}"
        if value == values_of(name)[0]:
            label += " " + t("house.default", lang)
        offered.append(app_commands.Choice(name=label[:CHOICE_LENGTH], value=whole))
    return offered[:MAX_CHOICES]


RULES_CHOICES = [
    app_commands.Choice(name=catalog_str(f"options.rules.{p.value}"), value=p.value) for p in Preset
]


class TablesCommands(CommandsMixin):
    """The table commands of the ``/tute`` group (mixed into the Tute cog, which sets
    ``bot``)."""

    bot: TuteBot

    @commands.Cog.listener("on_message")
    async def _thread_notice(self, message: discord.Message) -> None:
        """Discord's notice of a thread the bot made for a game goes (the lobby links to
        the thread)."""
        if message.type is discord.MessageType.thread_created:
            await presenter_of(self.bot).notices.seen(message)

    async def cog_unload(self) -> None:
        # the bot stops (its tables' clocks already have): what is a moment away on screen
        # (a deal's message becoming its summary) is shown before the connection closes
        await presenter_of(self.bot).stopping()
        await super().cog_unload()

    @app_commands.command(
        name=catalog_str("commands.tute.new.name"),
        description=catalog_str("commands.tute.new.description"),
    )
    @app_commands.guild_only()
    @app_commands.choices(
        variant=VARIANT_CHOICES,
        robots=[
            app_commands.Choice(name=catalog_str(f"options.robots.{lv.value}"), value=lv.value)
            for lv in ROBOT_LEVELS
        ],
        rules=RULES_CHOICES,
    )
    @app_commands.describe(
        **{name: catalog_str(f"options.{name}.description") for name in NEW_OPTIONS}
    )
    @app_commands.rename(**{name: catalog_str(f"options.{name}.name") for name in NEW_OPTIONS})
    async def new(
        self,
        interaction: discord.Interaction[TuteBot],
        variant: str,
        rules: str = Preset.STANDARD.value,
        rounds: app_commands.Range[int, 1, 9] = 1,
        bet: app_commands.Range[int, 0, 1_000_000] = 0,
        robots: str = DEFAULT_ROBOT.value,
        private: bool = False,
        house: app_commands.Range[str, 1, 300] | None = None,
        invite: discord.Member | None = None,
        invite2: discord.Member | None = None,
        invite3: discord.Member | None = None,
    ) -> None:
        """Open a table in this channel; its host changes the other options in the lobby's
        Settings form (the time per turn starts at the server's)."""
        lang = locale_of(interaction)
        guild = interaction.guild
        assert guild is not None
        settings = await get_settings(db_of(interaction.client), guild.id)
        role_id = settings.opener_role_id
        member = interaction.user
        if (
            role_id
            and isinstance(member, discord.Member)
            and not member.guild_permissions.manage_guild
            and not any(r.id == role_id for r in member.roles)
        ):
            await interaction.response.send_message(
                t("tables.errors.opener_role", lang, role=f"<@&{role_id}>"), ephemeral=True
            )
            return
        v = Variant(variant)
        # the options the host named win over the preset
        named = {
            name
            for name in TABLE_OPTIONS
            if t(f"options.{name}.name", DEFAULT_LANGUAGE) in interaction.namespace
        }
        try:
            house_rules = parse_house(v, house or "")
            options = Options(
                rounds=rounds,
                bet=bet,
                turn_time=settings.turn_time,
                private=private,
                rules=Preset(rules),
                **house_rules,
            )
            options = opening_options(v, options, named | set(house_rules), quiet=TABLE_OPTIONS)
        except TableError as error:
            await refuse(interaction, error)
            return
        # a member named twice is invited (and pinged) once
        invited = list(dict.fromkeys(m.id for m in (invite, invite2, invite3) if m is not None))
        service = service_of(interaction.client)
        presenter = presenter_of(interaction.client)
        posted: list[int] = []

        async def post(outcome: Outcome) -> None:
            """The lobby is the command's answer, posted before the table is published."""
            table = outcome.table
            mentions = " ".join(f"<@{uid}>" for uid in invited)
            try:
                callback = await interaction.response.send_message(
                    content=t("tables.invited", table.language, mentions=mentions)
                    if invited
                    else None,
                    allowed_mentions=pings(invited),
                    **presenter.lobby_payload(table),
                )
            except discord.HTTPException as error:
                log.warning("Table %s: its lobby could not be shown (%s)", table.id, error)
                return
            posted.append(table.id)
            resource = callback.resource
            if isinstance(resource, discord.InteractionMessage):
                await presenter.lobby_posted(table, resource.id)

        try:
            table = await service.open_table(
                guild_id=guild.id,
                channel_id=interaction.channel_id or 0,
                host_id=member.id,
                host_name=member.display_name,
                variant=v,
                options=options,
                language=settings.language_or(interaction.client.config.language),
                invited=invited,
                max_tables=settings.max_tables,
                host_locale=lang,
                hand_delivery=settings.hand_delivery,
                robot_level=Level(robots),
                host_since=since_of(member),
                reply=post,
            )
        except TableError as error:
            await refuse(interaction, error)
            return
        if not posted:
            # nobody can see this lobby (the command's token ran out, 10062...): no table
            await service.discard(table.id)

    @new.autocomplete("house")
    async def house_autocomplete(
        self, interaction: discord.Interaction[TuteBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return house_choices(interaction, current)

    @anywhere
    @app_commands.command(
        name=catalog_str("commands.tute.rules.name"),
        description=catalog_str("commands.tute.rules.description"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.rename(variant=catalog_str("options.variant.name"))
    @app_commands.describe(variant=catalog_str("options.variant.description"))
    async def rules(
        self, interaction: discord.Interaction[TuteBot], variant: str | None = None
    ) -> None:
        """A short guide of a variant, page by page, for the user alone (without one, a
        menu of the variants first)."""
        await show_guide(interaction, variant)

    @anywhere
    @app_commands.command(
        name=catalog_str("commands.tute.play.name"),
        description=catalog_str("commands.tute.play.description"),
    )
    async def play(self, interaction: discord.Interaction[TuteBot]) -> None:
        """The web table (Discord's Activity), opened for you in this channel or DM; where
        the bot has none, how an admin turns it on."""
        await launch(interaction)

    @app_commands.command(
        name=catalog_str("commands.tute.tables.name"),
        description=catalog_str("commands.tute.tables.description"),
    )
    @app_commands.guild_only()
    async def tables(self, interaction: discord.Interaction[TuteBot]) -> None:
        """The open tables of this server, with their state and a link."""
        lang = locale_of(interaction)
        guild_id = interaction.guild_id or 0
        open_tables = service_of(interaction.client).open_tables(guild_id)
        embed = discord.Embed(title=t("tables.list.title", lang), colour=ui.GREEN)
        if not open_tables:
            embed.description = t("tables.list.none", lang)
        places = presenter_of(interaction.client).places
        for table in open_tables[:20]:
            place = await places.of(table)
            channel = place.where_id if place.play_message_id else table.channel_id
            message = place.play_message_id or place.message_id
            link = channel_url(guild_id, channel, message) if message else ""
            seated = sum(1 for s in table.seats if s is not None)
            embed.add_field(
                name=ui.variant_title(table, lang),
                value=t(
                    f"tables.list.{table.status.value}",
                    lang,
                    seated=seated,
                    seats=table.players,
                    link=link,
                ),
                inline=False,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=catalog_str("commands.tute.notify.name"),
        description=catalog_str("commands.tute.notify.description"),
    )
    @app_commands.guild_only()
    @app_commands.rename(on=catalog_str("commands.tute.notify.on.name"))
    @app_commands.describe(on=catalog_str("commands.tute.notify.on.description"))
    async def notify(self, interaction: discord.Interaction[TuteBot], on: bool) -> None:
        """Whether the bot tells you when your turn comes, in this server."""
        lang = locale_of(interaction)
        service = service_of(interaction.client)
        await service.notes.set_notify(interaction.guild_id or 0, interaction.user.id, on)
        key = "tables.notify.on" if on else "tables.notify.off"
        await interaction.response.send_message(t(key, lang), ephemeral=True)

    @app_commands.command(
        name=catalog_str("commands.tute.history.name"),
        description=catalog_str("commands.tute.history.description"),
    )
    @app_commands.guild_only()
    @app_commands.rename(deal=catalog_str("commands.tute.history.deal.name"))
    @app_commands.describe(deal=catalog_str("commands.tute.history.deal.description"))
    async def history(
        self, interaction: discord.Interaction[TuteBot], deal: str | None = None
    ) -> None:
        """A finished deal of this server stepped through, every hand shown, with its game
        record as a JSON file: the one chosen, else your last one here."""
        await show_history(interaction, deal)

    @history.autocomplete("deal")
    async def history_autocomplete(
        self, interaction: discord.Interaction[TuteBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await history_choices(interaction, current)
