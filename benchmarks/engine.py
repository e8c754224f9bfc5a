"""Random whole rounds per second, per variant, through ``legal_actions()`` and ``apply()``.

A round: shuffle and deal from a seeded generator, then play every card, each chosen
uniformly among the legal plays. Run: ``python benchmarks/engine.py [seconds per variant]``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Deal, Kind, Options, Variant, shuffle_deal


def run(variant: Variant, seconds: float) -> tuple[int, int, float]:
    rng = random.Random(2026)
    options = Options()
    play = Kind.PLAY
    rounds = plays = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        r = Deal(shuffle_deal(variant, options, rounds % variant.players, rng), check=False)
        while not r.finished:
            legal = r.legal_actions()
            if legal[-1].kind is not play:  # cantes and the like come after the plays
                legal = [a for a in legal if a.kind is play]
            r.apply(legal[int(rng.random() * len(legal))])
            plays += 1
        rounds += 1
        if not rounds % 200 and time.perf_counter() > deadline:
            break
    return rounds, plays, time.perf_counter() - start


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"{'variant':<12}{'rounds/s':>12}{'plays/s':>12}")
    for variant in Variant:
        rounds, plays, elapsed = run(variant, seconds)
        print(f"{variant.value:<12}{rounds / elapsed:>12,.0f}{plays / elapsed:>12,.0f}")


if __name__ == "__main__":
    main()
