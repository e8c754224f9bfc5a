"""Train the policy network of one family of variants on ``benchmarks/policy_data.py``'s data.

The network (``bot/ai/policy.py``) scores each candidate card of a decision from the
seat's view (``features``): ``FEATURES`` inputs, two hidden layers of ``--hidden`` ReLU
units, one score. Over a decision's candidates the scores are a softmax, fitted by cross
entropy to the search's own values: the target is the softmax of the values over
``--temperature`` (a candidate the search dropped as clearly worse gets none), or with
``--temperature 0`` the card the search played. Unless ``--no-relabel``, each training
decision's suits other than trumps are relabelled in one of their six orders, drawn anew
each time (they play alike: the same decision, six ways). Adam, minibatches of ``--batch``
decisions, in an order drawn from ``--seed``: the same data and arguments give the same
weights.

A share ``--holdout`` of the deals (all their decisions) is kept apart. Printed each epoch:
the training loss, and on the held-out decisions the loss, the top-1 agreement (the
network's card is one the search valued best), the mean regret (the search's value of its
best card less that of the network's) and, once, the same for the normal robot's card (the
search's first candidate). The weights of the epoch of the lowest held-out loss are written
to ``--out``, by default the bot's ``bot/ai/policy_<family>.npz`` (about 0.6 MB at 256,128).

Run: ``python benchmarks/train_policy.py --family table|habanero [--data data/policy]
[--hidden 256,128] [--epochs 20] [--batch 256] [--lr 1e-3] [--temperature 0.1]
[--holdout 0.1] [--share 1] [--seed 1] [--out PATH] [--serve pairs,...]``; ``--share``
learns from only that share of the training deals (the same held-out ones): the learning
curve, whether more data would help. The robots play the
network only in the variants of ``--serve`` (none by default): to measure it, name the
variants to try (``benchmarks/robots.py --a hard-policy --b hard-2026-11``); to ship it,
train again with the same arguments (the same weights) naming only those where it measured
no weaker.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")

import argparse
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import numpy.typing as npt

from bot.ai.features import FEATURES, MASKS, SCALARS, relabelled, unpack
from bot.ai.policy import FAMILIES, weights_path
from bot.engine import Variant

Floats = npt.NDArray[np.floating[Any]]
Ints = npt.NDArray[np.int64]


@dataclass
class Data:
    """Decisions of the data files, candidates in order of their decision."""

    state_masks: npt.NDArray[np.uint64]
    state_numbers: Floats
    cand_masks: npt.NDArray[np.uint64]
    cand_numbers: Floats
    start: Ints
    """Each decision's first candidate."""
    count: Ints
    values: Floats
    chosen: npt.NDArray[np.int8]
    deal: Ints

    @property
    def decisions(self) -> int:
        return len(self.start)


def load(folder: Path, family: str) -> Data:
    """Every shard of the family's variants in ``folder``."""
    variants = [v for v in Variant if FAMILIES[v] == family]
    files = sorted(p for v in variants for p in folder.glob(f"{v.value}-*.npz"))
    files = [p for p in files if not p.name.endswith(".part.npz")]
    if not files:
        raise SystemExit(f"no data for {family} in {folder}")
    sm: list[npt.NDArray[np.uint64]] = []
    sn: list[Floats] = []
    cm: list[npt.NDArray[np.uint64]] = []
    cn: list[Floats] = []
    owners: list[Ints] = []
    values: list[Floats] = []
    chosen: list[npt.NDArray[np.int8]] = []
    deals: list[Ints] = []
    base = 0
    for path in files:
        with np.load(path) as f:
            sm.append(f["state_masks"])
            sn.append(f["state_numbers"].astype(np.float32))
            cm.append(f["cand_masks"])
            cn.append(f["cand_numbers"].astype(np.float32))
            owners.append(f["owner"].astype(np.int64) + base)
            values.append(f["values"].astype(np.float32))
            chosen.append(f["chosen"])
            deals.append(f["deal"].astype(np.int64))
            base += len(f["deal"])
    owner = np.concatenate(owners)
    count = np.bincount(owner, minlength=base).astype(np.int64)
    start = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    return Data(
        np.concatenate(sm).reshape(-1, MASKS),
        np.concatenate(sn).reshape(-1, SCALARS),
        np.concatenate(cm),
        np.concatenate(cn),
        start,
        count,
        np.concatenate(values),
        np.concatenate(chosen),
        np.concatenate(deals),
    )


@dataclass
class Batch:
    rows: Floats
    seg_start: Ints
    seg: Ints
    target: Floats
    values: Floats


ORDERS: Final = np.stack([relabelled((a, b, c)) for a, b, c in itertools.permutations((1, 2, 3))])
"""The six relabellings of the suits other than trumps, as column orders of the rows."""


