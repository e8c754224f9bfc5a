"""The servers the bot is in, when it left the others (migration 16), and the erasure of
everything a server keeps once it has been gone long enough (:mod:`bot.tables.retention`).

A server is written here when the bot is seen in it (its start, or joining it) and marked
when it leaves; joining again clears the mark. A server never written here (one where only
a user installed the app, a DM's own tables) is never erased by this."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ._sql import Source, fetchall, fetchone
from .base import Conn, Database

TABLE_IDS: Final = "SELECT id FROM tables WHERE guild_id = ?"
TOURNAMENT_IDS: Final = "SELECT id FROM tournaments WHERE guild_id = ?"

ERASE: Final[tuple[str, ...]] = (
    # what hangs from the server's tables and tournaments first, then what names it
    f"DELETE FROM table_places WHERE table_id IN ({TABLE_IDS})",
    f"DELETE FROM reviews WHERE table_id IN ({TABLE_IDS})",
    "DELETE FROM reviews WHERE guild_id = ?",
    f"DELETE FROM deal_players WHERE table_id IN ({TABLE_IDS})",
    "DELETE FROM deal_players WHERE table_id IN (SELECT table_id FROM deals WHERE guild_id = ?)",
    f"DELETE FROM deals WHERE table_id IN ({TABLE_IDS})",
    "DELETE FROM deals WHERE guild_id = ?",
    f"DELETE FROM actions WHERE table_id IN ({TABLE_IDS})",
    f"DELETE FROM tournament_places WHERE tournament_id IN ({TOURNAMENT_IDS})",
    "DELETE FROM ledger WHERE guild_id = ?",
    "DELETE FROM rated_games WHERE guild_id = ?",  # before the seasons they name
    "DELETE FROM ratings WHERE guild_id = ?",
    "DELETE FROM seasons WHERE guild_id = ?",
    "DELETE FROM daily_deals WHERE guild_id = ?",
    "DELETE FROM members WHERE guild_id = ?",
    "DELETE FROM member_preferences WHERE guild_id = ?",
    "DELETE FROM tables WHERE guild_id = ?",
    "DELETE FROM tournaments WHERE guild_id = ?",
    "DELETE FROM guild_settings WHERE guild_id = ?",
)
"""Every row of one server but its presence (deleted first), in an order no foreign key refuses (each statement takes the
server's id once)."""


async def seen(db: Database, guild_ids: Iterable[int], now: float) -> None:
    """The bot is in these servers (at ``now``): written when new, their departure cleared
    when they had one (the bot came back before they were erased)."""
    rows = [(guild_id, now) for guild_id in sorted(set(guild_ids))]
    if not rows:
        return
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO guild_presence (guild_id, joined_at, left_at) VALUES (?, ?, NULL)"
            " ON CONFLICT (guild_id) DO UPDATE SET left_at = NULL,"
            " joined_at = CASE WHEN guild_presence.left_at IS NULL"
            " THEN guild_presence.joined_at ELSE excluded.joined_at END",
            rows,
        )


async def left(db: Database, guild_id: int, now: float) -> None:
    """The bot left the server at ``now`` (its first departure is kept: the retention counts
    from it)."""
    await db.write(
        [
            (
                "INSERT INTO guild_presence (guild_id, joined_at, left_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at"
                " WHERE guild_presence.left_at IS NULL",
                (guild_id, now, now),
            )
        ]
    )


async def present(source: Source) -> list[int]:
    """The servers the bot was last seen in, and has not left since."""
    rows = await fetchall(
        source, "SELECT guild_id FROM guild_presence WHERE left_at IS NULL ORDER BY guild_id"
    )
    return [int(row[0]) for row in rows]


async def left_at(source: Source, guild_id: int) -> float | None:
    """When the bot left the server (None: it is there, or never was, or it is erased)."""
    row = await fetchone(
        source, "SELECT left_at FROM guild_presence WHERE guild_id = ?", (guild_id,)
    )
    return None if row is None or row[0] is None else float(row[0])


async def departures(source: Source) -> list[tuple[int, float]]:
    """Every server the bot has left and that is not erased yet, with when it left, the
    earliest first."""
    rows = await fetchall(
        source,
        "SELECT guild_id, left_at FROM guild_presence WHERE left_at IS NOT NULL"
        " ORDER BY left_at, guild_id",
    )
    return [(int(guild_id), float(when)) for guild_id, when in rows]


async def erase(db: Database, guild_id: int, *, left_before: float) -> bool:
    """Every row of the server, in one transaction, if the bot left it before
    ``left_before`` and has not come back (checked in the same transaction, so a server
    the bot rejoins meanwhile keeps everything). Whether it was erased."""
    async with db.transaction() as conn:
        if not await _forget(conn, guild_id, left_before):
            return False
        for sql in ERASE:
            await conn.execute(sql, (guild_id,))
    return True


async def _forget(conn: Conn, guild_id: int, left_before: float) -> bool:
    # its own row first: on PostgreSQL the delete holds it, so the bot rejoining meanwhile
    # waits for the erasure and starts afresh, or came first and nothing is erased
    gone = await conn.execute(
        "DELETE FROM guild_presence WHERE guild_id = ? AND left_at IS NOT NULL AND left_at <= ?",
        (guild_id, left_before),
    )
    return gone > 0
