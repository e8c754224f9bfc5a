"""How long a lesson's picture takes to draw: every step of every lesson (``/tute learn``
and its buttons), cold and warm, against Discord's 3 seconds to answer an interaction.

Run: ``python benchmarks/lessons.py [--runs N] [--fresh N]``.

- cold: every picture cache of the drawing modules emptied before the draw (the fonts, the
  card faces and backs, the deck page drawn again), as the first lesson after a start pays;
- warm: the same step drawn again, its caches full;
- fresh: the first step of the first lesson drawn by a new Python process (imports done
  first, not counted), ``--fresh`` times: the very first lesson a started bot draws.

Each prints p50 and p90 in milliseconds. The bot answers (defers) a lesson's command or
button before it draws, so none of these figures is spent within Discord's 3 seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.tables.tutorial import LESSONS, LessonView, lesson_view  # noqa: E402
from cogs.learn.layout import picture_file  # noqa: E402

DRAWING_MODULES = ("bot.render", "cogs.learn", "cogs.tables.guide_pages", "cogs.tables.pictures")
"""Where the pictures' caches live (functools caches of fonts, faces, pages)."""
FRESH = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
from bot.tables.tutorial import lesson_view
from cogs.learn.layout import picture_file
view = lesson_view(0, 0)
start = time.perf_counter()
picture_file(view, "en")
print((time.perf_counter() - start) * 1000)
"""


def empty_caches() -> None:
    """Empty every functools cache of the drawing modules: what a started bot has not drawn
    yet."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(DRAWING_MODULES):
            continue
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def timed(draw: Callable[[], object]) -> float:
    start = time.perf_counter()
    draw()
    return (time.perf_counter() - start) * 1000


def percentile(ordered: list[float], q: float) -> float:
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return f"p50 {percentile(ordered, 0.5):7.1f}  p90 {percentile(ordered, 0.9):7.1f}"


def steps() -> list[tuple[str, LessonView]]:
    """Every step of every lesson, and each lesson's end."""
    found = []
    for number, lesson in enumerate(LESSONS):
        for step in range(len(lesson.steps) + 1):
            found.append((f"{number}:{lesson.name}:{step}", lesson_view(number, step)))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="draws of each step, cold and warm")
    parser.add_argument("--fresh", type=int, default=3, help="new processes for the first step")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before timing: {load}; milliseconds")
    every_cold: list[float] = []
    every_warm: list[float] = []
    print(f"{'step':<22} {'cold':<22} {'warm':<22}")
    for name, view in steps():
        cold: list[float] = []
        warm: list[float] = []
        for _ in range(args.runs):
            empty_caches()
            cold.append(timed(lambda view=view: picture_file(view, args.lang)))
            warm.append(timed(lambda view=view: picture_file(view, args.lang)))
        every_cold += cold
        every_warm += warm
        print(f"{name:<22} {spread(cold):<22} {spread(warm):<22}")
    print(f"{'every step':<22} {spread(every_cold):<22} {spread(every_warm):<22}")
    if args.fresh:
        fresh = [
            float(
                subprocess.run(
                    [sys.executable, "-c", FRESH], check=True, capture_output=True, text=True
                ).stdout.split()[-1]
            )
            for _ in range(args.fresh)
        ]
        print(f"first step, new process ({args.fresh}): {spread(fresh)}, max {max(fresh):.1f}")
    print(f"worst warm draw: {max(every_warm):.1f}; mean cold {statistics.mean(every_cold):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
