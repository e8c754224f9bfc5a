"""Persisted actions per second, and the time one persisted action takes, with many tables
writing at once.

Each table is an asyncio task that, for every action, does what the table service does:
``append_action`` + ``save_table`` in one ``db.transaction()`` (BEGIN IMMEDIATE .. COMMIT),
on a real SQLite file in a temporary folder, in WAL mode. The time of an action runs from
asking for the transaction to its commit, so it includes the wait for the lock.

Loads:
- ``burst``: every table writes its next action as soon as the previous one is committed
  (100 writers always queued: the worst case, and the throughput ceiling).
- ``paced``: every table writes one action every ``--interval`` seconds, with jitter (what
  play looks like, many times faster than people and robots play).

``--prototypes`` also runs the same loads on two prototypes of a different
``transaction()``, for comparison (proposals for ``bot/storage/db.py``, not used by the bot):

- ``group commit`` (:class:`GroupCommitDatabase`): callers that queue up while one
  transaction runs are gathered into one BEGIN .. COMMIT, each in its own SAVEPOINT (a
  failing caller rolls back only its part); each caller returns once its batch is committed.
- ``one-hop group commit`` (:class:`OneHopWriter`): the same, but a caller's writes are
  recorded (the repository functions run against a recording connection) and a whole batch
  is executed in ONE call on the database thread, instead of one thread hop per statement.
  Only for transactions that write without reading, like this hot path.

Run: ``python benchmarks/storage.py [--tables 100] [--actions 50] [--interval 0.1]
[--prototypes]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Database, open_database
from bot.storage import tables as table_repo

STATE = json.dumps({"seats": [1, 2, None, None], "clock": 60, "scores": [0, 0], "deal": 1})


class GroupCommitDatabase(Database):
    """A prototype, for measuring: ``transaction()`` with group commit."""

    def __init__(self, connection: aiosqlite.Connection, max_batch: int = 128) -> None:
        super().__init__(connection)
        self._unit_lock = asyncio.Lock()
        self._queued = 0
        self._batch: asyncio.Future[None] | None = None
        self._batch_size = 0
        self._max_batch = max_batch
        self.batches: list[int] = []

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        conn = self.connection
        self._queued += 1
        error: BaseException | None = None
        async with self._unit_lock:
            self._queued -= 1
            if self._batch is None:
                await conn.execute("BEGIN IMMEDIATE")
                self._batch = asyncio.get_running_loop().create_future()
                self._batch_size = 0
            batch = self._batch
            self._batch_size += 1
            await conn.execute("SAVEPOINT unit")
            try:
                yield conn
            except BaseException as raised:
                error = raised
                await conn.execute("ROLLBACK TO unit")
            await conn.execute("RELEASE unit")
            if self._queued == 0 or self._batch_size >= self._max_batch:
                self._batch = None
                self.batches.append(self._batch_size)
                try:
                    await conn.commit()
                except BaseException as failed:
                    batch.set_exception(failed)
                else:
                    batch.set_result(None)
        if error is not None:
            raise error
        await asyncio.shield(batch)


class _RecordingConnection:
    """Stands in for the aiosqlite connection of a write-only transaction: it keeps the
    statements the repository functions give it, to be run later in one batch."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, tuple[Any, ...]]] = []

    async def execute(self, sql: str, parameters: Iterable[Any] = ()) -> None:
        self.statements.append((sql, tuple(parameters)))


Unit = Callable[[aiosqlite.Connection], Awaitable[None]]


class OneHopWriter:
    """A prototype, for measuring: group commit where a batch costs one thread hop."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA synchronous = NORMAL")  # the file is already in WAL mode
        self._thread = ThreadPoolExecutor(max_workers=1)
        self._pending: list[tuple[list[tuple[str, tuple[Any, ...]]], asyncio.Future[None]]] = []
        self._flushing = False
        self.batches: list[int] = []

    async def write(self, unit: Unit) -> None:
        """Run ``unit``'s writes in a transaction; returns once they are committed."""
        recorder = _RecordingConnection()
        await unit(cast(aiosqlite.Connection, recorder))
        done = asyncio.get_running_loop().create_future()
        self._pending.append((recorder.statements, done))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())
        await done

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                self.batches.append(len(batch))
                try:
                    errors = await loop.run_in_executor(self._thread, self._run, batch)
                except Exception as failed:  # the commit failed: nobody's writes are in
                    errors = [failed] * len(batch)
                for (_, done), error in zip(batch, errors, strict=True):
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            self._flushing = False

    def _run(
        self, batch: list[tuple[list[tuple[str, tuple[Any, ...]]], asyncio.Future[None]]]
    ) -> list[Exception | None]:
        conn = self._conn
        errors: list[Exception | None] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statements, _ in batch:
                conn.execute("SAVEPOINT unit")
                try:
                    for sql, parameters in statements:
                        conn.execute(sql, parameters)
                except Exception as error:
                    conn.execute("ROLLBACK TO unit")
                    errors.append(error)
                else:
                    errors.append(None)
                conn.execute("RELEASE unit")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return errors

    def close(self) -> None:
        self._thread.shutdown()
        self._conn.close()


