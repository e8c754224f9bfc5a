"""Shard leases: which process runs which shards of the bot (see migration 9), and where the
other processes reach it (its web table's address, migration 11).

A process claims its shards when it starts and renews the claim while it runs; a claim
holds until ``expires_at``. A shard whose lease has run out, or that nobody holds, goes to
whoever claims it next."""

from __future__ import annotations

from collections.abc import Iterable

from ._sql import Source, fetchall, fetchone
from .base import Database


async def claim(
    db: Database,
    owner: str,
    shards: Iterable[int],
    *,
    now: float,
    until: float,
    peer_url: str | None = None,
) -> set[int]:
    """Take or renew the leases of ``shards`` that are free, run out or ``owner``'s own, up
    to ``until``, with ``owner``'s address for the other processes (``peer_url``); returns
    the shards ``owner`` holds now."""
    wanted = sorted(set(shards))
    async with db.transaction() as conn:
        for shard in wanted:
            await conn.execute(
                "INSERT INTO shard_leases (shard, owner, expires_at, peer_url) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner,"
                " expires_at = excluded.expires_at, peer_url = excluded.peer_url"
                " WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at <= ?",
                (shard, owner, until, peer_url, now),
            )
        return await held(conn, owner)


async def held(source: Source, owner: str) -> set[int]:
    rows = await fetchall(source, "SELECT shard FROM shard_leases WHERE owner = ?", (owner,))
    return {int(row[0]) for row in rows}


async def holders(source: Source) -> dict[int, tuple[str, float]]:
    """Every lease: its shard's holder and until when."""
    rows = await fetchall(source, "SELECT shard, owner, expires_at FROM shard_leases")
    return {int(r[0]): (str(r[1]), float(r[2])) for r in rows}


async def peer_of(source: Source, shard: int, *, now: float) -> tuple[str, str | None] | None:
    """The process holding ``shard`` now and its address (None: it gave none), or None when
    nobody does (never claimed, given back, or run out: its process died)."""
    row = await fetchone(
        source,
        "SELECT owner, peer_url FROM shard_leases WHERE shard = ? AND expires_at > ?",
        (shard, now),
    )
    if row is None:
        return None
    return str(row[0]), None if row[1] is None else str(row[1])


async def release(db: Database, owner: str) -> None:
    """Give up every lease of ``owner`` (a process stopping cleanly)."""
    await db.write([("DELETE FROM shard_leases WHERE owner = ?", (owner,))])
