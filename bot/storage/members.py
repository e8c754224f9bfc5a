"""Members' records in a server: who has been seen (:func:`ensure_member`, which opens
their chips account), their counters (experience, rounds, games, cantes, tutes), the
leaderboards and a member's standing. Their chips are the ledger's (:mod:`.ledger`): a
leaderboard by chips and a standing read balances from it.

Writes take the ``Conn`` that ``db.transaction()`` yields; reads take the
:class:`Database` or that connection. Times are passed in (``now``): nothing here reads the
clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

from ._movements import not_negative
from ._sql import Source, fetchall, fetchone, scalar
from .base import Conn
from .ledger import UnknownMember, balance, grant_starting_chips

Board = Literal["chips", "xp", "games", "rounds"]
BOARDS: Final[tuple[Board, ...]] = get_args(Board)


@dataclass(frozen=True, slots=True)
class MemberStats:
    """One member's standing in one server. ``rank`` is by chips (ties share a rank) among
    ``members`` members."""

    user_id: int
    balance: int
    rank: int
    members: int
    xp: int
    rounds_won: int
    rounds_played: int
    games_won: int
    games_played: int
    cantes: int
    tutes: int
    last_daily: str | None


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    value: int


# ---------------------------------------------------------------------------- members


async def ensure_member(
    conn: Conn, guild_id: int, user_id: int, starting_chips: int, now: float
) -> bool:
    """Make sure the member exists in this server; the first time, they get the server's
    starting chips (a ``start`` grant). True when the member is new."""
    not_negative("starting_chips", starting_chips)
    new = (
        await conn.execute(
            "INSERT INTO members (guild_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (guild_id, user_id),
        )
        == 1
    )
    if new:
        await grant_starting_chips(conn, guild_id, user_id, starting_chips, now)
    return new


async def add_stats(
    conn: Conn,
    guild_id: int,
    user_id: int,
    *,
    xp: int = 0,
    rounds_won: int = 0,
    rounds_played: int = 0,
    games_won: int = 0,
    games_played: int = 0,
    cantes: int = 0,
    tutes: int = 0,
) -> None:
    """Add to a member's counters (never subtract)."""
    counts = {
        "xp": xp,
        "rounds_won": rounds_won,
        "rounds_played": rounds_played,
        "games_won": games_won,
        "games_played": games_played,
        "cantes": cantes,
        "tutes": tutes,
    }
    for name, value in counts.items():
        not_negative(name, value)
    updated = await conn.execute(
        "UPDATE members SET xp = xp + ?, rounds_won = rounds_won + ?,"
        " rounds_played = rounds_played + ?, games_won = games_won + ?,"
        " games_played = games_played + ?, cantes = cantes + ?, tutes = tutes + ?"
        " WHERE guild_id = ? AND user_id = ?",
        (*counts.values(), guild_id, user_id),
    )
    if updated != 1:
        raise UnknownMember(guild_id, user_id)


# ---------------------------------------------------------------------------- standings


_BALANCES = (
    "SELECT m.user_id AS user_id, COALESCE(SUM(l.amount), 0) AS value FROM members m"
    " LEFT JOIN ledger l ON l.guild_id = m.guild_id AND l.account = 'member'"
    " AND l.user_id = m.user_id WHERE m.guild_id = ? GROUP BY m.user_id"
)
_COUNTERS: Final[dict[Board, str]] = {"xp": "xp", "games": "games_won", "rounds": "rounds_won"}


def _board_values(by: Board) -> str:
    """SELECT user_id, value of every member on the board ``by`` (one ``?``: the server)."""
    if by == "chips":
        return _BALANCES
    if by not in _COUNTERS:
        raise ValueError(f"unknown leaderboard {by!r}; choose one of {', '.join(BOARDS)}")
    column = _COUNTERS[by]
    # Counters start at zero; a board of them lists the members who have scored any.
    return f"SELECT user_id, {column} AS value FROM members WHERE guild_id = ? AND {column} > 0"


