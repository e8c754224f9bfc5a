"""The SQLite engine: its connection's lock, transactions and the group commit, on a real
file. (What both engines must do is tested on both, in the other storage tests.)"""

import asyncio
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.storage import Statement
from bot.storage import tables as repo
from bot.storage.batching import grouped
from bot.storage.db import SqliteDatabase as Database
from bot.storage.db import open_sqlite as open_database

WAIT = 5.0
"""Seconds a test waits for something that should happen at once, before it fails."""


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    """The SQLite engine itself (these tests are about it)."""
    database = await open_database(db_path)
    yield database
    await database.close()


@pytest.fixture
async def scratch(db: Database) -> Database:
    """The database with two tables of its own: ``item`` (a unique name) and ``counter``
    (one row), and ``child`` rows that must have a ``parent``, checked at COMMIT."""
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY)")
        await conn.execute("CREATE TABLE counter (value INTEGER NOT NULL)")
        await conn.execute("INSERT INTO counter VALUES (0)")
        await conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await conn.execute(
            "CREATE TABLE child (id INTEGER PRIMARY KEY,"
            " parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )
    return db


def item(name: str) -> Statement:
    return ("INSERT INTO item (name) VALUES (?)", (name,))


async def items(db: Database) -> list[str]:
    return [row[0] for row in await db.fetchall("SELECT name FROM item ORDER BY rowid")]


async def count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT count(*) FROM {table}")
    assert row is not None
    return int(row[0])


def file_size(path: Path) -> int:
    """The database file's own size (the log is a file beside it)."""
    return os.path.getsize(path)


async def settle() -> None:
    """Let every task that is ready run until it waits on something."""
    for _ in range(5):
        await asyncio.sleep(0)


@asynccontextmanager
async def gate_on_worker_thread(
    db: Database,
) -> AsyncIterator[tuple[threading.Event, threading.Event]]:
    """(entered, opened): the SQL function ``gate()``, called on the worker thread, sets
    ``entered`` and blocks the thread until ``opened`` is set (always set on the way out)."""
    entered, opened = threading.Event(), threading.Event()

    def gate() -> int:
        entered.set()
        opened.wait(WAIT)
        return 1

    await db.connection.create_function("gate", 0, gate)
    try:
        yield entered, opened
    finally:
        opened.set()


# ---------------------------------------------------------------------------- batches


async def test_units_queued_together_commit_in_one_batch(scratch: Database) -> None:
    db = scratch
    async with db.transaction():
        # the transaction holds the lock: every unit queues behind it
        writers = [asyncio.create_task(db.write([item(f"n{i}")])) for i in range(50)]
        await settle()
        assert not any(w.done() for w in writers)
        assert db.counts.batches == 0
    await asyncio.wait_for(asyncio.gather(*writers), WAIT)

    assert db.counts.batches == 1
    assert db.counts.units == db.counts.largest == 50
    assert await items(db) == [f"n{i}" for i in range(50)]


async def test_a_batch_holds_at_most_max_batch_units(scratch: Database) -> None:
    db = scratch
    db.max_batch = 8
    async with db.transaction():
        writers = [asyncio.create_task(db.write([item(f"n{i}")])) for i in range(20)]
        await settle()
    await asyncio.wait_for(asyncio.gather(*writers), WAIT)

    assert (db.counts.batches, db.counts.largest) == (3, 8)
    assert await count(db, "item") == 20


async def test_a_caller_returns_only_once_its_batch_is_committed(
    scratch: Database, db_path: Path
) -> None:
    db = scratch
    async with gate_on_worker_thread(db) as (entered, opened):
        writer = asyncio.create_task(db.write([item("a"), ("SELECT gate()", ())]))
        assert await asyncio.to_thread(entered.wait, WAIT)
        await asyncio.sleep(0.05)
        assert not writer.done()
        opened.set()
        await asyncio.wait_for(writer, WAIT)
    # a second connection sees it: it is in the file, not only in the open transaction
    other = sqlite3.connect(db_path)
    try:
        assert other.execute("SELECT name FROM item").fetchall() == [("a",)]
    finally:
        other.close()


async def test_a_failing_unit_leaves_nothing_and_the_others_commit(scratch: Database) -> None:
    db = scratch
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO item VALUES ('taken')")
        first = asyncio.create_task(db.write([item("a1"), item("a2")]))
        # its first statement is fine, its second breaks the unique name
        failing = asyncio.create_task(db.write([item("b1"), item("taken"), item("b3")]))
        last = asyncio.create_task(db.write([item("c1")]))
        await settle()
    await asyncio.wait_for(asyncio.gather(first, last), WAIT)

    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        await failing
    assert db.counts.batches == 1
    assert await items(db) == ["taken", "a1", "a2", "c1"]


async def test_a_failed_commit_reaches_every_caller_and_writes_nothing(
    scratch: Database,
) -> None:
    db = scratch
    async with db.transaction():
        writers = [
            asyncio.create_task(db.write([("INSERT INTO parent (id) VALUES (1)", ())])),
            # a child without its parent: the deferred check fails the COMMIT itself
            asyncio.create_task(db.write([("INSERT INTO child (parent_id) VALUES (99)", ())])),
            asyncio.create_task(db.write([item("x")])),
        ]
        await settle()
    outcomes = await asyncio.wait_for(asyncio.gather(*writers, return_exceptions=True), WAIT)

    assert db.counts.batches == 1
    assert all(isinstance(o, sqlite3.IntegrityError) for o in outcomes), outcomes
    assert [await count(db, t) for t in ("parent", "child", "item")] == [0, 0, 0]
    # the failed batch left no transaction open behind it
    assert not db.connection.in_transaction
    await db.write([item("after")])
    assert await items(db) == ["after"]


async def test_a_failed_commit_of_a_transaction_leaves_none_open(scratch: Database) -> None:
    db = scratch
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO child (parent_id) VALUES (99)")
    assert not db.connection.in_transaction
    await db.write([item("after")])
    assert await items(db) == ["after"]


async def test_a_unit_with_no_statements_returns_at_once(scratch: Database) -> None:
    db = scratch
    await asyncio.wait_for(db.write([]), WAIT)
    assert db.counts.batches == 0


async def test_close_waits_for_the_queued_writes(db_path: Path) -> None:
    db = await open_database(db_path)
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY)")
    writers = [asyncio.create_task(db.write([item(f"n{i}")])) for i in range(10)]
    await settle()
    await db.close()
    await asyncio.gather(*writers)

    db = await open_database(db_path)
    try:
        assert await count(db, "item") == 10
    finally:
        await db.close()


