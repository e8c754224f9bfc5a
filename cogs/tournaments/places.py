"""Where each tournament lives on Discord, kept by this side alone: its sign-up message in its
channel, and the tables whose link its channel was told. The tournament service knows none
of it.

A place is read from the database the first time it is asked for, kept in memory, and
written at once when it changes (a tournament's place changes a few times in its life). A
write that fails is logged and the place kept in memory: this process still knows it, and
after a restart a table may be told once more, or a sign-up message keep its buttons (which
answer that the tournament started)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import discord

from bot.storage import Database
from bot.storage import tournament_places as stored
from bot.tables.competition.tournaments import Tournament

log = logging.getLogger(__name__)


@dataclass(slots=True)
class TournamentPlace:
    tournament_id: int
    message_id: int | None = None
    """Its sign-up message in its channel (None: not posted, or not known)."""
    told: set[int] = field(default_factory=set[int])
    """The tables its channel was told had opened (a link posted)."""

    def untold(self, tour: Tournament, is_open: Callable[[int], bool]) -> set[int]:
        """The open tables of the round in play (``is_open``: whether this process holds the
        table) whose opening its channel was never told: its post failed, or the bot stopped
        before it."""
        return {t for t in tour.tables_in_play() if t not in self.told and is_open(t)}

    def row(self) -> stored.TournamentPlaceRow:
        told = json.dumps(sorted(self.told), separators=(",", ":"))
        return stored.TournamentPlaceRow(self.tournament_id, self.message_id, told)

    @classmethod
    def from_row(cls, row: stored.TournamentPlaceRow) -> TournamentPlace:
        return cls(row.tournament_id, row.message_id, {int(t) for t in json.loads(row.told)})


class TournamentPlaces:
    """Every tournament's place, as this process shows it."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._places: dict[int, TournamentPlace] = {}

    async def of(self, tournament_id: int) -> TournamentPlace:
        """The tournament's place, read from the database if this process has not asked
        for it yet (an empty one if it has none, or the read failed)."""
        place = self._places.get(tournament_id)
        if place is not None:
            return place
        try:
            row = await stored.load(self._db, tournament_id)
        except Exception:
            log.exception("Could not read where tournament %s is shown", tournament_id)
            row = None
        place = self._places.get(tournament_id)  # another ask may have made it meanwhile
        if place is None:
            place = TournamentPlace(tournament_id) if row is None else TournamentPlace.from_row(row)
            self._places[tournament_id] = place
        return place

    async def posted(self, tournament_id: int, message_id: int) -> None:
        """Its sign-up message is ``message_id`` now (posted, or posted afresh): the start
        closes that one."""
        place = await self.of(tournament_id)
        place.message_id = message_id
        await self._save(place)

    async def told(self, tournament_id: int, table_ids: set[int]) -> None:
        """Its channel was told where these tables opened: not told again, after a restart
        either."""
        place = await self.of(tournament_id)
        if table_ids <= place.told:
            return
        place.told |= table_ids
        await self._save(place)

    async def _save(self, place: TournamentPlace) -> None:
        try:
            await stored.save(self._db, place.row())
        except Exception:
            log.exception("Could not write where tournament %s is shown", place.tournament_id)


def places_of(bot: discord.Client) -> TournamentPlaces | None:
    """The tournaments' places the bot was built with (None: a bot built without them)."""
    found = getattr(bot, "tournament_places", None)
    return found if isinstance(found, TournamentPlaces) else None
