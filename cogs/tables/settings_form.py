"""A lobby's Settings form: the host's Settings button opens it, for them alone, with one
select per table option that exists in the table's variant, each named and described in
words, its current value chosen. Choosing a value asks the service to change the table
(:mod:`bot.tables.form` decides what may change), answers with the form as it is now and
has the presenter redraw the lobby with its new rules.

The selects are persistent ``DynamicItem``s whose custom_id names the table and the option
(``tute:o:<table id>:<option>``): a form left open keeps working after a restart."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.i18n import t
from bot.tables.errors import TableError
from bot.tables.form import choices, current, form_options
from bot.tables.views import Outcome, TableView
from bot.words import option_name
from bot.words.settings import saved_text, value_label

from . import embeds as ui
from .common import answered, guarded, locale_of, service_of


class SettingSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tute:o:(?P<tid>\d+):(?P<option>[a-z_]+)",
):
    """The select of one option of a lobby's Settings form."""

    def __init__(
        self, table_id: int, option: str, values: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(custom_id=f"tute:o:{table_id}:{option}", options=values or [])
        )
        self.table_id = table_id
        self.option = option

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["tid"]), match["option"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, choose(self, interaction))


FORM_ITEMS = (SettingSelect,)
"""The form's persistent items (the bot listens for them)."""


def setting_select(table: TableView, name: str, lang: str) -> SettingSelect:
    now = current(table.variant, table.options, name)
    values = [
        discord.SelectOption(
            label=value_label(name, typed, lang), value=typed, default=typed == now
        )
        for typed in choices(table.variant, table.options, name)
    ]
    return SettingSelect(table.id, name, values)


def settings_panel(table: TableView, lang: str, saved: str | None = None) -> discord.ui.LayoutView:
    """The form: its title, what it does (or what was just saved), then for each option its
    name, what it does and its select."""
    title = t("settings.title", lang, table=ui.variant_title(table, lang))
    said = saved or t("settings.intro", lang)
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(f"### {title}\n-# {said}")]
    for name in form_options(table.variant, table.options):
        label, help_ = option_name(name, lang), t(f"settings.{name}.help", lang)
        items.append(discord.ui.TextDisplay(f"**{label}**\n-# {help_}"))
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        row.add_item(setting_select(table, name, lang))
        items.append(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=ui.GREEN))
    return view


async def open_settings(table_id: int, interaction: discord.Interaction[Any]) -> None:
    """The lobby's Settings button: the form, for the host alone (the service refuses
    anybody else, and a table whose game has started)."""
    table = service_of(interaction.client).settings_form(table_id, interaction.user.id)
    panel = settings_panel(table, locale_of(interaction))
    await answered(interaction, interaction.response.send_message(view=panel, ephemeral=True))


async def choose(select: SettingSelect, interaction: discord.Interaction[Any]) -> None:
    """A value chosen: the table changes, the form shows it, the lobby is redrawn."""
    data: Any = interaction.data or {}
    values = data.get("values") or []
    if len(values) != 1:
        raise TableError("settings_stale")
    service = service_of(interaction.client)
    name, typed = select.option, str(values[0])
    lang = locale_of(interaction)

    async def reply(outcome: Outcome) -> None:
        saved = saved_text(name, typed, lang)
        panel = settings_panel(outcome.show.table, lang, saved)
        await answered(interaction, interaction.response.edit_message(view=panel))

    await service.set_option(select.table_id, interaction.user.id, name, typed, reply=reply)