async def test_the_log_is_checkpointed_into_the_file_once_writes_pause(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, body TEXT)")
        db.checkpoint_after = 50
        before = file_size(db_path)
        body = "x" * 2000
        # 40 units: under the threshold, they stay in the log
        await asyncio.gather(
            *(db.write([("INSERT INTO item VALUES (?, ?)", (f"a{i}", body))]) for i in range(40))
        )
        await settle()
        assert db.counts.checkpoints == 0
        assert file_size(db_path) == before
        # 40 more: over it, and once nothing waits the pages reach the database file
        await asyncio.gather(
            *(db.write([("INSERT INTO item VALUES (?, ?)", (f"b{i}", body))]) for i in range(40))
        )
        for _ in range(100):
            if db.counts.checkpoints:
                break
            await asyncio.sleep(0.01)
        assert db.counts.checkpoints == 1
        assert file_size(db_path) > before + 80 * 2000
        assert await count(db, "item") == 80
    finally:
        await db.close()


async def test_writes_that_arrive_during_a_checkpoint_are_written_after_it(
    db_path: Path,
) -> None:
    db = await open_database(db_path)
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY)")
        db.checkpoint_after = 1
        first = asyncio.create_task(db.write([item("first")]))
        await asyncio.wait_for(first, WAIT)
        # the flusher now goes for a checkpoint; these queue behind it or go before it
        later = [asyncio.create_task(db.write([item(f"n{i}")])) for i in range(20)]
        await asyncio.wait_for(asyncio.gather(*later), WAIT)
        assert await count(db, "item") == 21
    finally:
        await db.close()


