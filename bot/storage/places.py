"""Where each table's messages live on Discord (migration 10), or that its channel refused
the bot (migration 13): written by the Discord side's delivery alone
(``cogs/tables/places.py``), never by the table service, whose state holds the game only.
One row per table; its hands as JSON (seat -> where that player's hand is)."""

from __future__ import annotations

from dataclasses import dataclass

from ._sql import Source, fetchall, fetchone
from .base import Database

_COLUMNS = "table_id, thread_id, lobby_id, play_id, play_deal, legacy_id, hands, closed"


@dataclass(frozen=True, slots=True)
class PlaceRow:
    table_id: int
    thread_id: int | None
    lobby_id: int | None
    play_id: int | None
    play_deal: int | None
    legacy_id: int | None
    hands: str
    """JSON: seat -> ``{"user", "channel", "message", "closed", "legacy"}``."""
    closed: bool = False
    """The table's channel refused the bot (migration 13): nothing is posted there."""


async def load(source: Source, table_id: int) -> PlaceRow | None:
    row = await fetchone(
        source, f"SELECT {_COLUMNS} FROM table_places WHERE table_id = ?", (table_id,)
    )
    if row is None:
        return None
    return PlaceRow(
        int(row[0]),
        _id(row[1]),
        _id(row[2]),
        _id(row[3]),
        _id(row[4]),
        _id(row[5]),
        str(row[6]),
        bool(row[7]),
    )


async def tables_in_thread(source: Source, thread_id: int) -> list[int]:
    """The tables whose game plays in this thread (newest first)."""
    rows = await fetchall(
        source,
        "SELECT table_id FROM table_places WHERE thread_id = ? ORDER BY table_id DESC",
        (thread_id,),
    )
    return [int(row[0]) for row in rows]


async def save(db: Database, rows: list[PlaceRow]) -> None:
    """Write every row in one commit (each replaces what its table had)."""
    await db.write(
        [
            (
                f"INSERT INTO table_places ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET thread_id = excluded.thread_id,"
                " lobby_id = excluded.lobby_id, play_id = excluded.play_id,"
                " play_deal = excluded.play_deal, legacy_id = excluded.legacy_id,"
                " hands = excluded.hands, closed = excluded.closed",
                (
                    r.table_id,
                    r.thread_id,
                    r.lobby_id,
                    r.play_id,
                    r.play_deal,
                    r.legacy_id,
                    r.hands,
                    int(r.closed),
                ),
            )
            for r in rows
        ]
    )


def _id(value: object) -> int | None:
    return None if value is None else int(str(value))
