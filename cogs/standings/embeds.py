"""The standings' embeds: a member's stats and the server's settings."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.i18n import Language, t
from bot.storage import members
from bot.storage.settings import GuildSettings
from bot.tables.ratings import Family, RatingChange
from cogs._base import shown_name

from .common import CMD, number, percent, signed


def rating_lines(ratings: Mapping[str, RatingChange], lang: str) -> str:
    """A member's rating in each family they are rated in, one line each ("Pairs: **1,120**
    ± 250 · 8 games (last game +35)"); "not rated yet" when none."""
    lines: list[str] = []
    for family in Family:
        change = ratings.get(family.value)
        if change is None:
            continue
        after = change.after
        key = (
            "standings.stats.rating_line_one" if after.games == 1 else "standings.stats.rating_line"
        )
        line = t(
            key,
            lang,
            family=t(f"standings.family.{family.value}", lang),
            rating=number(after.shown, lang),
            spread=number(after.spread, lang),
            games=number(after.games, lang),
        )
        if change.before is not None:  # unknown after a rebuild
            moved = signed(after.shown - change.before.shown, lang)
            line += t("standings.stats.rating_last", lang, change=moved)
        lines.append(line)
    return "\n".join(lines) or t("standings.stats.rating_none", lang)


def stats_embed(
    found: members.MemberStats,
    member: discord.User | discord.Member,
    lang: str,
    ratings: Mapping[str, RatingChange] | None = None,
) -> discord.Embed:
    """``ratings``: the member's rating per family (by its value), with its last change."""
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
        value=rating_lines(ratings or {}, lang),
        inline=False,
    )
    return embed


def settings_embed(
    settings: GuildSettings, title: str, lang: str, default_language: Language
) -> discord.Embed:
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())

    def field(key: str, value: str) -> None:
        embed.add_field(name=t(f"{CMD}.config.{key}.name", lang), value=value)

    role = settings.opener_role_id
    field("starting_chips", number(settings.starting_chips, lang))
    field("daily_grant", number(settings.daily_grant, lang))
    field("turn_time", t("standings.config.seconds", lang, seconds=settings.turn_time))
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
    embed.set_footer(text=t("standings.config.hint", lang))
    return embed
