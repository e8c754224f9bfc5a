"""Persisted actions per second, and the time one persisted action takes, with many tables
writing at once.

Each table is an asyncio task that, for every action, writes what the table service writes
for a play: the action (write-ahead) and the table's new state, atomically, on a real SQLite
file in a temporary folder, in WAL mode, through the bot's own ``Database``. The state is the
JSON of a real table in the middle of a deal (four seats, its log, its clock), and the actions
are that deal's own. The time of an action runs from asking for the write to its commit, so
it includes the wait for the lock.

Two paths of ``bot/storage/db.py``:
- ``transaction``: ``append_action`` + ``save_table`` in one ``db.transaction()`` (BEGIN
  IMMEDIATE .. COMMIT, one trip to the database thread per statement): what every save used.
- ``write``: ``tables.save_progress``, the group commit the table service uses for a play
  (the units queued while a batch runs share the next one: one transaction, one COMMIT,
  each statement one trip to the database thread through aiosqlite's public API).

Loads:
- ``burst``: every table writes its next action as soon as the previous one is committed
  (all tables always queued: the worst case, and the throughput ceiling).
- ``paced``: every table writes one action every ``--interval`` seconds, with jitter (what
  play looks like, many times faster than people and robots play).

Run: ``python benchmarks/storage.py [--tables 100] [--actions 50] [--interval 0.1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level
from bot.engine import Deal, Game, Options, Variant
from bot.engine.cards import POINTS
from bot.storage import Database, open_database
from bot.storage import tables as table_repo
from bot.tables.events import Happened, LogEvent, Who
from bot.tables.model import Seat, Status, Table

DEAL_NO = 1


def mid_game_table(rng: random.Random) -> tuple[Table, list[str]]:
    """A table of four (two members, two robots) halfway through its first deal, as the
    service keeps it; and that deal's actions as the service logs them."""
    variant = Variant.PAIRS
    options = Options()
    now = time.time()
    table = Table(
        id=1,
        guild_id=1_100_000_000_000_000_001,
        channel_id=1_100_000_000_000_000_002,
        host_id=1_100_000_000_000_000_003,
        variant=variant,
        options=options,
        language="es",
        created_at=now - 600,
        seats=[
            Seat(
                name="Alicia",
                user_id=1_100_000_000_000_000_003,
                locale="es-ES",
            ),
            Seat(name="robot:1", robot=Level.HARD),
            Seat(
                name="Bernardo",
                user_id=1_100_000_000_000_000_004,
                locale="es-ES",
            ),
            Seat(name="robot:2", robot=Level.HARD),
        ],
        status=Status.PLAYING,
        seed=rng.getrandbits(62),
        deal_no=DEAL_NO,
        stakes={0: 100, 2: 100},
    )
    table.game = Game(variant, options, dealer=variant.players - 1)
    table.add_log(LogEvent(Happened.OPENED, Who("Alicia", 1)))
    table.add_log(LogEvent(Happened.STARTED))
    deal = Deal(table.game.deal_for(table.deal_rng()))
    while len(deal.tricks) < 5:
        deal.apply(rng.choice(deal.legal_actions()))
        if not deal.trick and deal.tricks:
            trick = deal.tricks[-1]
            table.add_log(
                LogEvent(
                    Happened.TRICK,
                    table.who_at(trick.winner),
                    cards=tuple(trick.cards),
                    points=sum(POINTS[card] for card in trick.cards),
                )
            )
    table.deal = deal
    table.turn_seat = deal.turn
    table.turn_deadline = now + options.turn_time
    return table, [json.dumps(action.to_json()) for action in deal.actions]


Persist = Callable[[Database, int, int], Awaitable[None]]


def persisting(path: str, state: str, actions: list[str]) -> Persist:
    """Write action ``seq`` of a table and the table's state, the ``path`` way."""

    async def by_transaction(db: Database, table_id: int, seq: int) -> None:
        async with db.transaction() as conn:
            await table_repo.append_action(
                conn, table_id, DEAL_NO, seq, actions[seq % len(actions)]
            )
            await table_repo.save_table(
                conn, table_id, host_id=1, status="playing", state=state, now=time.time()
            )

    async def by_write(db: Database, table_id: int, seq: int) -> None:
        await table_repo.save_progress(
            db,
            table_id,
            deal_no=DEAL_NO,
            actions=[(seq, actions[seq % len(actions)])],
            host_id=1,
            status="playing",
            state=state,
            now=time.time(),
        )

    return {"transaction": by_transaction, "write": by_write}[path]


async def make_tables(db: Database, count: int, state: str) -> list[int]:
    ids: list[int] = []
    async with db.transaction() as conn:
        for n in range(count):
            ids.append(
                await table_repo.create_table(
                    conn,
                    guild_id=1,
                    channel_id=100 + n,
                    host_id=1000 + n,
                    variant=Variant.PAIRS.value,
                    status="playing",
                    state=state,
                    now=time.time(),
                )
            )
    return ids


async def play(
    db: Database,
    persist: Persist,
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
        await persist(db, table_id, seq)
        times.append(time.perf_counter() - start)


async def run(
    persist: Persist, state: str, tables: int, actions: int, interval: float | None
) -> tuple[float, list[float], Database]:
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        try:
            ids = await make_tables(db, tables, state)
            times: list[float] = []
            rng = random.Random(2026)
            start = time.perf_counter()
            await asyncio.gather(
                *(play(db, persist, table_id, actions, interval, rng, times) for table_id in ids)
            )
            elapsed = time.perf_counter() - start
            for table_id in ids:
                assert len(await table_repo.deal_actions(db, table_id, DEAL_NO)) == actions
            return elapsed, times, db
        finally:
            await db.close()


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 1000) - 1]


def report(label: str, elapsed: float, times: list[float], db: Database) -> None:
    ms = [t * 1000 for t in times]
    line = (
        f"{label:<24}{len(times) / elapsed:>10,.0f}{statistics.median(ms):>9.2f}"
        f"{quantile(ms, 0.99):>9.2f}{max(ms):>9.2f}"
    )
    counts = db.counts
    if counts.batches:
        line += (
            f"  ({counts.units / counts.batches:.1f} per commit, at most {counts.largest};"
            f" {counts.checkpoints} checkpoints)"
        )
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=50, help="actions per table")
    parser.add_argument("--interval", type=float, default=0.1, help="paced: seconds per action")
    args = parser.parse_args()
    table, actions = mid_game_table(random.Random(2026))
    state = table.state_json()
    print(
        f"{args.tables} tables x {args.actions} actions, SQLite {aiosqlite.sqlite_version}, WAL;"
        f" state {len(state):,} bytes"
    )
    print(f"{'path, load':<24}{'actions/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for path in ("transaction", "write"):
        persist = persisting(path, state, actions)
        for load, interval in (("burst", None), (f"paced {args.interval:g} s", args.interval)):
            elapsed, times, db = asyncio.run(
                run(persist, state, args.tables, args.actions, interval)
            )
            report(f"{path}, {load}", elapsed, times, db)


if __name__ == "__main__":
    main()
