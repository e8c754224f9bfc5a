"""How long a DM click takes when it reaches the process that does not hold its table.

Two OS processes share one PostgreSQL database, as two ``tute-bot --shards`` would. The
holder (this script) runs shard 1 and plays tables of one member and three robots; the
forwarder (this script again, as a child, ``--forwarder``) runs shard 0, which is where
Discord sends every DM click. For each click the holder picks a legal card of the member's
hand and hands it to the forwarder on its stdin; the forwarder times ``Cluster.forward``:
the NOTIFY to the holder, the holder playing and saving the card (write-ahead, as for any
click), and the NOTIFY back. The redraws that follow are not in it (they go to Discord
from the holder, after the answer).

    .venv/bin/python benchmarks/forwarding.py [--clicks 300] [--postgres URL]

Without ``--postgres`` a throwaway server is started with PostgreSQL's durable defaults
(fsync and synchronous_commit on).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Kind, Variant, parse_options  # noqa: E402
from bot.storage import open_database  # noqa: E402
from bot.storage.bus import Bus  # noqa: E402
from bot.tables.cluster import Click, Cluster  # noqa: E402
from bot.tables.codes import encode_action  # noqa: E402
from bot.tables.runtime import Runtime  # noqa: E402
from bot.tables.service import TableService  # noqa: E402
from tests.tables._play import Clock, NullPresenter, Timers, instant_robot  # noqa: E402

SHARDS = 2
GUILD = 1001 << 22  # on shard 1: (id >> 22) % 2
HUMAN = 555
"""The member of the first table; each table has its own."""
TABLES = 10


async def forwarder(url: str) -> None:
    """Shard 0: forward each click read from stdin, print how long it took (ms)."""
    db = await open_database(url)
    service = TableService(db, (NullPresenter(),), Runtime(clock=time.time))
    cluster = Cluster(db, shard_count=SHARDS, shards=[0], bus=Bus(url), clock=time.time)
    await cluster.start(service)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print("ready", flush=True)
    while line := await reader.readline():
        click = Click(**json.loads(line))
        started = time.perf_counter()
        await cluster.forward(click)
        print(f"{(time.perf_counter() - started) * 1000:.3f}", flush=True)
    await cluster.stop()
    await db.close()


async def holder(url: str, clicks: int, seed: int) -> list[float]:
    """Shard 1: hold the tables, drive the forwarder, return its timings."""
    db = await open_database(url)
    timers = Timers()
    service = TableService(
        db,
        (NullPresenter(),),
        Runtime(clock=Clock(), sleep=timers.sleep, robot=instant_robot),
        robot_delay=0,
    )
    cluster = Cluster(db, shard_count=SHARDS, shards=[1], bus=Bus(url), clock=time.time)
    await cluster.start(service)
    rng = random.Random(seed)

    async def new_table(n: int) -> int:
        view = await service.open_table(
            guild_id=GUILD,
            channel_id=n + 1,
            host_id=HUMAN + n,
            host_name=f"member{n}",
            variant=Variant.INDIVIDUAL,
            options=parse_options(Variant.INDIVIDUAL, {"rounds": 5}),
            language="en",
            max_tables=TABLES + 1,
        )
        await service.start(view.id, HUMAN + n)
        return view.id

    tables = [await new_table(n) for n in range(TABLES)]
    await timers.quiet(service)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--forwarder",
        "--postgres",
        url,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdin is not None and child.stdout is not None
    assert (await child.stdout.readline()).startswith(b"ready")
    timings: list[float] = []
    while len(timings) < clicks:
        n = len(timings) % len(tables)
        table = service.tables.get(tables[n])
        if table is None:  # its game is over: another one
            tables[n] = await new_table(n)
            await timers.quiet(service)
            continue
        deal = table.deal
        if deal is None or deal.turn != 0:
            await timers.quiet(service)
            continue
        card = rng.choice([a for a in deal.legal_actions() if a.seat == 0 and a.kind is Kind.PLAY])
        click = Click(table.id, HUMAN + n, encode_action(card), table.deal_no, len(deal.tricks))
        child.stdin.write((json.dumps(dataclasses.asdict(click)) + "\n").encode())
        await child.stdin.drain()
        timings.append(float(await child.stdout.readline()))
        await timers.quiet(service)
    child.stdin.close()
    await child.wait()
    await timers.stop()
    await cluster.stop()
    await db.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description="DM click forwarding latency")
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--postgres", metavar="URL", help="an existing database (else a throwaway)")
    parser.add_argument("--forwarder", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.forwarder:
        asyncio.run(forwarder(args.postgres))
        return
    if args.postgres:
        timings = asyncio.run(holder(args.postgres, args.clicks, args.seed))
        settings = "an existing server"
    else:
        from benchmarks.storage_engines import durable_server
        from tests.pgserver import fresh_postgres

        with durable_server() as server:
            url = asyncio.run(fresh_postgres(server))
            timings = asyncio.run(holder(url, args.clicks, args.seed))
        settings = "a throwaway server, fsync and synchronous_commit on"
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
    print(
        f"{len(timings)} DM clicks forwarded from shard 0 to the process holding their table"
        f" (PostgreSQL LISTEN/NOTIFY, {settings}; {os.cpu_count()} CPUs)"
    )
    print(
        f"p50 {statistics.median(timings):.1f} ms · p99 {p99:.1f} ms · max {timings[-1]:.1f} ms"
        f" · mean {statistics.fmean(timings):.1f} ms"
    )


if __name__ == "__main__":
    main()
