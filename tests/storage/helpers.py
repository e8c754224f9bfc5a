"""Members, balances and the conservation check, shared by the ledger and members tests."""

import aiosqlite

from bot.storage import Database, ledger, members
from bot.storage.db import SqliteDatabase

GUILD, OTHER_GUILD = 1, 2
ANA, BEA, CAR = 101, 102, 103
TABLE = 7
NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z


async def join(db: Database, *users: int, chips: int = 1000, guild: int = GUILD) -> None:
    async with db.transaction() as conn:
        for user in users:
            await members.ensure_member(conn, guild, user, chips, NOW)


async def balances(db: Database, *users: int) -> list[int]:
    return [await ledger.balance(db, GUILD, user) for user in users]


async def assert_balanced(db: Database, guild: int = GUILD) -> ledger.Audit:
    audit = await ledger.audit(db, guild)
    assert audit.balanced, audit
    return audit


def connection_of(db: Database) -> aiosqlite.Connection:
    """The aiosqlite connection of a SQLite database, for the tests that inject faults into
    it (its trace callback and progress handler)."""
    assert isinstance(db, SqliteDatabase), "a fault of SQLite's own needs the SQLite engine"
    return db.connection
