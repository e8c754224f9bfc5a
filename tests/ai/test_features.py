"""What the policy network reads: a seat's own view, never another seat's cards."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable

import numpy as np
import pytest

from bot.ai.features import (
    FEATURES,
    Public,
    Tricks,
    candidate_parts,
    encode,
    parts,
    public_of_deal,
    public_of_view,
    relabelled,
    state_parts,
)
from bot.ai.knowledge import infer, sample_world
from bot.ai.playout_features import Reader, candidates_of, decision_parts, parts_of_deals
from bot.ai.policy import choose_in_deals, choose_many
from bot.engine import Deal, Variant, seat_view
from bot.engine.cards import cards_of
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


@pytest.mark.parametrize("variant", list(Variant))
def test_the_playouts_fast_reading_gives_each_seat_the_same_features(variant: Variant) -> None:
    for seed in range(10):
        seen = positions(variant, seed)
        reader = Reader(seen[0])
        for r in seen:
            for seat in range(r.n):
                if r.side_of[seat] < 0:
                    continue
                cards = [c for c in range(40) if r.hands[seat] >> c & 1]
                p = public_of_deal(r, seat)
                masks: list[int] = []
                numbers: list[float] = []
                cand_masks: list[int] = []
                cand_numbers: list[float] = []
                context = decision_parts(r, seat, reader, masks, numbers)
                candidates_of(context, cards, cand_masks, cand_numbers)
                want_masks, want_numbers = state_parts(p)
                assert masks == want_masks
                assert numbers == want_numbers
                assert cand_masks == [1 << ((c // 10 - r.trump) % 4 * 10 + c % 10) for c in cards]
                assert cand_numbers == [x for row in candidate_parts(p, cards) for x in row]


@pytest.mark.parametrize("variant", list(Variant))
def test_the_playouts_fast_reading_chooses_the_cards_the_reference_chooses(
    variant: Variant,
) -> None:
    net = random_net()
    deals = [positions(variant, seed) for seed in range(6)]
    readers = [Reader(seen[0]) for seen in deals]
    for step in range(max(len(seen) for seen in deals)):
        batch = [
            (seen[step], reader)
            for seen, reader in zip(deals, readers, strict=True)
            if step < len(seen) and seen[step].phase is Phase.PLAY
        ]
        if not batch:
            continue
        fast = parts_of_deals(
            [(r, reader, [c for c in range(40) if r.play_mask() >> c & 1]) for r, reader in batch]
        )
        slow = parts(
            [
                (public_of_deal(r, r.turn), [c for c in range(40) if r.play_mask() >> c & 1])
                for r, _ in batch
            ]
        )
        np.testing.assert_array_equal(fast.rows(), slow.rows())
        np.testing.assert_array_equal(fast.owner, slow.owner)
        assert choose_in_deals(net, [(r, reader, r.play_mask()) for r, reader in batch]) == (
            choose_many(net, [(public_of_deal(r, r.turn), r.play_mask()) for r, _ in batch])
        )


def _relabel(p: Public, order: tuple[int, int, int]) -> tuple[Public, Callable[[int], int]]:
    """``p`` with its suits other than trumps relabelled as ``relabelled(order)`` says
    (suits counted from trumps), and the card each card becomes."""
    t = p.trump
    new_of = {(t + k) % 4: (t + 1 + order.index(k)) % 4 for k in (1, 2, 3)} | {t: t}

    def moved(c: int) -> int:
        return new_of[c // 10] * 10 + c % 10

    def mask(m: int) -> int:
        return sum(1 << moved(c) for c in range(40) if m >> c & 1)

    def suits(m: int) -> int:
        return sum(1 << new_of[s] for s in range(4) if m >> s & 1)

    return (
        dataclasses.replace(
            p,
            hand=mask(p.hand),
            trick=tuple(moved(c) for c in p.trick),
            partner_trick=mask(p.partner_trick),
            gone=mask(p.gone),
            turned=moved(p.turned) if p.turned >= 0 else -1,
            known=(mask(p.known[0]), mask(p.known[1]), mask(p.known[2])),
            voids=(suits(p.voids[0]), suits(p.voids[1]), suits(p.voids[2])),
            sung=suits(p.sung),
        ),
        moved,
    )


@pytest.mark.parametrize("variant", list(Variant))
def test_the_other_suits_relabelled_are_the_same_rows_with_columns_moved(
    variant: Variant,
) -> None:
    checked = 0
    for seed in range(3):
        for r in positions(variant, seed)[::3]:
            if r.phase is not Phase.PLAY or r.finished:
                continue
            p = public_of_deal(r, r.turn)
            cards = cards_of(r.play_mask())
            rows = encode(p, cards)
            for a, b, c in itertools.permutations((1, 2, 3)):
                order = (a, b, c)
                q, moved = _relabel(p, order)
                assert np.array_equal(
                    encode(q, [moved(c) for c in cards]), rows[:, relabelled(order)]
                )
                checked += 1
    assert checked > 30
