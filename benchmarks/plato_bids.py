"""How well the robots bid in the arrastrado plato auction (RULES.md, seeds/001).

For ``--deals`` seeded deals of arrastrado with the plato, seat 0's hand is rated with
``hand_strength`` and the deal is played out by the robots' playout policy with everybody
passing; printed:
- per band of hand strength: how many hands, the points seat 0 took on average, and how
  often it took 101 and 120 or more (what a contract needs): this calibrates the normal
  robot (``EXPECTED_PER_STRENGTH``, ``BID_MARGIN`` in ``bot/ai/declarations.py``);
- for the normal and the hard robot (``--budget`` seconds a decision, on a counting clock
  so the run is the same on any machine): how often seat 0 opens the auction with a bid,
  and how often the contract it would play is made, on those deals.
A contract made takes 200 from each opponent and the pot; a contract failed pays as much:
a robot should bid only where it makes about half of its contracts or more.

Run: ``python benchmarks/plato_bids.py [--deals 4000] [--budget 0.05]``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level
from bot.ai.declarations import hand_strength
from bot.ai.robot import choose_action
from bot.ai.search import playout
from bot.engine import Action, Deal, Kind, Options, Phase, Variant, seat_view, shuffle_deal

BANDS = range(40, 260, 20)


def _played_out(seed: int) -> tuple[Deal, float, int]:
    """The deal of ``seed``, seat 0's hand strength, and the points seat 0 takes."""
    dealt = shuffle_deal(Variant.ARRASTRADO, Options(plato=True), 2, random.Random(seed))
    start = Deal(dealt)
    strength = hand_strength(start.hand(0), start.trump, 3)
    r = start.copy()
    while r.phase is Phase.AUCTION:
        r.apply(Action.simple(r.turn, Kind.PASS))
    playout(r)
    assert r.result is not None
    return start, strength, r.result.scores[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--budget", type=float, default=0.05)
    args = parser.parse_args()
    rows = [_played_out(seed) for seed in range(args.deals)]
    print(f"{args.deals} deals of arrastrado with the plato, seat 0 opening the auction")
    print(f"{'strength':>10} {'hands':>6} {'points':>7} {'101+':>6} {'120+':>6}")
    for low in BANDS:
        taken = [points for _, strength, points in rows if low <= strength < low + 20]
        if not taken:
            continue
        made = sum(p >= 101 for p in taken) / len(taken)
        high = sum(p >= 120 for p in taken) / len(taken)
        print(
            f"{low:>4}-{low + 19:<5} {len(taken):>6} {statistics.mean(taken):>7.1f}"
            f" {made:>6.0%} {high:>6.0%}"
        )
    for level in (Level.NORMAL, Level.HARD):
        ticks = itertools.count()

        def clock(ticks: itertools.count[int] = ticks) -> float:
            return next(ticks) * 1e-4

        bids = made = 0
        for seed, (start, _, points) in enumerate(rows):
            view = seat_view(start, 0)
            action = choose_action(
                view,
                level,
                random.Random(seed),
                args.budget,
                clock=clock,
            )
            if action is not None and action.kind is Kind.BID:
                bids += 1
                made += points >= action.arg
        rate = f"{made / bids:.0%}" if bids else "-"
        print(f"{level.value}: bids on {bids / len(rows):.1%} of hands, makes {rate} of them")


if __name__ == "__main__":
    main()
