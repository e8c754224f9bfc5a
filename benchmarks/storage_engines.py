"""Actions persisted per second and their p99 with 100 tables writing, SQLite and PostgreSQL
side by side.

For each engine, a fresh database (a SQLite file in a temporary folder; a new database on a
PostgreSQL server) gets ``--tables`` tables, made with ``tables.create_table`` in one
``db.transaction()``. Then every table is an asyncio task that writes ``--actions`` actions one
after the other, each the way the table service saves a play: ``tables.save_progress`` (the
action, written ahead, and the table's new state as one atomic unit; on SQLite through the
group commit). The state is the JSON of a real table (``benchmarks/state_json.py``'s: four
seats, the second deal half played, a full log; about 2.7 KB) and the actions are that deal's
own, all from a fixed seed. An action's time runs from asking for the
save to its commit, so it includes the wait for the lock or for a pooled connection. By
default each table saves again as soon as it can (the ceiling); with ``--interval 0.1``,
about every 0.1 s (what play looks like, many times faster than people and robots play).

Durability, as each engine runs (printed with the results):
- SQLite: as the bot opens it, WAL with ``synchronous=NORMAL`` (a commit is not fsynced; the
  WAL is at checkpoints).
- PostgreSQL: by default a throwaway server (``tests/pgserver.py``), which the tests start
  without fsync; here it is restarted at once with PostgreSQL's durable defaults (fsync,
  synchronous_commit, full_page_writes on), in the same temporary folder's file system as
  SQLite's file. ``--postgres URL`` uses an existing server as it is set up instead (a
  database ``tute_bench_<pid>`` is made on it and dropped afterwards).

Run: ``python benchmarks/storage_engines.py [--tables 100] [--actions 200]
[--interval SECONDS] [--engines sqlite,postgres] [--postgres URL]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit, urlunsplit

import aiosqlite
import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.state_json import mid_deal_table
from benchmarks.storage import make_tables
from bot.storage import Database, open_database
from bot.storage import tables as table_repo
from bot.storage.postgres import POOL_SIZE
from tests.pgserver import PORT, as_server_user, find_binaries, running_server

DEAL_NO = 0
SEED = 2026
ENGINES = ("sqlite", "postgres")


@dataclass(slots=True)
class Result:
    engine: str
    durability: str
    elapsed: float
    times: list[float]
    batches: int
    largest: int


async def play(
    db: Database,
    table_id: int,
    count: int,
    state: str,
    actions: list[str],
    times: list[float],
    interval: float | None,
) -> None:
    """One table's saves: at once one after the other, or (``interval``) one every
    ``interval`` seconds or so, as play goes."""
    pace = random.Random(f"{SEED}:{table_id}")
    for seq in range(count):
        if interval is not None:
            await asyncio.sleep(interval * pace.uniform(0.5, 1.5))
        start = time.perf_counter()
        await table_repo.save_progress(
            db,
            table_id,
            deal_no=DEAL_NO,
            actions=[(seq, actions[seq % len(actions)])],
            host_id=1000 + table_id,
            status="playing",
            state=state,
            now=time.time(),
        )
        times.append(time.perf_counter() - start)


async def bench(
    db: Database,
    engine: str,
    durability: str,
    tables: int,
    count: int,
    state: str,
    actions: list[str],
    interval: float | None,
) -> Result:
    ids = await make_tables(db, tables, state)
    times: list[float] = []
    start = time.perf_counter()
    await asyncio.gather(
        *(play(db, table_id, count, state, actions, times, interval) for table_id in ids)
    )
    elapsed = time.perf_counter() - start
    row = await db.fetchone("SELECT COUNT(*) FROM actions WHERE deal_no = ?", (DEAL_NO,))
    assert row is not None and row[0] == tables * count, (row and row[0], tables * count)
    return Result(engine, durability, elapsed, times, db.counts.batches, db.counts.largest)


async def bench_sqlite(
    tables: int, count: int, state: str, actions: list[str], interval: float | None
) -> Result:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        try:
            journal = await db.fetchone("PRAGMA journal_mode")
            synchronous = await db.fetchone("PRAGMA synchronous")
            assert journal is not None and synchronous is not None
            level = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(synchronous[0], "?")
            durability = f"{str(journal[0]).upper()}, synchronous={level}"
            return await bench(db, "sqlite", durability, tables, count, state, actions, interval)
        finally:
            await db.close()


def with_database(url: str, name: str) -> str:
    """``url`` with its database (the path) replaced by ``name``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def bench_postgres(
    server: str, tables: int, count: int, state: str, actions: list[str], interval: float | None
) -> Result:
    name = f"tute_bench_{os.getpid()}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        try:
            db = await open_database(with_database(server, name))
            try:
                settings = [
                    f"{setting}={await admin.fetchval(f'SHOW {setting}')}"
                    for setting in ("fsync", "synchronous_commit", "full_page_writes")
                ]
                durability = f"{', '.join(settings)}; pool {POOL_SIZE}"
                return await bench(
                    db, "postgres", durability, tables, count, state, actions, interval
                )
            finally:
                await db.close()
        finally:
            await admin.execute(f"DROP DATABASE IF EXISTS {name}")
    finally:
        await admin.close()