# ---------------------------------------------------------------------------- reads


async def test_a_read_never_sees_another_coroutines_uncommitted_writes(
    scratch: Database,
) -> None:
    db = scratch
    written, finish = asyncio.Event(), asyncio.Event()

    async def abandoned_transaction() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO item VALUES ('uncommitted')")
            written.set()
            await finish.wait()
            raise LookupError("changed its mind")

    holder = asyncio.create_task(abandoned_transaction())
    await asyncio.wait_for(written.wait(), WAIT)
    reads = [
        asyncio.create_task(db.fetchall("SELECT name FROM item")),
        asyncio.create_task(db.fetchone("SELECT count(*) FROM item")),
    ]
    await asyncio.sleep(0.05)
    assert not any(r.done() for r in reads)  # they wait for the transaction to end
    finish.set()
    with pytest.raises(LookupError):
        await holder
    listed, counted = await asyncio.wait_for(asyncio.gather(*reads), WAIT)
    assert list(listed) == []
    assert counted is not None and counted[0] == 0


async def test_inside_its_transaction_a_task_reads_its_own_writes(scratch: Database) -> None:
    db = scratch
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO item VALUES ('mine')")
        async with asyncio.timeout(WAIT):  # same task (wait_for would read from another)
            assert await items(db) == ["mine"]
        with pytest.raises(RuntimeError, match="wait for itself"):
            await db.write([item("nested")])
        with pytest.raises(RuntimeError, match="wait for itself"):
            async with db.transaction():
                pass
    assert await items(db) == ["mine"]


# ---------------------------------------------------------------------------- interleaving


async def test_transactions_and_batches_interleave_without_losing_an_update(
    scratch: Database,
) -> None:
    """Transactions read the counter, yield, and write it back plus one; batches add one
    directly. Were a batch to run inside a transaction's read-modify-write, its increment
    would be overwritten."""
    db = scratch

    async def read_modify_write(n: int) -> None:
        async with db.transaction() as conn:
            row = await conn.fetchone("SELECT value FROM counter")
            assert row is not None
            await asyncio.sleep(0.001 * (n % 3))
            await conn.execute("UPDATE counter SET value = ?", (row[0] + 1,))

    async def batched(n: int) -> None:
        await db.write([("UPDATE counter SET value = value + 1", ()), item(f"w{n}")])

    jobs = [read_modify_write(n) if n % 4 == 0 else batched(n) for n in range(200)]
    await asyncio.wait_for(asyncio.gather(*jobs), 4 * WAIT)

    row = await db.fetchone("SELECT value FROM counter")
    assert row is not None and row[0] == 200
    assert await count(db, "item") == 150
    assert db.counts.units == 150
    assert db.counts.batches < 150  # some units did share a commit


async def test_the_lock_is_first_come_first_served(scratch: Database) -> None:
    """A batch gathers the units queued until it starts; a transaction that asked for the
    lock after the batch did comes after it, and a unit queued meanwhile after both."""
    db = scratch
    order: list[str] = []

    async def transaction(name: str) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO item VALUES (?)", (name,))
            order.append(name)

    async with db.transaction() as conn:
        await conn.execute("INSERT INTO item VALUES ('t0')")
        w1 = asyncio.create_task(db.write([item("w1")]))
        await settle()
        t1 = asyncio.create_task(transaction("t1"))
        await settle()
        w2 = asyncio.create_task(db.write([item("w2")]))
        await settle()
    await asyncio.wait_for(asyncio.gather(w1, t1, w2), WAIT)
    assert await items(db) == ["t0", "w1", "w2", "t1"]

    async with db.transaction():
        t2 = asyncio.create_task(transaction("t2"))
        await settle()
        w3 = asyncio.create_task(db.write([item("w3")]))
        await settle()
    await asyncio.wait_for(asyncio.gather(t2, w3), WAIT)
    assert (await items(db))[-2:] == ["t2", "w3"]


# ---------------------------------------------------------------------------- cancelling


