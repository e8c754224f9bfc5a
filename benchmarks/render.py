"""Time to draw the pictures the bot sends: a table (of four, three and two seats), a hand
and a deal's summary.

Run: ``python benchmarks/render.py [--runs N]``. Card images are drawn once before timing
(as in a running bot), so the figures are for composing and encoding a picture.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.render import render_hand, render_summary, render_table
from tests.render.samples import hand_ten, summary_pairs, table_four, table_three, table_two

TARGETS_MS = {"table": 15.0, "table3": 15.0, "table2": 15.0, "hand": 10.0, "summary": 15.0}
MAX_BYTES = 200_000


def _measure(draw: Callable[[], bytes], runs: int) -> tuple[list[float], int]:
    size = len(draw())  # warm the caches
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times), size


def _percentile(ordered: list[float], q: float) -> float:
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    table, hand, summary = table_four(), hand_ten(), summary_pairs()
    three, two = table_three(), table_two()
    cases: dict[str, Callable[[], bytes]] = {
        "table": lambda: render_table(table),
        "table3": lambda: render_table(three),
        "table2": lambda: render_table(two),
        "hand": lambda: render_hand(hand),
        "summary": lambda: render_summary(summary),
    }
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"load average before timing: {load} (other work on the machine shows in p99)")
    start = time.perf_counter()
    render_table(table)
    print(
        f"first picture (draws the cards and the palette): {(time.perf_counter() - start) * 1000:.0f} ms"
    )
    ok = True
    for name, draw in cases.items():
        times, size = _measure(draw, args.runs)
        p50, p99, worst = statistics.median(times), _percentile(times, 0.99), times[-1]
        within = p99 < TARGETS_MS[name] and size < MAX_BYTES
        ok = ok and within
        print(
            f"{name:7}  runs {args.runs}  p50 {p50:5.2f} ms  p99 {p99:5.2f} ms  max {worst:5.2f} ms"
            f"  png {size / 1000:6.1f} kB  target p99 < {TARGETS_MS[name]:.0f} ms"
            f" and < {MAX_BYTES // 1000} kB: {'ok' if within else 'MISSED'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
