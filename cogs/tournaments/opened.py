"""Where a tournament's tables opened, told in its channel once: the round's pairings tell it
(``announce.round_started``); a table that opened late (tried again by the service, which
says so to its ``on_opened`` listener), or whose link a failed post left untold, gets a post
of its own, the players pinged.

What was told is this side's to keep (``places``), and what was not is this side's to try
again (:class:`Telling`): a link not known yet (Discord failed the table message for now) or
a post Discord could not take for now (5xx, 429) is tried again after 1 s, 2 s, 4 s... at
most a minute apart, on the runtime's clock; after a restart, what was never told is told
then."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.i18n import t
from bot.tables.competition.tournament_retry import retry_delay
from bot.tables.competition.tournaments import Tournament, TournamentService, TournamentStatus
from bot.tables.errors import TableError
from cogs._base import pings
from cogs.tables.common import service_of
from cogs.tables.presenter import presenter_of

from .places import TournamentPlaces

log = logging.getLogger(__name__)


def for_now(error: discord.HTTPException) -> bool:
    """Whether Discord failed a request for now (an outage, 5xx, or a rate limit, 429), so
    that it is worth another try; what it refuses for good (403, 404) is not tried again."""
    return error.status == 429 or error.status >= 500


class Telling:
    """The links of a tournament's tables its channel is still to be told: told at once when
    a table opens late, otherwise tried on a clock, one loop per tournament while any is
    left."""

    def __init__(
        self,
        bot: discord.Client,
        tournaments: TournamentService,
        places: TournamentPlaces,
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self._bot = bot
        self._tournaments = tournaments
        self.places = places
        self._sleep = sleep
        self.pending: dict[int, set[int]] = {}
        """Tables whose link is still to be told, by tournament."""
        self.loops: dict[int, asyncio.Task[None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def opened(self, tour: Tournament, table_ids: tuple[int, ...]) -> None:
        """The service's listener: tables opened late (tried again), told now; those not
        told are tried again later."""
        left = await self._tell(tour, set(table_ids))
        if left:
            self.later(tour.id, left)

    async def after_round(self, tour: Tournament, links: dict[int, str]) -> None:
        """The round's pairings were posted with ``links`` (those of the parts posted): those
        are told; the round's open tables that they do not link are told later."""
        told = set(links)
        if told:
            await self.places.told(tour.id, told)
        untold = set(tour.tables_in_play()) - told
        if untold:
            self.later(tour.id, untold)

    async def after_restart(self, tour: Tournament) -> None:
        """The open tables of the round in play that its channel was never told of (a failed
        post, or a stop before it): told now, on the clock."""
        if tour.status is not TournamentStatus.RUNNING:
            return
        untold = (await self.places.of(tour.id)).untold(tour, self._is_open)
        if untold:
            self.later(tour.id, untold)

    def later(self, tournament_id: int, table_ids: set[int]) -> None:
        """Tell these tables' links after a while; a loop under way goes on."""
        self.pending.setdefault(tournament_id, set()).update(table_ids)
        loop = self.loops.get(tournament_id)
        if loop is not None and not loop.done():
            return
        self.loops[tournament_id] = asyncio.get_running_loop().create_task(
            self._run(tournament_id), name=f"tournament-{tournament_id}-telling"
        )

    def stop(self) -> None:
        """The bot is stopping: nothing more is told (the next start tells what is left)."""
        for loop in self.loops.values():
            loop.cancel()
        self.loops.clear()
        self.pending.clear()

    def _is_open(self, table_id: int) -> bool:
        """Whether this process holds the table, in play (not over)."""
        try:
            service_of(self._bot).view(table_id)
        except TableError:
            return False
        return True

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def _run(self, tournament_id: int) -> None:
        failures = 0
        while self.pending.get(tournament_id):
            failures += 1
            await self._sleep(retry_delay(failures))
            tour = self._tournaments.tournaments.get(tournament_id)
            if tour is None or tour.status is not TournamentStatus.RUNNING:
                break  # over: nothing is left to tell
            trying = set(self.pending.get(tournament_id, ()))
            left = await self._tell(tour, trying)
            pending = self.pending.get(tournament_id, set())
            pending -= trying - left
            if not pending:
                break
        self.pending.pop(tournament_id, None)

    async def _tell(self, tour: Tournament, table_ids: set[int]) -> set[int]:
        """Each table's link posted, once the Discord side has shown it (the service
        published its start), and kept as told; returns those to try again."""
        draw = tour.draw
        if draw is None:
            return set()
        tables = service_of(self._bot)
        channel = self._bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
        left: set[int] = set()
        async with self._lock(tour.id):
            place = await self.places.of(tour.id)
            for table_id in sorted(table_ids):
                index = tour.match_of_table(table_id)
                try:
                    table = tables.view(table_id)
                except TableError:
                    table = None
                if index is None or table is None or table_id in place.told:
                    continue  # over already, or told: nothing to tell
                try:
                    link = await presenter_of(self._bot).link(table)
                    if link is None:
                        left.add(table_id)  # not shown yet (Discord failed it for now)
                        continue
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
                except discord.HTTPException as error:  # this table only
                    log.warning("Tournament %s: table %s not told (%s)", tour.id, table_id, error)
                    if for_now(error):
                        left.add(table_id)
                    continue
                except Exception:
                    log.exception("Tournament %s: table %s not told", tour.id, table_id)
                    left.add(table_id)
                    continue
                await self.places.told(tour.id, {table_id})
        return left


def telling_of(bot: discord.Client) -> Telling | None:
    """The tournaments' telling loop the bot was built with (None: a bot built without)."""
    found = getattr(bot, "tournament_telling", None)
    return found if isinstance(found, Telling) else None
