"""How long ``TableService.suspend()`` (the bot's shutdown) takes with many tables in play.

A real ``TableService`` on a real SQLite file in a temporary folder (WAL, the bot's own
``Database`` and group commit), a presenter that shows nothing, and the wall clock. Each
table has one member (seat 0) and robots in the other seats; during the set-up the robots
play at once until the member is on turn, so every table has a turn clock running.

``--busy N``: then, as in production (the real hard robot thinking ``--think-budget``
seconds a move on ``asyncio.to_thread``, after ``--robot-delay``), the member of N tables
plays a card, and the bot stops while those tables' robots are answering. ``suspend()``
stops every clock at once, waits for the robot runs under way (a search that starts once
the bot is stopping thinks 0 s) and saves every table's clock in shared batches. Before
that, with ``--busy 1000``, it took about 100 s: it took the tables one by one, and each
waited for searches queued behind every other table's in the default thread pool.

After the shutdown, every table whose member is on turn must have its row's state saved
with ``turn_left`` (its clock's time left, as in memory), no clock may still run, and no
table may move after ``suspend()`` returned. Exit status 0 when all hold.

Run: ``python benchmarks/shutdown.py --tables 1000 [--busy 1000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level
from bot.engine import Action, Kind, Options, SeatView, Variant
from bot.storage import Database, open_database
from bot.storage import tables as table_repo
from bot.tables.clock import ROBOT_DELAY
from bot.tables.model import Status, Table
from bot.tables.runtime import Runtime, default_robot
from bot.tables.service import TableService
from tests.tables._play import NullPresenter, started_tables

GUILD = 1
TURN_TIME = 600


def instant_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    """Set-up only: on its turn the first card (or pass); out of turn, nothing."""
    if view.turn != view.seat:
        return None
    plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.PASS, Kind.BID)]
    return plays[0] if plays else None


class Sleep:
    """The service's ``sleep``: during the set-up a robot's wait passes at once; a longer
    wait (a turn clock) is a real one. ``real`` makes every wait real."""

    def __init__(self) -> None:
        self.real = False

    async def __call__(self, delay: float) -> None:
        if not self.real and delay <= 5.0:
            await asyncio.sleep(0)
            return
        await asyncio.sleep(delay)


class Robot:
    """The service's robot: an instant one during the set-up, the bot's own once ``real``."""

    def __init__(self) -> None:
        self.real = False

    def __call__(
        self, view: SeatView, level: Level, rng: random.Random, budget: float
    ) -> Action | None:
        choose = default_robot if self.real else instant_robot
        return choose(view, level, rng, budget)


# --------------------------------------------------------------------------- set-up


async def settle(service: TableService, within: float) -> None:
    """Until no table's lock is held and every playing table waits for its member."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        await asyncio.sleep(0.01)
        if any(service.lock(t).locked() for t in service.tables):
            continue
        waiting = True
        for table in service.tables.values():
            if table.status is Status.PLAYING and table.turn_seat is None:
                waiting = False
                break
        if waiting:
            return
    raise AssertionError("the robots never stopped")


async def build(
    db: Database, count: int, variant: Variant, sleep: Sleep, robot: Robot, think_budget: float
) -> TableService:
    service = TableService(
        db,
        (NullPresenter(),),
        Runtime(clock=time.time, sleep=sleep, robot=robot),
        robot_delay=0,
        think_budget=think_budget,
    )
    options = Options(turn_time=TURN_TIME)
    await started_tables(service, count, guild_id=GUILD, variant=variant, options=options)
    await settle(service, within=120)
    return service


async def member_plays(service: TableService, table: Table) -> None:
    deal = table.deal
    assert deal is not None and table.turn_seat is not None
    seat = table.turn_seat
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user_id is not None
    legal = [a for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY]
    if not legal:
        legal = [a for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PASS]
    await service.act(
        table.id, occupant.user_id, legal[0], deal_no=table.deal_no, trick_no=len(deal.tricks)
    )


class LockWaits:
    """Wrap ``TableService.lock`` to time how long each acquisition waits."""

    def __init__(self, service: TableService) -> None:
        self.waits: list[float] = []
        self.service = service
        original = service.lock
        outer = self

        class Timed:
            def __init__(self, lock: asyncio.Lock) -> None:
                self.lock = lock

            async def __aenter__(self) -> None:
                start = time.perf_counter()
                await self.lock.acquire()
                outer.waits.append(time.perf_counter() - start)

            async def __aexit__(self, *exc: Any) -> None:
                self.lock.release()

            def locked(self) -> bool:
                return self.lock.locked()

        service.lock = lambda table_id: Timed(original(table_id))  # type: ignore[method-assign,assignment,return-value]


