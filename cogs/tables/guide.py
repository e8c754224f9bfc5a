"""``/tute rules``: a short guide of each variant, a page at a time, for the user alone.

Each page is one container (components v2): the variant and the page's title, the picture
of the cards on the first page, a few paragraphs, then ◀ page/pages ▶ and a menu to switch
variant. Without a variant the first message offers the menu only. The buttons and the
menu are ``DynamicItem``s whose custom_id names the variant and the page
(``tute:guide:<variant>:<page>``, ``tute:guide-pick``): they keep working after a restart,
and one whose page no longer exists answers that the guide has expired.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Self

import discord

from bot.client import answer_error
from bot.engine import Variant
from bot.i18n import t
from bot.render.deck import render_deck
from cogs._base import command_path

from . import embeds as ui
from .common import locale_of
from .guide_pages import Page, deck_alt, deck_scene, guide_pages, pick_lines
from .layouts import picture, rule
from .pictures import as_file

GUIDE_FILE = "guide.png"
PREVIOUS = "\u25c0"
NEXT = "\u25b6"
PICK_ID = "tute:guide-pick"

Layout = discord.ui.LayoutView
Item = discord.ui.Item[Any]


@lru_cache(maxsize=4)
def _deck_png(lang: str) -> bytes:
    """The picture of the cards, drawn once per language."""
    return render_deck(deck_scene(lang))


def _text(lines: list[str]) -> discord.ui.TextDisplay[Any]:
    return discord.ui.TextDisplay("\n".join(lines))


def _layout(*items: Item) -> Layout:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=ui.GREEN))
    return view


def _pick_row(lang: str, current: Variant | None) -> discord.ui.ActionRow[Any]:
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(GuidePick(lang, current))
    return row


def pick_layout(lang: str) -> Layout:
    """The first page without a variant: the variants in a line each, a word for a
    newcomer on the course that teaches the game, and the menu."""
    learn = t("guide.learn", lang, command=command_path(lang, "tute", "learn"))
    lines = [
        f"### {t('guide.title', lang)}",
        t("guide.pick", lang),
        *pick_lines(lang),
        f"-# {learn}",
    ]
    return _layout(_text(lines), _pick_row(lang, None))


def _nav_row(variant: Variant, number: int, pages: int, lang: str) -> discord.ui.ActionRow[Any]:
    last = pages - 1
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(GuidePage(variant.value, max(number - 1, 0), PREVIOUS, disabled=number == 0))
    counter = t("guide.page", lang, page=number + 1, pages=pages)
    row.add_item(GuidePage(variant.value, number, counter, disabled=True, at=True))
    row.add_item(GuidePage(variant.value, min(number + 1, last), NEXT, disabled=number == last))
    return row


def page_layout(variant: Variant, number: int, lang: str) -> tuple[Layout, list[discord.File]]:
    """Page ``number`` of ``variant``'s guide (clamped to its pages), and the files it shows."""
    pages = guide_pages(variant, lang)
    number = min(max(number, 0), len(pages) - 1)
    page: Page = pages[number]
    heading = t(
        "guide.heading", lang, variant=t(f"variants.{variant.value}", lang), title=page.title
    )
    items: list[Item] = [_text([heading])]
    files: list[discord.File] = []
    if page.picture:
        items.append(picture(GUIDE_FILE))
        files.append(as_file(_deck_png(lang), GUIDE_FILE, deck_alt(lang)))
    items.append(_text(["\n\n".join(page.paragraphs)]))
    items.append(rule())
    items += [_nav_row(variant, number, len(pages), lang), _pick_row(lang, variant)]
    return _layout(*items), files


async def show_guide(interaction: discord.Interaction[Any], variant: str | None) -> None:
    """``/tute rules [variant]``: the guide's first page, for the user alone."""
    lang = locale_of(interaction)
    if variant is None:
        await interaction.response.send_message(view=pick_layout(lang), ephemeral=True)
        return
    view, files = page_layout(Variant(variant), 0, lang)
    await interaction.response.send_message(view=view, files=files, ephemeral=True)


async def _turn_to(interaction: discord.Interaction[Any], variant: Variant, number: int) -> None:
    view, files = page_layout(variant, number, locale_of(interaction))
    await interaction.response.edit_message(view=view, attachments=files)


async def _expired(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        t("guide.expired", locale_of(interaction)), ephemeral=True
    )


_PAGE = re.compile(r"(?P<variant>[a-z]+):(?P<page>\d{1,3})")
_VARIANTS = {v.value: v for v in Variant}


class GuidePage(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tute:guide:(?P<rest>[^\s]{0,80})"
):
    """◀ or ▶ (or the page counter, never enabled): ``tute:guide:<variant>:<page>`` turns to
    that page (its last, where the guide has fewer now). Any other ``tute:guide:`` id is a
    guide of a format gone by: it has expired."""

    def __init__(
        self,
        variant: str,
        page: int | str,
        label: str = "",
        *,
        disabled: bool = False,
        at: bool = False,
        rest: str | None = None,
    ) -> None:
        self.rest = rest if rest is not None else f"{variant}:{page}" + (":at" if at else "")
        super().__init__(
            discord.ui.Button(
                label=label or "-",
                style=discord.ButtonStyle.secondary,
                custom_id=f"tute:guide:{self.rest}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls("", "", rest=match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            found = _PAGE.fullmatch(self.rest)
            variant = _VARIANTS.get(found["variant"]) if found else None
            if found is None or variant is None:
                await _expired(interaction)
                return
            await _turn_to(interaction, variant, int(found["page"]))
        except Exception as error:
            await answer_error(interaction, error)


class GuidePick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_ID):
    """The menu of variants: opens the first page of the one chosen."""

    def __init__(self, lang: str = "en", current: Variant | None = None) -> None:
        options = [
            discord.SelectOption(
                label=t(f"variants.{v.value}", lang), value=v.value, default=v is current
            )
            for v in Variant
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=PICK_ID, placeholder=t("guide.pick_placeholder", lang), options=options
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            data: Any = interaction.data or {}
            values = data.get("values") or []
            variant = _VARIANTS.get(values[0]) if values else None
            if variant is None:
                await _expired(interaction)
                return
            await _turn_to(interaction, variant, 0)
        except Exception as error:
            await answer_error(interaction, error)


GUIDE_ITEMS = (GuidePage, GuidePick)
