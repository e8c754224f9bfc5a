"""How well sampled deals place the hidden cards, uniform and weighted.

Deals are played by the hard robot's search at a small budget (the matches' opponents
are hard robots), from seeds far from the ones ``train_locations.py`` trains on. At some
plays of a seat with a choice from the second trick on, that seat's view draws
``--worlds`` deals with ``knowledge.sample_world``; each deal is weighed four ways: the
same for all (uniform), by ``inference.PlayModel`` (how well a cheap policy explains the
other seats' plays), by the card-location model (``locations.CardModel``, at each
``--exponent``), and by both multiplied. Printed per variant and weighting:

- right: the mean share of hidden cards the deals place right (in the hand, or the
  stock, they are in), each deal counted by its weight;
- ESS: the median effective number of deals, (sum w)^2 / sum w^2, out of ``--worlds``;
- LL: the mean log-likelihood per hidden card of its true place under the deals'
  weighted shares (a place no deal gives it gets 1% of a deal).

Also the model's own log-likelihood of the true places (its probabilities over the places
before any sampling, against the hidden cards spread in proportion to the room of each
place), and the cost of ``Locations.weight`` per deal and of ``CardModel.for_view``.

Run: ``python benchmarks/card_locations.py [--variant pairs ...] [--deals 40]
[--worlds 100] [--exponent 0.5 ...] [--keep 0.3] [--seed 0]``.
About 20 seconds for 40 pairs deals.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.train_locations import play_positions, true_place
from bot.ai.inference import PlayModel
from bot.ai.knowledge import Knowledge, infer, sample_world, silences
from bot.ai.locations import STOCK, CardModel, models
from bot.engine import Deal, Variant, seat_view


@dataclass
class Tally:
    right: list[float] = field(default_factory=list[float])
    ess: list[float] = field(default_factory=list[float])
    ll: list[float] = field(default_factory=list[float])


def place_in(world: Deal, c: int, seats: list[int]) -> int:
    return next((s for s in seats if world.hands[s] >> c & 1), STOCK)


def tally(
    out: Tally,
    weights: list[float],
    places: list[dict[int, int]],
    truth: dict[int, int],
) -> None:
    """Add one position's figures for one weighting."""
    total = sum(weights)
    if total <= 0 or not truth:
        return
    share = [sum(1 for c, p in truth.items() if world[c] == p) / len(truth) for world in places]
    out.right.append(sum(w * a for w, a in zip(weights, share, strict=True)) / total)
    out.ess.append(total * total / sum(w * w for w in weights))
    floor = 0.01 * total / len(weights)
    for c, p in truth.items():
        got = sum(w for w, world in zip(weights, places, strict=True) if world[c] == p)
        out.ll.append(math.log((got + floor) / (total + floor)))


def model_ll(view_seat_know: tuple[Deal, int, Knowledge], truth: dict[int, int]) -> float:
    """The model's own mean log-likelihood of the true places, or nan."""
    r, seat, know = view_seat_know
    probs = CardModel.probabilities(seat_view(r, seat), know)
    logs = [math.log(probs[c][p]) for c, p in truth.items() if c in probs and p in probs[c]]
    return statistics.fmean(logs) if logs else math.nan


def room_ll(know: Knowledge, truth: dict[int, int], seats: list[int]) -> float:
    """The mean log-likelihood of the true places with each hidden card spread over its
    places in proportion to how many hidden cards each holds."""
    logs: list[float] = []
    for c, p in truth.items():
        sizes = {s: know.hidden[s] for s in seats if know.hidden[s] and not know.void[s] >> c & 1}
        if know.stock_hidden:
            sizes[STOCK] = know.stock_hidden
        if p in sizes:
            logs.append(math.log(sizes[p] / sum(sizes.values())))
    return statistics.fmean(logs) if logs else math.nan


def measure(variant: Variant, args: argparse.Namespace) -> None:
    model = models().get(variant.value)
    trained = model.exponent if model else 1.0
    names = ["uniform", "plays"]
    for e in args.exponent:
        names += [f"model^{e:g}", f"both^{e:g}"]
    tallies = {name: Tally() for name in names}
    own: list[float] = []
    room: list[float] = []
    cost_weight = cost_view = 0.0
    weighed = views = positions = 0
    for g in range(args.deals):
        deals = play_positions(variant, args.seed + g, 1.0, args.budget, args.keep)
        for k, r in enumerate(deals):
            seat = r.turn
            view = seat_view(r, seat)
            know = silences(view, infer(view))
            seats = [s for s in range(r.n) if s != seat]
            truth = {c: true_place(r, c) for c in _bits(know.unseen)}
            if not truth:
                continue
            positions += 1
            rng = random.Random(1000 * g + k)
            worlds = [sample_world(view, know, rng) for _ in range(args.worlds)]
            places = [{c: place_in(w, c, seats) for c in truth} for w in worlds]
            plays = PlayModel(view)
            pw = [plays.weight(w) for w in worlds]
            start = time.perf_counter()
            locations = CardModel.for_view(view, know)
            cost_view += time.perf_counter() - start
            views += 1
            start = time.perf_counter()
            logs = [locations.log_weight(w) for w in worlds]
            cost_weight += time.perf_counter() - start
            weighed += len(worlds)
            tally(tallies["uniform"], [1.0] * len(worlds), places, truth)
            tally(tallies["plays"], pw, places, truth)
            for e in args.exponent:
                lw = _scaled(logs, e / trained)
                tally(tallies[f"model^{e:g}"], lw, places, truth)
                tally(
                    tallies[f"both^{e:g}"],
                    [a * b for a, b in zip(lw, pw, strict=True)],
                    places,
                    truth,
                )
            own.append(model_ll((r, seat, know), truth))
            room.append(room_ll(know, truth, seats))
    _report(variant, positions, tallies, own, room, args.worlds)
    print(
        f"  cost: Locations.weight {1e6 * cost_weight / max(1, weighed):.1f} us per deal, "
        f"CardModel.for_view {1e3 * cost_view / max(1, views):.2f} ms per decision"
    )


def _scaled(logs: list[float], factor: float) -> list[float]:
    top = max(logs)
    return [math.exp(factor * (x - top)) for x in logs]


def _bits(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def _report(
    variant: Variant,
    positions: int,
    tallies: dict[str, Tally],
    own: list[float],
    room: list[float],
    worlds: int,
) -> None:
    print(f"{variant.value}: {positions} positions, {worlds} deals each")
    print(f"  {'weighting':14s} {'right':>7s} {'ESS':>7s} {'LL':>8s}")
    for name, t in tallies.items():
        if not t.right:
            continue
        med: Callable[[list[float]], float] = statistics.median
        print(
            f"  {name:14s} {statistics.fmean(t.right):7.4f} {med(t.ess):7.1f} "
            f"{statistics.fmean(t.ll):8.4f}"
        )
    own_ok = [x for x in own if not math.isnan(x)]
    room_ok = [x for x in room if not math.isnan(x)]
    if own_ok:
        print(
            f"  model's own LL per card {statistics.fmean(own_ok):.4f}, "
            f"room-proportional {statistics.fmean(room_ok):.4f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--exponent", type=float, action="append", default=None)
    parser.add_argument("--budget", type=float, default=0.01)
    parser.add_argument("--keep", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    args.exponent = args.exponent or [0.5, 1.0]
    for name in args.variant or ["pairs"]:
        measure(Variant(name), args)


if __name__ == "__main__":
    main()
