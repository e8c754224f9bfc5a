"""Reads shared by the repository modules, on the database or inside a transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite

from .db import Database

Source = Database | aiosqlite.Connection
"""Where a read runs: the :class:`Database`, or the connection that ``db.transaction()``
yields (to read inside the transaction)."""


async def fetchone(source: Source, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
    if isinstance(source, Database):
        return await source.fetchone(sql, params)
    async with source.execute(sql, tuple(params)) as cursor:
        return await cursor.fetchone()


async def fetchall(source: Source, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
    if isinstance(source, Database):
        return await source.fetchall(sql, params)
    async with source.execute(sql, tuple(params)) as cursor:
        return list(await cursor.fetchall())


async def scalar(source: Source, sql: str, params: Sequence[Any] = ()) -> int:
    """The first column of the first row as a whole number (0 for no row or NULL)."""
    row = await fetchone(source, sql, params)
    return int(row[0]) if row is not None and row[0] is not None else 0
