"""The leaderboard: one page of a board, and its Previous/Next buttons. These are
:class:`LeaderboardPage` dynamic items: the custom_id (``tute:lb:<board>:<page>``, for the
rating board ``tute:lb:rating:<family>:<page>``, and for a season's rating board
``tute:lb:rating:<family>:s<season>:<page>``) is all they need, so they keep working on
messages posted before a restart (a season's board keeps showing that season after it
ends)."""

from __future__ import annotations

import re
from typing import Any, Final, Literal, cast

import discord

from bot.i18n import t
from bot.storage import Database, members
from bot.storage import ratings as stored_ratings
from bot.storage.seasons import Season, season_number
from bot.storage.settings import get_settings
from bot.tables.competition import seasons
from bot.tables.ratings import Family, Rating
from cogs._base import answers_errors

from .common import (
    MEDALS,
    NO_PINGS,
    PAGE_SIZE,
    database,
    in_guild,
    number,
    rated_games,
    rating_legend,
    reply,
    server_language,
    user_language,
)

Board = members.Board | Literal["rating"]
RATING: Final = "rating"
BOARDS: Final[tuple[str, ...]] = (*members.BOARDS, RATING)
FAMILIES: Final[tuple[str, ...]] = tuple(f.value for f in Family)
DEFAULT_FAMILY: Final = Family.PAIRS
BOARD_PATTERN = "|".join(BOARDS)
FAMILY_PATTERN = "|".join(FAMILIES)


def medal(rank: int) -> str:
    return MEDALS[rank - 1] if rank <= len(MEDALS) else f"`#{rank}`"


async def busiest_family(db: Database, guild_id: int, season: Season | None = None) -> Family:
    """The family whose rating board (all-time, or of ``season``) lists the most members
    (pairs on a tie, or when none lists anybody yet): what ``/tute leaderboard by:rating``
    shows without a family."""
    min_games = (await get_settings(db, guild_id)).min_rated_games
    rated = None if season is None else await seasons.season_ratings(db, season)
    best, most = DEFAULT_FAMILY, 0
    for family in (DEFAULT_FAMILY, *(f for f in Family if f is not DEFAULT_FAMILY)):
        if rated is None:
            size = await stored_ratings.rating_board_size(db, guild_id, family.value, min_games)
        else:
            size = len(seasons.board(rated, family, min_games))
        if size > most:
            best, most = family, size
    return best


