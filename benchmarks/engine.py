"""Random whole deals per second, per variant, through ``legal_actions()`` and ``apply()``.

A deal: shuffle and deal from a seeded generator, then play every card, each chosen
uniformly among the legal plays. Run: ``python benchmarks/engine.py [seconds per variant]``.
``--against REF`` measures the engine of a git revision too, in the same run: each side
in a process of its own, in turns, the best of ``--rounds`` tries kept.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("TUTE_ENGINE_ROOT", str(ROOT)))

from bot.engine import Deal, Kind, Options, Variant, shuffle_deal  # noqa: E402


def run(variant: Variant, seconds: float) -> tuple[int, int, float]:
    rng = random.Random(2026)
    options = Options()
    play = Kind.PLAY
    deals = plays = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        deal = Deal(shuffle_deal(variant, options, deals % variant.players, rng), check=False)
        while not deal.finished:
            legal = deal.legal_actions()
            if legal[-1].kind is not play:  # cantes and the like come after the plays
                legal = [a for a in legal if a.kind is play]
            deal.apply(legal[int(rng.random() * len(legal))])
            plays += 1
        deals += 1
        if not deals % 200 and time.perf_counter() > deadline:
            break
    return deals, plays, time.perf_counter() - start


def _measure_in_process(root: Path, variant: Variant, seconds: float) -> float:
    """Plays per second of the engine under ``root``, measured in a fresh process."""
    out = subprocess.run(
        [sys.executable, __file__, str(seconds), "--one", variant.value],
        env={**os.environ, "TUTE_ENGINE_ROOT": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(out.stdout)["plays_per_s"])


def _checkout(ref: str, into: Path) -> Path:
    """The ``bot`` package of git revision ``ref`` (its engine and package file) in ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "bot/__init__.py", "bot/engine"],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def compare(ref: str, seconds: float, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = _checkout(ref, Path(tmp))
        print(f"{'variant':<12}{ref + ' plays/s':>22}{'now plays/s':>16}{'change':>9}")
        for variant in Variant:
            old = new = 0.0
            for _ in range(rounds):  # in turns, so that a busy moment hits both
                old = max(old, _measure_in_process(before, variant, seconds))
                new = max(new, _measure_in_process(ROOT, variant, seconds))
            change = (new / old - 1) * 100
            print(f"{variant.value:<12}{old:>22,.0f}{new:>16,.0f}{change:>+8.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument(
        "seconds", nargs="?", type=float, default=3.0, help="seconds per variant (3)"
    )
    parser.add_argument("--against", metavar="REF", help="also measure this git revision")
    parser.add_argument("--rounds", type=int, default=3, help="tries per side with --against")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # one variant, as JSON (--against)
    args = parser.parse_args()
    if args.one:
        deals, plays, elapsed = run(Variant(args.one), args.seconds)
        print(json.dumps({"deals_per_s": deals / elapsed, "plays_per_s": plays / elapsed}))
        return
    if args.against:
        compare(args.against, args.seconds, args.rounds)
        return
    print(f"{'variant':<12}{'deals/s':>12}{'plays/s':>12}")
    for variant in Variant:
        deals, plays, elapsed = run(variant, args.seconds)
        print(f"{variant.value:<12}{deals / elapsed:>12,.0f}{plays / elapsed:>12,.0f}")


if __name__ == "__main__":
    main()
