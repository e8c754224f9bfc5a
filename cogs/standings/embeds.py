"""The standings' embeds: a member's stats and the server's settings."""

from __future__ import annotations

import discord

from bot.i18n import Language, t
from bot.storage import members
from bot.storage.settings import GuildSettings
from cogs._base import shown_name

from .common import CMD, number, percent


def stats_embed(
    found: members.MemberStats, member: discord.User | discord.Member, lang: str
) -> discord.Embed:
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
    embed.set_footer(text=t("standings.config.hint", lang))
    return embed
