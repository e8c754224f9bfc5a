"""Where each tournament lives on Discord (migration 14): its sign-up message, and the tables
whose link its channel was told. Written by the Discord side alone
(``cogs/tournaments/places.py``), never by the tournament service, whose state holds the
tournament only. One row per tournament; what was told as JSON (a list of table ids)."""

from __future__ import annotations

from dataclasses import dataclass

from ._sql import Source, fetchone
from .base import Database


@dataclass(frozen=True, slots=True)
class TournamentPlaceRow:
    tournament_id: int
    message_id: int | None
    """Its sign-up message in its channel (None: not posted, or not known)."""
    told: str
    """JSON: the ids of the tables whose link its channel was told."""


async def load(source: Source, tournament_id: int) -> TournamentPlaceRow | None:
    row = await fetchone(
        source,
        "SELECT tournament_id, message_id, told FROM tournament_places WHERE tournament_id = ?",
        (tournament_id,),
    )
    if row is None:
        return None
    return TournamentPlaceRow(
        int(row[0]), None if row[1] is None else int(str(row[1])), str(row[2])
    )


async def save(db: Database, row: TournamentPlaceRow) -> None:
    """Write the row, in place of what its tournament had."""
    await db.write(
        [
            (
                "INSERT INTO tournament_places (tournament_id, message_id, told) VALUES (?, ?, ?)"
                " ON CONFLICT (tournament_id) DO UPDATE SET message_id = excluded.message_id,"
                " told = excluded.told",
                (row.tournament_id, row.message_id, row.told),
            )
        ]
    )