def batch_of(
    data: Data, decisions: Ints, temperature: float, relabel: np.random.Generator | None = None
) -> Batch:
    """The rows of ``decisions`` and their targets; with ``relabel``, each decision's rows
    with the suits other than trumps relabelled in an order drawn from it (the same
    decision, one of six ways: ``features.relabelled``)."""
    counts = data.count[decisions]
    offs = np.cumsum(counts) - counts
    total = int(counts.sum())
    idx = np.repeat(data.start[decisions] - offs, counts) + np.arange(total)
    seg = np.repeat(np.arange(len(decisions)), counts)
    owner = decisions[seg]
    states = np.concatenate(
        [unpack(data.state_masks[owner]).reshape(total, MASKS * 40), data.state_numbers[owner]],
        axis=1,
    )
    rows = np.concatenate([states, unpack(data.cand_masks[idx]), data.cand_numbers[idx]], axis=1)
    if relabel is not None:
        drawn = relabel.integers(0, len(ORDERS), len(decisions))
        rows = np.take_along_axis(rows, ORDERS[drawn[seg]], axis=1)
    values = data.values[idx]
    if temperature > 0:
        finite = np.isfinite(values)
        v = np.where(finite, values, -np.inf) / temperature
        top = np.maximum.reduceat(v, offs)
        e = np.where(finite, np.exp(v - top[seg]), 0.0)
        target = e / np.add.reduceat(e, offs)[seg]
    else:
        target = data.chosen[idx].astype(np.float32)
    return Batch(rows.astype(np.float32), offs, seg, target.astype(np.float32), values)


