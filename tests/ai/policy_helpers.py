"""Positions and small random networks for the policy network's tests."""

from __future__ import annotations

import random

import numpy as np

from bot.ai.declarations import declare_in_playout
from bot.ai.features import FEATURES
from bot.ai.heuristic import playout_card
from bot.ai.policy import PolicyNet
from bot.engine import Action, Deal, Kind, Options, Variant, shuffle_deal
from bot.engine.events import Phase


def random_net(seed: int = 1, hidden: tuple[int, int] = (32, 16)) -> PolicyNet:
    rng = np.random.default_rng(seed)
    h1, h2 = hidden
    return PolicyNet(
        {
            "w1": rng.normal(0, 0.3, (FEATURES, h1)).astype(np.float32),
            "b1": rng.normal(0, 0.1, h1).astype(np.float32),
            "w2": rng.normal(0, 0.3, (h1, h2)).astype(np.float32),
            "b2": rng.normal(0, 0.1, h2).astype(np.float32),
            "w3": rng.normal(0, 0.3, (h2, 1)).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
    )


def heuristic_step(r: Deal) -> None:
    """One move of a deal by the playouts' heuristic (passes and declarations too)."""
    if r.phase is Phase.AUCTION:
        r.apply(Action.simple(r.turn, Kind.PASS))
    elif not (r.sing_side >= 0 and declare_in_playout(r)):
        r.apply(Action.play(r.turn, playout_card(r, r.play_mask())))


def positions(variant: Variant, seed: int) -> list[Deal]:
    """Every position of a seeded deal of ``variant`` played by the heuristic."""
    options = Options()
    r = Deal(shuffle_deal(variant, options, seed % options.seats_at(variant), random.Random(seed)))
    seen = [r.copy()]
    while not r.finished:
        heuristic_step(r)
        seen.append(r.copy())
    return seen
