"""What a card costs in the hard robot's playouts: the heuristic against the policy network.

The same deals, from the first card, are played to the end by ``search.playout`` (the
heuristic seeing every card) and by ``policy.play_out`` (the network, each seat from its
own view), that one ``--batch`` deals at a time as the search plays them (its sampled deals
times its candidates). Printed: microseconds a card played, for each, and the network's
size. The network is the variant's trained one, or random weights of ``--hidden`` sizes
where none is installed (a card costs the same).

Run: ``python benchmarks/policy_cost.py [--variant pairs] [--deals 400] [--batch 16]
[--hidden 256,128] [--leads]``: with ``--leads`` the network chooses only each trick's
first card, the heuristic the cards that follow (``search.POLICY_LEADS``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as in the robots' processes

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bot.ai.features import FEATURES
from bot.ai.policy import PolicyNet, net_for, play_out
from bot.ai.search import playout
from bot.engine import Deal, Options, Variant, shuffle_deal


def random_net(hidden: tuple[int, int], seed: int = 1) -> PolicyNet:
    rng = np.random.default_rng(seed)
    h1, h2 = hidden
    return PolicyNet(
        {
            "w1": rng.normal(0, 0.05, (FEATURES, h1)).astype(np.float32),
            "b1": np.zeros(h1, np.float32),
            "w2": rng.normal(0, 0.05, (h1, h2)).astype(np.float32),
            "b2": np.zeros(h2, np.float32),
            "w3": rng.normal(0, 0.05, (h2, 1)).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", default="pairs", choices=[v.value for v in Variant])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--hidden", default="256,128")
    parser.add_argument(
        "--leads", action="store_true", help="the network leads, the heuristic follows"
    )
    args = parser.parse_args()
    variant = Variant(args.variant)
    rng = random.Random(1)
    seats = Options().seats_at(variant)
    deals = [Deal(shuffle_deal(variant, Options(), i % seats, rng)) for i in range(args.deals)]
    cards = sum(sum(h.bit_count() for h in d.hands) for d in deals)
    start = time.perf_counter()
    for d in deals:
        playout(d.copy())
    heuristic = time.perf_counter() - start
    installed = net_for(variant)
    h1, h2 = (int(x) for x in args.hidden.split(","))
    net = installed if installed is not None else random_net((h1, h2))
    start = time.perf_counter()
    for i in range(0, len(deals), args.batch):
        play_out([d.copy() for d in deals[i : i + args.batch]], net, follows=not args.leads)
    network = time.perf_counter() - start
    which = "trained" if installed is not None else f"random {h1},{h2}"
    which += ", leads only" if args.leads else ""
    print(f"{variant.value}: {args.deals} deals, {cards} cards")
    print(f"  heuristic: {heuristic / cards * 1e6:6.1f} us a card")
    print(
        f"  network ({which}, {net.weights} weights, batches of {args.batch}): "
        f"{network / cards * 1e6:6.1f} us a card"
    )


if __name__ == "__main__":
    main()
