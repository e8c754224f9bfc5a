"""How deep the exact solver of the card play is affordable, next to the heuristic playout.

For each variant and each number of tricks left (1 up to the whole deal, habanero from the
empty stock), seeded deals are played by the playout policy (``playout_card``, cantes by
``playout_declaration``) until that many tricks are left, at a trick's lead. On each such
endgame: a full solve (``ExactSolver.card_values`` at the root, a new solver: the value of
every legal card), its trick boundaries searched, and a whole exact finish
(``exact_finish``, every seat playing its best card through the engine, a new solver),
against the heuristic playout of the same position (``search.playout`` on a copy), the
leaf the hard robot uses today. With more than two sides a finish solves once for each
seat's own side, so it costs several solves. Printed per row: the endgames solved, the median and 90th
percentile time of a full solve, its median nodes, exact finishes per second (over those
done in time; "(n out)": how many were not) and heuristic playouts per second (each the
count over the time they took together), and how many playouts one exact finish costs. Habanero rows also give the median time of the two-hand
``PointsSolver`` on the same endgames. A variant stops at the first depth where a solve
or a finish runs past ``--limit`` seconds (its p90 shown as ``>limit``): deeper ones cost
more.

Run: ``python benchmarks/solver.py [--endgames 20] [--variant pairs ...] [--max-tricks 10]
[--limit 5] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.declarations import declare_in_playout
from bot.ai.exact import ExactSolver, exact_finish
from bot.ai.heuristic import playout_card
from bot.ai.search import playout
from bot.ai.solver import Deadline, OutOfTime, PointsSolver
from bot.engine import Action, Deal, Options, Variant, shuffle_deal

TRICKS: dict[Variant, int] = {
    Variant.HABANERO: 8,
    Variant.ARRASTRADO: 13,
    Variant.INDIVIDUAL: 10,
    Variant.PAIRS: 10,
}
"""The tricks of a deal played without a stock (habanero: those after the stock is empty)."""


def endgame(variant: Variant, seed: int, tricks: int) -> Deal:
    """A deal played by the playout policy until ``tricks`` tricks are left (nothing left to
    draw), at the lead of the next trick; a deal that ends first (a tute) is dealt again."""
    rng = random.Random(seed)
    while True:
        r = _played(variant, rng, tricks)
        if not r.finished:
            return r


def _played(variant: Variant, rng: random.Random, tricks: int) -> Deal:
    r = Deal(shuffle_deal(variant, Options(), rng.randrange(variant.players), rng))
    while not r.finished and (r.to_draw or r.trick or r.hands[r.turn].bit_count() > tricks):
        if r.sing_side >= 0 and declare_in_playout(r):
            continue
        m = r.play_mask()
        c = playout_card(r, m) if m & m - 1 else m.bit_length() - 1
        r.apply(Action.play(r.turn, c))
    return r


@dataclass
class Row:
    solves: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    finishes: list[float] = field(default_factory=list)
    playouts: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    out_of_time: int = 0
    finish_out: int = 0


def measure(r: Deal, row: Row, limit: float) -> None:
    start = time.perf_counter()
    solver = ExactSolver(Deadline(start + limit))
    try:
        solver.card_values(r)
    except OutOfTime:
        row.out_of_time += 1
        return
    row.solves.append(time.perf_counter() - start)
    row.nodes.append(solver.nodes)
    start = time.perf_counter()
    try:
        exact_finish(r.copy(), Deadline(start + limit))
        row.finishes.append(time.perf_counter() - start)
    except OutOfTime:  # a seat of each side solves for its own: several solves
        row.finish_out += 1
    start = time.perf_counter()
    for _ in range(10):
        playout(r.copy())
    row.playouts.append((time.perf_counter() - start) / 10)
    if r.variant is Variant.HABANERO:
        start = time.perf_counter()
        PointsSolver(r.trump, Deadline(start + limit)).lead_values(
            r.hands[r.turn], r.hands[1 - r.turn]
        )
        row.points.append(time.perf_counter() - start)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}" if seconds < 10 else f"{seconds * 1000:.0f}"


def _rate(times: list[float]) -> str:
    return f"{len(times) / sum(times):.0f}" if times and sum(times) else "-"


def print_row(variant: Variant, tricks: int, row: Row, total: int, limit: float) -> None:
    if row.solves:
        solves = sorted(row.solves)
        p90 = solves[min(len(solves) - 1, int(0.9 * len(solves)))]
        median = _ms(statistics.median(solves))
        p90_ms = _ms(p90) if not row.out_of_time else f">{limit:g}s"
        nodes = f"{statistics.median(row.nodes):.0f}"
    else:
        median = p90_ms = f">{limit:g}s"
        nodes = "-"
    ratio = "-"
    if row.finishes and row.playouts:
        ratio = (
            f"{sum(row.finishes) / sum(row.playouts) * len(row.playouts) / len(row.finishes):.1f}"
        )
    points = f"{_ms(statistics.median(row.points))}" if row.points else ""
    finishes = _rate(row.finishes) + (f" ({row.finish_out} out)" if row.finish_out else "")
    print(
        f"{variant.value:>10} {tricks:>6} {len(row.solves):>3}/{total:<3} {median:>9} "
        f"{p90_ms:>9} {nodes:>9} {finishes:>10} {_rate(row.playouts):>10} "
        f"{ratio:>8} {points:>9}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--endgames", type=int, default=20)
    parser.add_argument("--variant", choices=[v.value for v in Variant], nargs="*", default=None)
    parser.add_argument("--max-tricks", type=int, default=13)
    parser.add_argument("--limit", type=float, default=5.0, help="seconds a solve may take")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    variants = [Variant(v) for v in args.variant] if args.variant else list(Variant)
    print(
        f"exact solver: {args.endgames} endgames a row at a trick's lead, a solve stopped past "
        f"{args.limit:g} s; times in ms; finishes and playouts a second; 'x' = heuristic "
        "playouts one exact finish costs; 'points' = habanero's PointsSolver, median ms"
    )
    print(
        f"{'variant':>10} {'tricks':>6} {'solved':>7} {'median':>9} {'p90':>9} {'nodes':>9} "
        f"{'finishes/s':>10} {'playouts/s':>10} {'x':>8} {'points':>9}"
    )
    for variant in variants:
        for tricks in range(1, min(TRICKS[variant], args.max_tricks) + 1):
            row = Row()
            for n in range(args.endgames):
                seed = args.seed * 1_000_003 + n * 7919 + tricks
                measure(endgame(variant, seed, tricks), row, args.limit)
            print_row(variant, tricks, row, args.endgames, args.limit)
            if row.out_of_time or row.finish_out:
                break


if __name__ == "__main__":
    main()
