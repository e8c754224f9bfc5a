"""``Deal.refusal`` says, without changing the deal, exactly what ``apply`` would: None for
every legal action, else the same error (reason, params, message), in seeded random states
of every variant, for every seat and every kind of action."""

from __future__ import annotations

import random
from collections.abc import Iterator
from operator import attrgetter

import pytest

from bot.engine import (
    Action,
    Deal,
    IllegalActionError,
    Kind,
    Options,
    Scoring,
    Variant,
    shuffle_deal,
)
from bot.engine.actions import MAX_BID, MAX_SEATS, MIN_BID
from bot.engine.cards import cards_of

from .helpers import DUTY_CASES

CASES: list[tuple[Variant, Options, bool]] = [
    *((variant, options, False) for variant, options in DUTY_CASES),
    (Variant.HABANERO, Options(allow_tute=True), True),  # a carry: the target may be claimed
    (Variant.HABANERO, Options(scoring=Scoring.SIXTY_FIVE, capote=False), False),
    (Variant.ARRASTRADO, Options(plato=True, exchange=False), False),
    (Variant.PAIRS, Options(scoring=Scoring.SIXTY_FIVE), False),
]
"""Every variant, and the options that open or close a kind of action; ``True``: a second
deal of a habanero game, with scores carried."""

SEEDS = 4
ENDINGS = (Kind.TUTE, Kind.CLAIM, Kind.RESIGN)
SIMPLE = (Kind.TUTE, Kind.EXCHANGE, Kind.CAPOTE, Kind.CLAIM, Kind.RESIGN, Kind.PASS)


def walk(variant: Variant, options: Options, carry: bool, seed: int) -> Iterator[Deal]:
    """A seeded random deal, stopped before every action and once it is over: mostly
    plays, often a declaration or a bid, now and then one that ends the deal."""
    rng = random.Random(seed)
    dealer = rng.randrange(variant.players)
    scores = (rng.randrange(100), rng.randrange(100)) if carry else None
    deal = Deal(shuffle_deal(variant, options, dealer, rng, scores))
    while not deal.finished:
        yield deal
        legal = deal.legal_actions()
        plays = [a for a in legal if a.kind is Kind.PLAY or a.kind is Kind.PASS]
        endings = [a for a in legal if a.kind in ENDINGS]
        others = [a for a in legal if a not in plays and a not in endings]
        pick = rng.random()
        if endings and pick < 0.03:
            deal.apply(rng.choice(endings))
        elif others and (pick < 0.5 or not plays):
            deal.apply(rng.choice(others))
        else:
            deal.apply(rng.choice(plays))
    yield deal


def tried(deal: Deal) -> set[Action]:
    """The legal actions, and for every seat (those the variant lacks too): a play of every
    card of every hand and of the trick, every sing, every other declaration, the pass and
    the bids around the highest."""
    actions = set(deal.legal_actions())
    every_card = [c for hand in deal.hands for c in cards_of(hand)] + deal.trick
    low = max(MIN_BID, deal.high_bid)
    bids = {MIN_BID, low, min(low + 1, MAX_BID), MAX_BID}
    for seat in range(MAX_SEATS):
        actions.update(Action.play(seat, c) for c in every_card)
        actions.update(Action.sing(seat, suit) for suit in range(4))
        actions.update(Action.simple(seat, kind) for kind in SIMPLE)
        actions.update(Action.bid(seat, points) for points in bids)
    return actions


held = attrgetter(*(name for name in Deal.__slots__ if name != "_pm"))
"""Everything the deal holds but the play mask it keeps for ``apply`` (its lists as they
are: they compare equal to a snapshot's copies while their contents are the same)."""


def state(deal: Deal) -> tuple[object, ...]:
    """A snapshot of what ``held`` reads, its lists copied."""
    return tuple(value[:] if isinstance(value, list) else value for value in held(deal))


def raised(scratch: Deal, action: Action) -> IllegalActionError | None:
    """What ``apply`` raises on ``scratch`` (a copy of the deal), or None where it applies
    (``scratch`` is then one action on)."""
    try:
        scratch.apply(action)
    except IllegalActionError as error:
        return error
    return None


@pytest.mark.parametrize(
    ("variant", "options", "carry"),
    CASES,
    ids=[f"{v.value}-{o.to_dict()}{'-carry' if c else ''}" for v, o, c in CASES],
)
def test_refusal_is_what_apply_raises(variant: Variant, options: Options, carry: bool) -> None:
    states = refused = 0
    reasons: set[str] = set()
    for seed in range(SEEDS):
        for deal in walk(variant, options, carry, seed):
            legal = set(deal.legal_actions())
            before = state(deal)
            scratch = deal.copy()  # copied again only once an action applied to it
            for action in tried(deal):
                refusal = deal.refusal(action)
                assert held(deal) == before, action
                error = raised(scratch, action)
                if action in legal:
                    assert refusal is None, (action, refusal)
                    assert error is None, (action, error)
                    scratch = deal.copy()
                    continue
                assert refusal is not None, action
                assert error is not None, action
                assert held(scratch) == before, action  # refused, it changed nothing
                assert (refusal.reason, refusal.params, str(refusal)) == (
                    error.reason,
                    error.params,
                    str(error),
                ), action
                reasons.add(refusal.reason)
                refused += 1
            states += 1
    assert states > 20 * SEEDS
    assert refused > states
    assert {"finished", "not_your_turn", "not_in_hand"} <= reasons
    assert ("no_seat" in reasons) == (variant.players < MAX_SEATS)


def test_every_reason_is_met() -> None:
    """Across the cases, the walk meets every refusal ``apply`` can give (but "not_now", a
    play outside the play phase, which the auction and the end refuse first)."""
    reasons: set[str] = set()
    for variant, options, carry in CASES:
        for deal in walk(variant, options, carry, 0):
            for action in tried(deal):
                refusal = deal.refusal(action)
                if refusal is not None:
                    reasons.add(refusal.reason)
    assert reasons >= {
        "finished",
        "no_seat",
        "not_your_turn",
        "not_in_hand",
        "must_follow",
        "must_beat",
        "must_trump",
        "must_overtrump",
        "must_answer_trump",
        "auction",
        "bid_low",
        "no_auction",
        # each declaration refused names the rule that closes it
        "sing_window",
        "one_cante",
        "stock_empty",
        "sung",
        "no_pair",
        "tute_off",
        "tute_after_cante",
        "no_tute",
        "exchange_off",
        "exchange_by_hand",
        "exchange_before_lead",
        "one_swap",
        "turned_gone",
        "not_exchangeable",
        "no_seven",
        "capote_off",
        "capote",
        "claim_off",
        "claim_first_deal",
        "claim",
        "resign_off",
        "resign_first_lead",
        "resign",
    }
