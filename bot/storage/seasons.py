"""Seasons as stored: at most one running per server, numbered from 1, with a planned end
the bot keeps, and the games kept for the ratings that finished in each.

Writes take the ``Conn`` that ``db.transaction()`` yields; reads take the
:class:`Database` or that connection. Times are passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._sql import Source, fetchall, fetchone, scalar
from .base import Conn


class SeasonRunning(Exception):
    """A season is running already in this server."""


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    number: int
    started_at: float
    ends_at: float | None
    ended_at: float | None
    channel_id: int | None

    @property
    def running(self) -> bool:
        return self.ended_at is None


_COLUMNS = "id, guild_id, number, started_at, ends_at, ended_at, channel_id"


def _season(row: Any) -> Season:
    return Season(*tuple(row))


async def running_season(source: Source, guild_id: int) -> Season | None:
    row = await fetchone(
        source,
        f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
        (guild_id,),
    )
    return None if row is None else _season(row)


async def season_number(source: Source, guild_id: int, number: int) -> Season | None:
    row = await fetchone(
        source,
        f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND number = ?",
        (guild_id, number),
    )
    return None if row is None else _season(row)


async def seasons_of(source: Source, guild_id: int) -> list[Season]:
    """The server's seasons, the latest first."""
    rows = await fetchall(
        source,
        f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number DESC",
        (guild_id,),
    )
    return [_season(r) for r in rows]


async def start_season(
    conn: Conn,
    guild_id: int,
    now: float,
    ends_at: float | None,
    channel_id: int | None,
) -> Season:
    """Start the server's next season; :class:`SeasonRunning` while one runs."""
    if await running_season(conn, guild_id) is not None:
        raise SeasonRunning(guild_id)
    number = 1 + await scalar(
        conn, "SELECT COALESCE(MAX(number), 0) FROM seasons WHERE guild_id = ?", (guild_id,)
    )
    season_id = await conn.insert(
        "INSERT INTO seasons (guild_id, number, started_at, ends_at, channel_id)"
        " VALUES (?, ?, ?, ?, ?)",
        (guild_id, number, now, ends_at, channel_id),
    )
    return Season(season_id, guild_id, number, now, ends_at, None, channel_id)


async def end_season(conn: Conn, guild_id: int, now: float) -> Season | None:
    """End the running season (None when none runs)."""
    running = await running_season(conn, guild_id)
    if running is None:
        return None
    await conn.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", (now, running.id))
    return Season(
        running.id,
        guild_id,
        running.number,
        running.started_at,
        running.ends_at,
        now,
        running.channel_id,
    )


async def due_seasons(source: Source, now: float) -> list[Season]:
    """The running seasons whose planned end has come, in every server."""
    rows = await fetchall(
        source,
        f"SELECT {_COLUMNS} FROM seasons WHERE ended_at IS NULL AND ends_at <= ? ORDER BY id",
        (now,),
    )
    return [_season(r) for r in rows]


async def season_games(source: Source, season_id: int) -> list[tuple[str, str, float]]:
    """(family, result, finished at) of the games kept in a season, in the order rated."""
    rows = await fetchall(
        source,
        "SELECT family, result, finished_at FROM rated_games WHERE season_id = ? ORDER BY id",
        (season_id,),
    )
    return [(str(r[0]), str(r[1]), float(r[2])) for r in rows]


async def season_games_mark(source: Source, season_id: int) -> tuple[int, int, int]:
    """How many games the season keeps, the id of the last one (0, 0 for none) and how many
    members had their data erased: they change whenever a game of the season is kept or a
    player in it becomes a former player, so a replay of the games can be reused while
    they do not."""
    row = await fetchone(
        source,
        "SELECT COUNT(*), COALESCE(MAX(id), 0), (SELECT COUNT(*) FROM erasures)"
        " FROM rated_games WHERE season_id = ?",
        (season_id,),
    )
    return (0, 0, 0) if row is None else (int(row[0]), int(row[1]), int(row[2]))
