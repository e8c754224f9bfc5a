"""Shard leases: which process runs which shards of the bot (see migration 9).

A process claims its shards when it starts and renews the claim while it runs; a claim
holds until ``expires_at``. A shard whose lease has run out, or that nobody holds, goes to
whoever claims it next."""

from __future__ import annotations

from collections.abc import Iterable

from ._sql import Source, fetchall
from .base import Database


async def claim(
    db: Database, owner: str, shards: Iterable[int], *, now: float, until: float
) -> set[int]:
    """Take or renew the leases of ``shards`` that are free, run out or ``owner``'s own, up
    to ``until``; returns the shards ``owner`` holds now."""
    wanted = sorted(set(shards))
    async with db.transaction() as conn:
        for shard in wanted:
            await conn.execute(
                "INSERT INTO shard_leases (shard, owner, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner,"
                " expires_at = excluded.expires_at"
                " WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at <= ?",
                (shard, owner, until, now),
            )
        return await held(conn, owner)


async def held(source: Source, owner: str) -> set[int]:
    rows = await fetchall(source, "SELECT shard FROM shard_leases WHERE owner = ?", (owner,))
    return {int(row[0]) for row in rows}


async def holders(source: Source) -> dict[int, tuple[str, float]]:
    """Every lease: its shard's holder and until when."""
    rows = await fetchall(source, "SELECT shard, owner, expires_at FROM shard_leases")
    return {int(r[0]): (str(r[1]), float(r[2])) for r in rows}


async def release(db: Database, owner: str) -> None:
    """Give up every lease of ``owner`` (a process stopping cleanly)."""
    await db.write([("DELETE FROM shard_leases WHERE owner = ?", (owner,))])