async def test_a_caller_cancelled_while_queued_still_gets_its_unit_written(
    scratch: Database,
) -> None:
    """Decided: cancelling stops the waiting, not the write (the unit is fully in)."""
    db = scratch
    async with db.transaction():
        cancelled = asyncio.create_task(db.write([item("c1"), item("c2")]))
        later = asyncio.create_task(db.write([item("later")]))
        await settle()
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
    await asyncio.wait_for(later, WAIT)
    # queued before it, so committed no later than the unit after it
    assert await items(db) == ["c1", "c2", "later"]


async def test_a_caller_cancelled_while_its_batch_runs_gets_it_committed_whole(
    scratch: Database,
) -> None:
    db = scratch
    async with gate_on_worker_thread(db) as (entered, opened):
        cancelled = asyncio.create_task(db.write([item("a"), ("SELECT gate()", ()), item("b")]))
        other = asyncio.create_task(db.write([item("c")]))
        assert await asyncio.to_thread(entered.wait, WAIT)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        opened.set()
        await asyncio.wait_for(other, WAIT)
    assert sorted(await items(db)) == ["a", "b", "c"]


async def test_a_cancelled_callers_failure_is_logged(
    scratch: Database, caplog: pytest.LogCaptureFixture
) -> None:
    db = scratch
    await db.write([item("taken")])
    async with db.transaction():
        cancelled = asyncio.create_task(db.write([item("x"), item("taken")]))
        await settle()
        cancelled.cancel()
    with caplog.at_level(logging.ERROR, logger="bot.storage.db"):
        await asyncio.wait_for(db.write([item("after")]), WAIT)
        await settle()
    assert any(
        r.exc_info and isinstance(r.exc_info[1], sqlite3.IntegrityError) for r in caplog.records
    ), caplog.records
    assert await items(db) == ["taken", "after"]


async def test_a_transaction_cancelled_in_its_body_rolls_back(scratch: Database) -> None:
    db = scratch
    inside = asyncio.Event()

    async def slow() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO item VALUES ('half')")
            inside.set()
            await asyncio.sleep(WAIT)

    task = asyncio.create_task(slow())
    await asyncio.wait_for(inside.wait(), WAIT)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await db.write([item("next")])
    assert await items(db) == ["next"]


# ---------------------------------------------------------------------------- the table save


async def test_save_progress_writes_the_actions_and_the_state_as_one(db: Database) -> None:
    async with db.transaction() as conn:
        table_id = await repo.create_table(
            conn,
            guild_id=1,
            channel_id=2,
            host_id=3,
            variant="habanero",
            status="playing",
            state="{}",
            now=0.0,
        )

    async def save(seqs: list[int], state: str) -> None:
        await repo.save_progress(
            db,
            table_id,
            deal_no=1,
            actions=[(seq, f"action {seq}") for seq in seqs],
            host_id=3,
            status="playing",
            state=state,
            now=1.0,
        )

    await save([0, 1], '{"after": 1}')
    with pytest.raises(sqlite3.IntegrityError):
        await save([2, 1], '{"after": 2}')  # action 1 is logged already

    assert await repo.deal_actions(db, table_id, 1) == ["action 0", "action 1"]
    row = await repo.load_table(db, table_id)
    assert row is not None and row.state == '{"after": 1}'


# ---------------------------------------------------------------------------- grouping


A, B = ("UPDATE counter SET value = value + 1", ()), ("UPDATE counter SET value = value * 2", ())


def test_a_batch_runs_each_sql_together_unless_a_unit_would_change_order() -> None:
    assert grouped([(A, B), (A, A, B), (B,)]) == [(A[0], [(), (), ()]), (B[0], [(), (), ()])]
    assert grouped([(A, B), (B, A)]) is None  # the second unit's own order would change
    assert grouped([(A, B, A)]) is None


async def test_units_whose_order_would_change_run_one_after_the_other(scratch: Database) -> None:
    db = scratch
    async with db.transaction():
        # queued behind the transaction: they go as one batch
        first = asyncio.create_task(db.write([A, B]))  # (0 + 1) * 2
        second = asyncio.create_task(db.write([B, A]))  # 2 * 2 + 1
        await settle()
    await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    assert db.counts.largest == 2
    row = await db.fetchone("SELECT value FROM counter")
    assert row is not None and row[0] == 5
