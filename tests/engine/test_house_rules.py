"""The house rules from the seeds (RULES.md "House rules from the seeds"): each option's
behaviour against the default, table-driven where a table says it best."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    Action,
    Deal,
    End,
    ExchangeWindow,
    FortyFirst,
    Game,
    IllegalActionError,
    Kind,
    NextDealer,
    OptionError,
    Options,
    PairsSing,
    Scoring,
    Variant,
    arrastrado_payout,
    parse_card,
    parse_options,
    shuffle_deal,
)

from .helpers import build, do, legal_of, play, sing

C = parse_card

# habanero, oros trumps, dealer 0: seat 1 leads 1E and wins it (seat 0 only has low cards)
LOW = "2E 4E 5E 6E 7E 2B 4B 5B"


def _won_first_trick(hand1: str, options: Options, stock: str = "", turned: str = "4O") -> Deal:
    r = build(Variant.HABANERO, {1: hand1, 0: LOW}, turned, dealer=0, options=options, stock=stock)
    play(r, "1E", "2E")
    return r


def _sings(r: Deal, seat: int) -> set[str]:
    return {"OCEB"[suit] for s, suit in legal_of(r, Kind.SING) if s == seat}


# ---------------------------------------------------------------- forty_first


@pytest.mark.parametrize(
    ("rule", "sings_now", "forty_after_20"),
    [
        (FortyFirst.LOSE, {"O", "C"}, False),  # a 20 sung first loses the 40
        (FortyFirst.STRICT, {"O"}, None),  # the 20 is refused while the 40 is held
        (FortyFirst.FREE, {"O", "C"}, True),  # singing a 20 never loses the 40
    ],
)
def test_forty_first(rule: FortyFirst, sings_now: set[str], forty_after_20: bool | None) -> None:
    r = _won_first_trick("1E 3E 12O 11O 12C 11C 2C 4C", Options(forty_first=rule))
    assert _sings(r, 1) == sings_now
    if forty_after_20 is None:
        with pytest.raises(IllegalActionError, match="must sing it first"):
            sing(r, 1, "C")
        sing(r, 1, "O")  # the 40 sung, a 20 may follow after a later win
        play(r, "3E", "4E")
        assert _sings(r, 1) == {"C"}
        return
    sing(r, 1, "C")
    play(r, "3E", "4E")
    assert ("O" in _sings(r, 1)) is forty_after_20


# ----------------------------------------------------------------- sing_drawn


@pytest.mark.parametrize(("sing_drawn", "at_once"), [(True, {"C"}), (False, set[str]())])
def test_a_pair_made_by_the_card_just_drawn(sing_drawn: bool, at_once: set[str]) -> None:
    options = Options(sing_drawn=sing_drawn)
    # seat 1 wins the first trick and draws 11C, which makes its pair of copas
    r = _won_first_trick("1E 3E 12C 2C 4C 5C 6C 7C", options, stock="11C 10B 3B 6B")
    assert r.hands[1] >> C("11C") & 1
    assert _sings(r, 1) == at_once
    if not sing_drawn:
        with pytest.raises(IllegalActionError, match="just drawn 11C"):
            sing(r, 1, "C")
    play(r, "3E", "4E")  # won again: the pair was not the last card drawn any more
    assert _sings(r, 1) == {"C"}


# ------------------------------------------------------------ exchange_window


def test_before_draw_exchanges_only_right_after_the_trick() -> None:
    options = Options(exchange_window=ExchangeWindow.BEFORE_DRAW)
    r = _won_first_trick("1E 3E 7O 12C 11C 2C 4C 5C", options, turned="10O")
    assert legal_of(r, Kind.EXCHANGE) == {(1, -1)}
    sing(r, 1, "C")  # the draws are made once anything else happens
    assert legal_of(r, Kind.EXCHANGE) == set()
    with pytest.raises(IllegalActionError, match="before the draws"):
        do(r, 1, Kind.EXCHANGE)


@pytest.mark.parametrize(
    ("window", "at_once"), [(ExchangeWindow.BEFORE_LEAD, True), (ExchangeWindow.BEFORE_DRAW, False)]
)
def test_a_seven_drawn_in_the_trick_waits_for_the_next_win_before_the_draw(
    window: ExchangeWindow, at_once: bool
) -> None:
    options = Options(exchange_window=window)
    r = _won_first_trick("1E 3E 12C 2C 4C 5C 6C 10C", options, stock="7O 10B 3B 6B", turned="10O")
    assert r.hands[1] >> C("7O") & 1  # drawn after the first trick
    assert bool(legal_of(r, Kind.EXCHANGE)) is at_once
    play(r, "3E", "4E")
    assert legal_of(r, Kind.EXCHANGE) == {(1, -1)}
    do(r, 1, Kind.EXCHANGE)
    assert r.hands[1] >> C("10O") & 1 and r.turned == C("7O")


def test_announce_puts_the_seven_under_until_its_holder_wins() -> None:
    options = Options(exchange_window=ExchangeWindow.ANNOUNCE)
    # dealer 0: seat 1 leads; seat 0 holds the trump 7 and may announce on its turn
    r = build(Variant.HABANERO, {1: "1E 3E 1C", 0: "7O 2E 4E 2C"}, "10O", dealer=0, options=options)
    assert legal_of(r, Kind.EXCHANGE) == set()  # not seat 0's turn yet
    play(r, "1E")
    assert legal_of(r, Kind.EXCHANGE) == {(0, -1)}
    do(r, 0, Kind.EXCHANGE)
    assert not r.hands[0] >> C("7O") & 1 and r.pending == C("7O") and r.turned == C("10O")
    assert legal_of(r, Kind.EXCHANGE) == set()  # one announcement at a time
    play(r, "2E")  # seat 1 wins: the 7 waits under the turned card
    assert r.pending == C("7O")
    play(r, "1C", "2C")
    assert r.pending == C("7O")
    play(r, "3E")
    hand0 = r.hands[0]
    card0 = next(c for c in (C("4E"), C("1O"), C("3O")) if hand0 >> c & 1)
    assert card0 == C("4E")
    r.apply(Action.play(0, C("4E")))  # seat 0 loses again: still waiting
    assert r.pending == C("7O")


def test_announced_in_its_own_window_the_swap_is_made_at_once() -> None:
    options = Options(exchange_window=ExchangeWindow.ANNOUNCE)
    r = _won_first_trick("1E 3E 7O 12C 11C 2C 4C 5C", options, turned="10O")
    do(r, 1, Kind.EXCHANGE)
    assert r.hands[1] >> C("10O") & 1 and r.turned == C("7O") and r.pending == -1


def test_announced_seven_is_swapped_at_its_holders_next_win_before_the_draws() -> None:
    options = Options(exchange_window=ExchangeWindow.ANNOUNCE)
    r = build(Variant.HABANERO, {1: "2E 3C", 0: "7O 1E 4C"}, "10O", dealer=0, options=options)
    play(r, "2E")
    do(r, 0, Kind.EXCHANGE)  # seat 0 announces as it follows, then wins with the ace
    drawn = r.stock[-1]  # the winner draws the top card after the swap
    play(r, "1E")
    assert r.pending == -1 and r.turned == C("7O")
    assert r.hands[0] >> C("10O") & 1 and r.hands[0] >> drawn & 1
    assert r.exchanges[-1].seat == 0 and r.exchanges[-1].took == C("10O")


# ---------------------------------------------------------------- pairs_sing

PAIRS_HANDS = {
    0: "1E 12C 11C 1C 3C 10C 7C 6C 5C 4C",
    1: "2E 4E 5E 6E 7E 1O 3O 12O 11O 10O",
    2: "12B 11B 1B 3B 10B 7B 6B 5B 4B 2B",
    3: "10E 11E 12E 3E 7O 6O 5O 4O 2O 2C",
}


@pytest.mark.parametrize(("rule", "both"), [(PairsSing.SIDE, False), (PairsSing.EACH, True)])
def test_pairs_sing(rule: PairsSing, both: bool) -> None:
    r = build(Variant.PAIRS, PAIRS_HANDS, "2O", dealer=3, options=Options(pairs_sing=rule))
    play(r, "1E", "2E", "2B", "3E")
    assert legal_of(r, Kind.SING) == {(0, 1), (2, 3)}  # copas for seat 0, bastos for seat 2
    sing(r, 0, "C")
    assert (legal_of(r, Kind.SING) == {(2, 3)}) is both
    if both:
        sing(r, 2, "B")
        assert legal_of(r, Kind.SING) == set()  # two cantes at most
        assert r.cante_points[0] == 40
    else:
        with pytest.raises(IllegalActionError, match="one cante per trick"):
            sing(r, 2, "B")


# -------------------------------------------------------------- tute_knights


@pytest.mark.parametrize(
    ("knights", "hand", "tute"),
    [
        (True, "11O 11C 11E 11B 1E 3E", True),
        (False, "11O 11C 11E 11B 1E 3E", False),
        (False, "12O 12C 12E 12B 1E 3E", True),
        (True, "12O 12C 12E 12B 1E 3E", True),
    ],
)
def test_tute_knights(knights: bool, hand: str, tute: bool) -> None:
    r = _won_first_trick(hand, Options(allow_tute=True, tute_knights=knights))
    assert (legal_of(r, Kind.TUTE) == {(1, -1)}) is tute


# ------------------------------------------------------------- auto_exchange


def test_auto_exchange_takes_the_turned_card_at_the_deal() -> None:
    r = build(Variant.ARRASTRADO, {1: "7B"}, "1B", dealer=2)
    assert r.hands[1] >> C("1B") & 1 and r.table_card == C("7B")
    assert legal_of(r, Kind.EXCHANGE) == set()


def test_without_auto_exchange_the_holder_chooses_before_the_first_lead() -> None:
    r = build(Variant.ARRASTRADO, {1: "7B"}, "1B", dealer=2, options=Options(auto_exchange=False))
    assert r.table_card == C("1B") and r.hands[1] >> C("7B") & 1
    assert legal_of(r, Kind.EXCHANGE) == {(1, -1)}
    kept = r.copy()
    do(r, 1, Kind.EXCHANGE)
    assert r.hands[1] >> C("1B") & 1 and r.table_card == C("7B")
    # keeping it: once the first card is led the chance is gone
    lead = next(a for a in kept.legal_actions() if a.kind is Kind.PLAY)
    kept.apply(lead)
    assert legal_of(kept, Kind.EXCHANGE) == set()
    with pytest.raises(IllegalActionError, match="before the first lead"):
        do(kept, 1, Kind.EXCHANGE)


# ----------------------------------------------------------------- seats: 4


def test_four_at_an_arrastrado_table_the_dealer_sits_out() -> None:
    r = Deal(shuffle_deal(Variant.ARRASTRADO, Options(seats=4), 1, random.Random(3)))
    assert [len(h) for h in r.dealt.hands] == [13, 0, 13, 13]
    assert r.turn == 2 and r.sides == ((0,), (2,), (3,))
    with pytest.raises(IllegalActionError):
        r.apply(Action.play(1, C("1O")))
    seats: list[int] = []
    while not r.tricks:
        seats.append(r.turn)
        r.apply(next(a for a in r.legal_actions() if a.kind is Kind.PLAY))
    assert seats == [2, 3, 0] and len(r.tricks[0].cards) == 3
    while not r.finished:
        assert all(a.seat != 1 for a in r.legal_actions())
        r.apply(next(a for a in r.legal_actions() if a.kind is Kind.PLAY))
    result = r.result
    assert result is not None and result.sides == ((0,), (2,), (3,))
    payout = arrastrado_payout(result, seats=4)
    assert payout.seats[1] == 0 and sum(payout.seats) == 0
    assert payout.seats[result.sides[result.winner or 0][0]] > 0


def test_four_seats_rotate_the_deal_and_count_rounds_per_seat() -> None:
    options = Options(seats=4, rounds=3)
    game = Game(Variant.ARRASTRADO, options, dealer=0)
    rng = random.Random(8)
    outs: list[int] = []
    while not game.finished:
        r = Deal(game.deal_for(rng))
        outs.append(next(s for s, h in enumerate(r.dealt.hands) if not h))
        while not r.finished:
            r.apply(next(a for a in r.legal_actions() if a.kind is Kind.PLAY))
        game.end_deal(r)
    assert outs[:4] == [0, 1, 2, 3][: len(outs[:4])]
    assert len(game.rounds_won) == 4 and max(game.rounds_won) == 3


@pytest.mark.parametrize(
    ("variant", "raw"),
    [
        (Variant.PAIRS, {"seats": 4}),
        (Variant.ARRASTRADO, {"seats": 4, "deck": 36}),
        (Variant.HABANERO, {"pairs_sing": "each"}),
        (Variant.PAIRS, {"sing_drawn": False}),
        (Variant.INDIVIDUAL, {"next_dealer": "last_ten"}),
        (Variant.PAIRS, {"exchange_window": "announce"}),
        (Variant.HABANERO, {"auto_exchange": False}),
        (Variant.HABANERO, {"scoring": "sixty-five", "target": 90}),
        (Variant.PAIRS, {"forty_first": "sometimes"}),
        (Variant.ARRASTRADO, {"seats": 5}),
    ],
)
def test_an_option_that_does_not_apply_is_refused(variant: Variant, raw: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        parse_options(variant, raw)


# --------------------------------------------------------------- next_dealer


@pytest.mark.parametrize("rule", list(NextDealer))
def test_next_dealer(rule: NextDealer) -> None:
    for seed in range(6):
        game = Game(Variant.HABANERO, Options(next_dealer=rule, target=200), dealer=seed % 2)
        r = Deal(game.deal_for(random.Random(seed)))
        dealer = r.dealt.dealer
        while not r.finished:
            r.apply(next(a for a in r.legal_actions() if a.kind is Kind.PLAY))
        result = game.end_deal(r)
        assert result.last_trick is not None
        if rule is NextDealer.LAST_TEN:
            assert game.dealer == result.last_trick
        else:
            assert game.dealer == 1 - dealer


# ------------------------------------------------------------------- presets


@pytest.mark.parametrize(
    ("variant", "preset", "expected"),
    [
        (
            Variant.HABANERO,
            "fournier",
            {
                "forty_first": FortyFirst.FREE,
                "exchange_window": ExchangeWindow.ANNOUNCE,
                "next_dealer": NextDealer.LAST_TEN,
                "pairs_sing": PairsSing.SIDE,
            },
        ),
        (Variant.PAIRS, "fournier", {"pairs_sing": PairsSing.EACH, "forty_first": FortyFirst.FREE}),
        # seeds/001's arrastrado sings the 40 before the 20
        (
            Variant.ARRASTRADO,
            "fournier",
            {"auto_exchange": False, "forty_first": FortyFirst.STRICT},
        ),
        (
            Variant.HABANERO,
            "online",
            {"forty_first": FortyFirst.STRICT, "sing_drawn": False, "deal_score": "per_deal"},
        ),
        (Variant.ARRASTRADO, "online", {"forty_first": FortyFirst.STRICT, "deck": 36}),
        (Variant.PAIRS, "online", {"forty_first": FortyFirst.STRICT, "sing_drawn": True}),
        (
            Variant.HABANERO,
            "sixty-five",
            {"scoring": Scoring.SIXTY_FIVE, "tute_knights": False, "stock_duty": "full"},
        ),
        (
            Variant.PAIRS,
            "sixty-five",
            {"scoring": Scoring.SIXTY_FIVE, "tute_knights": False, "forty_first": "strict"},
        ),
        (Variant.PAIRS, "parejas", {"overtrump": False, "undertrump": True}),
        (
            Variant.HABANERO,
            "havanian",
            {"stock_duty": "trump", "exchange_window": "before_draw", "sing_until": "next_trick"},
        ),
        (Variant.INDIVIDUAL, "sixty-five", {"scoring": Scoring.MOST, "tute_knights": False}),
    ],
)
def test_a_preset_sets_what_applies_to_the_variant(
    variant: Variant, preset: str, expected: dict[str, object]
) -> None:
    options = parse_options(variant, {"rules": preset})
    for name, value in expected.items():
        got = getattr(options, name)
        assert got == value or getattr(got, "value", None) == value, name


def test_an_option_named_explicitly_wins_over_the_preset() -> None:
    options = parse_options(Variant.HABANERO, {"rules": "fournier", "forty_first": "strict"})
    assert options.forty_first is FortyFirst.STRICT
    assert options.exchange_window is ExchangeWindow.ANNOUNCE


# ------------------------------------------------------------------- capote


def _to_capote(options: Options, carry: tuple[int, int] | None, seed: int) -> Deal:
    rng = random.Random(seed)
    dealt = shuffle_deal(Variant.HABANERO, options, 0, rng, carry)
    r = Deal(dealt)
    while not r.capote_open:
        r.apply(rng.choice([a for a in r.legal_actions() if a.kind is Kind.PLAY]))
    return r


@pytest.mark.parametrize("scoring", list(Scoring))
def test_a_capote_scores_nothing_and_counts_one_round(scoring: Scoring) -> None:
    carry = (60, 90) if scoring is Scoring.MOST else None
    for seed in range(8):
        r = _to_capote(Options(scoring=scoring), carry, seed)
        seat = r.window_seat
        do(r, seat, Kind.CAPOTE)
        while not r.finished:
            assert legal_of(r, Kind.CLAIM) == set()  # nobody claims while it runs
            r.apply(next(a for a in r.legal_actions() if a.kind is Kind.PLAY))
        result = r.result
        assert result is not None and result.end is End.CAPOTE
        assert result.scores == (0, 0) and not result.double
        assert result.winner in (0, 1)


def test_a_claim_is_open_before_a_capote_is_announced() -> None:
    r = _to_capote(Options(), (60, 90), 1)
    assert legal_of(r, Kind.CLAIM) == {(r.window_seat, -1)}


def test_a_preset_sets_nothing_the_deck_leaves_out() -> None:
    options = parse_options(Variant.ARRASTRADO, {"rules": "fournier", "deck": 36})
    assert options.auto_exchange and options.forty_first is FortyFirst.STRICT
    assert options.to_dict(variant=Variant.ARRASTRADO) == {
        "deck": 36,
        "rules": "fournier",
        "forty_first": "strict",
    }


def test_an_option_named_back_to_its_default_under_a_preset_is_written() -> None:
    options = parse_options(Variant.HABANERO, {"rules": "fournier", "forty_first": "lose"})
    written = options.to_dict(variant=Variant.HABANERO)
    assert written["forty_first"] == "lose"
    assert parse_options(Variant.HABANERO, written) == options


@pytest.mark.parametrize("window", list(ExchangeWindow))
def test_one_swap_a_deal_the_seven_left_under_the_stock_stays_there(
    window: ExchangeWindow,
) -> None:
    """ "One swap a deal (every exchange_window): the trump 2 takes the turned card only when
    the card turned at the deal is a 7; a 7 put under the stock by an exchange stays there
    until it is drawn" (RULES.md)."""
    options = Options(exchange_window=window)
    r = build(
        Variant.HABANERO, {1: "1E 3E 7O 5C", 0: "2O 2E 4E 6C"}, "10O", dealer=0, options=options
    )
    play(r, "1E", "2E")
    do(r, 1, Kind.EXCHANGE)  # seat 1 takes the 10O, the 7O lies under the stock
    play(r, "5C", "6C")  # seat 0 wins: its trump 2 may not take the 7O
    assert legal_of(r, Kind.EXCHANGE) == set()
    with pytest.raises(IllegalActionError, match="one exchange a deal") as refused:
        do(r, 0, Kind.EXCHANGE)
    assert refused.value.reason == "one_swap"
