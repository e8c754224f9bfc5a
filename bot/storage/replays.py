"""The stored deals a replay reads: one deal's game record with who sat where, and the
member's recent finished deals to choose one from."""

from __future__ import annotations

from dataclasses import dataclass

from ._sql import Source, fetchall, fetchone


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """A deal as stored: its server, its game record (JSON), whether it was played to its
    end, and the members seated (seat -> user id; a seat not listed held a robot)."""

    table_id: int
    deal_no: int
    guild_id: int
    record: str
    finished: bool
    members: dict[int, int]


@dataclass(frozen=True, slots=True)
class PastDeal:
    """A finished deal a member played: which one, its variant, when it ended."""

    table_id: int
    deal_no: int
    variant: str
    finished_at: float


async def stored_deal(source: Source, table_id: int, deal_no: int) -> StoredDeal | None:
    row = await fetchone(
        source,
        "SELECT guild_id, record, finished_at FROM deals WHERE table_id = ? AND deal_no = ?",
        (table_id, deal_no),
    )
    if row is None:
        return None
    seated = await fetchall(
        source,
        "SELECT seat, user_id FROM deal_players WHERE table_id = ? AND deal_no = ?",
        (table_id, deal_no),
    )
    return StoredDeal(
        table_id,
        deal_no,
        int(row[0]),
        str(row[1]),
        row[2] is not None,
        {int(seat): int(user) for seat, user in seated},
    )


async def recent_deals(
    source: Source, guild_id: int | None, user_id: int, limit: int
) -> list[PastDeal]:
    """The member's last ``limit`` finished deals in server ``guild_id`` (None: in any
    server, theirs to see from their DMs), newest first."""
    where = "" if guild_id is None else " AND d.guild_id = ?"
    rows = await fetchall(
        source,
        "SELECT d.table_id, d.deal_no, t.variant, d.finished_at FROM deals d"
        " JOIN deal_players p ON p.table_id = d.table_id AND p.deal_no = d.deal_no"
        " JOIN tables t ON t.id = d.table_id"
        f" WHERE p.user_id = ?{where} AND d.finished_at IS NOT NULL"
        " ORDER BY d.finished_at DESC, d.table_id DESC, d.deal_no DESC LIMIT ?",
        (user_id, limit) if guild_id is None else (user_id, guild_id, limit),
    )
    return [PastDeal(int(t), int(d), str(v), float(f)) for t, d, v, f in rows]
