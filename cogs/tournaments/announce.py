"""What a tournament posts in its channel as it goes, each post on its own (a post Discord
refuses is logged and the tournament goes on): the round's tables shown (each opens its
thread and table message through the tables presenter), the pairings with a link to each
table, the picture; each match's result; the winner."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Protocol

import discord

from bot.client import TuteBot
from bot.i18n import number, t
from bot.tables.competition.tournament import Match
from bot.tables.competition.tournaments import (
    CaughtUp,
    Tournament,
    TournamentService,
    TournamentStatus,
)
from bot.tables.errors import TableError
from cogs._base import pings
from cogs.tables.common import service_of
from cogs.tables.presenter import presenter_of

from . import opened, posts

log = logging.getLogger(__name__)


RETRY_DELAYS = (2.0, 10.0, 30.0)
"""Seconds before each new try of a post Discord could not take for now (an outage, 5xx, or
a rate limit, 429: ``opened.for_now``); what it refuses for good (403, 404) is not tried
again."""


async def _wait(bot: discord.Client, delay: float) -> None:
    """On the tables' clock (the one tests run forward), real time without one."""
    if isinstance(bot, TuteBot):
        await bot.runtime.sleep(delay)
    else:
        await asyncio.sleep(delay)


async def _send(
    bot: discord.Client,
    tour: Tournament,
    content: str | None = None,
    *,
    picture: bool = False,
    mentions: Sequence[int] = (),
) -> discord.Message | None:
    """The message posted (None: not); tried again while Discord fails for now, then
    logged."""
    channel = bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
    for delay in (*RETRY_DELAYS, None):
        try:
            kwargs: dict[str, object] = {}
            if picture:
                kwargs["file"] = await posts.picture_file(tour)
            sent = await channel.send(
                content,
                allowed_mentions=pings(mentions),
                **kwargs,  # type: ignore[arg-type]
            )
        except discord.HTTPException as error:  # 403, 404, an outage: this post only
            if delay is not None and opened.for_now(error):
                log.info("Tournament %s: a post is tried again (%s)", tour.id, error)
                await _wait(bot, delay)
                continue
            log.warning("Tournament %s: could not post in %s (%s)", tour.id, tour.channel_id, error)
        except Exception:
            log.exception("Tournament %s: could not post in %s", tour.id, tour.channel_id)
        else:
            return sent
        return None
    return None


async def send_parts(
    bot: discord.Client, tour: Tournament, parts: list[posts.Part], *, picture: bool = False
) -> list[tuple[posts.Part, discord.Message]]:
    """Each part posted on its own (the picture with the first); those posted."""
    sent: list[tuple[posts.Part, discord.Message]] = []
    for i, part in enumerate(parts):
        message = await _send(
            bot, tour, part.text, picture=picture and i == 0, mentions=part.players
        )
        if message is not None:
            sent.append((part, message))
    return sent


async def show_round_tables(bot: discord.Client, tour: Tournament) -> dict[int, str]:
    """Where each table of the round in play is, as the Discord side showed it when the
    service published its start: table id -> a link to its table message (a table not
    shown yet is told later, ``opened``)."""
    draw = tour.draw
    if draw is None:
        return {}
    tables = service_of(bot)
    presenter = presenter_of(bot)
    links: dict[int, str] = {}
    for match in draw.round_matches(draw.current_round):
        table_id = tour.tables.get(draw.matches.index(match))
        if table_id is None:
            continue
        try:
            link = await presenter.link(tables.view(table_id))
        except TableError:
            continue  # over already
        except Exception:
            log.exception("Tournament %s: could not find table %s", tour.id, table_id)
            continue
        if link is not None:
            links[table_id] = link
    return links


async def round_started(bot: discord.Client, tour: Tournament) -> str | None:
    """A round was drawn (the first, by the host or the clock, or the next one): its tables
    shown, its pairings (the players pinged) and the picture posted. Returns a link to the
    pairings' first message (None: not posted)."""
    if tour.status is not TournamentStatus.RUNNING:
        return None
    links = await show_round_tables(bot, tour)
    sent = await send_parts(bot, tour, posts.round_parts(tour, links), picture=True)
    linked = {table for part, _ in sent for table in part.tables}
    telling = opened.telling_of(bot)
    if telling is not None:
        await telling.after_round(tour, {k: v for k, v in links.items() if k in linked})
    return sent[0][1].jump_url if sent else None


async def cancelled(bot: discord.Client, tour: Tournament) -> None:
    text = t("tournaments.cancelled", tour.language, id=tour.id)
    if tour.entry:
        text += " " + t(
            "tournaments.entries_back", tour.language, fee=number(tour.entry, tour.language)
        )
    await _send(bot, tour, text)


class EndedTable(Protocol):
    """What a game over tells of its table that this reads: which table, of which
    tournament."""

    id: int
    tournament_id: int | None


async def game_over(bot: discord.Client, service: TournamentService, table: EndedTable) -> None:
    """A table's game ended. Registered after the service's own listener, this waits for the
    tournament's lock (the service holds it while it decides the match and draws or opens
    what follows), then posts the result, and the next round or the winner."""
    tournament_id = table.tournament_id
    if tournament_id is None:
        return
    async with service.lock(tournament_id):
        pass
    tour = await service.load(tournament_id)
    draw = tour.draw
    index = tour.match_of_table(table.id)
    if draw is None or index is None:
        return
    match = draw.matches[index]
    if match.winner is None:
        return  # not decided (the tournament was not running, or a save failed)
    await told(bot, tour, [match], posts.match_round(draw, match))


async def caught_up(bot: discord.Client, caught: CaughtUp) -> None:
    """After a restart: the tables its channel was never told of, told; what the catch-up
    decided and drew, told as the games' ends would have told it."""
    tour = caught.tournament
    draw = tour.draw
    if draw is None:
        return
    telling = opened.telling_of(bot)
    if telling is not None and draw.current_round == caught.round_before:
        # opened before the stop, never told where: told now (a new round's pairings would)
        await telling.after_restart(tour)
    if not caught.moved:
        return
    await told(bot, tour, [draw.matches[i] for i in caught.decided], caught.round_before)


async def told(
    bot: discord.Client, tour: Tournament, decided: list[Match], round_before: int
) -> None:
    """Each decided match's result; then the winner, or the new round when one was drawn
    after ``round_before``."""
    draw = tour.draw
    assert draw is not None
    for match in decided:
        await _send(bot, tour, posts.result_text(tour, match))
    if tour.status is TournamentStatus.FINISHED:
        await send_parts(bot, tour, posts.winner_parts(tour), picture=True)
    elif draw.current_round > round_before:
        await round_started(bot, tour)
