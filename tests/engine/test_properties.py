"""Seeded random whole games per variant and option set, checking invariants against a
plain reference of the duty written straight from RULES.md."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    CODES,
    Deal,
    DealScore,
    ExchangeWindow,
    FortyFirst,
    Kind,
    NextDealer,
    Options,
    PairsSing,
    Scoring,
    SeatView,
    SingUntil,
    StockDuty,
    Variant,
    parse_options,
    parse_record,
    record_of,
    replay,
    seat_view,
    shuffle_deal,
)
from bot.engine.cards import POINTS, RANKS_BY_STRENGTH
from bot.engine.view import determinize

STRENGTH = {rank: i for i, rank in enumerate(RANKS_BY_STRENGTH)}


def _rank(code: str) -> int:
    return int(code[:-1])


def _suit(code: str) -> str:
    return code[-1]


def _beats(a: str, b: str) -> bool:
    return _suit(a) == _suit(b) and STRENGTH[_rank(a)] > STRENGTH[_rank(b)]


def reference_plays(r: Deal) -> set[str]:
    """The legal cards of the seat on turn, from RULES.md, over card codes."""
    hand = [CODES[c] for c in r.hand(r.turn)]
    trick = [CODES[c] for c in r.trick]
    if not trick:
        return set(hand)
    trump = "OCEB"[r.trump]
    led = _suit(trick[0])
    full = True
    if r.variant is Variant.HABANERO and r.stock_left:
        duty = r.options.stock_duty
        if duty is StockDuty.FREE:
            return set(hand)
        if duty is StockDuty.TRUMP:
            trumps = {c for c in hand if _suit(c) == trump}
            return trumps if led == trump and trumps else set(hand)
        full = duty is StockDuty.FULL
    assert full
    trumps_down = [c for c in trick if _suit(c) == trump]
    follow = [c for c in hand if _suit(c) == led]
    seats = [seat for seat, _ in r.trick_seats()]
    # who holds the trick now
    best_i = 0
    for i, c in enumerate(trick):
        b = trick[best_i]
        if _beats(c, b) or (_suit(c) == trump and _suit(b) != trump):
            best_i = i
    holder = seats[best_i]
    partner_holds = r.variant is Variant.PAIRS and holder != r.turn and holder % 2 == r.turn % 2
    if follow:
        if led == trump or not trumps_down:
            if not r.options.beat_partner and partner_holds:
                return set(follow)
            top = max((c for c in trick if _suit(c) == led), key=lambda c: STRENGTH[_rank(c)])
            higher = [c for c in follow if _beats(c, top)]
            return set(higher or follow)
        return set(follow)
    my_trumps = [c for c in hand if _suit(c) == trump]
    if my_trumps:
        if not trumps_down or not r.options.overtrump:
            return set(my_trumps)
        top = max(trumps_down, key=lambda c: STRENGTH[_rank(c)])
        higher = [c for c in my_trumps if _beats(c, top)]
        if higher:
            return set(higher)
        return set(my_trumps) if r.options.undertrump else set(hand)
    return set(hand)


OPTION_SETS: list[tuple[Variant, Options]] = [
    (Variant.HABANERO, Options()),
    (Variant.HABANERO, Options(stock_duty=StockDuty.TRUMP, allow_tute=True)),
    (Variant.HABANERO, Options(stock_duty=StockDuty.FULL, capote=False, exchange=False)),
    (Variant.HABANERO, Options(scoring=Scoring.SIXTY_FIVE)),
    (Variant.ARRASTRADO, Options()),
    (Variant.ARRASTRADO, Options(deck=36)),
    (Variant.ARRASTRADO, Options(plato=True, exchange=False)),
    (Variant.INDIVIDUAL, Options()),
    (Variant.INDIVIDUAL, Options(undertrump=True, allow_tute=False)),
    (Variant.PAIRS, Options()),
    (Variant.PAIRS, Options(beat_partner=False, undertrump=True)),
    (Variant.PAIRS, Options(scoring=Scoring.SIXTY_FIVE)),
    # house rules from the seeds (RULES.md), every option in at least one set
    (Variant.HABANERO, Options(forty_first=FortyFirst.STRICT, sing_drawn=False)),
    (
        Variant.HABANERO,
        Options(exchange_window=ExchangeWindow.BEFORE_DRAW, allow_tute=True, tute_knights=False),
    ),
    (
        Variant.HABANERO,
        Options(
            exchange_window=ExchangeWindow.ANNOUNCE,
            forty_first=FortyFirst.FREE,
            next_dealer=NextDealer.LAST_TEN,
        ),
    ),
    (Variant.HABANERO, parse_options(Variant.HABANERO, {"rules": "sixty-five"})),
    (Variant.ARRASTRADO, Options(auto_exchange=False, forty_first=FortyFirst.STRICT)),
    (Variant.ARRASTRADO, Options(seats=4)),
    (
        Variant.ARRASTRADO,
        parse_options(Variant.ARRASTRADO, {"rules": "fournier", "seats": 4, "plato": True}),
    ),
    (Variant.INDIVIDUAL, Options(tute_knights=False, forty_first=FortyFirst.FREE)),
    (Variant.PAIRS, parse_options(Variant.PAIRS, {"rules": "fournier"})),
    (Variant.PAIRS, parse_options(Variant.PAIRS, {"rules": "sixty-five"})),
    (Variant.HABANERO, parse_options(Variant.HABANERO, {"rules": "fournier"})),
    (Variant.HABANERO, parse_options(Variant.HABANERO, {"rules": "online"})),
    # the readings of issue #28: three options and two presets
    (Variant.PAIRS, parse_options(Variant.PAIRS, {"rules": "parejas"})),
    (Variant.HABANERO, parse_options(Variant.HABANERO, {"rules": "havanian", "allow_tute": True})),
    (Variant.INDIVIDUAL, Options(overtrump=False, sing_until=SingUntil.NEXT_TRICK)),
    (Variant.ARRASTRADO, parse_options(Variant.ARRASTRADO, {"rules": "online", "plato": True})),
    (Variant.PAIRS, Options(sing_until=SingUntil.NEXT_TRICK, pairs_sing=PairsSing.EACH)),
]


def play_random_game(variant: Variant, options: Options, seed: int, carry: bool) -> Deal:
    rng = random.Random(seed)
    dealer = rng.randrange(options.seats_at(variant))
    has_carry = (
        carry
        and variant is Variant.HABANERO
        and options.scoring is Scoring.MOST
        and options.deal_score is DealScore.TARGET
    )
    dealt = shuffle_deal(
        variant,
        options,
        dealer,
        rng,
        (rng.randrange(100), rng.randrange(100)) if has_carry else None,
    )
    r = Deal(dealt)
    deck_points = (
        sum(POINTS[c] for h in dealt.hands for c in h)
        + POINTS[dealt.turned] * (not dealt.turned_in_hand)
        + sum(POINTS[c] for c in dealt.stock)
    )
    assert deck_points == 120
    steps = 0
    while not r.finished:
        legal = r.legal_actions()
        assert legal, "a legal action always exists"
        assert any(a.seat == r.turn for a in legal), "the seat on turn can always act"
        plays = {CODES[a.arg] for a in legal if a.kind is Kind.PLAY}
        if plays:
            assert plays == reference_plays(r)
        for seat in range(r.n):
            view = seat_view(r, seat)
            assert set(view.hand) == set(r.hand(seat))
            _assert_no_leak(view, r, seat)
        # mostly plays; sometimes a declaration, rarely a claim or resignation
        others = [a for a in legal if a.kind is not Kind.PLAY]
        enders = {Kind.CLAIM, Kind.RESIGN, Kind.TUTE}
        keep = [a for a in others if a.kind not in enders or rng.random() < 0.05]
        pool = [a for a in legal if a.kind is Kind.PLAY or a in keep]
        if keep and rng.random() < 0.5:
            pool = keep
        r.apply(rng.choice(pool))
        steps += 1
        assert steps < 400
    return r


def _assert_no_leak(view: SeatView, r: Deal, seat: int) -> None:
    """Every card the view names is its own, or public: played, shown by a cante or an
    exchange, or the turned card."""
    shown = {c for _, c in view.shown}
    hidden = {c for other in range(r.n) if other != seat for c in r.hand(other)} | set(r.stock)
    hidden -= shown | {view.turned}
    named = set(view.hand) | {c for _, c in view.trick} | shown | {view.turned}
    named |= {c for t in view.tricks for c in t.cards}
    named |= {c for e in view.exchanges for c in (e.gave, e.took)}
    named |= {a.arg for a in (*view.history, *view.legal) if a.kind is Kind.PLAY}
    if view.table_card is not None:
        named.add(view.table_card)
    assert not named & hidden, "a view names a hidden card"
    assert all(a.seat == seat for a in view.legal)
    for s, c in view.shown:
        assert r.hands[s] >> c & 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(OPTION_SETS) - 1), seed=st.integers(0, 2**32), carry=st.booleans())
def test_random_games_keep_the_invariants(index: int, seed: int, carry: bool) -> None:
    variant, options = OPTION_SETS[index]
    r = play_random_game(variant, options, seed, carry)
    result = r.result
    assert result is not None
    played = [c for t in r.tricks for c in t.cards]
    assert len(played) == len(set(played)), "every card is played at most once"
    if result.end.value == "cards":
        in_play = (
            sum(len(h) for h in r.dealt.hands)
            + len(r.dealt.stock)
            + (0 if r.dealt.turned_in_hand else 1)
            - (1 if variant is Variant.ARRASTRADO and r.options.deck == 40 else 0)
        )
        assert len(played) == in_play, "every card is played once"
        out = r.table_card if r.table_card >= 0 else None
        out_points = POINTS[out] if out is not None else 0
        assert sum(result.card_points) + out_points == 120
        assert result.last_trick is not None
        base = [
            result.card_points[s]
            + (0 if options.scoring is Scoring.SIXTY_FIVE else result.cantes[s])
            for s in range(len(result.sides))
        ]
        if r.dealt.carry:
            base = [b + c for b, c in zip(base, r.dealt.carry, strict=True)]
        base[result.last_trick] += 10
        assert list(result.scores) == base
    # replaying the record gives the same state and result
    again = replay(parse_record(json.loads(json.dumps(record_of(r)))))
    assert again.error is None
    assert again.deal.result == result
    assert again.deal.tricks == r.tricks


def test_copy_is_independent() -> None:
    rng = random.Random(3)
    r = Deal(shuffle_deal(Variant.PAIRS, Options(), 0, rng))
    c = r.copy()
    while not c.finished:
        c.apply(rng.choice([a for a in c.legal_actions() if a.kind is Kind.PLAY]))
    assert not r.tricks and r.hands != c.hands


def test_same_seed_same_deal() -> None:
    a = shuffle_deal(Variant.PAIRS, Options(), 2, random.Random(42))
    b = shuffle_deal(Variant.PAIRS, Options(), 2, random.Random(42))
    c = shuffle_deal(Variant.PAIRS, Options(), 2, random.Random(43))
    assert a == b and a != c


@settings(max_examples=25, deadline=None)
@given(index=st.integers(0, len(OPTION_SETS) - 1), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_determinize_with_the_true_cards_rebuilds_the_state(
    index: int, seed: int, cut: float
) -> None:
    """A robot's sampled state, given the real hidden cards, behaves exactly like the real one."""
    variant, options = OPTION_SETS[index]
    full = play_random_game(variant, options, seed, carry=False)
    steps = int(len(full.actions) * cut)
    r = Deal(full.dealt)
    for action in full.actions[:steps]:
        r.apply(action)
    for seat in range(r.n):
        view = seat_view(r, seat)
        hands = [r.hand(s) for s in range(r.n)]
        sampled = determinize(view, hands, list(reversed(r.stock)))
        assert sampled.lost40[seat] == r.lost40[seat]
        # whether another seat held the 40 when it sang a 20 is hidden; determinize
        # guesses from its sampled hand, so give it the truth here
        sampled.lost40 = list(r.lost40)
        sampled.last_drawn = list(r.last_drawn)  # so is the card another seat drew
        assert sorted(sampled.legal_actions(), key=lambda a: a.sort_key) == sorted(
            r.legal_actions(), key=lambda a: a.sort_key
        )
        for action in full.actions[steps:]:
            sampled.apply(action)
        assert sampled.result == full.result
