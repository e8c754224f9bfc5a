"""The reviews of finished deals, kept once computed (migration 17): one per deal and
member, as JSON (:mod:`bot.tables.review` writes and reads it)."""

from __future__ import annotations

from ._sql import Source, fetchone
from .base import Database


async def kept(source: Source, table_id: int, deal_no: int, user_id: int) -> str | None:
    """The review kept of the member's decisions in that deal (JSON), or None."""
    row = await fetchone(
        source,
        "SELECT review FROM reviews WHERE table_id = ? AND deal_no = ? AND user_id = ?",
        (table_id, deal_no, user_id),
    )
    return None if row is None else str(row[0])


async def keep(
    db: Database,
    guild_id: int,
    table_id: int,
    deal_no: int,
    user_id: int,
    review: str,
    now: float,
) -> None:
    """Keep a review computed (the first kept stands: the same deal gets the same one)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO reviews (guild_id, table_id, deal_no, user_id, review, made_at)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, deal_no, user_id) DO NOTHING",
            (guild_id, table_id, deal_no, user_id, review, now),
        )
