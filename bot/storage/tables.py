"""Tables in play: their state, the write-ahead action log of each deal, and the game
records of finished deals.

A statement both paths need is built once, by a pure function: the transaction helpers run it
on the transaction's connection, ``save_progress`` hands it to the group commit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ._sql import Source, fetchone
from .base import Conn, Database, Row, Statement

OPEN_STATUSES = ("lobby", "playing")


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    status: str
    state: str
    created_at: float
    updated_at: float


_COLUMNS = "id, guild_id, channel_id, host_id, variant, status, state, created_at, updated_at"


def _row(row: Row) -> TableRow:
    return TableRow(*tuple(row))


async def create_table(
    conn: Conn,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    variant: str,
    status: str,
    state: str,
    now: float,
) -> int:
    return await conn.insert(
        "INSERT INTO tables (guild_id, channel_id, host_id, variant, status, state, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, host_id, variant, status, state, now, now),
    )


def table_state_statement(
    table_id: int, *, host_id: int, status: str, state: str, now: float
) -> Statement:
    return (
        "UPDATE tables SET host_id = ?, status = ?, state = ?, updated_at = ? WHERE id = ?",
        (host_id, status, state, now, table_id),
    )


async def save_table(
    conn: Conn, table_id: int, *, host_id: int, status: str, state: str, now: float
) -> None:
    await conn.execute(
        *table_state_statement(table_id, host_id=host_id, status=status, state=state, now=now)
    )


async def set_status(conn: Conn, table_id: int, *, status: str, now: float) -> None:
    """Change a table's status alone (its state may be unreadable)."""
    await conn.execute(
        "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?", (status, now, table_id)
    )


async def load_table(source: Source, table_id: int) -> TableRow | None:
    """A table's row, whatever its status."""
    row = await fetchone(source, f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,))
    return _row(row) if row else None


async def open_tables(db: Database, guild_id: int | None = None) -> list[TableRow]:
    """Tables in the lobby or in play, oldest first (of one server, or of all)."""
    if guild_id is None:
        rows = await db.fetchall(
            f"SELECT {_COLUMNS} FROM tables WHERE status IN (?, ?) ORDER BY id", OPEN_STATUSES
        )
    else:
        rows = await db.fetchall(
            f"SELECT {_COLUMNS} FROM tables WHERE status IN (?, ?) AND guild_id = ? ORDER BY id",
            (*OPEN_STATUSES, guild_id),
        )
    return [_row(r) for r in rows]


async def open_table_guild(source: Source, table_id: int) -> int | None:
    """The server of a table in the lobby or in play (None: it ended, or never was)."""
    row = await fetchone(
        source,
        "SELECT guild_id FROM tables WHERE id = ? AND status IN (?, ?)",
        (table_id, *OPEN_STATUSES),
    )
    return None if row is None else int(row[0])


async def open_channel_guild(source: Source, channel_id: int) -> int | None:
    """The server the newest table in the lobby or in play in a channel is filed under
    (None: none plays there)."""
    row = await fetchone(
        source,
        "SELECT guild_id FROM tables WHERE channel_id = ? AND status IN (?, ?)"
        " ORDER BY id DESC LIMIT 1",
        (channel_id, *OPEN_STATUSES),
    )
    return None if row is None else int(row[0])


def action_statement(table_id: int, deal_no: int, seq: int, action: str) -> Statement:
    """Log one action; (table, deal, seq) is unique, so an action is never written twice."""
    return (
        "INSERT INTO actions (table_id, deal_no, seq, action) VALUES (?, ?, ?, ?)",
        (table_id, deal_no, seq, action),
    )


async def append_action(conn: Conn, table_id: int, deal_no: int, seq: int, action: str) -> None:
    await conn.execute(*action_statement(table_id, deal_no, seq, action))


async def save_progress(
    db: Database,
    table_id: int,
    *,
    deal_no: int,
    actions: Iterable[tuple[int, str]],
    host_id: int,
    status: str,
    state: str,
    now: float,
) -> None:
    """A table's new actions (``(seq, action)``, written ahead) and its new state, as one
    atomic unit of the group commit; returns once committed. For saves that move no chips
    and write no deal record."""
    await db.write(
        [
            *(action_statement(table_id, deal_no, seq, action) for seq, action in actions),
            table_state_statement(table_id, host_id=host_id, status=status, state=state, now=now),
        ]
    )


async def deal_actions(db: Database, table_id: int, deal_no: int) -> list[str]:
    rows = await db.fetchall(
        "SELECT action FROM actions WHERE table_id = ? AND deal_no = ? ORDER BY seq",
        (table_id, deal_no),
    )
    return [r[0] for r in rows]


async def save_deal(
    conn: Conn,
    *,
    table_id: int,
    deal_no: int,
    guild_id: int,
    record: str,
    players: Iterable[tuple[int, int]],
    finished_at: float | None,
) -> None:
    """Store a deal's record (``players``: (seat, user id) of the humans seated)."""
    await conn.execute(
        "INSERT INTO deals (table_id, deal_no, guild_id, record, finished_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (table_id, deal_no) DO UPDATE SET record = excluded.record,"
        " finished_at = excluded.finished_at",
        (table_id, deal_no, guild_id, record, finished_at),
    )
    await conn.execute(
        "DELETE FROM deal_players WHERE table_id = ? AND deal_no = ?", (table_id, deal_no)
    )
    await conn.executemany(
        "INSERT INTO deal_players (table_id, deal_no, seat, user_id) VALUES (?, ?, ?, ?)",
        [(table_id, deal_no, seat, user_id) for seat, user_id in players],
    )
