"""The Hint button of a hand (at a table that is not competitive, on its player's turn):
what the hard robot would do in their seat, and why, in one line only they see. The
service decides and counts (:mod:`bot.tables.hints`); this side words it."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.tables.errors import SaveFailed, TableError
from bot.tables.views import TableView
from bot.words import hint_line, result
from cogs._base import shown_name

from .buttons import TableButton, TableOp
from .common import answered, cluster_of, locale_of, service_of


def hint_button(table_id: int, lang: str) -> TableButton:
    return TableButton(table_id, TableOp.HINT, label=t("hints.btn", lang), emoji="💡")


async def show_hint(table_id: int, interaction: discord.Interaction[Any]) -> None:
    """The hint, answered to whoever clicked (a refusal in words when it is not theirs to
    ask now). The robot may think a while on a busy machine: the click is answered first.
    A DM click may reach a process that does not hold the table: the holder thinks of the
    hint and counts it (``Cluster.forward_hint``), this one words it."""
    service = service_of(interaction.client)
    cluster = cluster_of(interaction.client)
    if not await answered(interaction, interaction.response.defer(ephemeral=True, thinking=True)):
        return
    if cluster is not None and not cluster.holds(table_id, service):
        # a DM click that reached a process without the table: its holder thinks and counts
        try:
            hint = await cluster.forward_hint(table_id, interaction.user.id)
        except SaveFailed:  # no answer in time; asked again, the same decision counts once
            raise TableError("hint_late") from None
    else:
        hint = await service.hint(table_id, interaction.user.id)
    line = hint_line(hint, locale_of(interaction))
    await answered(interaction, interaction.edit_original_response(content=line))


def hints_line(table: TableView, lang: str) -> str:
    """The hints each member asked for in the game, for its result ("" when none did)."""
    return result.hints_line(table, lang, escape=shown_name)
