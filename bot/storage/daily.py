"""The daily deal (migration 12): each member's attempt of a server's deal of the day, written
when they start it and scored when its table ends; the board of a day and each member's
streak; the install's key of the daily seeds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import members
from ._sql import Source, fetchall, fetchone
from .base import Database, Row
from .settings import get_settings

AttemptStatus = Literal["playing", "finished", "unfinished"]

DAY = 86_400
"""Seconds in a UTC day: an attempt's ``day`` counts them from 1970-01-01."""


def day_of(now: float) -> int:
    """The UTC day of a moment, as days since 1970-01-01."""
    return int(now // DAY)


_COLUMNS = (
    "guild_id, user_id, day, started_at, table_id, status, points, margin, won, tricks,"
    " cantes, hints, ended_at"
)


@dataclass(frozen=True, slots=True)
class Attempt:
    """A member's daily deal of one day, as it stands."""

    guild_id: int
    user_id: int
    day: int
    """Days since 1970-01-01 (UTC)."""
    started_at: float
    table_id: int | None
    status: AttemptStatus
    points: int
    """The points of the member's side in the deal (cards and cantes)."""
    margin: int
    """Their side's points less the other side's."""
    won: bool
    tricks: str
    """One letter per trick played: W, won by the member's side; L, lost."""
    cantes: int
    hints: int
    """Hints the member asked for while playing it."""
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class Score:
    """How a finished daily deal went for the member who played it."""

    points: int
    margin: int
    won: bool
    tricks: str
    cantes: int
    hints: int = 0


def _attempt(row: Row) -> Attempt:
    values = tuple(row)
    status = str(values[5])
    assert status in ("playing", "finished", "unfinished")
    return Attempt(
        guild_id=int(values[0]),
        user_id=int(values[1]),
        day=int(values[2]),
        started_at=float(values[3]),
        table_id=None if values[4] is None else int(values[4]),
        status=status,  # type: ignore[arg-type]
        points=int(values[6]),
        margin=int(values[7]),
        won=bool(values[8]),
        tricks=str(values[9]),
        cantes=int(values[10]),
        hints=int(values[11]),
        ended_at=None if values[12] is None else float(values[12]),
    )


async def key(db: Database, fresh: str) -> str:
    """The install's key of the daily seeds: ``fresh`` the first time, the same ever after
    (two processes asking at once keep the one written first)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO daily_key (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
            (fresh,),
        )
        row = await conn.fetchone("SELECT secret FROM daily_key WHERE id = 1")
    assert row is not None
    return str(row[0])


async def begin(db: Database, guild_id: int, user_id: int, day: int, now: float) -> bool:
    """Write a member's attempt of the day's deal; False when they already made it (then
    nothing changes: the deal of a day is played once, whatever became of the first try)."""
    async with db.transaction() as conn:
        written = await conn.execute(
            "INSERT INTO daily_deals (guild_id, user_id, day, started_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id, day) DO NOTHING",
            (guild_id, user_id, day, now),
        )
    return written == 1


async def withdraw(db: Database, guild_id: int, user_id: int, day: int) -> None:
    """Take back an attempt whose table never opened (nothing of the deal was seen)."""
    await db.write(
        [
            (
                "DELETE FROM daily_deals WHERE guild_id = ? AND user_id = ? AND day = ?"
                " AND table_id IS NULL",
                (guild_id, user_id, day),
            )
        ]
    )


async def seat(db: Database, guild_id: int, user_id: int, day: int, table_id: int) -> None:
    """The table the attempt plays at."""
    await db.write(
        [
            (
                "UPDATE daily_deals SET table_id = ? WHERE guild_id = ? AND user_id = ?"
                " AND day = ?",
                (table_id, guild_id, user_id, day),
            )
        ]
    )


async def get(source: Source, guild_id: int, user_id: int, day: int) -> Attempt | None:
    row = await fetchone(
        source,
        f"SELECT {_COLUMNS} FROM daily_deals WHERE guild_id = ? AND user_id = ? AND day = ?",
        (guild_id, user_id, day),
    )
    return None if row is None else _attempt(row)


async def at_table(source: Source, table_id: int) -> Attempt | None:
    """The attempt played at a table (None: not a daily deal's table)."""
    row = await fetchone(
        source, f"SELECT {_COLUMNS} FROM daily_deals WHERE table_id = ?", (table_id,)
    )
    return None if row is None else _attempt(row)


async def in_play(source: Source) -> list[Attempt]:
    """Every attempt at a table not yet scored (after a start: those whose table ended
    while nothing was there to score it)."""
    rows = await fetchall(
        source,
        f"SELECT {_COLUMNS} FROM daily_deals WHERE status = 'playing' AND table_id IS NOT NULL",
    )
    return [_attempt(row) for row in rows]


async def finish(
    db: Database, attempt: Attempt, score: Score | None, now: float, *, xp: int = 0
) -> Attempt | None:
    """Score an attempt still in play: ``score`` for a deal played to its end, None for one
    that ended otherwise (left, abandoned, timed out: unfinished, no points). ``xp``: the
    experience it gives (in the same transaction). None when it was scored already."""
    async with db.transaction() as conn:
        if score is None:
            changed = await conn.execute(
                "UPDATE daily_deals SET status = 'unfinished', ended_at = ?"
                " WHERE guild_id = ? AND user_id = ? AND day = ? AND status = 'playing'",
                (now, attempt.guild_id, attempt.user_id, attempt.day),
            )
        else:
            changed = await conn.execute(
                "UPDATE daily_deals SET status = 'finished', points = ?, margin = ?, won = ?,"
                " tricks = ?, cantes = ?, hints = ?, ended_at = ?"
                " WHERE guild_id = ? AND user_id = ? AND day = ? AND status = 'playing'",
                (
                    score.points,
                    score.margin,
                    int(score.won),
                    score.tricks,
                    score.cantes,
                    score.hints,
                    now,
                    attempt.guild_id,
                    attempt.user_id,
                    attempt.day,
                ),
            )
        if changed != 1:
            return None
        if xp > 0:
            # a member new to the server gets their starting chips as anywhere else
            starting = (await get_settings(conn, attempt.guild_id)).starting_chips
            await members.ensure_member(conn, attempt.guild_id, attempt.user_id, starting, now)
            await members.add_stats(conn, attempt.guild_id, attempt.user_id, xp=xp)
        return await get(conn, attempt.guild_id, attempt.user_id, attempt.day)


async def board(source: Source, guild_id: int, day: int) -> list[Attempt]:
    """The server's attempts of a day, best first: finished ones (those played without a
    hint first) by points, then margin, then who finished first; then those still in play;
    then the unfinished."""
    rows = await fetchall(
        source,
        f"SELECT {_COLUMNS} FROM daily_deals WHERE guild_id = ? AND day = ?"
        " ORDER BY CASE status WHEN 'finished' THEN 0 WHEN 'playing' THEN 1 ELSE 2 END,"
        " CASE WHEN hints > 0 THEN 1 ELSE 0 END, points DESC, margin DESC, ended_at, started_at, user_id",
        (guild_id, day),
    )
    return [_attempt(row) for row in rows]


async def days_played(
    source: Source, guild_id: int, user_ids: list[int], until: int
) -> dict[int, list[int]]:
    """The days each member played the server's deal up to ``until``, newest first."""
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await fetchall(
        source,
        f"SELECT user_id, day FROM daily_deals WHERE guild_id = ? AND day <= ?"
        f" AND user_id IN ({marks}) ORDER BY user_id, day DESC",
        (guild_id, until, *user_ids),
    )
    played: dict[int, list[int]] = {uid: [] for uid in user_ids}
    for row in rows:
        played[int(row[0])].append(int(row[1]))
    return played
