"""Reads shared by the repository modules, on the database or inside a transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Conn, Database, Row

Source = Database | Conn
"""Where a read runs: the :class:`Database`, or the connection that ``db.transaction()``
yields (to read inside the transaction)."""


async def fetchone(source: Source, sql: str, params: Sequence[Any] = ()) -> Row | None:
    return await source.fetchone(sql, tuple(params))


async def fetchall(source: Source, sql: str, params: Sequence[Any] = ()) -> list[Row]:
    return await source.fetchall(sql, tuple(params))


async def scalar(source: Source, sql: str, params: Sequence[Any] = ()) -> int:
    """The first column of the first row as a whole number (0 for no row or NULL)."""
    row = await fetchone(source, sql, params)
    return int(row[0]) if row is not None and row[0] is not None else 0
