"""What a replay and a hint cost: the steps of a finished deal rebuilt from its record, one
step's picture drawn (and its size), and the hard robot's hint for a member's seat.

Run: ``python benchmarks/replays_hints.py [--deals N] [--seed S]``. Each variant plays N
seeded deals by normal robots; every step of each deal is rebuilt and drawn, and a hint is
asked at every decision of seat 0 with a real choice (on the hints' own counted clock, so
the work is the same on any machine: the seconds say how long that work takes here).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level, choose_action
from bot.engine import Deal, Options, Variant, record_of, seat_view, shuffle_deal
from bot.engine.cards import CODES, SUITS
from bot.render import SeatInfo, TableScene
from bot.render.replay import ReplayScene, render_replay
from bot.tables.hints import HINT_BUDGET, hint_action, reason
from bot.tables.replay import ReplayStep, steps_of


def played_deal(variant: Variant, seed: int) -> tuple[Deal, list[Deal]]:
    """A deal played to its end by normal robots, and its state before each of seat 0's
    decisions with more than one legal action."""
    options = Options()
    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, options, rng.randrange(options.seats_at(variant)), rng))
    moments: list[Deal] = []
    while not r.finished:
        for seat in sorted({a.seat for a in r.legal_actions()}, key=lambda s: s != r.turn):
            view = seat_view(r, seat)
            if seat == 0 and len(view.legal) > 1:
                moments.append(r.copy())
            action = choose_action(view, Level.NORMAL, rng, 0.0)
            if action is not None:
                r.apply(action)
                break
    return r, moments


def step_picture(deal: Deal, step: ReplayStep) -> bytes:
    trick = step.trick
    seats = tuple(SeatInfo(name=f"Seat {s}") for s in range(deal.n))
    table = TableScene(
        seats=seats,
        trump_suit=SUITS[deal.trump],
        trick=tuple((seat, CODES[card]) for seat, card in trick.cards) if trick else (),
        trick_winner=trick.winner if trick else None,
    )
    hands = tuple(tuple(CODES[c] for c in hand) for hand in step.hands)
    return render_replay(ReplayScene(table, hands))


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"p50 {statistics.median(values) * 1000:7.2f} ms  p90 {p90 * 1000:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in Variant:
        rebuild: list[float] = []
        draw: list[float] = []
        sizes: list[int] = []
        hints: list[float] = []
        for k in range(args.deals):
            deal, moments = played_deal(variant, args.seed + k)
            record = json.loads(json.dumps(record_of(deal)))
            start = time.perf_counter()
            steps = steps_of(record)
            rebuild.append(time.perf_counter() - start)
            for step in steps:
                start = time.perf_counter()
                sizes.append(len(step_picture(deal, step)))
                draw.append(time.perf_counter() - start)
            for moment in moments:
                view = seat_view(moment, 0)
                start = time.perf_counter()
                reason(view, hint_action(view, HINT_BUDGET))
                hints.append(time.perf_counter() - start)
        print(
            f"{variant.value:10s} replay: {len(draw)} steps; rebuild a deal {_ms(rebuild)}; "
            f"draw a step {_ms(draw)}, {statistics.median(sizes) / 1000:.1f} KB"
        )
        print(f"{'':10s} hint:   {len(hints)} decisions; {_ms(hints)}")


if __name__ == "__main__":
    main()
