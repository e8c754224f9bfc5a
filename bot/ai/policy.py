"""The policy network: a small network, trained on the hard robot's own searches, that
scores each legal card from the seat's own view (``features``).

It plays the cards of the hard search's playouts in ``search.POLICY`` (every seat of a
sampled deal choosing from its own view: its hand and what is public, never another
seat's hand), in place of the heuristic that sees every card. The weights are package
data, one file per family of variants (``policy_<family>.npz``), trained by
``benchmarks/train_policy.py`` on the data of ``benchmarks/policy_data.py``; without a
file for a family the playouts keep the heuristic.

The network: ``features.FEATURES`` inputs, two hidden layers (ReLU), one score a card;
the first layer is split into the state's rows, computed once a decision, and the
candidate's rows, computed once a card. Inference is numpy, batched over every playout
that waits for a card.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

# The network's matrices are small and the robots think one process a core: numpy's
# own threads would only fight them for it (set before numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from bot.engine.actions import Action, Kind
from bot.engine.cards import cards_of
from bot.engine.deal import Deal
from bot.engine.events import Phase
from bot.engine.variants import Variant

from .declarations import declare_in_playout
from .exact import affordable
from .features import (
    FEATURES,
    MASKS,
    STATE,
    FloatArray,
    Parts,
    Public,
    parts,
    unpack,
)
from .heuristic import playout_card
from .playout_features import Reader, parts_of_deals

FAMILIES: Final = {
    Variant.HABANERO: "habanero",
    Variant.ARRASTRADO: "table",
    Variant.INDIVIDUAL: "table",
    Variant.PAIRS: "table",
}
"""Which network plays each variant: habanero's two seats and its stock apart, the
variants of three and four seats together (the features say which variant it is)."""

WEIGHTS_DIR: Final = Path(__file__).parent
POLICY_BATCH: Final = 4
"""Sampled deals played out together (after the first, alone): with every candidate of
each, a few dozen playouts a batch, and the search stops at most a batch late."""
_PLAY: Final = Kind.PLAY
_AUCTION: Final = Phase.AUCTION


def weights_path(family: str, folder: Path = WEIGHTS_DIR) -> Path:
    return folder / f"policy_{family}.npz"


class PolicyNet:
    """The weights of one family's network, and its forward pass."""

    __slots__ = (
        "b1",
        "b2",
        "b3",
        "serves",
        "w1c",
        "w1card",
        "w1cn",
        "w1m",
        "w1n",
        "w1s",
        "w2",
        "w3",
    )

    def __init__(self, arrays: dict[str, npt.NDArray[np.float32]]) -> None:
        w1 = arrays["w1"].astype(np.float32)
        if w1.shape[0] != FEATURES:
            raise ValueError(f"weights for {w1.shape[0]} features, the robot reads {FEATURES}")
        self.w1s = np.ascontiguousarray(w1[:STATE])
        self.w1c = np.ascontiguousarray(w1[STATE:])
        # The same rows apart: the state's card masks and its numbers, the candidate's
        # card (one row a card, no product needed) and its numbers.
        self.w1m = np.ascontiguousarray(w1[: MASKS * 40])
        self.w1n = np.ascontiguousarray(w1[MASKS * 40 : STATE])
        self.w1card = np.ascontiguousarray(w1[STATE : STATE + 40])
        self.w1cn = np.ascontiguousarray(w1[STATE + 40 :])
        self.b1 = arrays["b1"].astype(np.float32)
        self.w2 = arrays["w2"].astype(np.float32)
        self.b2 = arrays["b2"].astype(np.float32)
        self.w3 = arrays["w3"].astype(np.float32).reshape(-1)
        self.b3 = float(np.asarray(arrays["b3"]).reshape(-1)[0])
        self.serves: frozenset[str] = frozenset(
            str(v) for v in np.asarray(arrays.get("serves", np.array([], dtype=str))).tolist()
        )
        """The variants the robots play it in (``Variant`` values): those where it measured
        no weaker than the heuristic's playouts. Written by the trainer's ``--serve``."""

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        with np.load(path) as data:
            return cls({name: data[name] for name in data.files})

    @property
    def weights(self) -> int:
        return sum(a.size for a in (self.w1s, self.w1c, self.b1, self.w2, self.b2, self.w3)) + 1

    def scores(self, rows: FloatArray) -> FloatArray:
        """The score of each row of ``features.encode`` (state then candidate)."""
        states = rows[:, :STATE]
        cands = rows[:, STATE:]
        return self.scores_split(states, np.arange(len(rows)), cands)

    def scores_split(
        self, states: FloatArray, owner: npt.NDArray[np.intp], cands: FloatArray
    ) -> FloatArray:
        """The scores of candidates ``cands``, candidate ``i`` of decision ``owner[i]``
        whose state is ``states[owner[i]]``: the state's share of the first layer is
        computed once a decision."""
        h = (states @ self.w1s)[owner]
        h += cands @ self.w1c
        return self._above(h)

    def scores_of(self, encoded: Parts) -> FloatArray:
        """``scores_split`` of decisions in compact form, without building their rows:
        the masks' bits times their rows, and each candidate's card row picked, not
        multiplied (equal up to the floats' rounding)."""
        n = len(encoded.state_masks)
        h_state = unpack(encoded.state_masks).reshape(n, MASKS * 40) @ self.w1m
        h_state += encoded.state_numbers @ self.w1n
        h = h_state[encoded.owner]
        h += self.w1card[np.frexp(encoded.cand_masks.astype(np.float64))[1] - 1]
        h += encoded.cand_numbers @ self.w1cn
        return self._above(h)

    def _above(self, h: FloatArray) -> FloatArray:
        """The first layer's sums ``h`` (before its bias) through the rest of the network."""
        h += self.b1
        np.maximum(h, 0.0, out=h)
        h2 = h @ self.w2
        h2 += self.b2
        np.maximum(h2, 0.0, out=h2)
        return (h2 @ self.w3 + np.float32(self.b3)).astype(np.float32, copy=False)


