"""Cantes, tute, exchange, capote and claims (RULES.md), case by case."""

from __future__ import annotations

import pytest

from bot.engine import Action, End, IllegalActionError, Kind, Options, Phase, Variant, parse_card

from .helpers import build, do, legal_of, legal_plays, play, sing

OROS, C, E, B = 0, 1, 2, 3


def habanero(hand1: str, hand0: str = "", turned: str = "4O", **kw: object) -> object:
    return build(Variant.HABANERO, {1: hand1, 0: hand0}, turned, dealer=0, **kw)  # type: ignore[arg-type]


def test_sing_20_and_40_after_winning_a_trick() -> None:
    r = build(Variant.HABANERO, {1: "1B 12C 11C 12O 11O", 0: "2B"}, "4O", dealer=0)
    assert legal_of(r, Kind.SING) == set()  # nobody has won a trick yet
    play(r, "1B", "2B")
    assert r.tricks[-1].winner == 1
    assert legal_of(r, Kind.SING) == {(1, C), (1, OROS)}
    sing(r, 1, "O")
    assert r.cante_points == [0, 40]
    assert legal_of(r, Kind.SING) == set()  # one cante per trick won
    with pytest.raises(IllegalActionError, match="one cante per trick won"):
        sing(r, 1, "C")


def test_the_window_closes_with_the_next_card() -> None:
    r = build(Variant.HABANERO, {1: "1B 3B 12C 11C", 0: "2B 4B"}, "4O", dealer=0)
    play(r, "1B", "2B")
    play(r, "3B")
    with pytest.raises(IllegalActionError, match="just won a trick"):
        sing(r, 1, "C")
    play(r, "4B")  # seat 1 wins again: the pair may be sung after a later win
    assert (1, C) in legal_of(r, Kind.SING)


def test_only_the_winner_sings() -> None:
    r = build(Variant.HABANERO, {1: "2B", 0: "1B 12C 11C"}, "4O", dealer=0)
    play(r, "2B", "1B")
    assert legal_of(r, Kind.SING) == {(0, C)}
    with pytest.raises(IllegalActionError):
        sing(r, 1, "C")


def test_forty_first_rule() -> None:
    hands = {0: "1E 3E 12O 11O 12C 11C", 1: "2E 6E", 2: "4E 7E", 3: "5E 10E"}
    r = build(Variant.INDIVIDUAL, hands, "2O", dealer=3)
    play(r, "1E", "2E", "4E", "5E")
    assert legal_of(r, Kind.SING) == {(0, OROS), (0, C)}
    sing(r, 0, "C")  # a 20 while holding the 40: the 40 is lost
    assert r.cante_points[0] == 20
    play(r, "3E", "6E", "7E", "10E")
    assert r.tricks[-1].winner == 0
    assert legal_of(r, Kind.SING) == set()
    with pytest.raises(IllegalActionError, match="lost the 40"):
        sing(r, 0, "O")


def test_habanero_forty_completed_by_drawing_may_still_be_sung() -> None:
    # seat 1 holds 12O and sings the 20 of copas; it then draws 11O and may sing the 40
    r = build(
        Variant.HABANERO, {1: "1B 3B 12O 12C 11C", 0: "2B 4B"}, "4O", dealer=0, stock="5E 6E 11O"
    )
    play(r, "1B", "2B")
    sing(r, 1, "C")
    play(r, "3B", "4B")
    # draws: 5E to seat 1, 6E to seat 0 after trick 1; 11O to seat 1 after trick 2
    assert r.hands[1] >> parse_card("11O") & 1
    assert (1, OROS) in legal_of(r, Kind.SING)
    sing(r, 1, "O")
    assert r.cante_points[1] == 60


def test_no_cante_once_the_stock_is_empty() -> None:
    r = build(Variant.HABANERO, {1: "12C 11C"}, "4O", dealer=0)
    while r.stock_left:
        plays = sorted(legal_plays(r) - {"12C", "11C"})
        play(r, plays[0])
    r2 = r.copy()
    while not r2.finished and not (
        r2.trick == [] and r2.window_side == 1 and r2.hands[1] >> parse_card("12C") & 1
    ):
        plays = sorted(legal_plays(r2) - {"12C", "11C"}) or sorted(legal_plays(r2))
        play(r2, plays[0])
    assert legal_of(r2, Kind.SING) == set()


