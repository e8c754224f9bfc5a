"""Skill ratings as stored (the service's ``bot/tables/ratings.py`` computes them): every
finished competitive game's result, so that ratings can be rebuilt from history, and each
member's rating per family of variants.

Writes take the ``Conn`` that ``db.transaction()`` yields; reads take the
:class:`Database` or that connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._sql import Source, fetchall, scalar
from .base import Conn


@dataclass(frozen=True, slots=True)
class StoredRating:
    """openskill's mu and sigma, the rated games behind them, and the rating before the
    last of those games (None where not kept, as after a rebuild)."""

    mu: float
    sigma: float
    games: int
    last_mu: float | None = None
    last_sigma: float | None = None


_COLUMNS = "mu, sigma, games, last_mu, last_sigma"


def _rating(row: tuple[Any, ...]) -> StoredRating:
    mu, sigma, games, last_mu, last_sigma = row
    return StoredRating(
        float(mu),
        float(sigma),
        int(games),
        None if last_mu is None else float(last_mu),
        None if last_sigma is None else float(last_sigma),
    )


async def keep_game(
    conn: Conn,
    guild_id: int,
    table_id: int,
    family: str,
    finished_at: float,
    result: str,
) -> bool:
    """Keep a finished game's result (JSON), in the season running in the server (if any);
    False when that table's game was kept before."""
    return (
        await conn.execute(
            "INSERT INTO rated_games"
            " (table_id, guild_id, family, finished_at, result, season_id)"
            " VALUES (?, ?, ?, ?, ?,"
            " (SELECT id FROM seasons WHERE guild_id = ? AND ended_at IS NULL))"
            " ON CONFLICT DO NOTHING",
            (table_id, guild_id, family, finished_at, result, guild_id),
        )
        == 1
    )


async def game_results(
    source: Source, guild_id: int, since: float | None = None, until: float | None = None
) -> list[tuple[str, str, float]]:
    """(family, result, finished at) of every kept game of the server (that finished from
    ``since`` and before ``until``, where given), in the order they were kept and rated."""
    rows = await fetchall(
        source,
        "SELECT family, result, finished_at FROM rated_games WHERE guild_id = ?"
        " AND finished_at >= ? AND finished_at < ? ORDER BY id",
        (guild_id, -1e18 if since is None else since, 1e18 if until is None else until),
    )
    return [(str(r[0]), str(r[1]), float(r[2])) for r in rows]


async def ratings_of(
    source: Source, guild_id: int, family: str, user_ids: list[int]
) -> dict[int, StoredRating]:
    """The ratings these members have in ``family`` (those never rated are left out)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await fetchall(
        source,
        f"SELECT user_id, {_COLUMNS} FROM ratings"
        f" WHERE guild_id = ? AND family = ? AND user_id IN ({marks})",
        (guild_id, family, *user_ids),
    )
    return {int(r[0]): _rating(tuple(r)[1:]) for r in rows}


async def member_ratings(source: Source, guild_id: int, user_id: int) -> dict[str, StoredRating]:
    """A member's rating in every family they were rated in."""
    rows = await fetchall(
        source,
        f"SELECT family, {_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return {str(r[0]): _rating(tuple(r)[1:]) for r in rows}


async def put_rating(
    conn: Conn, guild_id: int, family: str, user_id: int, rating: StoredRating
) -> None:
    await conn.execute(
        f"INSERT INTO ratings (guild_id, user_id, family, {_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id, family) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, games = excluded.games, last_mu = excluded.last_mu,"
        " last_sigma = excluded.last_sigma",
        (
            guild_id,
            user_id,
            family,
            rating.mu,
            rating.sigma,
            rating.games,
            rating.last_mu,
            rating.last_sigma,
        ),
    )


async def clear_ratings(conn: Conn, guild_id: int) -> None:
    """Forget every rating of the server (before rebuilding them from its games)."""
    await conn.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))


async def rating_board(
    source: Source, guild_id: int, family: str, min_games: int, limit: int, offset: int = 0
) -> list[tuple[int, StoredRating]]:
    """(user id, rating) of the members with ``min_games`` rated games or more in
    ``family``, best first: by mu - 3 sigma (who surely plays well), then by mu."""
    rows = await fetchall(
        source,
        f"SELECT user_id, {_COLUMNS} FROM ratings"
        " WHERE guild_id = ? AND family = ? AND games >= ?"
        " ORDER BY mu - 3 * sigma DESC, mu DESC, user_id LIMIT ? OFFSET ?",
        (guild_id, family, min_games, limit, offset),
    )
    return [(int(r[0]), _rating(tuple(r)[1:])) for r in rows]


async def rating_board_size(source: Source, guild_id: int, family: str, min_games: int) -> int:
    return await scalar(
        source,
        "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND family = ? AND games >= ?",
        (guild_id, family, min_games),
    )
