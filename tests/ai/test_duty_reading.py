"""The robots read the duty through the engine: what their helpers compute from it (who
can take a trick, what a seat showed it lacked, the endgame's answers) agrees with what
``Deal.legal_actions()`` allows, in seeded random states of every variant and option."""

from __future__ import annotations

import pytest

from bot.ai.heuristic import Beliefs, round_situation, view_situation
from bot.ai.knowledge import infer
from bot.ai.solver import follow_mask
from bot.engine import Deal, Kind, Options, Variant, seat_view
from bot.engine.cards import TAKERS, beats, cards_of, mask_of
from bot.engine.duty import duty_tiers, playable
from tests.engine.helpers import DUTY_CASES, random_states


def legal_mask(r: Deal) -> int:
    return mask_of(a.arg for a in r.legal_actions() if a.kind is Kind.PLAY)


def partner_spared(r: Deal) -> bool:
    holder = r.best_seat
    return (
        not r.options.beat_partner and holder != r.turn and r.side_of[holder] == r.side_of[r.turn]
    )


def check_taking(r: Deal, legal: int) -> None:
    """Whether the seat on turn can take the trick: in the playouts (``playable``), with
    beliefs that know every card (``Beliefs.p_take``), and by the legal plays."""
    st = round_situation(r, legal)
    view_st = view_situation(seat_view(r, r.turn))
    assert (view_st.legal, view_st.duty) == (st.legal, st.duty) == (legal, r.duty)
    led = r.trick[0] // 10
    over = TAKERS[r.trump][r.best_card]
    can_take = any(beats(c, r.best_card, r.trump) for c in cards_of(legal))
    spare = partner_spared(r)
    hand = r.hands[r.turn]
    args = (led, r.best_card, r.trump, r.duty, r.options.undertrump, spare)
    assert bool(playable(hand, *args) & over) == can_take
    everyone = Beliefs(tuple(r.hands), [0] * r.n, [0] * r.n, 0)
    assert everyone.p_take(r.turn, duty_tiers(*args), over) == (1.0 if can_take else 0.0)


def check_knowledge(r: Deal) -> None:
    """What each seat infers the others lack (from the duty at every play so far), they
    do lack."""
    for viewer in range(r.n):
        know = infer(seat_view(r, viewer))
        for seat in range(r.n):
            if seat == viewer:
                continue
            held = r.hands[seat]
            assert not know.void[seat] & held, (viewer, seat)
            for mask, most in know.limits[seat]:
                assert (held & know.unseen & mask).bit_count() <= most, (viewer, seat)


@pytest.mark.parametrize(
    ("variant", "options"), DUTY_CASES, ids=[f"{v.value}-{o.to_dict()}" for v, o in DUTY_CASES]
)
def test_the_robots_read_the_duty_as_the_engine_applies_it(
    variant: Variant, options: Options
) -> None:
    followed = 0
    for seed in range(8):
        for r in random_states(variant, options, seed):
            legal = legal_mask(r)
            if r.trick:
                check_taking(r, legal)
            if variant is Variant.HABANERO and not r.stock_left and len(r.trick) == 1:
                assert follow_mask(r.hands[r.turn], r.trick[0], r.trump) == legal
                followed += 1
            if len(r.trick) == r.n - 1:  # once a trick, every seat's inferences
                check_knowledge(r)
    assert followed or variant is not Variant.HABANERO
