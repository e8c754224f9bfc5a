"""Training data for the policy network (``bot/ai/policy.py``): the hard robot's own searches.

Seeded deals of each variant (the table's default options, the dealer turning with the
seed) are played by the hard robot at every seat (``search.HARD``), its search counted in
sampled deals (``--budget``), not in time: the same arguments give the same data on any
machine. At each play where it searched among several cards, the seat's own view gives a
decision: the state and the candidate cards (``features.parts``, compact), the search's
value of each candidate (minus infinity for one dropped as clearly worse), which one it
played, and how many sampled deals the search saw.

The deals are cut into shards of ``--shard`` deals, each written to ``--out`` as
``<variant>-<first seed>-<deals>.npz`` once whole (a shard already there is skipped: a run
stopped halfway goes on from where it was), by ``--workers`` processes. A progress bar
counts the shards (tqdm where installed, else a line on stderr).

Run: ``python benchmarks/policy_data.py [--variants habanero,arrastrado,individual,pairs]
[--deals 10000] [--budget 40] [--shard 25] [--workers 2] [--seed 1]
[--out data/policy]``; then ``benchmarks/train_policy.py``. A deal gives about 24
decisions; at a budget of 40 a decision costs about 0.15 s of a core (80 toy deals, 1,899
decisions, on a busy two-core machine): the defaults, about a million decisions, take some
42 core-hours (21 hours on 2 workers, under 3 on 16). The cost grows about as the budget.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core a worker: numpy's too

import argparse
import random
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bot.ai.features import Public, parts, public_of_view
from bot.ai.search import HARD, Searched, Style, hard_action
from bot.engine import Action, Deal, Kind, Options, Variant, seat_view, shuffle_deal
from bot.engine.view import SeatView

BUDGET_SECONDS = 1e9
"""The search's time, never reached: its sampled deals bound it (``max_worlds``)."""


def _frozen_clock() -> float:
    return 0.0


def counted_action(
    view: SeatView,
    rng: random.Random,
    style: Style,
    worlds: int,
    searched: Searched | None = None,
    considered: list[tuple[Action, float]] | None = None,
) -> Action | None:
    """The hard search of ``style`` on ``worlds`` sampled deals, its clock never moving:
    the same choice on any machine, however busy (``hard_action``'s ``searched`` and
    ``considered`` as there)."""
    style = replace(style, max_worlds=worlds)
    return hard_action(view, rng, BUDGET_SECONDS, _frozen_clock, searched, style, considered)


@dataclass
class Shard:
    """The decisions of one shard's deals, as they are gathered."""

    decisions: list[tuple[Public, list[int]]] = field(
        default_factory=list[tuple[Public, list[int]]]
    )
    values: list[float] = field(default_factory=list[float])
    chosen: list[int] = field(default_factory=list[int])
    deal: list[int] = field(default_factory=list[int])
    worlds: list[int] = field(default_factory=list[int])
    variant: list[int] = field(default_factory=list[int])


def _answer(
    r: Deal, seat: int, rng: random.Random, budget: int, seed: int, out: Shard
) -> Action | None:
    """The hard robot's action for ``seat``, its search's values kept when it searched."""
    view = seat_view(r, seat)
    if not view.legal:
        return None
    considered: list[tuple[Action, float]] = []
    searched = Searched()
    action = counted_action(view, rng, HARD, budget, searched, considered)
    if len(considered) >= 2 and action is not None and action.kind is Kind.PLAY:
        cards = [a.arg for a, _ in considered]
        out.decisions.append((public_of_view(view), cards))
        out.values.extend(v for _, v in considered)
        out.chosen.extend(int(a == action) for a, _ in considered)
        out.deal.append(seed)
        out.worlds.append(searched.worlds)
        out.variant.append(list(Variant).index(view.variant))
    return action


