"""What a seat infers from its view, and the deals sampled from it."""

from __future__ import annotations

import random

from bot.ai.knowledge import Knowledge, infer, sample_hands, sample_world
from bot.engine import Deal, Kind, Options, Variant, seat_view, shuffle_deal
from bot.engine.cards import SUIT_MASK, mask_of
from tests.engine.helpers import build, cards, play

OROS, COPAS, ESPADAS, BASTOS = 0, 1, 2, 3


def pairs_deal() -> Deal:
    """Oros are trumps; seat 2 holds no copas; seat 3 holds every copa above the 7."""
    hands = {
        0: "2O 4O 5O 6O 2E 4E 5E 6E 7E 10E",
        1: "1C 2C 4C 7O 10O 11E 12E 3E 1E 2B",
        2: "12O 11O 3O 4B 5B 6B 7B 10B 11B 12B",
        3: "3C 12C 11C 10C 7C 6C 5C 1O 3B 1B",
    }
    return build(Variant.PAIRS, hands, "2O", dealer=0)


def test_a_seat_that_does_not_follow_lacks_the_suit() -> None:
    r = pairs_deal()
    play(r, "1C", "3O")  # seat 2 has no copas and must trump
    play(r, "5C")  # seat 3 follows under a trump: no duty to beat
    view = seat_view(r, 0)
    know = infer(view)
    assert know.void[2] & know.unseen & SUIT_MASK[COPAS] == SUIT_MASK[COPAS] & know.unseen
    assert not know.void[3] & SUIT_MASK[COPAS]
    assert know.known[0] == mask_of(view.hand)
    assert know.hidden == (0, 9, 9, 9)
    for seed in range(50):
        hands, stock = sample_hands(know, random.Random(seed))
        assert not stock
        assert not hands[2] & SUIT_MASK[COPAS]
        assert [h.bit_count() for h in hands] == [10, 9, 9, 9]
        assert hands[0] == mask_of(view.hand)
        everything = 0
        for h in hands:
            assert not everything & h
            everything |= h
        assert everything | know.played == (1 << 40) - 1


def test_a_seat_that_does_not_beat_when_it_must_holds_nothing_higher() -> None:
    hands = {
        0: "2O 4O 5O 6O 6E 7E 10E 11E 12E 1C",
        1: "5E 3E 1E 2C 4C 5C 6C 7C 10C 11C",
        2: "4E 2E 7O 10O 11O 12O 3O 1O 12C 3C",
        3: "2B 4B 5B 6B 7B 10B 11B 12B 3B 1B",
    }
    r = build(Variant.PAIRS, hands, "2O", dealer=0)
    play(r, "5E", "4E")  # seat 2 follows under the 5E: it holds no espada above it
    play(r, "2B")  # seat 3 neither follows nor trumps: no espadas, no oros
    view = seat_view(r, 0)
    know = infer(view)
    above = mask_of(cards("3E 1E"))
    assert know.void[2] & above == above
    assert know.void[3] & (SUIT_MASK[ESPADAS] | SUIT_MASK[OROS]) & know.unseen == (
        (SUIT_MASK[ESPADAS] | SUIT_MASK[OROS]) & know.unseen
    )
    for seed in range(50):
        sampled, _ = sample_hands(know, random.Random(seed))
        assert sampled[1] & above == above  # nobody else may hold them
        assert not sampled[3] & (SUIT_MASK[ESPADAS] | SUIT_MASK[OROS])


def test_habanero_once_the_stock_is_empty_every_card_is_known() -> None:
    r = build(Variant.HABANERO, {}, "4O", dealer=0)
    rng = random.Random(3)
    while r.stock_left:
        plays = [a for a in r.legal_actions() if a.kind is Kind.PLAY]
        r.apply(rng.choice(plays))
    for seat in (0, 1):
        know = infer(seat_view(r, seat))
        assert know.unseen == 0 and know.stock_hidden == 0
        assert know.known[1 - seat] == r.hands[1 - seat]


def test_sampled_worlds_agree_with_the_view() -> None:
    r = build(Variant.HABANERO, {1: "12C 11C 1B"}, "4O", dealer=0, options=Options())
    play(r, "1B")
    view = seat_view(r, 0)
    know = infer(view)
    assert know.stock_hidden == view.stock_left - 1
    for seed in range(20):
        world = sample_world(view, know, random.Random(seed))
        assert seat_view(world, 0).hand == view.hand
        assert world.hands[1].bit_count() == view.hand_sizes[1]
        assert len(world.stock) == know.stock_hidden
        assert sorted(world.legal_actions(), key=lambda a: a.sort_key) == sorted(
            r.legal_actions(), key=lambda a: a.sort_key
        )


def test_cards_shown_by_a_cante_are_placed() -> None:
    r = build(Variant.HABANERO, {1: "1B 12C 11C", 0: "2B"}, "4O", dealer=0)
    play(r, "1B", "2B")
    r.apply(next(a for a in r.legal_actions() if a.kind is Kind.SING))
    know = infer(seat_view(r, 0))
    assert know.known[1] == mask_of(cards("12C 11C"))
    for seed in range(10):
        hands, _ = sample_hands(know, random.Random(seed))
        assert hands[1] & know.known[1] == know.known[1]


def test_every_card_is_accounted_for_in_every_variant() -> None:
    """At every step of easy games, for every seat: the unseen cards are exactly the ones
    the other hands and the face-down stock still hide, and a sampled deal rebuilds the
    same legal actions."""
    from .test_games import OPTION_SETS

    for index, (variant, options) in enumerate(OPTION_SETS):
        rng = random.Random(index)
        r = Deal(shuffle_deal(variant, options, index % variant.players, rng))
        while not r.finished:
            for seat in range(r.n):
                view = seat_view(r, seat)
                know = infer(view)
                assert sum(know.hidden) + know.stock_hidden == know.unseen.bit_count()
                truth = 0
                for other in range(r.n):
                    if other != seat:
                        truth |= r.hands[other]
                truth |= mask_of(r.stock)
                assert know.unseen | _known_others(know) == truth
                if seat == r.turn:
                    world = sample_world(view, know, rng)
                    assert {a for a in world.legal_actions() if a.seat == seat} == set(view.legal)
            legal = r.legal_actions()
            plays = [a for a in legal if a.kind in (Kind.PLAY, Kind.PASS, Kind.SING)]
            r.apply(rng.choice(plays))


def _known_others(know: Knowledge) -> int:
    known = 0
    for seat, mask in enumerate(know.known):
        if seat != know.seat:
            known |= mask
    return known