class Net:
    """The network's weights with their Adam moments."""

    names = ("w1", "b1", "w2", "b2", "w3", "b3")

    def __init__(self, hidden: tuple[int, int], rng: np.random.Generator) -> None:
        h1, h2 = hidden
        self.p: dict[str, Floats] = {
            "w1": (rng.standard_normal((FEATURES, h1)) * np.sqrt(2.0 / FEATURES)).astype(
                np.float32
            ),
            "b1": np.zeros(h1, np.float32),
            "w2": (rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)).astype(np.float32),
            "b2": np.zeros(h2, np.float32),
            "w3": (rng.standard_normal((h2, 1)) * np.sqrt(1.0 / h2)).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: Floats) -> tuple[Floats, tuple[Floats, Floats, Floats, Floats]]:
        p = self.p
        z1 = x @ p["w1"] + p["b1"]
        a1 = np.maximum(z1, 0.0)
        z2 = a1 @ p["w2"] + p["b2"]
        a2 = np.maximum(z2, 0.0)
        s = (a2 @ p["w3"]).reshape(-1) + p["b3"][0]
        return s, (z1, a1, z2, a2)

    def step(self, b: Batch, lr: float, decay: float) -> float:
        """One Adam step on a minibatch; its loss."""
        s, (z1, a1, z2, a2) = self.forward(b.rows)
        p_, loss = softmax_loss(s, b)
        n = len(b.seg_start)
        ds = ((p_ - b.target) / n).astype(np.float32)
        p = self.p
        g: dict[str, Floats] = {}
        g["w3"] = a2.T @ ds[:, None]
        g["b3"] = np.array([ds.sum()], np.float32)
        dz2 = (ds[:, None] * p["w3"].T) * (z2 > 0)
        g["w2"] = a1.T @ dz2
        g["b2"] = dz2.sum(axis=0)
        dz1 = (dz2 @ p["w2"].T) * (z1 > 0)
        g["w1"] = b.rows.T @ dz1
        g["b1"] = dz1.sum(axis=0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k in self.names:
            grad = g[k] + decay * p[k] if k.startswith("w") else g[k]
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            p[k] = (p[k] - lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        return loss


def softmax_loss(s: Floats, b: Batch) -> tuple[Floats, float]:
    """The softmax of the scores over each decision's candidates, and the mean cross
    entropy against the targets."""
    top = np.maximum.reduceat(s, b.seg_start)
    e = np.exp(s - top[b.seg])
    z = np.add.reduceat(e, b.seg_start)
    p = e / z[b.seg]
    logp = s - top[b.seg] - np.log(z)[b.seg]
    loss = float(-(b.target * logp).sum() / len(b.seg_start))
    return p.astype(np.float32), loss


@dataclass
class Scores:
    loss: float
    agree: float
    regret: float


def judge(picks_score: Floats, b: Batch) -> tuple[float, float]:
    """Top-1 agreement and mean regret of the candidate of the highest ``picks_score``
    in each decision, against the search's values."""
    seg_end = np.append(b.seg_start[1:], len(b.seg))
    agree = 0
    regret = 0.0
    for lo, hi in zip(b.seg_start.tolist(), seg_end.tolist(), strict=True):
        vals = b.values[lo:hi]
        pick = lo + int(np.argmax(picks_score[lo:hi]))
        best = float(np.max(vals))
        got = float(b.values[pick])
        agree += got >= best - 1e-9
        regret += best - got if np.isfinite(got) else 1.0
    n = len(b.seg_start)
    return agree / n, regret / n


def evaluate(net: Net, data: Data, decisions: Ints, temperature: float) -> Scores:
    loss = agree = regret = 0.0
    for lo in range(0, len(decisions), 2048):
        chunk = decisions[lo : lo + 2048]
        b = batch_of(data, chunk, temperature)
        s, _ = net.forward(b.rows)
        _, part = softmax_loss(s, b)
        a, r = judge(s, b)
        loss += part * len(chunk)
        agree += a * len(chunk)
        regret += r * len(chunk)
    n = max(1, len(decisions))
    return Scores(loss / n, agree / n, regret / n)


def normal_baseline(data: Data, decisions: Ints) -> tuple[float, float]:
    """The normal robot's card (each decision's first candidate) judged the same way."""
    b = batch_of(data, decisions, 0.1)
    first = np.zeros(len(b.seg), np.float32)
    first[b.seg_start] = 1.0
    return judge(first, b)


def split(data: Data, holdout: float) -> tuple[Ints, Ints]:
    """Decisions of the training deals and of the held-out deals (by deal seed)."""
    mixed = (data.deal * 2654435761) % 1000
    held = mixed < int(holdout * 1000)
    ids = np.arange(data.decisions)
    return ids[~held], ids[held]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--family", required=True, choices=sorted(set(FAMILIES.values())))
    parser.add_argument("--data", type=Path, default=Path("data/policy"))
    parser.add_argument("--hidden", default="256,128")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=256, help="decisions a minibatch")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--decay", type=float, default=1e-5, help="L2 on the weights")
    parser.add_argument("--temperature", type=float, default=0.1)
    parser.add_argument("--holdout", type=float, default=0.1)
    parser.add_argument(
        "--share", type=float, default=1.0, help="of the training deals, the lowest seeds' share"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--relabel",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="train on the suits other than trumps relabelled at random (six ways a decision)",
    )
    parser.add_argument(
        "--serve",
        default="",
        help="variants the robots play it in, e.g. pairs (default none: measure it first)",
    )
    args = parser.parse_args()
    serves = [Variant(v).value for v in args.serve.split(",") if v]
    if any(FAMILIES[Variant(v)] != args.family for v in serves):
        raise SystemExit(f"--serve {args.serve}: not all of the {args.family} family")
    h1, h2 = (int(x) for x in args.hidden.split(","))
    data = load(args.data, args.family)
    train, held = split(data, args.holdout)
    if args.share < 1.0:  # a learning curve: the same held-out deals, fewer to learn from
        kept = np.unique(data.deal[train])
        kept = kept[: max(1, round(len(kept) * args.share))]
        train = train[np.isin(data.deal[train], kept)]
    if not len(train) or not len(held):
        raise SystemExit(f"{data.decisions} decisions: too few to train and hold some out")
    print(
        f"{args.family}: {data.decisions} decisions, {len(data.values)} candidates; "
        f"{len(train)} to train, {len(held)} held out ({len(set(data.deal[held].tolist()))} deals)"
    )
    n_agree, n_regret = normal_baseline(data, held)
    print(f"  normal robot's card on the held-out: top-1 {n_agree:.1%}, regret {n_regret:.4f}")
    rng = np.random.default_rng(args.seed)
    net = Net((h1, h2), rng)
    best: tuple[float, dict[str, Floats], Scores, int] | None = None
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter()
        order = rng.permutation(train)
        total = 0.0
        for lo in range(0, len(order), args.batch):
            chunk = order[lo : lo + args.batch]
            batch = batch_of(data, chunk, args.temperature, rng if args.relabel else None)
            total += net.step(batch, args.lr, args.decay) * len(chunk)
        held_scores = evaluate(net, data, held, args.temperature)
        print(
            f"  epoch {epoch:3d}: train loss {total / len(train):.4f}, held-out loss "
            f"{held_scores.loss:.4f}, top-1 {held_scores.agree:.1%}, regret "
            f"{held_scores.regret:.4f}  ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        if best is None or held_scores.loss < best[0]:
            best = (held_scores.loss, {k: v.copy() for k, v in net.p.items()}, held_scores, epoch)
    assert best is not None
    _, weights, scores, epoch = best
    out = args.out if args.out is not None else weights_path(args.family)
    arrays: dict[str, npt.NDArray[Any]] = {
        **{k: v.astype(np.float32) for k, v in weights.items()},
        "features": np.array(FEATURES),
        "temperature": np.array(args.temperature),
        "decisions": np.array(data.decisions),
        "epoch": np.array(epoch),
        "held_top1": np.array(scores.agree),
        "serves": np.array(serves, dtype=str),
    }
    np.savez_compressed(out, **arrays)  # pyright: ignore[reportArgumentType]
    print(
        f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB): epoch {epoch}, held-out top-1 "
        f"{scores.agree:.1%}, regret {scores.regret:.4f}"
    )


if __name__ == "__main__":
    main()