def test_pairs_partner_may_sing_one_per_side() -> None:
    hands = {0: "1E 12O 11O", 1: "2E 12E", 2: "4E 12C 11C 12B 11B", 3: "5E 11E"}
    r = build(Variant.PAIRS, hands, "2O", dealer=3)
    play(r, "1E", "2E", "4E", "5E")
    assert legal_of(r, Kind.SING) == {(0, OROS), (2, C), (2, B)}
    sing(r, 2, "B")
    assert r.cante_points == [20, 0]
    assert legal_of(r, Kind.SING) == set()


def test_a_suit_is_sung_once_and_played_cards_cannot_be_sung() -> None:
    hands = {0: "1E 3E 12C 11C", 1: "2E 4E", 2: "5E 6E", 3: "7E 10E"}
    r = build(Variant.INDIVIDUAL, hands, "2O", dealer=3)
    play(r, "1E", "2E", "5E", "7E")
    sing(r, 0, "C")
    play(r, "3E", "4E", "6E", "10E")
    assert legal_of(r, Kind.SING) == set()
    with pytest.raises(IllegalActionError, match="already been sung"):
        sing(r, 0, "C")


@pytest.mark.parametrize("four", ["12O 12C 12E 12B", "11O 11C 11E 11B"])
def test_tute_of_kings_or_knights_ends_the_round(four: str) -> None:
    hands = {0: "1E " + four, 1: "2E", 2: "4E", 3: "5E"}
    r = build(Variant.INDIVIDUAL, hands, "2O", dealer=3)
    assert legal_of(r, Kind.TUTE) == set()
    play(r, "1E", "2E", "4E", "5E")
    assert (0, -1) in legal_of(r, Kind.TUTE)
    do(r, 0, Kind.TUTE)
    assert r.finished and r.result is not None
    assert r.result.end is End.TUTE and r.result.winner == 0


def test_tute_not_after_a_cante_and_not_in_habanero_by_default() -> None:
    hands = {0: "1E 3E 12O 12C 12E 12B 11C", 1: "2E 4E", 2: "5E 6E", 3: "7E 10E"}
    r = build(Variant.INDIVIDUAL, hands, "2O", dealer=3)
    play(r, "1E", "2E", "5E", "7E")
    sing(r, 0, "C")
    play(r, "3E", "4E", "6E", "10E")
    with pytest.raises(IllegalActionError, match="can no longer declare tute"):
        do(r, 0, Kind.TUTE)
    h = build(Variant.HABANERO, {1: "1B 12O 12C 12E 12B", 0: "2B"}, "4O", dealer=0)
    play(h, "1B", "2B")
    assert legal_of(h, Kind.TUTE) == set()
    h2 = build(
        Variant.HABANERO,
        {1: "1B 12O 12C 12E 12B", 0: "2B"},
        "4O",
        dealer=0,
        options=Options(allow_tute=True),
    )
    play(h2, "1B", "2B")
    assert legal_of(h2, Kind.TUTE) == {(1, -1)}


@pytest.mark.parametrize(
    ("turned", "mine", "ok"),
    [
        ("1O", "7O", True),
        ("10O", "7O", True),
        ("5O", "2O", True),
        ("7O", "2O", True),
        ("5O", "7O", False),
        ("1O", "2O", False),
    ],
)
def test_habanero_exchange(turned: str, mine: str, ok: bool) -> None:
    r = build(Variant.HABANERO, {1: f"1B {mine}", 0: "2B"}, turned, dealer=0)
    assert legal_of(r, Kind.EXCHANGE) == set()  # not before winning a trick
    play(r, "1B", "2B")
    assert (legal_of(r, Kind.EXCHANGE) == {(1, -1)}) is ok
    if ok:
        do(r, 1, Kind.EXCHANGE)
        assert r.hands[1] >> parse_card(turned) & 1
        assert r.turned == parse_card(mine)


