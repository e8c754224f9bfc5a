"""Tournaments as stored: where each plays, who hosts it, its status and its state (the
entrants, the draw and the tables of its matches, as JSON the service writes and reads).

Writes take the ``Conn`` that ``db.transaction()`` yields; reads take the
:class:`Database` or that connection. Times are passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._sql import Source, fetchall, fetchone
from .base import Conn

ACTIVE_STATUSES = ("signup", "running")


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    state: str
    created_at: float
    updated_at: float


_COLUMNS = "id, guild_id, channel_id, host_id, status, state, created_at, updated_at"


def _row(row: Any) -> TournamentRow:
    return TournamentRow(*tuple(row))


async def create_tournament(
    conn: Conn,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    status: str,
    state: str,
    now: float,
) -> int:
    return await conn.insert(
        "INSERT INTO tournaments (guild_id, channel_id, host_id, status, state, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, host_id, status, state, now, now),
    )


async def save_tournament(
    conn: Conn, tournament_id: int, *, status: str, state: str, now: float
) -> None:
    await conn.execute(
        "UPDATE tournaments SET status = ?, state = ?, updated_at = ? WHERE id = ?",
        (status, state, now, tournament_id),
    )


async def load_tournament(source: Source, tournament_id: int) -> TournamentRow | None:
    row = await fetchone(
        source, f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
    )
    return None if row is None else _row(row)


async def active_tournaments(source: Source) -> list[TournamentRow]:
    """Tournaments signing up or running, of every server, oldest first."""
    rows = await fetchall(
        source,
        f"SELECT {_COLUMNS} FROM tournaments WHERE status IN (?, ?) ORDER BY id",
        ACTIVE_STATUSES,
    )
    return [_row(r) for r in rows]


async def latest_tournament_id(source: Source, guild_id: int) -> int | None:
    """The id of the server's newest tournament, whatever its status (None: none yet)."""
    row = await fetchone(source, "SELECT MAX(id) FROM tournaments WHERE guild_id = ?", (guild_id,))
    return None if row is None or row[0] is None else int(row[0])
