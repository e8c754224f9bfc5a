"""The bot's table service playing on one SQLite file without end, until it is killed: the
process tests/tables/test_durability.py kills with SIGKILL.

    python -m tests.tables._crash_driver DB SEED [any:N | between:N | finish]

It restores the tables the file holds (a killed run leaves some in play), then keeps several
tables going at once, with bets: members (played by a seeded ``random.Random``) choose legal
actions, leave, vote to cancel; robots answer at once; members short of chips get some.
It prints each member's action the service has taken (``saved: TABLE DEAL SEQ``).

With ``any:N`` it kills itself with SIGKILL as its N-th SQL statement (counted from its
start) is about to run, whatever it is; with ``between:N``, as its N-th write that follows
another write of the same transaction (or its COMMIT) is about to run. It prints where first.
With ``finish`` it plays the tables it restored to their end, opens no new one, and exits.

DB may be a PostgreSQL URL: the driver is then one process of a bot on PostgreSQL, holding
its (only) shard by a lease of ``LEASE`` seconds before it restores anything, as
``tute-bot`` does; a driver started after one was killed waits for that lease to run out.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time

from bot.storage import Database, is_postgres, ledger, members, open_database
from bot.tables.cluster import Cluster
from bot.tables.model import Status
from tests.runtime import seeds
from tests.storage.helpers import connection_of

from ._play import GUILD, Habits, Players, Timers, keep_ended, make_service, table_of

USERS = list(range(201, 209))
LANES = 3
"""Tables in play at once."""
POOR = 200
LEASE = 1.0
"""Seconds a killed driver's lease holds on PostgreSQL (the bot's is 30)."""
TOP_UP = 500


WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "RELEASE", "COMMIT"})


async def arm(db: Database, kill_at: int, *, between_writes: bool) -> None:
    """SIGKILL as the ``kill_at``-th statement is about to run; with ``between_writes`` only
    writes (and COMMITs) that follow a write of the same transaction count."""
    count = writes = 0
    connection = connection_of(db)

    def trace(sql: str) -> None:
        nonlocal count, writes
        verb = sql.split(None, 1)[0].upper()
        if verb == "BEGIN":
            writes = 0
        if not between_writes or (verb in WRITES and writes):
            count += 1
        if count == kill_at:
            where = "in a transaction" if connection.in_transaction else "outside a transaction"
            print(f"killed at: {verb} {where}, after {writes} of its writes", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        if verb in WRITES:
            writes += 1

    await connection.set_trace_callback(trace)


async def top_up(players: Players) -> None:
    """A member short of chips gets some (a grant: one more movement a kill may cut)."""
    db = players.service.db
    user = players.rng.choice(USERS)
    stats = await members.member_stats(db, GUILD, user)
    if stats is not None and stats.balance < POOR:
        async with db.transaction() as conn:
            await ledger.grant(conn, GUILD, user, TOP_UP, "admin", time.time())


def saved(table_id: int, deal_no: int, seq: int) -> None:
    """Say which action the service has taken: it must be in the file after any kill."""
    print(f"saved: {table_id} {deal_no} {seq}", flush=True)


async def lane(players: Players, table_id: int | None, forever: bool) -> None:
    """One table after another: play it to its end, open the next."""
    while True:
        if table_id is not None:
            if table_of(players.service, table_id).status is Status.LOBBY:
                table_id = await players.start(table_id)
            if table_id is not None:
                await players.play_out(table_id)
        if not forever:
            return
        await top_up(players)
        table_id = await players.open()


async def run(path: str, seed: int, mode: str) -> None:
    keep_ended()
    rng = random.Random(seed)
    seeds().draw_from(rng.getrandbits)  # the tables' shuffles, from the seed too
    db = await open_database(path)
    where, _, kill_at = mode.partition(":")
    if kill_at:
        await arm(db, int(kill_at), between_writes=where == "between")
    finish = mode == "finish"
    timers = Timers()
    service = make_service(db, timers, time.time)
    cluster = Cluster(db, clock=time.time, lease_ttl=LEASE) if is_postgres(path) else None
    if cluster is not None:
        await cluster.start(service)
    restored = await service.restore()
    players = Players(
        service, timers, rng, USERS, bets=(0, 50, 200), habits=Habits(leave=0.01, vote=0.01)
    )
    players.on_saved = saved
    print(f"ready: {len(restored)} tables restored", flush=True)
    lanes = [lane(players, table.id, forever=not finish) for table in restored]
    if not finish:
        lanes += [lane(players, None, forever=True) for _ in range(LANES - len(lanes))]
    await asyncio.gather(*lanes)
    await timers.quiet(service)
    await service.suspend()
    await timers.stop()
    if cluster is not None:
        await cluster.stop()
    await db.close()
    print("finished", flush=True)


def main(argv: list[str]) -> None:
    path, seed, mode = argv[1], int(argv[2]), argv[3] if len(argv) > 3 else ""
    asyncio.run(run(path, seed, mode))


if __name__ == "__main__":
    main(sys.argv)
