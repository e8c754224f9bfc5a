"""How the ledger writes a movement: its accounts, its rows, the checks every movement makes,
and the ledger's errors. The operations built on them, and their rules, are in
:mod:`bot.storage.ledger`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ._sql import fetchone
from .base import Conn

Account = int | None
"""A member's user id, or None for the server's bank."""

GRANT_KINDS: Final = ("start", "daily", "admin")
"""The only movements that create chips: one row, in a member's account."""

MEMBER, BANK, TABLE, TOURNAMENT = "member", "bank", "table", "tournament"
"""The ``account`` column: whose chips a ledger row moves."""


class LedgerError(Exception):
    """A movement that would break the ledger's rules; nothing was written."""


class InsufficientChips(LedgerError):
    """A member does not have the chips a movement takes from them."""

    def __init__(self, user_id: int, needed: int, available: int) -> None:
        super().__init__(f"member {user_id} needs {needed} chips but has {available}")
        self.user_id = user_id
        self.needed = needed
        self.available = available


class UnknownMember(LedgerError):
    """The member has never been seen in this server: call
    :func:`bot.storage.members.ensure_member` first."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__(f"member {user_id} is unknown in server {guild_id}")
        self.guild_id = guild_id
        self.user_id = user_id


def positive(name: str, amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise LedgerError(f"{name} must be a positive whole number of chips, not {amount!r}")


def not_negative(name: str, amount: int) -> None:
    """A whole number of chips (or a count) not below zero; :class:`LedgerError` otherwise."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise LedgerError(f"{name} must be a whole number of chips, not {amount!r}")


@dataclass(frozen=True, slots=True)
class Entry:
    """One ledger row of a movement."""

    account: str
    user_id: int | None
    table_id: int | None
    kind: str
    amount: int
    tournament_id: int | None = None


def party(account: Account, table_id: int | None, kind: str, amount: int) -> Entry:
    """A row in a member's account (user id) or the bank's (None)."""
    if account is None:
        return Entry(BANK, None, table_id, kind, amount)
    return Entry(MEMBER, account, table_id, kind, amount)


def table_entry(table_id: int, kind: str, amount: int) -> Entry:
    """A row in the table's account."""
    return Entry(TABLE, None, table_id, kind, amount)


def tournament_entry(tournament_id: int, kind: str, amount: int) -> Entry:
    """A row in the tournament's account (the entries it holds)."""
    return Entry(TOURNAMENT, None, None, kind, amount, tournament_id)


async def post(conn: Conn, guild_id: int, now: float, entries: list[Entry]) -> int:
    """Write one movement; returns its number. Everything but a grant must add up to zero."""
    grant = all(e.kind in GRANT_KINDS for e in entries)
    if not grant and sum(e.amount for e in entries) != 0:
        raise LedgerError(f"a movement must add up to zero: {entries}")
    await conn.lock(guild_id)
    movement = await conn.next_movement()
    await conn.executemany(
        "INSERT INTO ledger (guild_id, account, user_id, table_id, kind, amount, created_at,"
        " movement, tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                guild_id,
                e.account,
                e.user_id,
                e.table_id,
                e.kind,
                e.amount,
                now,
                movement,
                e.tournament_id,
            )
            for e in entries
        ],
    )
    return movement


async def require_member(conn: Conn, guild_id: int, user_id: int) -> None:
    row = await fetchone(
        conn, "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    if row is None:
        raise UnknownMember(guild_id, user_id)
