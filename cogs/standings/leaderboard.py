"""The leaderboard: one page of a board, and its Previous/Next buttons. These are
:class:`LeaderboardPage` dynamic items: the custom_id (``tute:lb:<board>:<page>``) is all
they need, so they keep working on messages posted before a restart."""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bot.i18n import t
from bot.storage import Database, members
from cogs._base import answers_errors

from .common import (
    MEDALS,
    NO_PINGS,
    PAGE_SIZE,
    database,
    number,
    reply,
    server_language,
    user_language,
)

BOARD_PATTERN = "|".join(members.BOARDS)


async def leaderboard_message(
    db: Database, guild_id: int, by: members.Board, page: int, lang: str
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed of one page of a board (clamped to the pages there are) and its buttons."""
    size = await members.leaderboard_size(db, guild_id, by)
    pages = max(1, -(-size // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    entries = await members.leaderboard(db, guild_id, by, page * PAGE_SIZE, PAGE_SIZE)
    lines = [
        t(
            "standings.leaderboard.line",
            lang,
            rank=MEDALS[e.rank - 1] if e.rank <= len(MEDALS) else f"`#{e.rank}`",
            member=f"<@{e.user_id}>",
            value=number(e.value, lang),
        )
        for e in entries
    ]
    embed = discord.Embed(
        title=t(f"standings.leaderboard.title.{by}", lang),
        description="\n".join(lines) or t("standings.leaderboard.empty", lang),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=t("standings.leaderboard.page", lang, page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    # Previous points below the page shown and Next above it, so their ids always differ.
    previous = t("standings.leaderboard.previous", lang)
    following = t("standings.leaderboard.next", lang)
    view.add_item(LeaderboardPage(by, page - 1, label=previous, disabled=page == 0))
    view.add_item(LeaderboardPage(by, page + 1, label=following, disabled=page >= pages - 1))
    return embed, view


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"tute:lb:(?P<by>{BOARD_PATTERN}):(?P<page>-?\d{{1,6}})",
):
    """Previous or Next on a leaderboard: shows page ``page`` of board ``by``, for anyone."""

    def __init__(
        self, by: members.Board, page: int, *, label: str | None = None, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"tute:lb:{by}:{page}",
                disabled=disabled,
            )
        )
        self.by: members.Board = by
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LeaderboardPage:
        return cls(cast(members.Board, match["by"]), int(match["page"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        guild = interaction.guild
        if guild is None:
            await reply(interaction, t("standings.guild_only", user_language(interaction)))
            return
        lang = await server_language(interaction, guild.id)
        db = database(interaction)
        embed, view = await leaderboard_message(db, guild.id, self.by, self.page, lang)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)