async def open_bench_database(path: Path, group_commit: bool) -> Database:
    db = await open_database(path)
    if not group_commit:
        return db
    return GroupCommitDatabase(db.connection)


async def make_tables(db: Database, count: int) -> list[int]:
    ids: list[int] = []
    async with db.transaction() as conn:
        for n in range(count):
            ids.append(
                await table_repo.create_table(
                    conn,
                    guild_id=1,
                    channel_id=100 + n,
                    host_id=1000 + n,
                    variant="habanero",
                    status="playing",
                    state=STATE,
                    now=time.time(),
                )
            )
    return ids


def one_action(table_id: int, seq: int) -> Unit:
    """What the table service writes for one action."""

    async def unit(conn: aiosqlite.Connection) -> None:
        await table_repo.append_action(conn, table_id, 1, seq, f"play {seq % 40}")
        await table_repo.save_table(
            conn, table_id, host_id=1, status="playing", state=STATE, now=time.time()
        )

    return unit


async def play(
    persist: Callable[[Unit], Awaitable[None]],
    table_id: int,
    actions: int,
    interval: float | None,
    rng: random.Random,
    times: list[float],
) -> None:
    for seq in range(actions):
        if interval is not None:
            await asyncio.sleep(interval * rng.uniform(0.5, 1.5))
        start = time.perf_counter()
        await persist(one_action(table_id, seq))
        times.append(time.perf_counter() - start)


async def run(
    tables: int, actions: int, interval: float | None, mode: str
) -> tuple[float, list[float], list[int]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        db = await open_bench_database(path, mode == "group commit")
        writer = OneHopWriter(path) if mode == "one-hop group commit" else None

        async def persist(unit: Unit) -> None:
            if writer is not None:
                await writer.write(unit)
                return
            async with db.transaction() as conn:
                await unit(conn)

        try:
            ids = await make_tables(db, tables)
            times: list[float] = []
            rng = random.Random(2026)
            start = time.perf_counter()
            await asyncio.gather(
                *(play(persist, table_id, actions, interval, rng, times) for table_id in ids)
            )
            elapsed = time.perf_counter() - start
            for table_id in ids:
                assert len(await table_repo.deal_actions(db, table_id, 1)) == actions
            if writer is not None:
                batches = writer.batches
            elif isinstance(db, GroupCommitDatabase):
                batches = db.batches
            else:
                batches = []
            return elapsed, times, batches
        finally:
            if writer is not None:
                writer.close()
            await db.close()


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 1000) - 1]


def report(label: str, elapsed: float, times: list[float], batches: list[int]) -> None:
    ms = [t * 1000 for t in times]
    line = (
        f"{label:<36}{len(times) / elapsed:>10,.0f}{statistics.median(ms):>9.2f}"
        f"{quantile(ms, 0.99):>9.2f}{max(ms):>9.2f}"
    )
    if batches:
        line += f"  ({statistics.mean(batches):.1f} per commit)"
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=50, help="actions per table")
    parser.add_argument("--interval", type=float, default=0.1, help="paced: seconds per action")
    parser.add_argument("--prototypes", action="store_true", help="also run the prototypes")
    args = parser.parse_args()
    print(f"{args.tables} tables x {args.actions} actions, SQLite {aiosqlite.sqlite_version}, WAL")
    print(f"{'load':<36}{'actions/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    modes = ["plain"]
    if args.prototypes:
        modes += ["group commit", "one-hop group commit"]
    for mode in modes:
        for load, interval in (("burst", None), (f"paced {args.interval:g} s", args.interval)):
            elapsed, times, batches = asyncio.run(run(args.tables, args.actions, interval, mode))
            report(f"{mode}, {load}", elapsed, times, batches)


if __name__ == "__main__":
    main()