@contextmanager
def durable_server() -> Iterator[str]:
    """A throwaway server (``tests/pgserver.py``), restarted with PostgreSQL's durable defaults:
    it is started with ``-c fsync=off`` and the like, which ``ALTER SYSTEM`` cannot override
    (the command line wins over ``postgresql.auto.conf``), so it is restarted without them."""
    with running_server() as server:
        folder = Path(parse_qs(urlsplit(server).query)["host"][0])
        binaries, why = find_binaries()
        if binaries is None:
            raise RuntimeError(why)
        prefix, _ = as_server_user()
        options = f"-p {PORT} -k {folder} -c listen_addresses='' -c max_connections=200"
        subprocess.run(
            [
                *prefix,
                str(binaries / "pg_ctl"),
                "-D",
                str(folder / "data"),
                "-o",
                options,
                "-l",
                str(folder / "log"),
                "-m",
                "fast",
                "-w",
                "restart",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        yield server


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 1000) - 1]


def report(result: Result) -> None:
    ms = [t * 1000 for t in result.times]
    print(
        f"{result.engine:<10}{len(ms) / result.elapsed:>10,.0f}{statistics.median(ms):>9.2f}"
        f"{quantile(ms, 0.99):>9.2f}{max(ms):>9.2f}{result.elapsed:>8.1f}"
        f"{result.batches:>9,}{result.largest:>8}   {result.durability}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=200, help="actions per table")
    parser.add_argument("--engines", default=",".join(ENGINES), help="sqlite,postgres")
    parser.add_argument(
        "--postgres", metavar="URL", help="an existing server (default: a throwaway one)"
    )
    parser.add_argument(
        "--interval",
        type=float,
        metavar="SECONDS",
        help="each table saves once every SECONDS or so (default: as fast as it can)",
    )
    args = parser.parse_args()
    engines = [engine.strip() for engine in args.engines.split(",") if engine.strip()]
    unknown = set(engines) - set(ENGINES)
    if unknown:
        parser.error(f"unknown engines: {', '.join(sorted(unknown))}")
    table = mid_deal_table(random.Random(SEED))
    state = table.state_json()
    assert table.deal is not None
    actions = [json.dumps(action.to_json()) for action in table.deal.actions]
    print(
        f"{args.tables} tables x {args.actions} actions (save_progress: 1 action + state),"
        f" state {len(state):,} bytes, seed {SEED}; SQLite {aiosqlite.sqlite_version},"
        f" asyncpg {asyncpg.__version__}, {os.cpu_count()} CPUs;"
        + (f" a save every {args.interval} s a table" if args.interval else " saves back to back")
    )
    print(
        f"{'engine':<10}{'actions/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'run s':>8}"
        f"{'batches':>9}{'largest':>8}   durability"
    )
    for engine in engines:
        if engine == "sqlite":
            report(
                asyncio.run(bench_sqlite(args.tables, args.actions, state, actions, args.interval))
            )
        elif args.postgres:
            report(
                asyncio.run(
                    bench_postgres(
                        args.postgres, args.tables, args.actions, state, actions, args.interval
                    )
                )
            )
        else:
            with durable_server() as server:
                report(
                    asyncio.run(
                        bench_postgres(
                            server, args.tables, args.actions, state, actions, args.interval
                        )
                    )
                )


if __name__ == "__main__":
    main()
