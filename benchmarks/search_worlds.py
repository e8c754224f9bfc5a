"""How many sampled deals the hard robot's search plays out per second of thinking.

Deals of each variant are played by normal robots; at each turn of a seat that has a real
choice (two plays or more that the search weighs), the hard robot is asked with a budget
and counts the deals it sampled and played out. Printed per variant: the decisions
searched, the deals per decision (median, 10th and 90th percentile) and per second of
thinking, early in the deal (the first third of its tricks) and late (the last third).
The search's strength grows with the deals it sees: this is the figure a faster search
raises.

``--policy``: the search with the policy network in its playouts (``search.POLICY``; the
heuristic's where no weights are installed), to weigh the deals it loses to the network's
cost against what each is worth.

Run: ``python benchmarks/search_worlds.py [--deals 6] [--budget 0.1]
[--variant pairs ...] [--seed 1] [--policy]``.
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

from bot.ai import Level, choose_action
from bot.ai.search import HARD, POLICY, Searched, Style, hard_action
from bot.engine import Deal, Kind, Options, Variant, seat_view, shuffle_deal


@dataclass
class Figures:
    worlds: list[int] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)
    """Deals per second of thinking, per decision."""
    early: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)


def searched_decisions(
    variant: Variant, deals: int, budget: float, seed: int, style: Style = HARD
) -> Figures:
    figures = Figures()
    rng = random.Random(seed)
    tricks_in_deal = 40 // variant.players if variant is not Variant.HABANERO else 20
    for number in range(deals):
        deal = Deal(shuffle_deal(variant, Options(), number % variant.players, rng))
        while not deal.finished:
            seat = deal.turn
            view = seat_view(deal, seat)
            plays = [a for a in view.legal if a.kind is Kind.PLAY]
            action = None
            if len(plays) >= 2:
                searched = Searched()
                start = time.perf_counter()
                action = hard_action(view, rng, budget, searched=searched, style=style)
                spent = time.perf_counter() - start
                if searched.worlds:
                    rate = searched.worlds / spent
                    figures.worlds.append(searched.worlds)
                    figures.rates.append(rate)
                    done = len(deal.tricks) / tricks_in_deal
                    if done < 1 / 3:
                        figures.early.append(rate)
                    elif done >= 2 / 3:
                        figures.late.append(rate)
            if action is None:
                action = choose_action(view, Level.NORMAL, rng)
            if action is None:  # nothing it wants: the first legal action
                action = view.legal[0]
            deal.apply(action)
    return figures


def _percentiles(values: list[float]) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.0f}"
    cuts = statistics.quantiles(values, n=10)
    return f"{statistics.median(values):.0f} ({cuts[0]:.0f}-{cuts[-1]:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=[v.value for v in Variant], nargs="*", default=None)
    parser.add_argument("--policy", action="store_true", help="the policy network's playouts")
    args = parser.parse_args()
    style = POLICY if args.policy else HARD
    variants = [Variant(v) for v in args.variant] if args.variant else list(Variant)
    print(
        f"hard robot's search{' (policy network)' if args.policy else ''}, "
        f"{args.budget} s a decision, {args.deals} deals per variant "
        "played by normal robots (deals played out per decision, and per second of thinking: "
        "median and 10th-90th percentile)"
    )
    for variant in variants:
        f = searched_decisions(variant, args.deals, args.budget, args.seed, style)
        print(
            f"{variant.value:>11}: {len(f.worlds)} decisions · "
            f"{_percentiles([float(w) for w in f.worlds])} deals a decision · "
            f"{_percentiles(f.rates)} a second · early {_percentiles(f.early)} · "
            f"late {_percentiles(f.late)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
