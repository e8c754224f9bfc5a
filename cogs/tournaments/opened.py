"""Where a tournament's tables opened, told in its channel once: the round's pairings tell
it (``announce.round_started``); a table that opened late (tried again by the service), or
whose link a failed post left untold (told after a restart), gets a post of its own, the
players pinged. The service keeps what was told (``TournamentService.told``) and tries
again what was not (``tell_later``)."""

from __future__ import annotations

import logging

import discord

from bot.i18n import t
from bot.tables.competition.tournaments import Tournament, TournamentService
from bot.tables.errors import TableError
from cogs._base import pings
from cogs.tables.common import service_of
from cogs.tables.presenter import presenter_of

log = logging.getLogger(__name__)


def service(bot: discord.Client) -> TournamentService | None:
    found = getattr(bot, "tournaments", None)
    return found if isinstance(found, TournamentService) else None


async def after_round_post(bot: discord.Client, tour: Tournament, links: dict[int, str]) -> None:
    """The round's pairings were posted with ``links`` (those of the parts posted): those are
    told; the round's open tables that they do not link are told later, on the service's
    clock."""
    tournaments = service(bot)
    if tournaments is None:
        return
    round_tables = set(tour.tables_in_play())
    told = set(links)
    if told:
        await tournaments.told(tour.id, told)
    if round_tables - told:
        tournaments.tell_later(tour.id, round_tables - told)


async def tell_opened(bot: discord.Client, tour: Tournament, table_ids: tuple[int, ...]) -> None:
    """The service's listener: each table's link posted, once the Discord side has shown it
    (the service published its start); those told are reported, the others stay to try
    again."""
    tournaments = service(bot)
    draw = tour.draw
    if tournaments is None or draw is None:
        return
    tables = service_of(bot)
    channel = bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
    for table_id in table_ids:
        index = tour.match_of_table(table_id)
        try:
            table = tables.view(table_id)
        except TableError:
            table = None
        if index is None or table is None or table_id in tour.told:
            await tournaments.told(tour.id, {table_id})  # over already: nothing to tell
            continue
        try:
            link = await presenter_of(bot).link(table)
            if link is None:
                continue  # not shown yet (Discord failed it for now): the next try
            players = draw.matches[index].players
            where = t("tournaments.round.table", tour.language, table=table_id, link=link)
            await channel.send(
                t(
                    "tournaments.table_opened",
                    tour.language,
                    id=tour.id,
                    players=" - ".join(f"<@{u}>" for u in players),
                    where=where,
                ),
                allowed_mentions=pings(players),
            )
        except discord.HTTPException as error:  # this table only: tried again later
            log.warning("Tournament %s: table %s not told (%s)", tour.id, table_id, error)
            continue
        except Exception:
            log.exception("Tournament %s: table %s not told", tour.id, table_id)
            continue
        await tournaments.told(tour.id, {table_id})
