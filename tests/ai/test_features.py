"""What the policy network reads: a seat's own view, never another seat's cards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.features import FEATURES, Tricks, encode, public_of_deal, public_of_view
from bot.ai.knowledge import infer, sample_world
from bot.ai.policy import choose_many
from bot.engine import Deal, Variant, seat_view
from bot.engine.events import Phase

from .policy_helpers import heuristic_step, positions, random_net


@pytest.mark.parametrize("variant", list(Variant))
def test_a_seats_state_read_from_the_deal_is_the_one_its_view_gives(variant: Variant) -> None:
    for seed in range(3):
        memos = {}
        for r in positions(variant, seed):
            for seat in range(r.n):
                if r.side_of[seat] < 0:
                    continue
                memo = memos.setdefault(seat, Tricks())
                from_view = public_of_view(seat_view(r, seat))
                assert public_of_deal(r, seat) == from_view
                assert public_of_deal(r, seat, memo) == from_view


def two_worlds(variant: Variant, seed: int, cards_played: int) -> tuple[Deal, Deal, int]:
    """A position and another deal that differs from it only in cards the seat on turn
    cannot see (the other hands and the stock), and that seat."""
    r = positions(variant, seed)[cards_played]
    while r.phase is not Phase.PLAY or r.play_mask() & (r.play_mask() - 1) == 0:
        heuristic_step(r)
    view = seat_view(r, r.turn)
    rng = random.Random(seed)
    for _ in range(50):
        other = sample_world(view, infer(view), rng)
        if [h for s, h in enumerate(other.hands) if s != r.turn] != [
            h for s, h in enumerate(r.hands) if s != r.turn
        ]:
            return r, other, r.turn
    raise AssertionError("no other world found")


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("cards_played", [0, 9])
def test_the_cards_a_seat_cannot_see_never_change_its_features(
    variant: Variant, cards_played: int
) -> None:
    r, other, seat = two_worlds(variant, 4, cards_played)
    cards = [c for c in range(40) if r.play_mask() >> c & 1]
    here = encode(public_of_deal(r, seat), cards)
    there = encode(public_of_deal(other, seat), cards)
    assert here.shape == (len(cards), FEATURES)
    np.testing.assert_array_equal(here, there)
    net = random_net()
    mask = r.play_mask()
    assert choose_many(net, [(public_of_deal(r, seat), mask)]) == choose_many(
        net, [(public_of_deal(other, seat), mask)]
    )


def test_another_seats_features_do_change_with_its_own_hand() -> None:
    r, other, seat = two_worlds(Variant.PAIRS, 4, 0)
    rival = next(s for s in range(r.n) if s != seat and r.hands[s] != other.hands[s])
    assert not np.array_equal(
        encode(public_of_deal(r, rival), [0]), encode(public_of_deal(other, rival), [0])
    )
