"""Time to draw the pictures the bot sends: a table (of four, three and two seats), the
table from a player's seat (in their hand) and a deal's summary (``summary*``: one laid out
anew, its felt and panels not taken from the layouts kept).

Run: ``python benchmarks/render.py [--runs N]``. Card images are drawn once before timing
(as in a running bot), so the figures are for composing and encoding a picture.

``--plays R [--seconds S]``: the event loop of a bot where R plays a second each draw a
table and a player's view of it (100 busy tables make about 80), drawn on the loop as before, then on the
presenter's one drawing thread: how late a 10 ms timer fires (p50/p99/max), and how many
pictures were drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dataclasses

from bot.render import render_summary, render_table
from bot.render.summary import SummaryScene, _backdrop  # pyright: ignore[reportPrivateUsage]
from tests.render.samples import summary_pairs, table_four, table_three, table_two

TARGETS_MS = {
    "table": 15.0,
    "table3": 15.0,
    "table2": 15.0,
    "hand": 15.0,
    "summary": 15.0,
    "summary*": 15.0,
}
MAX_BYTES = 200_000


def _measure(draw: Callable[[], bytes], runs: int) -> tuple[list[float], int]:
    size = len(draw())  # warm the caches
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times), size


def _new_layout(summary: SummaryScene) -> bytes:
    """A summary laid out unlike any drawn before it (its felt and panels drawn anew, not
    taken from the layouts kept): a deal's summary of a height, trump or winner not seen
    lately."""
    _backdrop.cache_clear()
    return render_summary(summary)


def _percentile(ordered: list[float], q: float) -> float:
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def _loop_lag(rate: float, seconds: float, drawer: ThreadPoolExecutor | None) -> str:
    """Draw ``rate`` table-and-hand pairs a second for ``seconds``, on the loop or on
    ``drawer``, while a 10 ms timer measures the loop's lag."""
    table = table_four()
    hand = dataclasses.replace(table, viewer_seat=3)
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    drawn = 0
    stop = loop.time() + seconds

    def draw() -> None:
        render_table(table)
        render_table(hand)

    async def play() -> None:
        nonlocal drawn
        if drawer is None:
            draw()
        else:
            await loop.run_in_executor(drawer, draw)
        drawn += 2

    async def plays() -> None:
        pending: set[asyncio.Task[None]] = set()
        while loop.time() < stop:
            task = asyncio.create_task(play())
            pending.add(task)
            task.add_done_callback(pending.discard)
            await asyncio.sleep(1 / rate)
        await asyncio.gather(*pending)

    async def timer() -> None:
        while loop.time() < stop:
            start = loop.time()
            await asyncio.sleep(0.01)
            lags.append((loop.time() - start - 0.01) * 1000)

    await asyncio.gather(plays(), timer())
    lags.sort()
    return (
        f"lag p50 {_percentile(lags, 0.5):5.1f} ms  p99 {_percentile(lags, 0.99):5.1f} ms  "
        f"max {lags[-1]:5.1f} ms  ({drawn} pictures)"
    )


def loop_main(rate: float, seconds: float) -> None:
    render_table(table_four())  # the cards and the palette, drawn once
    print(f"{rate:g} plays a second, each a table and a player's view, {seconds:g} s:")
    print(f"  on the event loop:     {asyncio.run(_loop_lag(rate, seconds, None))}")
    with ThreadPoolExecutor(max_workers=1) as drawer:
        print(f"  on one drawing thread: {asyncio.run(_loop_lag(rate, seconds, drawer))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--plays", type=float, default=0.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if args.plays:
        loop_main(args.plays, args.seconds)
        return 0
    table, summary = table_four(), summary_pairs()
    hand = dataclasses.replace(table, viewer_seat=3)
    three, two = table_three(), table_two()
    cases: dict[str, Callable[[], bytes]] = {
        "table": lambda: render_table(table),
        "table3": lambda: render_table(three),
        "table2": lambda: render_table(two),
        "hand": lambda: render_table(hand),
        "summary": lambda: render_summary(summary),
        "summary*": lambda: _new_layout(summary),
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