def net_for(variant: Variant, folder: Path = WEIGHTS_DIR) -> PolicyNet | None:
    """The network of ``variant``'s family, loaded once; None without its weights, or
    where they are not to serve ``variant`` (``PolicyNet.serves``)."""
    net = _family_net(FAMILIES[variant], folder)
    return net if net is not None and variant.value in net.serves else None


@functools.cache
def _family_net(family: str, folder: Path) -> PolicyNet | None:
    path = weights_path(family, folder)
    return PolicyNet.load(path) if path.exists() else None


def choose_many(net: PolicyNet, decisions: Sequence[tuple[Public, int]]) -> list[int]:
    """The best-scoring card of each decision: a seat's state and its play mask."""
    listed: list[tuple[Public, list[int]]] = []
    for p, legal in decisions:
        listed.append((p, cards_of(legal)))
    return _best(net, parts(listed), [cards for _, cards in listed])


def choose_in_deals(net: PolicyNet, decisions: Sequence[tuple[Deal, Reader, int]]) -> list[int]:
    """``choose_many`` for the seat on turn of each deal, its play mask given, its state
    read straight from the deal (``features.parts_of_deals``) and not through ``Public``."""
    listed: list[tuple[Deal, Reader, list[int]]] = []
    for r, reader, legal in decisions:
        listed.append((r, reader, cards_of(legal)))
    return _best(net, parts_of_deals(listed), [cards for _, _, cards in listed])


def _best(net: PolicyNet, encoded: Parts, choices: list[list[int]]) -> list[int]:
    scores: list[float] = net.scores_of(encoded).tolist()
    best: list[int] = []
    at = 0
    for cards in choices:
        top = at
        for i in range(at + 1, at + len(cards)):
            if scores[i] > scores[top]:
                top = i  # the first of equal scores, as numpy's argmax
        best.append(cards[top - at])
        at += len(cards)
    return best


def play_out(
    deals: list[Deal],
    net: PolicyNet,
    ends: tuple[int, Callable[[Deal], None]] | None = None,
    stop: Callable[[], bool] | None = None,
    follows: bool = True,
) -> bool:
    """Play every deal of ``deals`` to the end, the network choosing each seat's card from
    that seat's own view, all the deals waiting for a card scored in one batch (without
    ``follows``, only each trick's lead: the heuristic plays the cards that follow). With
    ``ends = (tricks, finish)``, a deal with nothing left to draw and at most ``tricks``
    tricks left, at a trick's start, is handed to ``finish`` (the search's exact ends).
    ``stop`` is asked before each batch of cards: once it says so, the deals are left
    unfinished and the answer is False."""
    live = deals
    read = {id(r): Reader(r) for r in deals}
    while live:
        waiting: list[tuple[Deal, Reader, int]] = []
        asked: list[Deal] = []
        for r in live:
            if _advance(r, ends, follows):
                continue
            waiting.append((r, read[id(r)], r.play_mask()))
            asked.append(r)
        if not asked:
            return True
        if stop is not None and stop():
            return False
        for r, c in zip(asked, choose_in_deals(net, waiting), strict=True):
            r.apply(Action.play(r.turn, c))
        live = asked
    return True


def _advance(r: Deal, ends: tuple[int, Callable[[Deal], None]] | None, follows: bool) -> bool:
    """Play ``r``'s moves that need no network (passes, the playouts' declarations, a
    card that is the only one; the heuristic's card without ``follows`` for a card that
    follows in a trick, and once a stock is gone); True once the deal is over (``ends``
    may finish it)."""
    while not r.finished:
        if r.phase is _AUCTION:
            r.apply(Action.simple(r.turn, Kind.PASS))
            continue
        if r.sing_side >= 0 and declare_in_playout(r):
            continue
        m = r.play_mask()
        if not m & m - 1:
            r.apply(Action.play(r.turn, m.bit_length() - 1))
            continue
        if (not follows and r.trick) or (not r.to_draw and r.variant.has_stock):
            # habanero with the stock gone: every card is known at the root there, and the
            # hard robot plays it exactly, so the network never learned such a position
            r.apply(Action.play(r.turn, playout_card(r, m)))
            continue
        if ends is not None and not r.trick and affordable(r, ends[0] * r.players):
            ends[1](r)
            return True
        return False
    return True
