"""Many tables of robots on one bot: do the robots keep their pace and the event loop its
calm, and how much does each table cost?

A real ``TableService`` on a real SQLite file in a temporary folder, a presenter that shows
nothing, the wall clock and real waits. Each table seats one member (seat 0, who plays the
first legal card at once whenever it is their turn, as a quick player would) and robots of
``--level`` in the other seats; the robots wait ``--robot-delay`` and think
``--think-budget`` a move (during the delay: they start when their turn does), on worker
processes (``--processes``: one per core when left out; 0: threads of the bot's process,
as before them). Games are of five rounds, so that every table still plays when the time
is up.

Printed, after ``--seconds`` of play:
- robot plays per second and per table, against the pace of one table alone on the machine
  (measured first, for three times as long: a table's pace varies with its game), and
  the share of that pace kept;
- how long a table waited for a robot's choice once its delay was over (p50/p99/max: 0
  when the choice was made during the delay), and the budget each choice got (less than
  ``--think-budget`` when more searches waited than there are workers: a fair share);
- the deals a search sampled, on average over the searches that sampled any, against one
  table alone;
- the event loop's lag (how late a 10 ms timer fires: p50/p99/max);
- memory: the bot process's resident memory per table (after the tables started, less
  before), and the worker processes';
- the shutdown: how long ``suspend()`` took.

Run: ``python benchmarks/tables_load.py --tables 100 [--level hard] [--variant pairs]
[--seconds 30] [--processes N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level
from bot.engine import Kind, Options, Variant
from bot.storage import open_database
from bot.tables import robots as robots_module
from bot.tables.model import Status, Table
from bot.tables.runtime import Runtime
from bot.tables.service import TableService
from tests.tables._play import NullPresenter, started_tables

GUILD = 1


def _rss_mb() -> float:
    """This process's resident memory now, in MB (Linux /proc), or its peak elsewhere."""
    try:
        with open("/proc/self/statm") as stat:
            return int(stat.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _children_rss_mb() -> float:
    """The worker processes' resident memory, in MB (Linux /proc), or 0."""
    total = 0.0
    try:
        children = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()
        for pid in children:
            pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
            total += pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return 0.0
    return total


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Watch:
    """What the robots did: each choice's duration and budget."""

    def __init__(self, service: TableService) -> None:
        self.durations: list[float] = []
        self.budgets: list[float] = []
        self.plays = 0
        robots = service.robots
        choose = robots._choose  # pyright: ignore[reportPrivateUsage]
        budget = service.thinking.budget

        def budget_seen(base: float) -> float:
            given = budget(base)
            self.budgets.append(given)
            return given

        service.thinking.budget = budget_seen  # type: ignore[method-assign]

        async def timed(table: Table, deal: object, seat: int, level: Level) -> object:
            start = time.perf_counter()
            action = await choose(table, deal, seat, level)  # type: ignore[arg-type]
            self.durations.append(time.perf_counter() - start)
            if action is not None:
                self.plays += 1
            return action

        robots._choose = timed  # type: ignore[method-assign]


async def member_plays(service: TableService, tables: list[Table], stop: asyncio.Event) -> None:
    """Seat 0 of every table plays its first legal card as soon as it is its turn."""
    while not stop.is_set():
        for table in tables:
            deal = table.deal
            if table.status is not Status.PLAYING or deal is None or table.turn_seat != 0:
                continue
            legal = [
                a
                for a in deal.legal_actions()
                if a.seat == 0 and a.kind in (Kind.PLAY, Kind.PASS, Kind.BID)
            ]
            if not legal:
                continue
            try:
                await service.act(
                    table.id,
                    table.host_id,
                    legal[0],
                    deal_no=table.deal_no,
                    trick_no=len(deal.tricks),
                )
            except Exception:  # a click that lost its race with a robot: the next round
                continue
        await asyncio.sleep(0.05)


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late a 10 ms timer fires, again and again."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(0.01)
        samples.append(max(0.0, loop.time() - start - 0.01))


Result = dict[str, float | list[float]]


async def measure(args: argparse.Namespace, count: int, seconds: float) -> Result:
    """Play ``count`` tables for ``seconds``; what was seen."""
    variant = Variant(args.variant)
    with tempfile.TemporaryDirectory(prefix="tute-load-") as folder:
        db = await open_database(Path(folder) / "tute.db")
        try:
            service = TableService(
                db,
                (NullPresenter(),),
                Runtime(clock=time.time, robot=robots_module.default_robot),
                robot_delay=args.robot_delay,
                think_budget=args.think_budget,
                robot_processes=args.processes,
            )
            service.thinking.start()
            watch = Watch(service)
            before = _rss_mb()
            tables = await started_tables(
                service,
                count,
                guild_id=GUILD,
                variant=variant,
                options=Options(turn_time=600, rounds=5),
                robot_level=Level(args.level),
            )
            memory = _rss_mb() - before
            stop = asyncio.Event()
            lags: list[float] = []
            tasks = [
                asyncio.create_task(member_plays(service, tables, stop)),
                asyncio.create_task(loop_lag(lags, stop)),
            ]
            watch.durations.clear()
            watch.budgets.clear()
            watch.plays = 0
            thinking = service.thinking
            searches, worlds = thinking.searches, thinking.worlds
            await asyncio.sleep(seconds)
            plays, durations, budgets = watch.plays, list(watch.durations), list(watch.budgets)
            searches, worlds = thinking.searches - searches, thinking.worlds - worlds
            workers_mb = _children_rss_mb()
            stop.set()
            await asyncio.gather(*tasks)
            start = time.perf_counter()
            await service.suspend()
            shutdown = time.perf_counter() - start
        finally:
            await db.close()
    return {
        "plays": plays / seconds / count,
        "durations": durations,
        "budgets": budgets,
        "worlds": worlds / max(1, searches),
        "lags": lags,
        "memory": memory / max(1, count),
        "workers": workers_mb,
        "processes": float(service.thinking.processes),
        "shutdown": shutdown,
    }


def _floats(result: Result, key: str) -> list[float]:
    value = result[key]
    assert isinstance(value, list)
    return value


def _float(result: Result, key: str) -> float:
    value = result[key]
    assert isinstance(value, float)
    return value


def report(args: argparse.Namespace, alone: Result, busy: Result) -> None:
    variant = Variant(args.variant)
    how = f"{int(_float(busy, 'processes'))} processes" if args.processes != 0 else "threads"
    print(
        f"{args.tables} {variant.value} tables, {args.tables * (variant.players - 1)} "
        f"{args.level} robots ({args.think_budget} s budget, {args.robot_delay} s delay, {how}),"
        f" {args.seconds:g} s ({3 * args.seconds:g} s alone):"
    )
    pace, rate = _float(alone, "plays"), _float(busy, "plays")
    print(
        f"  robot plays a table: {rate:.2f}/s, against {pace:.2f}/s for one table alone: "
        f"{rate / pace if pace else 0:.0%} of its pace kept"
    )
    durations, budgets, lags = (
        _floats(busy, "durations"),
        _floats(busy, "budgets"),
        _floats(busy, "lags"),
    )
    print(
        f"  waited for a robot's choice: p50 {_pct(durations, 0.5) * 1000:.0f} ms, "
        f"p99 {_pct(durations, 0.99) * 1000:.0f} ms, max {max(durations, default=0) * 1000:.0f} ms"
        f"; budget given: mean {statistics.fmean(budgets) if budgets else 0:.3f} s, "
        f"min {min(budgets, default=0):.3f} s ({len(budgets)} choices)"
    )
    print(
        f"  sampled deals a search: {_float(busy, 'worlds'):.0f}, against "
        f"{_float(alone, 'worlds'):.0f} for one table alone"
    )
    print(
        f"  event-loop lag: p50 {_pct(lags, 0.5) * 1000:.1f} ms, "
        f"p99 {_pct(lags, 0.99) * 1000:.1f} ms, max {max(lags, default=0) * 1000:.1f} ms"
    )
    print(
        f"  memory: {_float(busy, 'memory') * 1024:.0f} KB a table in the bot's process; "
        f"worker processes {_float(busy, 'workers'):.0f} MB in all"
    )
    print(f"  shutdown (suspend): {_float(busy, 'shutdown'):.2f} s")


async def run(args: argparse.Namespace) -> None:
    alone = await measure(args, 1, 3 * args.seconds)  # longer: its pace varies with the game
    busy = await measure(args, args.tables, args.seconds)
    report(args, alone, busy)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--variant", default="pairs", choices=[v.value for v in Variant])
    parser.add_argument("--level", default="hard", choices=[level.value for level in Level])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--robot-delay", type=float, default=1.2)
    parser.add_argument("--think-budget", type=float, default=0.4)
    parser.add_argument(
        "--processes", type=int, default=None, help="worker processes (0: threads; default: cores)"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
