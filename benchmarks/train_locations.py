"""Train the card-location model (``bot/ai/locations.json``) on robot games.

Deals are played by robots: the hard robot's search at a small budget (with a counting
clock, so the games do not depend on the machine's speed) or the normal robot, as
``--hard`` says, each seat declaring what it wants. At plays of a deal from the
second trick on (a share ``--keep`` of them), each seat's view gives training examples:
for each hidden card the seat cannot place, the places that may hold it
(``locations.choices``) with their features, and the place that does. A conditional logit over the places (a softmax of a
linear score) is fitted by stochastic gradient descent with a little L2, in a fixed
order drawn from ``--seed``: the same arguments give the same model.

The model of each variant trained is written to ``--out`` (by default the bot's
``bot/ai/locations.json``; variants already there and not trained now are kept), with
its features, the number of games, the seed and the exponent the weights of deals are
raised to (``--exponent``: tuned with ``benchmarks/card_locations.py``).

Run: ``python benchmarks/train_locations.py [--variant pairs ...] [--games 800]
[--hard 0.5] [--budget 0.01] [--keep 0.3] [--epochs 4] [--exponent 1.0] [--seed 1]``.
About 2.5 minutes for 800 pairs deals on one core, nearly all of it playing the deals
(the model in the bot: the defaults).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level, choose_action
from bot.ai.knowledge import infer, silences
from bot.ai.locations import FEATURES, MODEL_PATH, STOCK, VERSION, choices
from bot.ai.search import BASELINE, hard_action
from bot.engine import Deal, Kind, Options, Variant, seat_view, shuffle_deal

Example = tuple[list[list[float]], int]
"""The features of each place a card may be in, and the index of the place it is in."""


class CountingClock:
    """A clock that moves ``tick`` seconds each time it is read: a search then does the
    same work on any machine."""

    def __init__(self, tick: float = 0.0001) -> None:
        self.tick = tick
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def play_positions(
    variant: Variant, seed: int, hard: float, budget: float, keep: float = 1.0
) -> list[Deal]:
    """One deal played by robots from ``seed``: a copy of it at each play of a seat with a
    choice from the second trick on (each kept with chance ``keep``). A seat is the hard
    robot's search for the deal with chance ``hard``, else the normal robot."""
    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, Options(), seed % variant.players, rng))
    levels = [Level.HARD if rng.random() < hard else Level.NORMAL for _ in range(r.n)]
    out: list[Deal] = []
    steps = 0
    while not r.finished and steps < 600:
        steps += 1
        acted = False
        for s in sorted({a.seat for a in r.legal_actions() if a.seat != r.turn}):
            a = choose_action(seat_view(r, s), levels[s], rng, budget, clock=CountingClock())
            if a is not None:
                r.apply(a)
                acted = True
                break
        if acted:
            continue
        legal = r.legal_actions()
        if (
            r.tricks
            and sum(a.kind is Kind.PLAY for a in legal) >= 2
            and (keep >= 1.0 or rng.random() < keep)
        ):
            out.append(r.copy())
        view = seat_view(r, r.turn)
        if levels[r.turn] is Level.HARD and any(a.kind is Kind.PLAY for a in legal):
            action = hard_action(view, rng, budget, CountingClock(), style=BASELINE)
        else:
            action = choose_action(view, levels[r.turn], rng, budget, clock=CountingClock())
        assert action is not None
        r.apply(action)
    return out


def true_place(r: Deal, c: int) -> int:
    """The seat holding ``c`` in the real deal, or ``STOCK``."""
    return next((s for s in range(r.n) if r.hands[s] >> c & 1), STOCK)


def examples_of(r: Deal, seats: list[int]) -> list[Example]:
    """The training examples of the views of ``seats`` at position ``r``."""
    out: list[Example] = []
    for seat in seats:
        view = seat_view(r, seat)
        know = silences(view, infer(view))
        for c, row in choices(view, know).items():
            truth = true_place(r, c)
            index = next((i for i, (p, _) in enumerate(row) if p == truth), -1)
            if index >= 0:
                out.append(([f for _, f in row], index))
    return out


def fit(
    data: list[Example], epochs: int, seed: int, rate: float = 0.05, l2: float = 1e-4
) -> list[float]:
    """The weights of a conditional logit fitted by stochastic gradient descent."""
    n = len(FEATURES)
    w = [0.0] * n
    order = list(range(len(data)))
    rng = random.Random(seed)
    step = 0
    for epoch in range(epochs):
        rng.shuffle(order)
        loss = 0.0
        for i in order:
            rows, truth = data[i]
            z = [sum(a * b for a, b in zip(w, f, strict=True)) for f in rows]
            top = max(z)
            e = [math.exp(v - top) for v in z]
            total = sum(e)
            loss -= z[truth] - top - math.log(total)
            step += 1
            lr = rate / (1.0 + step * 1e-5)
            grad = list(rows[truth])
            for f, x in zip(rows, e, strict=True):
                p = x / total
                for k in range(n):
                    grad[k] -= p * f[k]
            for k in range(n):
                w[k] += lr * (grad[k] - l2 * w[k])
        print(f"  epoch {epoch + 1}: log loss per card {loss / max(1, len(data)):.4f}")
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--hard", type=float, default=0.5, help="share of hard seats")
    parser.add_argument("--budget", type=float, default=0.01)
    parser.add_argument("--keep", type=float, default=0.3, help="share of positions kept")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--exponent", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    variants = [Variant(v) for v in args.variant or ["pairs"]]
    old = json.loads(args.out.read_text()) if args.out.exists() else {}
    if old.get("version") != VERSION or old.get("features") != list(FEATURES):
        old = {}
    trained = dict(old.get("variants", {}))
    for variant in variants:
        start = time.perf_counter()
        data: list[Example] = []
        positions = 0
        for g in range(args.games):
            seed = 1_000_000 * args.seed + g  # far from the measure's seeds
            for r in play_positions(variant, seed, args.hard, args.budget, args.keep):
                positions += 1
                data += examples_of(r, list(range(r.n)))
        print(
            f"{variant.value}: {args.games} deals, {positions} positions, {len(data)} cards "
            f"({time.perf_counter() - start:.0f} s)"
        )
        weights = fit(data, args.epochs, args.seed)
        trained[variant.value] = {
            "weights": [round(x, 5) for x in weights],
            "exponent": args.exponent,
            "games": args.games,
            "positions": positions,
            "examples": len(data),
            "seed": args.seed,
            "hard": args.hard,
            "budget": args.budget,
        }
        for name, x in zip(FEATURES, weights, strict=True):
            print(f"  {name:22s} {x:+.3f}")
        print(f"  ({time.perf_counter() - start:.0f} s in all)")
    model = {"version": VERSION, "features": list(FEATURES), "variants": trained}
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