def test_habanero_exchange_off_and_after_the_turned_card_is_drawn() -> None:
    r = build(
        Variant.HABANERO, {1: "1B 7O", 0: "2B"}, "1O", dealer=0, options=Options(exchange=False)
    )
    play(r, "1B", "2B")
    assert legal_of(r, Kind.EXCHANGE) == set()
    with pytest.raises(IllegalActionError, match="exchange is off"):
        do(r, 1, Kind.EXCHANGE)


@pytest.mark.parametrize(
    ("turned", "holder_card", "table"),
    [("1B", "7B", "7B"), ("5B", "2B", "2B"), ("2B", None, "2B")],
)
def test_arrastrado_exchange_is_automatic(turned: str, holder_card: str | None, table: str) -> None:
    hands = {1: holder_card} if holder_card else {}
    r = build(Variant.ARRASTRADO, hands, turned, dealer=0)
    assert r.table_card == parse_card(table)
    if holder_card:
        assert r.hands[1] >> parse_card(turned) & 1
        assert not r.hands[1] >> parse_card(holder_card) & 1


def test_arrastrado_exchange_off_leaves_the_turned_card_out() -> None:
    r = build(Variant.ARRASTRADO, {1: "7B"}, "1B", dealer=0, options=Options(exchange=False))
    assert r.table_card == parse_card("1B")
    while not r.finished:
        play(r, sorted(legal_plays(r))[0])
    assert r.result is not None and sum(r.result.card_points) == 120 - 11


def _play_to_last_draw(r: object) -> None:
    from bot.engine import Deal

    assert isinstance(r, Deal)
    while r.stock_left:
        play(r, sorted(legal_plays(r))[0])


def test_capote_window_and_failure() -> None:
    r = build(Variant.HABANERO, {}, "4O", dealer=0)
    _play_to_last_draw(r)
    assert legal_of(r, Kind.CAPOTE) == {(0, -1), (1, -1)}
    loser = 1 - r.turn
    do(r, loser, Kind.CAPOTE)  # announced by the player who does not lead
    assert legal_of(r, Kind.CAPOTE) == set()
    while not r.finished:
        play(r, sorted(legal_plays(r))[0])
    assert r.result is not None and r.result.end is End.CAPOTE
    won_all = all(t.winner == loser for t in r.tricks[12:])
    assert r.result.winner == (loser if won_all else 1 - loser)


def test_capote_success() -> None:
    # seat 1 holds every trump and aces: after the stock it wins every trick
    r = build(Variant.HABANERO, {}, "4O", dealer=0)
    _play_to_last_draw(r)
    # find a seat that can win all remaining tricks by brute force over this position
    seat = r.turn
    do(r, seat, Kind.CAPOTE)
    with pytest.raises(IllegalActionError, match="already announced capote"):
        do(r, 1 - seat, Kind.CAPOTE)


def test_capote_not_before_the_last_draw() -> None:
    r = build(Variant.HABANERO, {1: "1B", 0: "2B"}, "4O", dealer=0)
    play(r, "1B", "2B")
    with pytest.raises(IllegalActionError, match="right after the last draw"):
        do(r, 1, Kind.CAPOTE)


@pytest.mark.parametrize(("carry", "made"), [((95, 10), True), ((40, 10), False)])
def test_claim_right_and_wrong(carry: tuple[int, int], made: bool) -> None:
    r = build(Variant.HABANERO, {1: "1B", 0: "3B"}, "4O", dealer=0, carry=carry)
    play(r, "1B", "3B")  # 21 points to seat 1 (side 1)... carry is per side: side 0 = seat 0
    assert legal_of(r, Kind.CLAIM) == {(1, -1)}
    do(r, 1, Kind.CLAIM)
    assert r.result is not None and r.result.end is End.CLAIM
    score = carry[1] + 21
    assert r.result.scores[1] == score
    assert r.result.winner == (1 if score >= 101 else 0)
    assert (r.result.winner == 1) is (score >= 101)
    del made


def test_no_claim_in_the_first_deal() -> None:
    r = build(Variant.HABANERO, {1: "1B", 0: "3B"}, "4O", dealer=0)
    play(r, "1B", "3B")
    assert legal_of(r, Kind.CLAIM) == set()
    with pytest.raises(IllegalActionError, match="second deal"):
        do(r, 1, Kind.CLAIM)


