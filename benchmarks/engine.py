"""Random whole deals per second, per variant, through ``legal_actions()`` and ``apply()``.

A deal: shuffle and deal from a seeded generator, then play every card, each chosen
uniformly among the legal plays. Run: ``python benchmarks/engine.py [seconds per variant]``.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument(
        "seconds", nargs="?", type=float, default=3.0, help="seconds per variant (3)"
    )
    seconds = parser.parse_args().seconds
    print(f"{'variant':<12}{'deals/s':>12}{'plays/s':>12}")
    for variant in Variant:
        deals, plays, elapsed = run(variant, seconds)
        print(f"{variant.value:<12}{deals / elapsed:>12,.0f}{plays / elapsed:>12,.0f}")


if __name__ == "__main__":
    main()
