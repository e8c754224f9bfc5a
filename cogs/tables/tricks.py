"""The Tricks button of a table in play: every trick of the deal so far, in order (its
number, who led, each card with who played it, who took it and its points), with the
cantes and the swap of the turned card where they came, answered to whoever clicks
(ephemeral). All of it was done in the open: the service's ``DealHistory`` holds no hand.

A long deal keeps within Discord's limits: the newest tricks that fit, newest last, and
how many earlier ones are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import t
from bot.tables.audience import place_of
from bot.tables.history import DealHistory, Happening, PastTrick
from bot.tables.views import TableView
from bot.words import suit_text
from bot.words.tricks import happening_line, trick_line

from . import embeds as ui
from .common import answered, locale_of, service_of
from .faces import NO_FACES, CardFaces
from .presenter import presenter_of

TEXT_ROOM = 3600
"""Characters the lines of tricks may take: Discord shows 4,000 in a message, its title
and notes included (kept well under, for the characters it counts twice)."""


def _name_of(table: TableView, lang: str) -> Callable[[int], str]:
    def name(seat: int) -> str:
        return ui.seat_name(table.seats[seat], lang, short=True)

    return name


def trick_text(table: TableView, trick: PastTrick, lang: str, faces: CardFaces = NO_FACES) -> str:
    """One trick: "**3.** Ana leads 7♣ · Luis 1♣ · 🤖 Robot 2 3♣ → **Luis** takes it (+21)"."""
    return trick_line(trick, lang, _name_of(table, lang), lambda c: ui.card_text(c, lang, faces))


def happening_text(
    table: TableView, happening: Happening, lang: str, faces: CardFaces = NO_FACES
) -> str:
    """A trick, a cante or a swap, in a line."""
    card = lambda c: ui.card_text(c, lang, faces)  # noqa: E731
    return happening_line(happening, lang, _name_of(table, lang), card)


def fitted(lines: list[tuple[str, bool]], room: int = TEXT_ROOM) -> tuple[list[str], int]:
    """The newest of ``lines`` (each: its text, and whether it is a trick's) that fit in
    ``room`` characters, oldest first, starting at a trick; and how many tricks are left
    out before them."""
    used, start = 0, len(lines)
    while start > 0 and used + len(lines[start - 1][0]) + 1 <= room:
        start -= 1
        used += len(lines[start][0]) + 1
    if start > 0:  # what came after a trick left out goes with it
        while start < len(lines) and not lines[start][1]:
            start += 1
    left_out = sum(1 for _, is_trick in lines[:start] if is_trick)
    return [text for text, _ in lines[start:]], left_out


def tricks_layout(
    table: TableView, history: DealHistory, lang: str, faces: CardFaces = NO_FACES
) -> discord.ui.LayoutView:
    """The deal's tricks so far, newest last (see the module)."""
    title = t("tables.tricks.title", lang, deal=history.deal_no + 1, id=table.id)
    trumps = t("hand.trumps", lang, suit=suit_text(history.trump, lang))
    lines = [
        (happening_text(table, h, lang, faces), isinstance(h, PastTrick)) for h in history.happened
    ]
    shown, left_out = fitted(lines)
    head = [f"**{title}**", trumps]
    if left_out:
        head.append(f"-# {t('tables.tricks.earlier', lang, count=left_out)}")
    if not history.tricks:
        shown.append(t("tables.tricks.none", lang))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("\n".join(head)),
            discord.ui.TextDisplay("\n".join(shown)),
            accent_colour=ui.GOLD,
        )
    )
    return view


async def show_tricks(table_id: int, interaction: discord.Interaction[Any]) -> None:
    """Answer a click on Tricks, only its clicker seeing: the deal in play so far. A table
    that no longer plays, or that the audience rule keeps from the clicker (a game without
    spectators, a table of another place), is refused (``TableError``), in a line."""
    service = service_of(interaction.client)
    place = place_of(interaction.guild_id, interaction.channel_id or 0)
    history = service.history(table_id, interaction.user.id, place)
    table = service.view(table_id)
    faces = presenter_of(interaction.client).faces
    layout = tricks_layout(table, history, locale_of(interaction), faces)
    await answered(interaction, interaction.response.send_message(view=layout, ephemeral=True))
