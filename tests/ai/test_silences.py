"""What the hard robot reads from silences: a side that won a trick and sang nothing holds no
pair it could have sung; a habanero trick winner that did not exchange holds no card to
exchange. Checked against the real hands of games where every seat declares whenever it
may (the normal robot does, as players do)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.ai import Level, choose_action
from bot.ai.knowledge import Knowledge, infer, sample_hands, silences
from bot.engine import Deal, Options, Scoring, SeatView, Variant, seat_view, shuffle_deal
from bot.engine.cards import KING, KNIGHT, card
from tests.ai.helpers import move


def _moments(variant: Variant, options: Options, seed: int) -> Iterator[tuple[Deal, SeatView]]:
    """Every seat's view before every action of a deal the normal robots play."""
    rng = random.Random(seed)
    r = Deal(shuffle_deal(variant, options, seed % variant.players, rng, None))
    while not r.finished:
        for seat in range(r.n):
            yield r, seat_view(r, seat)
        move(r, lambda seat: choose_action(seat_view(r, seat), Level.NORMAL, rng))


def _holds_against(r: Deal, know: Knowledge) -> None:
    for seat in range(r.n):
        if seat == know.seat:
            continue
        hidden = r.hands[seat] & ~know.known[seat]
        assert not r.hands[seat] & know.void[seat], f"seat {seat} holds a card said void"
        for mask, most in know.limits[seat]:
            assert (hidden & mask).bit_count() <= most, f"seat {seat} breaks a limit"


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_silences_never_contradict_the_real_hands(variant: Variant) -> None:
    tighter = 0
    for seed in range(12):
        for r, view in _moments(variant, Options(), seed):
            before = infer(view)
            after = silences(view, before)
            _holds_against(r, after)
            assert after.known == before.known and after.unseen == before.unseen
            tighter += after != before
    if variant is not Variant.ARRASTRADO:  # arrastrado's winners sing too rarely to count on
        assert tighter > 10


def _first_silent_pair(seed: int) -> tuple[Deal, SeatView, Knowledge, int, int] | None:
    """The first moment seat 0 learns that an opponent holds no pair of a suit: the deal,
    the view, what it knows, the opponent and the suit."""
    for r, view in _moments(Variant.PAIRS, Options(), seed):
        if view.seat != 0:
            continue
        know = silences(view, infer(view))
        for seat in (1, 3):
            for mask, most in know.limits[seat]:
                if most == 1 and mask.bit_count() == 2:
                    suit = (mask.bit_length() - 1) // 10
                    if mask == 1 << card(KING, suit) | 1 << card(KNIGHT, suit):
                        return r, view, know, seat, suit
    return None


def test_no_sampled_deal_gives_a_pair_to_a_side_that_stayed_silent() -> None:
    found = next(x for x in (_first_silent_pair(seed) for seed in range(20)) if x is not None)
    r, view, know, seat, suit = found
    pair = 1 << card(KING, suit) | 1 << card(KNIGHT, suit)
    assert infer(view).limits[seat] == ()  # the rule of play alone says nothing of it
    for n in range(200):
        hands, _ = sample_hands(know, random.Random(n))
        assert hands[seat] & pair != pair
        assert hands[view.seat] == r.hands[view.seat]


def test_nothing_is_read_from_silences_under_sixty_five() -> None:
    # there a cante raises the side's bar: keeping quiet says nothing of the hand
    options = Options(scoring=Scoring.SIXTY_FIVE)
    for seed in range(6):
        for _, view in _moments(Variant.PAIRS, options, seed):
            before = infer(view)
            assert silences(view, before) == before