def play_deal(variant: Variant, seed: int, budget: int, out: Shard) -> None:
    """Deal ``seed`` of ``variant``, played to the end by the hard robot at every seat."""
    options = Options()
    seats = options.seats_at(variant)
    r = Deal(shuffle_deal(variant, options, seed % seats, random.Random(f"policy-{seed}")))
    rngs = [random.Random(f"policy-{seed}-{seat}") for seat in range(seats)]
    steps = 0
    while not r.finished:
        steps += 1
        if steps > 1000:
            raise RuntimeError(f"deal {seed} did not end")
        acted = False
        for seat in sorted({a.seat for a in r.legal_actions() if a.seat != r.turn}):
            action = _answer(r, seat, rngs[seat], budget, seed, out)
            if action is not None:
                r.apply(action)
                acted = True
                break
        if acted:
            continue
        action = _answer(r, r.turn, rngs[r.turn], budget, seed, out)
        if action is None:
            raise RuntimeError(f"seat {r.turn} is on turn and did nothing")
        r.apply(action)


@dataclass(frozen=True)
class Job:
    variant: Variant
    first: int
    deals: int
    budget: int
    path: Path


def shard_path(out: Path, variant: Variant, first: int, deals: int) -> Path:
    return out / f"{variant.value}-{first:07d}-{deals}.npz"


def run_job(job: Job) -> int:
    """Play a shard's deals and write its file (whole, or not at all): its decisions."""
    shard = Shard()
    for seed in range(job.first, job.first + job.deals):
        play_deal(job.variant, seed, job.budget, shard)
    encoded = parts(shard.decisions)
    partial = job.path.with_suffix(".part.npz")
    np.savez_compressed(
        partial,
        state_masks=encoded.state_masks,
        state_numbers=encoded.state_numbers.astype(np.float16),
        cand_masks=encoded.cand_masks,
        cand_numbers=encoded.cand_numbers.astype(np.float16),
        owner=encoded.owner.astype(np.int32),
        values=np.array(shard.values, dtype=np.float32),
        chosen=np.array(shard.chosen, dtype=np.int8),
        deal=np.array(shard.deal, dtype=np.int64),
        worlds=np.array(shard.worlds, dtype=np.int32),
        variant=np.array(shard.variant, dtype=np.int8),
        budget=np.array(job.budget),
    )
    partial.replace(job.path)
    return len(shard.deal)


def jobs_of(
    variants: Iterable[Variant], deals: int, shard: int, seed: int, budget: int, out: Path
) -> list[Job]:
    """Every shard of the run, those already written left out, the variants taken in turn.

    A run stopped early (or one night of many) holds about as many deals of each variant.
    """
    jobs: list[Job] = []
    for first in range(seed, seed + deals, shard):
        count = min(shard, seed + deals - first)
        for variant in variants:
            path = shard_path(out, variant, first, count)
            if not path.exists():
                jobs.append(Job(variant, first, count, budget, path))
    return jobs


def _progress(results: Iterator[int], total: int) -> Iterator[int]:
    try:
        from tqdm import tqdm  # pyright: ignore[reportMissingModuleSource]
    except ImportError:
        start = time.perf_counter()
        decisions = 0
        for done, n in enumerate(results, 1):
            decisions += n
            spent = time.perf_counter() - start
            left = spent / done * (total - done)
            print(
                f"\r{done}/{total} shards, {decisions} decisions, {spent:.0f} s, "
                f"about {left:.0f} s left",
                end="",
                file=sys.stderr,
                flush=True,
            )
            yield n
        print(file=sys.stderr)
        return
    yield from tqdm(results, total=total, unit="shard")  # pyright: ignore[reportUnknownVariableType]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(v.value for v in Variant))
    parser.add_argument("--deals", type=int, default=10000, help="deals of each variant")
    parser.add_argument("--budget", type=int, default=40, help="sampled deals a search")
    parser.add_argument("--shard", type=int, default=25, help="deals a file")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--out", type=Path, default=Path("data/policy"))
    args = parser.parse_args()
    variants = [Variant(v) for v in args.variants.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = jobs_of(variants, args.deals, args.shard, args.seed, args.budget, args.out)
    print(f"{len(jobs)} shards to play into {args.out}", file=sys.stderr)
    if not jobs:
        return
    decisions = 0
    with Pool(args.workers) as pool:
        for n in _progress(pool.imap_unordered(run_job, jobs), len(jobs)):
            decisions += n
    print(f"{decisions} decisions written", file=sys.stderr)


if __name__ == "__main__":
    main()