async def run(args: argparse.Namespace) -> bool:
    variant = Variant(args.variant)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "shutdown.db")
        sleep, robot = Sleep(), Robot()
        try:
            t0 = time.perf_counter()
            service = await build(db, args.tables, variant, sleep, robot, args.think_budget)
            print(
                f"{args.tables} {variant.value} tables started, members on turn,"
                f" in {time.perf_counter() - t0:.1f} s"
            )
            if args.busy:
                # production from here on: real robots, real waits
                robot.real = True
                service.robot_delay = args.robot_delay
                sleep.real = True
                busy = [t for t in service.tables.values() if t.status is Status.PLAYING]
                for table in busy[: args.busy]:
                    await member_plays(service, table)
                await asyncio.sleep(args.robot_delay + args.think_budget / 2)
            t1 = time.perf_counter()
            states = [t.state_json() for t in service.tables.values()]
            json_s = time.perf_counter() - t1
            print(
                f"state_json() of every table: {json_s * 1000:.0f} ms in all"
                f" ({sum(map(len, states)) / len(states):,.0f} bytes each on average)"
            )
            label = "suspend()"
            waits = LockWaits(service)
            counts_before = (db.counts.batches, db.counts.units)
            held = sum(service.lock(t).locked() for t in service.tables)
            start = time.perf_counter()
            drained: list[float] = []

            async def watch() -> None:
                while any(service.lock(t).locked() for t in service.tables):  # noqa: ASYNC110
                    await asyncio.sleep(0.01)
                drained.append(time.perf_counter() - start)

            watcher = asyncio.create_task(watch())
            try:
                await asyncio.wait_for(service.suspend(), timeout=args.timeout)
            except TimeoutError:
                print(f"suspend(): no end after {args.timeout:g} s (--timeout)")
                return False
            elapsed = time.perf_counter() - start
            await asyncio.wait((watcher,), timeout=args.robot_delay + 5)
            moved_at_return = {
                t.id: t.deal and len(t.deal.actions) for t in service.tables.values()
            }
            batches = db.counts.batches - counts_before[0]
            units = db.counts.units - counts_before[1]
            waited = sorted(waits.waits)
            print(
                f"suspend(): {elapsed:.2f} s"
                f" ({label};"
                f" {held} locks held at the call; {units} saves in {batches} commits;"
                f" lock waits (all callers): sum {sum(waited):.2f} s, max {max(waited or [0]):.3f} s;"
                f" the robot runs under way were over after"
                f" {drained[0] if drained else float('nan'):.2f} s)"
            )
            watcher.cancel()
            # nothing moves after suspend() returned
            await asyncio.sleep(0.2 + (args.robot_delay if args.busy else 0))
            moved_after = {t.id: t.deal and len(t.deal.actions) for t in service.tables.values()}
            rows = {row.id: row for row in await table_repo.open_tables(db)}
            playing = [t for t in service.tables.values() if t.status is Status.PLAYING]
            clocks = [t for t in playing if t.turn_deadline is not None]
            ok = 0
            for table in clocks:
                row = rows.get(table.id)
                state = json.loads(row.state) if row is not None else {}
                left = state.get("turn_left")
                if left is not None and 0 < left <= TURN_TIME and left == table.turn_left:
                    ok += 1
            moved = sum(moved_after[t] != moved_at_return[t] for t in moved_after)
            still = sum(1 for t in service.clocks.timers.values() if not t.done())
            print(
                f"{ok}/{len(clocks)} tables with a member on turn saved with turn_left"
                f" ({len(playing)} playing); {still} clocks still running;"
                f" {moved} tables moved after suspend() returned"
            )
            return ok == len(clocks) and still == 0 and moved == 0
        finally:
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument(
        "--variant", default=Variant.PAIRS.value, choices=[v.value for v in Variant]
    )
    parser.add_argument("--busy", type=int, default=0, help="tables whose robots are moving")
    parser.add_argument("--robot-delay", type=float, default=ROBOT_DELAY)
    parser.add_argument("--think-budget", type=float, default=0.4)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for suspend()")
    args = parser.parse_args()
    ok = asyncio.run(run(args))
    print("OK" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