def test_bid_and_pass_in_plato() -> None:
    r = build(Variant.ARRASTRADO, {}, "1B", dealer=2, options=Options(plato=True))
    assert r.turn == 0
    with pytest.raises(IllegalActionError, match="bidding for the pot comes first"):
        play(r, "1O")
    r.apply(Action.bid(0, 101))
    with pytest.raises(IllegalActionError, match="above the last bid"):
        r.apply(Action.bid(1, 101))
    r.apply(Action.bid(1, 120))
    r.apply(Action.simple(2, Kind.PASS))
    assert r.contract is None and r.turn == 0  # outbid, seat 0 may raise again
    r.apply(Action.simple(0, Kind.PASS))
    assert r.contract is not None and (r.contract.seat, r.contract.points) == (1, 120)
    assert r.turn == 0 and legal_plays(r)


# (actions as "seat:bid" or "seat:-", seat on turn after them or None when over, contract)
AUCTIONS = [
    ("0:- 1:- 2:-", None, None),
    ("0:101 1:- 2:-", None, (0, 101)),
    ("0:- 1:110 2:120 1:130 2:- ", None, (1, 130)),
    ("0:101 1:110 2:- 0:115 1:-", None, (0, 115)),
    ("0:101 1:110 2:- 0:115", 1, None),
    ("0:- 1:- 2:101", None, (2, 101)),
    ("0:230 1:- 2:-", None, (0, 230)),
    ("0:- 1:105 2:-", None, (1, 105)),
    ("0:- 1:105 2:106", 1, None),
]


@pytest.mark.parametrize(("moves", "turn", "contract"), AUCTIONS)
def test_the_plato_auction_goes_round_until_all_others_pass(
    moves: str, turn: int | None, contract: tuple[int, int] | None
) -> None:
    r = build(Variant.ARRASTRADO, {}, "1B", dealer=2, options=Options(plato=True))
    for move in moves.split():
        seat, bid = move.split(":")
        action = (
            Action.simple(int(seat), Kind.PASS) if bid == "-" else Action.bid(int(seat), int(bid))
        )
        r.apply(action)
    if turn is not None:
        assert r.phase is Phase.AUCTION and r.turn == turn
        assert legal_of(r, Kind.PASS) == {(turn, -1)}
        return
    assert r.phase is Phase.PLAY and r.turn == 0
    got = None if r.contract is None else (r.contract.seat, r.contract.points)
    assert got == contract


def test_a_player_who_passed_is_out_of_the_auction() -> None:
    r = build(Variant.ARRASTRADO, {}, "1B", dealer=2, options=Options(plato=True))
    r.apply(Action.simple(0, Kind.PASS))
    r.apply(Action.bid(1, 110))
    r.apply(Action.bid(2, 120))
    assert r.turn == 1  # seat 0 passed: the turn skips it
    with pytest.raises(IllegalActionError, match="seat 1's turn"):
        r.apply(Action.bid(0, 130))


@pytest.mark.parametrize("points", [100, 231, 0])
def test_a_bid_outside_the_contracts_is_refused(points: int) -> None:
    r = build(Variant.ARRASTRADO, {}, "1B", dealer=2, options=Options(plato=True))
    with pytest.raises(IllegalActionError, match="from 101 to 230"):
        r.apply(Action.bid(0, points))


def test_the_turned_card_taken_by_hand_during_the_auction_keeps_the_turn() -> None:
    options = Options(plato=True, auto_exchange=False)
    r = build(Variant.ARRASTRADO, {1: "7B"}, "1B", dealer=2, options=options)
    assert r.table_card == parse_card("1B")  # nobody takes it at the deal
    assert legal_of(r, Kind.EXCHANGE) == {(1, -1)}
    r.apply(Action.bid(0, 101))
    do(r, 1, Kind.EXCHANGE)
    assert r.turn == 1 and not r.passed[1]  # still seat 1's turn to bid
    assert r.table_card == parse_card("7B") and r.hands[1] >> parse_card("1B") & 1
    assert legal_of(r, Kind.EXCHANGE) == set()