async def leaderboard(
    source: Source, guild_id: int, by: Board, offset: int = 0, limit: int = 10
) -> list[LeaderboardEntry]:
    """A page of the server's standings by chips, experience, games won or rounds won, best
    first (ties share a rank and are listed by user id)."""
    if offset < 0 or limit < 0:
        raise ValueError("offset and limit must not be negative")
    rows = await fetchall(
        source,
        f"SELECT RANK() OVER (ORDER BY value DESC), user_id, value FROM ({_board_values(by)}) AS board"
        " ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
        (guild_id, limit, offset),
    )
    return [LeaderboardEntry(int(rank), int(user), int(value)) for rank, user, value in rows]


async def leaderboard_size(source: Source, guild_id: int, by: Board) -> int:
    """How many members the board ``by`` lists."""
    return await scalar(source, f"SELECT COUNT(*) FROM ({_board_values(by)}) AS board", (guild_id,))


async def finished_records(source: Source, table_id: int, before: int) -> list[str]:
    """The game records (JSON) of a table's finished deals numbered below ``before``, in
    order: a game's rounds, cantes and tutes are counted from them when the game ends, so
    that a cancelled game counts for nothing."""
    rows = await fetchall(
        source,
        "SELECT record FROM deals WHERE table_id = ? AND deal_no < ?"
        " AND finished_at IS NOT NULL ORDER BY deal_no",
        (table_id, before),
    )
    return [str(r[0]) for r in rows]


async def member_stats(source: Source, guild_id: int, user_id: int) -> MemberStats | None:
    """A member's standing in this server, or None for a member never seen here."""
    row = await fetchone(
        source,
        "SELECT xp, rounds_won, rounds_played, games_won, games_played, cantes, tutes,"
        " last_daily FROM members WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        return None
    chips = await balance(source, guild_id, user_id)
    ranking = await fetchone(
        source,
        f"SELECT COUNT(*), SUM(CASE WHEN value > ? THEN 1 ELSE 0 END) FROM ({_BALANCES}) AS b",
        (chips, guild_id),
    )
    assert ranking is not None
    members, above = int(ranking[0]), int(ranking[1] or 0)
    xp, rounds_won, rounds_played, games_won, games_played, cantes, tutes, daily = tuple(row)
    return MemberStats(
        user_id=user_id,
        balance=chips,
        rank=above + 1,
        members=members,
        xp=xp,
        rounds_won=rounds_won,
        rounds_played=rounds_played,
        games_won=games_won,
        games_played=games_played,
        cantes=cantes,
        tutes=tutes,
        last_daily=daily,
    )


async def chip_ranks(
    source: Source, guild_id: int, change: dict[int, int] | None = None
) -> dict[int, int]:
    """Every member's place on the server's chips board (1: the most chips; equal chips,
    equal place). ``change``: chips to take from some members first, to see the board as
    it stood before they won or lost them."""
    rows = await fetchall(source, _BALANCES, (guild_id,))
    change = change or {}
    chips = {int(user_id): int(value) - change.get(int(user_id), 0) for user_id, value in rows}
    ordered = sorted(chips.values(), reverse=True)
    first = {value: ordered.index(value) + 1 for value in set(ordered)}
    return {user_id: first[value] for user_id, value in chips.items()}


# ------------------------------------------------------------------------- preferences


async def notify_turn(source: Source, guild_id: int, user_id: int) -> bool:
    """Whether the member wants to be told when their turn comes (yes, unless they said no)."""
    row = await fetchone(
        source,
        "SELECT notify_turn FROM member_preferences WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return True if row is None else bool(row[0])


async def set_notify_turn(conn: Conn, guild_id: int, user_id: int, on: bool) -> None:
    await conn.execute(
        "INSERT INTO member_preferences (guild_id, user_id, notify_turn) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET notify_turn = excluded.notify_turn",
        (guild_id, user_id, int(on)),
    )
