"""What a review costs, and the judge as a yardstick of the robots' strength.

Run: ``python benchmarks/review.py [--deals N] [--seed S] [--workers W] [--part P]
[--robots easy,normal,hard] [--variants pairs,habanero] [--worlds 40]``.

``--part time`` (and ``all``): each variant's deals, played by normal robots, are reviewed
for seat 0 as the service reviews them (:meth:`bot.tables.review.Reviews.compute`: each
decision judged in turn on the robots' worker processes, ``--workers`` of them), first with
the pool idle, then with it busy: as many hard robots as workers searching without a pause
at the tables' budget (0.4 s) on the same pool. The seconds a deal's review takes, p50 and
p90.

``--part strength`` (and ``all``): the same seeded deals, seat 0 played by an easy, a normal
and a hard robot (the others normal robots; the hard one on the hints' counted budget, so
the play is the same on any machine), each of seat 0's decisions judged: the mean points
lost per decision against the judge's best choice, per variant and in all. A strength
yardstick that needs far fewer deals than matches do: every decision is a measurement.
``--robots`` names who plays seat 0 (default ``easy,normal,hard``): a level, or a style of
the hard search as ``benchmarks/robots.py`` names them (``hard-2026-11``, ``hard-policy``),
that one counted in ``--worlds`` sampled deals a decision on a clock that never moves, so
that two styles see as many deals; ``--variants`` which variants (default all).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.policy_data import counted_action
from benchmarks.robots import STYLES
from bot.ai import Level, choose_action
from bot.ai.judge import JUDGE_WORLDS
from bot.engine import Action, Deal, Options, Variant, record_of, seat_view, shuffle_deal
from bot.engine.view import SeatView
from bot.tables.hints import HINT_BUDGET, Ticks
from bot.tables.review import Reviews, review_record
from bot.tables.thinking import Thinking

TABLE_BUDGET = 0.4
"""The robots' budget at the tables, in seconds (the busy pool's searches)."""


LEVELS: Final = frozenset(level.value for level in Level)


def _seat0(view: SeatView, robot: str, rng: random.Random, worlds: int) -> Action | None:
    """Seat 0's action: a level's (the hard one on the hints' counted budget), or a style
    of the hard search's (``benchmarks/robots.py``'s names) on ``worlds`` sampled deals."""
    if robot not in LEVELS:
        return counted_action(view, rng, STYLES[robot], worlds)
    level = Level(robot)
    if level is Level.HARD:
        return choose_action(view, level, rng, HINT_BUDGET, clock=Ticks())
    return choose_action(view, level, rng, 0.0)


def played(variant: Variant, seed: int, robot: str, worlds: int = 40) -> str:
    """A seeded deal's record, seat 0 played by ``robot`` (a level or a style of
    ``STYLES``), the others normal."""
    options = Options()
    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, options, rng.randrange(options.seats_at(variant)), rng))
    robots = random.Random(seed)
    while not r.finished:
        for seat in sorted({a.seat for a in r.legal_actions()}, key=lambda s: s != r.turn):
            view = seat_view(r, seat)
            if seat == 0:
                action = _seat0(view, robot, robots, worlds)
            else:
                action = choose_action(view, Level.NORMAL, robots, 0.0)
            if action is not None:
                r.apply(action)
                break
    return json.dumps(record_of(r))


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _search(view_seed: tuple[Variant, int]) -> None:
    """One hard robot's search at the tables' budget, on a deal of its own."""
    variant, seed = view_seed
    rng = random.Random(seed)
    options = Options()
    r = Deal(shuffle_deal(variant, options, rng.randrange(options.seats_at(variant)), rng))
    choose_action(seat_view(r, r.turn), Level.HARD, rng, TABLE_BUDGET)


async def _busy(thinking: Thinking, stop: asyncio.Event, seed: int) -> None:
    n = 0
    while not stop.is_set():
        n += 1
        variant = list(Variant)[n % len(Variant)]
        await thinking.run(_search, (variant, seed * 1000 + n))


async def _times(records: dict[Variant, list[str]], workers: int, busy: bool) -> None:
    thinking = Thinking(workers)
    thinking.start()
    reviews = Reviews(None, thinking, time.time)  # type: ignore[arg-type]  (nothing kept)
    stop = asyncio.Event()
    load = [asyncio.create_task(_busy(thinking, stop, k)) for k in range(workers if busy else 0)]
    await asyncio.sleep(1.0 if busy else 0.5)  # the workers started, the load running
    try:
        for variant, deals in records.items():
            took: list[float] = []
            decisions = 0
            for record in deals:
                start = time.perf_counter()
                review = await reviews.compute(record, 0, 0, 0)
                took.append(time.perf_counter() - start)
                decisions += len(review.decisions)
            print(
                f"  {variant.value:10s} {'busy' if busy else 'idle'}: {len(deals)} deals,"
                f" {decisions / len(deals):.1f} decisions a deal;"
                f" p50 {_p(took, 0.5):.2f} s  p90 {_p(took, 0.9):.2f} s"
            )
    finally:
        stop.set()
        await asyncio.gather(*load)
        thinking.close()


def _lost(args: tuple[Variant, int, str, int]) -> tuple[float, int]:
    variant, seed, robot, worlds = args
    review = review_record(played(variant, seed, robot, worlds), 0)
    return sum(d.cost for d in review.decisions), len(review.decisions)


def _strength(
    deals: int, seed: int, workers: int, robots: list[str], variants: list[Variant], worlds: int
) -> None:
    jobs = [
        (v, seed + k, robot, worlds) for robot in robots for v in variants for k in range(deals)
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = dict(zip(jobs, pool.map(_lost, jobs), strict=True))
    print(f"Points lost per decision (judge: {JUDGE_WORLDS} sampled deals a decision):")
    width = max(8, *(len(robot) for robot in robots))
    print(f"  {'':10s} " + " ".join(f"{robot:>{width}s}" for robot in robots))
    for variant in [*variants, None]:
        cells = []
        for robot in robots:
            picked = [
                r
                for (v, _, name, _), r in results.items()
                if name == robot and (variant is None or v is variant)
            ]
            lost = sum(c for c, _ in picked)
            count = sum(n for _, n in picked)
            cells.append(f"{lost / max(1, count):{width}.2f}")
        print(f"  {variant.value if variant else 'all':10s} " + " ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--part", choices=["time", "strength", "all"], default="all")
    parser.add_argument("--robots", default="easy,normal,hard", help="who plays seat 0")
    parser.add_argument("--variants", default=",".join(v.value for v in Variant))
    parser.add_argument("--worlds", type=int, default=40, help="the styles' sampled deals")
    args = parser.parse_args()
    robots = args.robots.split(",")
    for robot in robots:
        if robot not in STYLES and robot not in LEVELS:
            raise SystemExit(f"{robot}: not a level nor one of {', '.join(STYLES)}")
    variants = [Variant(v) for v in args.variants.split(",")]
    if args.part in ("time", "all"):
        records = {
            v: [played(v, args.seed + k, "normal") for k in range(args.deals)] for v in variants
        }
        print(f"Review time per deal ({args.workers} workers, {JUDGE_WORLDS} sampled deals):")
        asyncio.run(_times(records, args.workers, busy=False))
        asyncio.run(_times(records, args.workers, busy=True))
    if args.part in ("strength", "all"):
        _strength(args.deals, args.seed, args.workers, robots, variants, args.worlds)


if __name__ == "__main__":
    main()