async def leaderboard_message(
    db: Database,
    guild_id: int,
    by: Board,
    page: int,
    lang: str,
    family: Family = DEFAULT_FAMILY,
    season: Season | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed of one page of a board (clamped to the pages there are) and its buttons;
    ``family``: which rating board, when ``by`` is the rating; ``season``: that season's
    rating board instead of the all-time one."""
    if by == RATING:
        embed, page, pages = await _rating_page(db, guild_id, family, page, lang, season)
    else:
        embed, page, pages = await _board_page(db, guild_id, by, page, lang)
    view = discord.ui.View(timeout=None)
    # Previous points below the page shown and Next above it, so their ids always differ.
    previous = t("standings.leaderboard.previous", lang)
    following = t("standings.leaderboard.next", lang)
    shown = family if by == RATING else None
    number_shown = season.number if by == RATING and season is not None else None
    view.add_item(
        LeaderboardPage(by, page - 1, shown, number_shown, label=previous, disabled=page == 0)
    )
    view.add_item(
        LeaderboardPage(
            by, page + 1, shown, number_shown, label=following, disabled=page >= pages - 1
        )
    )
    return embed, view


def _pages(size: int, page: int) -> tuple[int, int]:
    """The page to show (clamped) and how many there are."""
    pages = max(1, -(-size // PAGE_SIZE))
    return min(max(page, 0), pages - 1), pages


async def _board_page(
    db: Database, guild_id: int, by: members.Board, page: int, lang: str
) -> tuple[discord.Embed, int, int]:
    size = await members.leaderboard_size(db, guild_id, by)
    page, pages = _pages(size, page)
    entries = await members.leaderboard(db, guild_id, by, page * PAGE_SIZE, PAGE_SIZE)
    lines = [
        t(
            "standings.leaderboard.line",
            lang,
            rank=medal(e.rank),
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
    return embed, page, pages


async def _rating_entries(
    db: Database, guild_id: int, family: Family, page: int, min_games: int, season: Season | None
) -> tuple[list[tuple[int, Rating]], int, int]:
    """One page of a rating board (all-time, or replayed from ``season``'s games), the page
    (clamped) and how many there are."""
    if season is not None:
        rows = seasons.board(await seasons.season_ratings(db, season), family, min_games)
        page, pages = _pages(len(rows), page)
        return rows[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages
    size = await stored_ratings.rating_board_size(db, guild_id, family.value, min_games)
    page, pages = _pages(size, page)
    stored = await stored_ratings.rating_board(
        db, guild_id, family.value, min_games, PAGE_SIZE, page * PAGE_SIZE
    )
    return [(u, Rating(r.mu, r.sigma, r.games)) for u, r in stored], page, pages


async def _rating_page(
    db: Database, guild_id: int, family: Family, page: int, lang: str, season: Season | None
) -> tuple[discord.Embed, int, int]:
    """The members with the server's minimum of rated games in ``family`` (all-time, or in
    ``season``), best first (by their rating less three times its uncertainty: who surely
    plays well), each rating with its rated games and, while it is settling, that in
    words; a one-line legend under them says what that means."""
    min_games = (await get_settings(db, guild_id)).min_rated_games
    entries, page, pages = await _rating_entries(db, guild_id, family, page, min_games, season)
    lines: list[str] = []
    for rank, (user_id, rating) in enumerate(entries, start=page * PAGE_SIZE + 1):
        lines.append(
            t(
                "standings.leaderboard.rating_line",
                lang,
                rank=medal(rank),
                member=f"<@{user_id}>",
                rating=number(rating.shown, lang),
                games=rated_games(rating, lang),
            )
        )
    family_name = t(f"standings.family.{family.value}", lang)
    title = (
        t("standings.leaderboard.title.rating", lang, family=family_name)
        if season is None
        else t(
            "standings.leaderboard.title.season_rating",
            lang,
            family=family_name,
            number=season.number,
        )
    )
    embed = discord.Embed(
        title=title,
        description="\n".join(lines)
        or t("standings.leaderboard.rating_empty", lang, games=number(min_games, lang)),
        colour=discord.Colour.gold(),
    )
    footer = t(
        "standings.leaderboard.rating_page",
        lang,
        page=page + 1,
        pages=pages,
        games=number(min_games, lang),
    )
    if lines:
        footer += "\n" + rating_legend(lang)
    embed.set_footer(text=footer)
    return embed, page, pages


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=(
        rf"tute:lb:(?P<by>{BOARD_PATTERN})(?::(?P<family>{FAMILY_PATTERN}))?"
        r"(?::s(?P<season>\d{1,9}))?:(?P<page>-?\d{1,6})"
    ),
):
    """Previous or Next on a leaderboard: shows page ``page`` of board ``by`` (of the rating
    in ``family``, in season number ``season`` if given), for anyone."""

    def __init__(
        self,
        by: Board,
        page: int,
        family: Family | None = None,
        season: int | None = None,
        *,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        if by == RATING:
            family = family or DEFAULT_FAMILY
            of_season = "" if season is None else f":s{season}"
            custom_id = f"tute:lb:{by}:{family.value}{of_season}:{page}"
        else:
            family = None
            season = None
            custom_id = f"tute:lb:{by}:{page}"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                disabled=disabled,
            )
        )
        self.by: Board = by
        self.page = page
        self.family = family
        self.season = season

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LeaderboardPage:
        family = Family(match["family"]) if match["family"] else None
        season = int(match["season"]) if match["season"] else None
        return cls(cast(Board, match["by"]), int(match["page"]), family, season)

    @answers_errors
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        guild = await in_guild(interaction, user_language(interaction))
        if guild is None:
            return
        lang = await server_language(interaction, guild.id)
        db = database(interaction)
        season = None
        if self.season is not None:
            season = await season_number(db, guild.id, self.season)
            if season is None:
                said = t("standings.season.unknown", user_language(interaction), number=self.season)
                await reply(interaction, said)
                return
        # a season's board replays its games: the click is answered first, the page follows
        await interaction.response.defer()
        embed, view = await leaderboard_message(
            db, guild.id, self.by, self.page, lang, self.family or DEFAULT_FAMILY, season
        )
        await interaction.edit_original_response(embed=embed, view=view, allowed_mentions=NO_PINGS)
