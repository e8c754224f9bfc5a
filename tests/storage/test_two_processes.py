"""Two processes of the bot on one PostgreSQL database: their writes to one server's chips
never spend a chip twice (each process has its own pool of connections, as it would)."""

import asyncio

from bot.storage import Database, ledger, open_database
from bot.storage._movements import InsufficientChips
from tests.pgserver import fresh_postgres

from .helpers import ANA, BEA, GUILD, NOW, join

STAKE = 100
TRIES = 12
"""Stakes each process tries to take, all at once: together, twice what Ana has."""


async def stake(db: Database, table_id: int, user_id: int) -> bool:
    try:
        async with db.transaction() as conn:
            await ledger.hold_stakes(conn, GUILD, table_id, {user_id: STAKE}, NOW)
            # the balance is read, then written: give the other process every chance to
            # read the same balance in between
            await asyncio.sleep(0.001)
    except InsufficientChips:
        return False
    return True


async def test_two_processes_staking_the_same_chips_never_overspend(pg_server: str) -> None:
    url = await fresh_postgres(pg_server)
    first, second = await open_database(url), await open_database(url)
    try:
        await join(first, ANA, BEA, chips=TRIES * STAKE)
        chips = await ledger.balance(first, GUILD, ANA)
        jobs = [
            stake(db, 1000 * n + i, ANA)
            for n, db in enumerate((first, second))
            for i in range(TRIES)
        ]
        # Bea's stakes, on both processes too, move other chips of the same server
        jobs += [stake(db, 5000 + n, BEA) for n, db in enumerate((first, second))]
        taken = await asyncio.gather(*jobs)

        assert sum(taken[: 2 * TRIES]) == chips // STAKE  # exactly what Ana had, no more
        assert await ledger.balance(second, GUILD, ANA) == 0
        assert all(taken[2 * TRIES :])
        audit = await ledger.audit(second, GUILD)
        assert audit.balanced, audit
        assert audit.members + audit.tables == audit.granted
    finally:
        await first.close()
        await second.close()


async def test_a_daily_grant_claimed_from_two_processes_is_paid_once(pg_server: str) -> None:
    url = await fresh_postgres(pg_server)
    first, second = await open_database(url), await open_database(url)
    try:
        await join(first, ANA)

        async def claim(db: Database) -> bool:
            async with db.transaction() as conn:
                return await ledger.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)

        paid = await asyncio.gather(*(claim(db) for db in (first, second) for _ in range(5)))
        assert sum(paid) == 1
        assert await ledger.balance(first, GUILD, ANA) == 1100
    finally:
        await first.close()
        await second.close()
