"""The standings' embeds: a member's stats, the server's settings, and a season (its podium
at the end, its best players while it runs)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

import discord

from bot.i18n import Language, t
from bot.storage import members
from bot.storage.seasons import Season
from bot.storage.settings import GuildSettings
from bot.tables.ratings import Family, Rating, RatingChange
from bot.words import seconds_text
from cogs._base import shown_name

from .common import CMD, MEDALS, number, percent, rated_games, rating_legend, signed, utc_day


def _to_be_listed(games: int, min_games: int, lang: str) -> str:
    """ " · 3 more games to be on the leaderboard" while a member has too few rated games."""
    left = min_games - games
    if left <= 0:
        return ""
    key = "standings.stats.to_be_listed_one" if left == 1 else "standings.stats.to_be_listed"
    return t(key, lang, left=number(left, lang))


def rating_lines(ratings: Mapping[str, RatingChange], lang: str, min_games: int = 0) -> str:
    """A member's rating in each family they are rated in, one line each ("Pairs: **1,120**
    · 8 rated games (last game +35)", "still settling" said while it is), with how many
    more games they need to be listed (``min_games``); when none, "not rated yet" and how
    to get a rating."""
    lines: list[str] = []
    for family in Family:
        change = ratings.get(family.value)
        if change is None:
            continue
        after = change.after
        line = _rating_line(family, after, lang)
        if change.before is not None:  # unknown after a rebuild
            moved = signed(after.shown - change.before.shown, lang)
            line += t("standings.stats.rating_last", lang, change=moved)
        lines.append(line + _to_be_listed(after.games, min_games, lang))
    return "\n".join(lines) or t("standings.stats.rating_none", lang)


def season_rating_lines(ratings: Mapping[Family, Rating], lang: str, min_games: int = 0) -> str:
    """A member's rating in each family in a season, one line each ("Pairs: **1,120** · 8
    rated games"), with how many more games they need to be on the season's board
    (``min_games``); "no rated games this season yet" when none."""
    lines = [
        _rating_line(family, rating, lang) + _to_be_listed(rating.games, min_games, lang)
        for family in Family
        if (rating := ratings.get(family)) is not None
    ]
    return "\n".join(lines) or t("standings.stats.season_none", lang)


def _rating_line(family: Family, rating: Rating, lang: str) -> str:
    """ "Pairs: **1,120** · 8 rated games", or "· still settling, 3 rated games"."""
    return t(
        "standings.stats.rating_line",
        lang,
        family=t(f"standings.family.{family.value}", lang),
        rating=number(rating.shown, lang),
        games=rated_games(rating, lang),
    )


def stats_embed(
    found: members.MemberStats,
    member: discord.User | discord.Member,
    lang: str,
    ratings: Mapping[str, RatingChange] | None = None,
    season: tuple[int, Mapping[Family, Rating]] | None = None,
    min_games: int = 0,
) -> discord.Embed:
    """``ratings``: the member's rating per family (by its value), with its last change;
    ``season``: the running season's number and the member's rating per family in it;
    ``min_games``: the rated games a member needs to be listed. Under a rating shown, a
    one-line legend says what "still settling" means."""
    embed = discord.Embed(
        title=t("standings.stats.title", lang, name=shown_name(member.display_name)),
        colour=discord.Colour.dark_green(),
    )
    embed.set_thumbnail(url=member.display_avatar.url)

    def field(key: str, value: str) -> None:
        embed.add_field(name=t(f"standings.stats.{key}", lang), value=value)

    field("chips", number(found.balance, lang))
    field(
        "rank",
        t("standings.stats.rank_of", lang, rank=found.rank, members=number(found.members, lang)),
    )
    field("xp", number(found.xp, lang))
    for key, won, played in (
        ("games", found.games_won, found.games_played),
        ("rounds", found.rounds_won, found.rounds_played),
    ):
        field(
            key,
            t(
                "standings.stats.won_of",
                lang,
                won=number(won, lang),
                played=number(played, lang),
                percent=percent(won, played),
            ),
        )
    field("cantes", number(found.cantes, lang))
    field("tutes", number(found.tutes, lang))
    embed.add_field(
        name=t("standings.stats.rating", lang),
        value=rating_lines(ratings or {}, lang, min_games),
        inline=False,
    )
    if season is not None:
        number_of, rated = season
        embed.add_field(
            name=t("standings.stats.season", lang, number=number_of),
            value=season_rating_lines(rated, lang, min_games),
            inline=False,
        )
    if ratings or (season is not None and season[1]):
        embed.set_footer(text=rating_legend(lang))
    return embed


def podium_lines(places: Sequence[tuple[int, Rating]], lang: str) -> list[str]:
    """🥇 <@id>: **1,120** · 8 rated games, one line a place (a mention, which pings nobody
    where the message allows no mentions, and shows the member's name)."""
    return [
        t(
            "standings.season.place",
            lang,
            medal=MEDALS[rank] if rank < len(MEDALS) else f"`#{rank + 1}`",
            member=f"<@{user_id}>",
            rating=number(rating.shown, lang),
            games=rated_games(rating, lang),
        )
        for rank, (user_id, rating) in enumerate(places)
    ]


def season_dates(season: Season, lang: str) -> str:
    """When a season started, and when it ends (or ended)."""
    started = discord.utils.format_dt(_moment(season.started_at), "D")
    if season.ended_at is not None:
        ended = discord.utils.format_dt(_moment(season.ended_at), "D")
        return t("standings.season.dates_ended", lang, started=started, ended=ended)
    if season.ends_at is None:
        return t("standings.season.dates_open", lang, started=started)
    return t(
        "standings.season.dates_running",
        lang,
        started=started,
        date=utc_day(season.ends_at),
        relative=discord.utils.format_dt(_moment(season.ends_at), "R"),
    )


def _moment(at: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(at, dt.UTC)


def season_embed(
    season: Season,
    best: Mapping[Family, Sequence[tuple[int, Rating]]],
    min_games: int,
    lang: str,
    *,
    podium: bool = False,
) -> discord.Embed:
    """A season: its dates and, per family, its best players (``best``), first place
    first; "nobody qualified" in a family with nobody over ``min_games`` rated games.
    ``podium``: the season's end, titled as its podium."""
    title = "standings.season.podium_title" if podium else "standings.season.title"
    embed = discord.Embed(
        title=t(title, lang, number=season.number),
        description=season_dates(season, lang),
        colour=discord.Colour.gold(),
    )
    nobody = "standings.season.nobody" if not season.running else "standings.season.nobody_yet"
    for family in Family:
        places = best.get(family, ())
        embed.add_field(
            name=t(f"standings.family.{family.value}", lang),
            value="\n".join(podium_lines(places, lang)) or t(nobody, lang),
            inline=False,
        )
    footer = t("standings.season.footer", lang, games=number(min_games, lang))
    if any(best.values()):
        footer += "\n" + rating_legend(lang)
    embed.set_footer(text=footer)
    return embed


def settings_embed(
    settings: GuildSettings, title: str, lang: str, default_language: Language
) -> discord.Embed:
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())

    def field(key: str, value: str) -> None:
        embed.add_field(name=t(f"settings.config.{key}", lang), value=value)  # in words

    role = settings.opener_role_id
    field("starting_chips", number(settings.starting_chips, lang))
    field("daily_grant", number(settings.daily_grant, lang))
    field("turn_time", seconds_text(settings.turn_time, lang))
    shown = t(f"{CMD}.config.language.{settings.language_or(default_language)}", lang)
    if settings.language is None:
        shown = t("standings.config.default", lang, value=shown)
    field("language", shown)
    field("hand_delivery", t(f"{CMD}.config.hand_delivery.{settings.hand_delivery}", lang))
    field("opener_role", f"<@&{role}>" if role else t("standings.config.everyone", lang))
    field("max_tables", number(settings.max_tables, lang))
    weight = settings.robot_rating_weight
    field(
        "robot_rating_weight",
        t("standings.config.percent", lang, percent=weight)
        if weight
        else t("standings.config.robots_not_rated", lang),
    )
    field("min_rated_games", number(settings.min_rated_games, lang))
    cap = settings.pair_daily_cap
    field("pair_daily_cap", number(cap, lang) if cap else t("standings.config.no_limit", lang))
    for key, days in (
        ("min_account_days", settings.min_account_days),
        ("min_member_days", settings.min_member_days),
    ):
        field(key, days_text(days, lang))
    field("daily_experience", t("daily.on" if settings.daily_experience else "daily.off", lang))
    embed.set_footer(text=t("settings.config.hint", lang))
    return embed


def days_text(days: int, lang: str) -> str:
    """A fair-play minimum as shown: "30 days", "1 day", "None"."""
    if not days:
        return t("standings.config.no_minimum", lang)
    key = "standings.config.days_one" if days == 1 else "standings.config.days"
    return t(key, lang, days=number(days, lang))
