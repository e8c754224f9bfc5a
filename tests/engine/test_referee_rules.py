"""``tute-referee`` held to REFEREE.md and RULES.md rule by rule: seats, options and presets,
the plato auction, capote, resigning, the sixty-five bars and the exchange windows.

Records are built by hand (``make``: the cards that matter, the rest of the deck filled in;
``literal``: every card and action written out) and judged in process with ``judge``; a few
go through the real command for the exit codes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from typing import Any, NamedTuple

import pytest

from bot.engine import RecordError, Variant, parse_options, record_of
from bot.engine.referee import judge

from .helpers import build

Record = dict[str, Any]
Answer = dict[str, Any]

SIMPLE = ("exchange", "tute", "capote", "claim", "resign", "pass")


def acts(text: str) -> list[dict[str, Any]]:
    """Actions written ``seat:card``, ``seat:sing=O``, ``seat:bid=110`` or ``seat:pass`` (and
    the other declarations by name)."""
    out: list[dict[str, Any]] = []
    for token in text.split():
        seat, _, what = token.partition(":")
        key, eq, value = what.partition("=")
        if eq:
            out.append({"seat": int(seat), key: int(value) if key == "bid" else value})
        elif key in SIMPLE:
            out.append({"seat": int(seat), key: True})
        else:
            out.append({"seat": int(seat), "play": key})
    return out


def make(
    variant: str,
    hands: dict[int, str] | None = None,
    turned: str = "1B",
    *,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    stock: str = "",
    carry: list[int] | None = None,
    actions: str = "",
) -> Record:
    """A record whose seats hold the cards named in ``hands`` (seat -> "1O 3O ..."), the rest
    of the deck filled in card order (``helpers.build``); ``options`` as written in JSON."""
    kind = Variant(variant)
    deal = build(
        kind, hands or {}, turned, dealer=dealer, options=parse_options(kind, options), stock=stock
    )
    data = record_of(deal)
    data.pop("options", None)
    if options is not None:
        data["options"] = dict(options)
    if carry is not None:
        data["carry"] = carry
    data["actions"] = acts(actions)
    return data


def literal(
    variant: str,
    hands: list[str],
    turned: str,
    actions: str,
    *,
    dealer: int,
    options: dict[str, Any] | None = None,
    stock: str = "",
    carry: list[int] | None = None,
) -> Record:
    """A record written out card by card."""
    data: Record = {"variant": variant, "dealer": dealer}
    if options is not None:
        data["options"] = options
    data["hands"] = [hand.split() for hand in hands]
    data["turned"] = turned
    if stock:
        data["stock"] = stock.split()
    if carry is not None:
        data["carry"] = carry
    data["actions"] = acts(actions)
    return data


def with_actions(data: Record, actions: str) -> Record:
    return {**data, "actions": acts(actions)}


def plus(data: Record, actions: str) -> Record:
    """The record with more actions after its own."""
    return {**data, "actions": [*data["actions"], *acts(actions)]}


def ok(data: Record) -> Answer:
    """The answer for a record whose every action is legal."""
    answer = judge(data)
    assert answer["error"] is None, answer["error"]
    assert answer["valid_until"] == len(data["actions"])
    return answer


def refused_at(data: Record, index: int) -> Answer:
    """The answer for a record whose action ``index`` is illegal (and all before it legal)."""
    answer = judge(data)
    assert answer["valid_until"] == index, answer["error"]
    assert isinstance(answer["error"], str) and answer["error"]
    return answer


def of_kind(answer: Answer, key: str) -> list[tuple[int, Any]]:
    """The legal actions of one kind, as (seat, value), in the referee's order."""
    return [(a["seat"], a[key]) for a in answer["legal"] if key in a]


def plays(seat: int, cards: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "play": card} for card in cards.split()]


def bids_then_pass(seat: int, low: int = 101) -> list[dict[str, Any]]:
    return [{"seat": seat, "bid": b} for b in range(low, 231)] + [{"seat": seat, "pass": True}]


def referee(stdin: str) -> subprocess.CompletedProcess[str]:
    command = shutil.which("tute-referee")
    argv = [command] if command else [sys.executable, "-m", "bot.engine.referee"]
    return subprocess.run(
        argv, input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


# ---------------------------------------------------------------- seats


def _four_seats(dealer: int = 0, **kw: Any) -> Record:
    return make("arrastrado", {}, "1B", dealer=dealer, options={"seats": 4, **kw})


@pytest.mark.parametrize(
    ("data", "seat"),
    [
        (make("habanero", {}, "1O"), 2),
        (make("habanero", {}, "1O"), 3),
        (make("habanero", {}, "1O"), 4),
        (make("arrastrado"), 3),
        (make("arrastrado", options={"plato": True}), 3),
        (make("arrastrado"), 4),
        (make("individual"), 4),
        (make("pairs"), 4),
        (_four_seats(), 4),
        (make("pairs"), -1),
    ],
    ids=[
        "habanero-2",
        "habanero-3",
        "habanero-4",
        "arrastrado-3",
        "arrastrado-plato-3",
        "arrastrado-4",
        "individual-4",
        "pairs-4",
        "arrastrado-seats4-4",
        "pairs-minus-1",
    ],
)
def test_a_seat_outside_the_table_is_an_invalid_record(data: Record, seat: int) -> None:
    judge(data)  # the record itself is valid
    for action in ({"seat": seat, "play": "1O"}, {"seat": seat, "pass": True}):
        with pytest.raises(RecordError):
            judge({**data, "actions": [action]})


def test_a_seat_outside_the_table_is_invalid_even_after_an_illegal_action() -> None:
    data = make("habanero", {1: "1C", 0: "4C"}, "1O", dealer=0)
    refused_at(with_actions(data, "0:4C"), 0)
    with pytest.raises(RecordError):
        judge(with_actions(data, "0:4C 2:1C"))


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_seat_of_the_table_is_a_valid_seat(seat: int) -> None:
    """Pairs and individual have seats 0 to 3, so an action of any of them is read (and
    refused as an action, not as a record, when it is not that seat's turn)."""
    for variant in ("pairs", "individual"):
        data = make(variant, dealer=3, actions=f"{seat}:pass")
        refused_at(data, 0)


def test_four_seat_arrastrado_accepts_seat_3_and_the_dealers_empty_hand() -> None:
    data = make("arrastrado", {3: "1O", 0: "4O", 1: "5O"}, "1B", dealer=2, options={"seats": 4})
    assert [len(h) for h in data["hands"]] == [13, 13, 0, 13]
    answer = ok(with_actions(data, "3:1O 0:4O 1:5O"))
    assert answer["tricks"] == [{"leader": 3, "cards": ["1O", "4O", "5O"], "winner": 3}]
    assert {a["seat"] for a in answer["legal"]} == {3}


def test_four_seat_arrastrado_needs_four_hands_the_dealers_empty() -> None:
    data = _four_seats()
    hands = data["hands"]
    assert hands[0] == []
    for wrong in (hands[:3], [hands[1][:1], hands[1][1:], hands[2], hands[3]]):
        with pytest.raises(RecordError):
            judge({**data, "hands": wrong})


@pytest.mark.parametrize(
    ("actions", "index"),
    [
        ("0:1O", 0),  # the dealer sits out from the first lead
        ("1:1O 2:4O 0:5O", 2),
        ("0:exchange", 0),
        ("0:sing=B", 0),
        ("0:pass", 0),
    ],
)
def test_an_action_of_the_dealer_who_sits_out_is_illegal(actions: str, index: int) -> None:
    data = make("arrastrado", {1: "1O", 2: "4O", 3: "5O"}, "1B", dealer=0, options={"seats": 4})
    answer = refused_at(with_actions(data, actions), index)
    assert answer["finished"] is False
    assert answer["legal"] and 0 not in {a["seat"] for a in answer["legal"]}


def test_the_dealer_who_sits_out_neither_bids_nor_passes() -> None:
    data = _four_seats(plato=True)
    assert ok(data)["legal"] == bids_then_pass(1)
    refused_at(with_actions(data, "0:bid=101"), 0)
    refused_at(with_actions(data, "1:bid=101 0:pass"), 1)
    answer = ok(with_actions(data, "1:bid=101 2:bid=102 3:pass"))
    assert answer["legal"] == bids_then_pass(1, 103)  # seat 1, outbid; the dealer is skipped
    answer = ok(with_actions(data, "1:bid=101 2:pass 3:pass"))
    assert of_kind(answer, "play") and {a["seat"] for a in answer["legal"]} == {1}


# ------------------------------------------------------------- options


def _base(variant: str, options: dict[str, Any]) -> Record:
    """A valid record of ``variant`` with ``options``; pairs and individual dealt by seat 3."""
    dealer = 3 if variant in ("pairs", "individual") else 0
    turned = "1O" if variant == "habanero" else "1B"
    return make(variant, {}, turned, dealer=dealer, options=options or None)


# (variant, options of a valid record, what is added to make it invalid)
INVALID = [
    # carry and target do not exist under sixty-five
    ("habanero", {"scoring": "sixty-five"}, {"carry": [10, 20]}),
    ("habanero", {"rules": "sixty-five"}, {"carry": [0, 0]}),
    ("habanero", {"scoring": "sixty-five"}, {"target": 101}),
    ("habanero", {"rules": "sixty-five"}, {"target": 90}),
    ("pairs", {"scoring": "sixty-five"}, {"target": 101}),
    # an option named that does not exist in the variant, even at its default value
    ("habanero", {}, {"pairs_sing": "each"}),
    ("habanero", {}, {"pairs_sing": "side"}),
    ("habanero", {}, {"auto_exchange": False}),
    ("habanero", {}, {"seats": 3}),
    ("habanero", {}, {"plato": False}),
    ("pairs", {}, {"seats": 4}),
    ("pairs", {}, {"seats": 3}),
    ("pairs", {}, {"sing_drawn": False}),
    ("pairs", {}, {"sing_drawn": True}),
    ("pairs", {}, {"next_dealer": "last_ten"}),
    ("pairs", {}, {"exchange_window": "announce"}),
    ("pairs", {}, {"stock_duty": "free"}),
    ("individual", {}, {"pairs_sing": "each"}),
    ("individual", {}, {"scoring": "sixty-five"}),
    ("individual", {}, {"deck": 36}),
    ("arrastrado", {}, {"exchange_window": "before_draw"}),
    ("arrastrado", {}, {"scoring": "sixty-five"}),
    ("arrastrado", {}, {"sing_drawn": False}),
    ("arrastrado", {}, {"target": 101}),
    ("arrastrado", {"deck": 36}, {"seats": 4}),
    ("arrastrado", {"deck": 36}, {"seats": 3}),
    ("arrastrado", {"deck": 36}, {"auto_exchange": False}),
    ("arrastrado", {"deck": 36}, {"auto_exchange": True}),
    # a value the option cannot take
    ("habanero", {}, {"exchange_window": "whenever"}),
    ("habanero", {}, {"next_dealer": "winner"}),
    ("habanero", {}, {"sing_drawn": "no"}),
    ("habanero", {}, {"scoring": "seventy"}),
    ("habanero", {}, {"rules": "hoyle"}),
    ("habanero", {}, {"rules": None}),
    ("arrastrado", {}, {"seats": 5}),
    ("arrastrado", {}, {"seats": 2}),
    ("arrastrado", {}, {"auto_exchange": None}),
    ("arrastrado", {}, {"deck": 32}),
    ("pairs", {}, {"pairs_sing": "both"}),
    ("pairs", {}, {"forty_first": "never"}),
    ("pairs", {}, {"tute_knights": 1}),
    ("individual", {}, {"forty_first": True}),
    # an option that does not exist at all
    ("pairs", {}, {"house": True}),
    ("arrastrado", {}, {"seat": 4}),
]


@pytest.mark.parametrize(
    ("variant", "valid", "added"), INVALID, ids=[f"{v}-{json.dumps(a)}" for v, _, a in INVALID]
)
def test_options_that_make_a_record_invalid(
    variant: str, valid: dict[str, Any], added: dict[str, Any]
) -> None:
    data = _base(variant, valid)
    ok(data)
    bad = {**data, **added} if "carry" in added else {**data, "options": {**valid, **added}}
    with pytest.raises(RecordError):
        judge(bad)


# (variant, options that are valid there)
VALID = [
    ("habanero", {"scoring": "sixty-five"}),
    ("habanero", {"target": 90}),
    ("habanero", {"exchange_window": "before_draw", "sing_drawn": False}),
    ("habanero", {"next_dealer": "last_ten"}),
    ("pairs", {"pairs_sing": "each", "scoring": "sixty-five"}),
    ("arrastrado", {"seats": 4, "auto_exchange": False, "plato": True}),
    ("arrastrado", {"seats": 3, "deck": 40}),
    ("arrastrado", {"deck": 36}),
    ("individual", {"forty_first": "free", "tute_knights": False}),
]


@pytest.mark.parametrize(
    ("variant", "options"), VALID, ids=[f"{v}-{json.dumps(o)}" for v, o in VALID]
)
def test_options_that_exist_in_the_variant_are_accepted(
    variant: str, options: dict[str, Any]
) -> None:
    ok(_base(variant, options))


def test_carry_is_accepted_with_the_default_scoring() -> None:
    data = _base("habanero", {})
    ok({**data, "carry": [60, 30]})
    ok({**data, "options": {"scoring": "most"}, "carry": [60, 30]})


PRESETS = ["standard", "fournier", "online", "sixty-five"]
VARIANTS = ["habanero", "arrastrado", "individual", "pairs"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_preset_is_accepted_in_every_variant(variant: str, preset: str) -> None:
    """A preset sets only the options that exist in the variant: fournier's
    ``exchange_window`` is not set in pairs, sixty-five's ``scoring`` not in arrastrado."""
    ok(_base(variant, {"rules": preset}))
    ok(_base(variant, {"rules": preset, "tute_knights": True}))
    if variant == "arrastrado":  # fournier's auto_exchange does not exist with 36 cards
        ok(_base(variant, {"rules": preset, "deck": 36}))


class Scene(NamedTuple):
    """A record to judge under several options, and the kind of legal action looked at."""

    variant: str
    hands: dict[int, str]
    turned: str
    dealer: int
    actions: str
    key: str


# habanero: the leader holds the trump 7 (1O turned)
HAB_LEADER_HOLDS_7 = Scene("habanero", {1: "1C 7O"}, "1O", 0, "", "exchange")
# arrastrado: seat 2 holds the trump 7 (1B turned on the table)
ARR_SEAT_2_HOLDS_7 = Scene("arrastrado", {2: "7B"}, "1B", 0, "", "exchange")
# pairs: seat 0 wins the first trick and sings the copas; seat 2 holds two pairs too
PAIRS_BOTH_SING = Scene(
    "pairs",
    {0: "1E 12C 11C", 1: "2E", 2: "4E 12E 11E 12B 11B", 3: "5E"},
    "2O",
    3,
    "0:1E 1:2E 2:4E 3:5E 0:sing=C",
    "sing",
)
# pairs: seat 0 wins the first trick holding the 40 and a 20
PAIRS_FORTY_AND_TWENTY = Scene(
    "pairs",
    {0: "1E 12O 11O 12C 11C", 1: "2E", 2: "4E 3O 1O 2C 4C 5C 6C 7C 10C 3C", 3: "5E"},
    "2O",
    3,
    "0:1E 1:2E 2:4E 3:5E",
    "sing",
)
# habanero with a stock: seat 1 leads 4C, seat 0 holds 3C 2C
HAB_ANSWER_4C = Scene("habanero", {1: "4C", 0: "3C 2C"}, "1O", 0, "1:4C", "play")
# arrastrado: seat 1 holds the four knights and wins the first trick
ARR_FOUR_KNIGHTS = Scene(
    "arrastrado", {1: "1O 11O 11C 11E 11B", 2: "4O", 0: "5O"}, "1B", 0, "1:1O 2:4O 0:5O", "tute"
)

# (id, scene, options, the legal actions of the scene's kind)
PRESET_EFFECTS = [
    # fournier: exchange_window announce in habanero (the leader may announce at once)
    ("hab-fournier", HAB_LEADER_HOLDS_7, {"rules": "fournier"}, [(1, True)]),
    ("hab-standard", HAB_LEADER_HOLDS_7, None, []),
    (
        "hab-fournier-named",
        HAB_LEADER_HOLDS_7,
        {"rules": "fournier", "exchange_window": "before_lead"},
        [],
    ),
    # fournier: auto_exchange false in arrastrado (the 7 takes the turned card by hand)
    ("arr-fournier", ARR_SEAT_2_HOLDS_7, {"rules": "fournier"}, [(2, True)]),
    ("arr-standard", ARR_SEAT_2_HOLDS_7, None, []),
    ("arr-fournier-named", ARR_SEAT_2_HOLDS_7, {"rules": "fournier", "auto_exchange": True}, []),
    # fournier: pairs_sing each (the partner still sings after the other has sung)
    ("pairs-fournier", PAIRS_BOTH_SING, {"rules": "fournier"}, [(2, "E"), (2, "B")]),
    ("pairs-standard", PAIRS_BOTH_SING, None, []),
    # online: forty_first strict (no 20 while the 40 is held unsung)
    ("pairs-online", PAIRS_FORTY_AND_TWENTY, {"rules": "online"}, [(0, "O")]),
    ("pairs-standard-40", PAIRS_FORTY_AND_TWENTY, None, [(0, "O"), (0, "C")]),
    # sixty-five: stock_duty full in habanero, unless named
    ("hab-sixty-five", HAB_ANSWER_4C, {"rules": "sixty-five"}, [(0, "3C")]),
    (
        "hab-sixty-five-free",
        HAB_ANSWER_4C,
        {"rules": "sixty-five", "stock_duty": "free"},
        [(0, play["play"]) for play in plays(0, "3C 10O 7O 6O 5O 4O 2O 2C")],
    ),
    # sixty-five: tute_knights false (four knights are no tute), also in arrastrado
    ("arr-sixty-five", ARR_FOUR_KNIGHTS, {"rules": "sixty-five"}, []),
    ("arr-standard-knights", ARR_FOUR_KNIGHTS, None, [(1, True)]),
    (
        "arr-sixty-five-named",
        ARR_FOUR_KNIGHTS,
        {"rules": "sixty-five", "tute_knights": True},
        [(1, True)],
    ),
]


@pytest.mark.parametrize(
    ("scene", "options", "expected"),
    [case[1:] for case in PRESET_EFFECTS],
    ids=[case[0] for case in PRESET_EFFECTS],
)
def test_a_preset_sets_its_options_and_named_options_win(
    scene: Scene, options: dict[str, Any] | None, expected: list[tuple[int, Any]]
) -> None:
    data = make(
        scene.variant,
        scene.hands,
        scene.turned,
        dealer=scene.dealer,
        options=options,
        actions=scene.actions,
    )
    assert of_kind(ok(data), scene.key) == expected


# ------------------------------------------------------------ the plato auction


def _plato(**options: Any) -> Record:
    """Arrastrado with plato, dealt by seat 0: seat 1 leads and bids first."""
    return make("arrastrado", {}, "1B", dealer=0, options={"plato": True, **options})


def test_the_auction_comes_first_and_lists_the_bids_from_the_lowest() -> None:
    answer = ok(_plato())
    assert answer["legal"] == bids_then_pass(1)
    assert answer["tricks"] == [] and answer["finished"] is False and answer["result"] is None


# (actions, the seat then bidding and its lowest bid, or None when the auction is over)
AUCTIONS = [
    ("1:bid=110", (2, 111)),
    ("1:bid=110 2:bid=120", (0, 121)),
    ("1:bid=110 2:bid=120 0:pass", (1, 121)),  # outbid, seat 1 may raise again
    ("1:bid=110 2:bid=120 0:pass 1:bid=130", (2, 131)),  # seat 0 passed: out of it
    ("1:pass 2:bid=101 0:bid=102", (2, 103)),
    ("1:bid=230", (2, None)),  # nothing above 230: pass only
    ("1:pass", (2, 101)),
    ("1:pass 2:pass", (0, 101)),
    ("1:bid=110 2:pass 0:pass", None),
    ("1:bid=110 2:bid=120 0:pass 1:bid=130 2:pass", None),
    ("1:pass 2:pass 0:pass", None),
    ("1:pass 2:pass 0:bid=101", None),
    ("1:bid=230 2:pass 0:pass", None),
]


@pytest.mark.parametrize(("actions", "next_bid"), AUCTIONS)
def test_the_auction_goes_round_until_all_others_have_passed(
    actions: str, next_bid: tuple[int, int | None] | None
) -> None:
    answer = ok(with_actions(_plato(), actions))
    if next_bid is None:  # over: seat 1 leads the first trick
        assert {a["seat"] for a in answer["legal"]} == {1}
        assert of_kind(answer, "play") and not of_kind(answer, "bid")
        assert not of_kind(answer, "pass")
        return
    seat, low = next_bid
    expected = [{"seat": seat, "pass": True}] if low is None else bids_then_pass(seat, low)
    assert answer["legal"] == expected


# (actions, the index of the illegal one)
ILLEGAL_BIDS = [
    ("1:bid=100", 0),
    ("1:bid=231", 0),
    ("1:bid=0", 0),
    ("1:bid=-110", 0),
    ("1:bid=1000", 0),
    ("1:bid=110 2:bid=110", 1),  # not above the last bid
    ("1:bid=110 2:bid=109", 1),
    ("1:bid=230 2:bid=231", 1),
    ("2:bid=110", 0),  # not its turn
    ("0:pass", 0),
    ("1:bid=110 2:pass 1:bid=120", 2),
    ("1:pass 2:bid=110 0:bid=120 1:bid=130", 3),  # seat 1 passed: out of the auction
    ("1:pass 2:bid=110 0:bid=120 1:pass", 3),
    ("1:1O", 0),  # no card before the auction is over
    ("1:bid=110 2:pass 0:pass 1:bid=120", 3),  # the auction is over
    ("1:bid=110 2:pass 0:pass 0:pass", 3),
]


@pytest.mark.parametrize(("actions", "index"), ILLEGAL_BIDS)
def test_a_wrong_bid_is_an_illegal_action_not_an_invalid_record(actions: str, index: int) -> None:
    answer = refused_at(with_actions(_plato(), actions), index)
    assert answer["finished"] is False


@pytest.mark.parametrize("action", ["1:bid=110", "1:pass"])
def test_no_bid_or_pass_without_plato(action: str) -> None:
    for data in (make("arrastrado"), make("pairs", dealer=0), make("habanero", {}, "1O")):
        refused_at(with_actions(data, action), 0)


# Seat 1 holds the best cards and takes every trick (seat 0 trumps two of them): 87 card
# points, the 40 and the last ten, 137 in all.
_STRONG = [
    "4O 5O 6O 7O 10O 2C 4C 5C 6C 7C 10C 11C 2E",
    "1O 3O 12O 11O 1C 3C 1E 3E 1B 3B 12C 12E 12B",
    "4E 5E 6E 7E 10E 11E 2B 4B 5B 6B 7B 10B 11B",
]
_STRONG_PLAY = (
    "1:1O 2:11E 0:10O 1:sing=O 1:1C 2:11B 0:11C 1:1E 2:10E 0:2E 1:1B 2:10B 0:7O 0:10C 1:3C "
    "2:7E 1:3O 2:7B 0:6O 1:3E 2:6E 0:5O 0:7C 1:12C 2:6B 1:3B 2:5B 0:4O 0:6C 1:12O 2:5E 1:12E "
    "2:4E 0:5C 1:12B 2:4B 0:4C 1:11O 2:2B 0:2C"
)


@pytest.mark.parametrize(
    ("auction", "contract"),
    [
        ("1:bid=110 2:bid=120 0:pass 1:bid=130 2:pass", {"seat": 1, "points": 130, "made": True}),
        ("1:bid=137 2:pass 0:pass", {"seat": 1, "points": 137, "made": True}),
        ("1:bid=138 2:pass 0:pass", {"seat": 1, "points": 138, "made": False}),
        ("1:pass 2:bid=101 0:pass", {"seat": 2, "points": 101, "made": False}),
        ("1:bid=101 2:pass 0:bid=102 1:pass", {"seat": 0, "points": 102, "made": False}),
    ],
)
def test_the_result_names_the_contract_and_whether_it_was_made(
    auction: str, contract: dict[str, Any]
) -> None:
    data = literal(
        "arrastrado", _STRONG, "2O", f"{auction} {_STRONG_PLAY}", dealer=0, options={"plato": True}
    )
    answer = ok(data)
    result = answer["result"]
    assert answer["finished"] is True and answer["legal"] == []
    assert result["scores"] == [33, 137, 0] and result["winner"] == 1
    assert result["contract"] == contract


def test_the_contract_is_null_when_nobody_bid() -> None:
    data = literal(
        "arrastrado",
        _STRONG,
        "2O",
        f"1:pass 2:pass 0:pass {_STRONG_PLAY}",
        dealer=0,
        options={"plato": True},
    )
    result = ok(data)["result"]
    assert result["scores"] == [33, 137, 0]
    assert "contract" in result and result["contract"] is None


def test_no_contract_without_plato() -> None:
    data = literal("arrastrado", _STRONG, "2O", _STRONG_PLAY, dealer=0)
    assert "contract" not in ok(data)["result"]


# ------------------------------------------------------------------ capote

# Habanero deals played to the last draw (24 plays), where seat 1 announces capote.
_CAPOTE_MADE = literal(
    "habanero",
    ["1O 5O 4O 1E 5E 4E 2E 5B", "10O 12C 4C 12E 6E 3B 12B 7B"],
    "2C",
    "1:3B 0:1O 1:12C 0:1E 1:12E 0:1B 1:12B 0:3C 0:1C 1:10O 0:11E 1:10B 0:10C 1:7C 0:11O 1:10E "
    "0:7E 1:7B 0:3E 1:6O 0:12O 1:11C 1:7O 0:11B 1:capote 1:3O 0:5O 1:6C 0:5C 1:6E 0:5E 1:6B "
    "0:5B 1:4C 0:2C 1:4B 0:4O 1:2O 0:4E 1:2B 0:2E",
    dealer=0,
    stock="6B 3C 10B 1B 7C 11E 1C 6C 5C 2O 10C 6O 11O 10E 7E 2B 3E 4B 12O 11C 7O 11B 3O",
    carry=[40, 30],
)
_CAPOTE_FAILED = literal(
    "habanero",
    ["10O 10C 6C 12E 4E 2E 12B 7B", "12O 4O 2O 7C 5C 2C 1E 3B"],
    "5E",
    "1:1E 0:12E 1:1B 0:12B 1:3B 0:3O 1:12O 0:10O 1:12C 0:1O 1:10B 0:11B 0:11O 1:3E 1:3C 0:10C "
    "1:7O 0:1C 1:10E 0:7B 1:7C 0:11C 0:6O 1:11E 1:capote 1:7E 0:6E 1:6B 0:4B 1:5C 0:6C",
    dealer=0,
    stock="1B 6E 12C 3O 10B 6O 6B 1O 7O 11B 11O 3E 3C 4C 2B 1C 10E 4B 5B 11C 5O 11E 7E",
    carry=[40, 30],
)
_CAPOTE_SIXTY_FIVE = literal(
    "habanero",
    ["11O 10C 12E 10E 4E 3B 10B 2B", "3O 7O 5O 12C 6C 6E 1B 4B"],
    "2C",
    "1:1B 0:3B 1:1C 0:3E 1:3O 0:12E 1:1O 0:11O 1:12C 0:12B 1:11C 0:1E 1:10O 0:10C 0:10E 1:11B "
    "0:10B 1:3C 1:7O 0:7E 1:7C 0:12O 1:7B 0:6O 1:capote 1:11E 0:5E 1:6C 0:2C 1:6E 0:4E 1:5O "
    "0:4O 1:5C 0:6B 1:4C 0:5B 1:4B 0:2B 1:2O 0:2E",
    dealer=0,
    options={"scoring": "sixty-five"},
    stock="1C 3E 5C 2E 1O 5E 11C 12B 10O 1E 2O 5B 6O 11B 4O 3C 7C 7E 4C 12O 7B 6B 11E",
)


def _first(data: Record, n: int) -> Record:
    return {**data, "actions": data["actions"][:n]}


def test_capote_is_open_to_both_players_right_after_the_last_draw() -> None:
    assert _CAPOTE_MADE["actions"][24] == {"seat": 1, "capote": True}
    answer = ok(_first(_CAPOTE_MADE, 24))
    assert of_kind(answer, "capote") == [(0, True), (1, True)]
    assert of_kind(answer, "claim") == [(1, True)]  # a second deal: seat 1 may claim
    assert of_kind(ok(_first(_CAPOTE_MADE, 22)), "capote") == []  # not before the last draw
    assert of_kind(ok(_first(_CAPOTE_MADE, 25)), "capote") == []  # announced
    ok(plus(_first(_CAPOTE_MADE, 24), "0:capote"))


def test_nobody_claims_while_a_capote_runs() -> None:
    answer = ok(_first(_CAPOTE_MADE, 27))  # seat 1 has won the first trick of its capote
    assert answer["tricks"][-1]["winner"] == 1
    assert of_kind(answer, "claim") == [] and of_kind(answer, "capote") == []
    assert {a["seat"] for a in answer["legal"]} == {1}
    refused_at(plus(_first(_CAPOTE_MADE, 27), "1:claim"), 27)
    # without the capote the same seat, having won the same trick, may claim
    without = [a for a in _CAPOTE_MADE["actions"][:27] if "capote" not in a]
    assert of_kind(ok({**_CAPOTE_MADE, "actions": without}), "claim") == [(1, True)]


@pytest.mark.parametrize(
    ("data", "card_points", "winner"),
    [
        (_CAPOTE_MADE, [49, 71], 1),  # seat 1 took every trick after announcing
        (_CAPOTE_FAILED, [8, 112], 0),  # seat 1 lost a trick: seat 0 wins
        (_CAPOTE_SIXTY_FIVE, [9, 111], 1),  # 111 and the last ten: a double by the cards
    ],
    ids=["made-with-carry", "failed-with-carry", "made-sixty-five"],
)
def test_a_capote_scores_nothing_and_is_never_a_double(
    data: Record, card_points: list[int], winner: int
) -> None:
    answer = ok(data)
    result = answer["result"]
    assert answer["finished"] is True and answer["legal"] == []
    assert result["end"] == "capote" and result["card_points"] == card_points
    assert result["scores"] == [0, 0]  # carry included
    assert result["winner"] == winner
    assert result.get("double", False) is False


# ------------------------------------------------------------- resigning

_HAB_NINE = {1: "3O 2C 4C 5C 6C 7C 2E 4E", 0: "12B 11B 10B 2B 4B 5B 6B 7B"}  # 10 and 9 points
_PAIRS_NINE = {0: "12O 11O 10O 2O 4O 5O 6O 7O 2C 4C", 2: "5C 6C 7C 2E 4E 5E 6E 7E 2B 4B"}


def test_resign_is_listed_for_each_seat_under_10_points_before_the_first_lead() -> None:
    hab = ok(make("habanero", _HAB_NINE, "1O", dealer=0, options={"scoring": "sixty-five"}))
    assert hab["legal"] == [{"seat": 0, "resign": True}, *plays(1, "3O 7C 6C 5C 4C 4E 2C 2E")]
    pairs = ok(make("pairs", _PAIRS_NINE, "1B", dealer=3, options={"scoring": "sixty-five"}))
    assert pairs["legal"] == [
        *plays(0, "12O 11O 10O 7O 6O 5O 4O 4C 2O 2C"),
        {"seat": 0, "resign": True},
        {"seat": 2, "resign": True},
    ]


@pytest.mark.parametrize(
    ("variant", "hands", "turned", "dealer", "seat", "winner"),
    [
        ("habanero", _HAB_NINE, "1O", 0, 0, 1),
        ("pairs", _PAIRS_NINE, "1B", 3, 0, 1),
        ("pairs", _PAIRS_NINE, "1B", 3, 2, 1),
    ],
)
def test_a_resignation_ends_the_deal_for_the_other_side_with_no_score(
    variant: str, hands: dict[int, str], turned: str, dealer: int, seat: int, winner: int
) -> None:
    data = make(
        variant,
        hands,
        turned,
        dealer=dealer,
        options={"scoring": "sixty-five"},
        actions=f"{seat}:resign",
    )
    answer = ok(data)
    result = answer["result"]
    assert answer["finished"] is True and answer["legal"] == [] and answer["tricks"] == []
    assert result["end"] == "resign" and result["scores"] == [0, 0]
    assert result["winner"] == winner and result.get("double", False) is False


@pytest.mark.parametrize(
    ("variant", "hands", "turned", "dealer", "options", "actions", "index"),
    [
        # 10 card points (a 3) are not under 10
        ("habanero", _HAB_NINE, "1O", 0, {"scoring": "sixty-five"}, "1:resign", 0),
        ("pairs", _PAIRS_NINE, "1B", 3, {"scoring": "sixty-five"}, "1:resign", 0),
        ("pairs", _PAIRS_NINE, "1B", 3, {"scoring": "sixty-five"}, "3:resign", 0),
        # only before the first lead
        ("habanero", _HAB_NINE, "1O", 0, {"scoring": "sixty-five"}, "1:3O 0:resign", 1),
        ("pairs", _PAIRS_NINE, "1B", 3, {"scoring": "sixty-five"}, "0:12O 2:resign", 1),
        # only with sixty-five scoring
        ("habanero", _HAB_NINE, "1O", 0, None, "0:resign", 0),
        ("pairs", _PAIRS_NINE, "1B", 3, None, "2:resign", 0),
        (
            "arrastrado",
            {1: "2O 4O 5O 6O 7O 2C 4C 5C 6C 7C 2E 4E 5E"},
            "1B",
            0,
            {"rules": "sixty-five"},
            "1:resign",
            0,
        ),
    ],
)
def test_resign_refused(
    variant: str,
    hands: dict[int, str],
    turned: str,
    dealer: int,
    options: dict[str, Any] | None,
    actions: str,
    index: int,
) -> None:
    data = make(variant, hands, turned, dealer=dealer, options=options, actions=actions)
    answer = refused_at(data, index)
    assert data["actions"][index] not in answer["legal"]


# ------------------------------------------------------------ sixty-five


class Sixty5(NamedTuple):
    """A pairs deal under sixty-five, dealt by seat 3, in which side 0 (seats 0 and 2) takes
    the last trick."""

    name: str
    hands: list[str]
    turned: str
    actions: str
    card_points: list[int]
    cantes: list[int]
    winner: int
    double: bool


SIXTY_FIVE = [
    Sixty5(
        "no cante, 64",
        [
            "1O 3C 12E 10E 7E 5E 1B 3B 12B 4B",
            "3O 12O 1C 12C 7C 4C 1E 11E 4E 11B",
            "11O 6O 5O 6C 5C 6E 2E 10B 7B 6B",
            "10O 7O 4O 2O 11C 10C 2C 3E 5B 2B",
        ],
        "3E",
        "0:1O 1:3O 2:11O 3:10O 0:1B 1:11B 2:10B 3:5B 0:3C 1:1C 2:6C 3:11C 1:1E 2:6E "
        "3:3E 0:12E 1:12O 2:6O 3:7O 0:10E 0:3B 1:11E 2:7B 3:2B 1:12C 2:5C 3:10C 0:7E "
        "0:12B 1:4E 2:6B 3:4O 1:7C 2:2E 3:2C 0:5E 0:4B 1:4C 2:5O 3:2O",
        card_points=[54, 66],
        cantes=[0, 0],
        winner=1,
        double=False,
    ),
    Sixty5(
        "no cante, 65",
        [
            "7O 2O 10C 11E 10E 5E 4E 3B 7B 2B",
            "10O 6O 1C 11C 2C 3E 12E 7E 2E 5B",
            "1O 12O 5O 7C 6C 5C 1E 6E 1B 11B",
            "3O 11O 4O 3C 12C 4C 12B 10B 6B 4B",
        ],
        "12C",
        "0:3B 1:5B 2:1B 3:12B 2:1O 3:3O 0:7O 1:10O 2:1E 3:3C 0:11E 1:3E 3:12C 0:10C "
        "1:1C 2:7C 1:12E 2:6E 3:4C 0:10E 3:11O 0:2O 1:6O 2:12O 2:11B 3:10B 0:7B 1:11C "
        "1:7E 2:6C 3:6B 0:5E 2:5O 3:4O 0:4E 1:2C 1:2E 2:5C 3:4B 0:2B",
        card_points=[55, 65],
        cantes=[0, 0],
        winner=0,
        double=False,
    ),
    Sixty5(
        "sang 20, 74",
        [
            "1O 12O 7O 4O 1C 5C 2E 3B 12B 11B",
            "5O 11C 4C 1E 7E 5E 10B 7B 6B 5B",
            "11O 6O 2O 3C 10C 6C 10E 6E 4B 2B",
            "3O 10O 12C 7C 2C 3E 12E 11E 4E 1B",
        ],
        "7C",
        "0:1O 1:5O 2:11O 3:3O 0:sing=B 0:1C 1:11C 2:3C 3:12C 0:3B 1:10B 2:4B 3:1B 3:3E "
        "0:2E 1:1E 2:10E 1:7E 2:6E 3:12E 0:5C 0:12O 1:4C 2:6O 3:10O 1:7B 2:2B 3:7C "
        "0:12B 3:11E 0:11B 1:5E 2:10C 2:6C 3:2C 0:7O 1:6B 2:2O 3:4E 0:4O 1:5B",
        card_points=[64, 56],
        cantes=[20, 0],
        winner=1,
        double=False,
    ),
    Sixty5(
        "sang 20, 75",
        [
            "1O 12O 11O 5O 12C 10C 7C 3E 11B 7B",
            "3C 12E 7E 5E 4E 3B 10B 6B 4B 2B",
            "3O 10O 2O 1C 11C 6C 4C 1E 2E 5B",
            "7O 6O 4O 5C 2C 11E 10E 6E 1B 12B",
        ],
        "5C",
        "0:1O 1:3C 2:3O 3:7O 1:3B 2:5B 3:1B 0:11B 3:12B 0:7B 1:10B 2:1C 0:sing=O 2:1E "
        "3:11E 0:3E 1:12E 2:11C 3:5C 0:12C 1:7E 0:12O 1:6B 2:10O 3:6O 0:11O 1:5E 2:2O "
        "3:4O 0:10C 1:4E 2:6C 3:2C 0:7C 1:4B 2:4C 3:10E 0:5O 1:2B 2:2E 3:6E",
        card_points=[65, 55],
        cantes=[20, 0],
        winner=0,
        double=False,
    ),
    Sixty5(
        "sang 20, 80",
        [
            "3O 11O 5O 2O 11C 6C 2C 10E 10B 7B",
            "12O 10O 3C 12C 10C 7C 4C 5E 1B 4B",
            "1O 7O 1C 5C 12E 11E 6E 2E 3B 11B",
            "6O 4O 1E 3E 7E 4E 12B 6B 5B 2B",
        ],
        "4O",
        "0:3O 1:12O 2:1O 3:6O 2:sing=E 2:1C 3:4O 0:11C 1:3C 3:1E 0:10E 1:5E 2:12E 3:3E "
        "0:11O 1:1B 2:11E 0:10B 1:4B 2:3B 3:12B 2:11B 3:6B 0:7B 1:10O 1:12C 2:5C 3:7E "
        "0:6C 1:10C 2:7O 3:5B 0:2C 2:6E 3:4E 0:5O 1:7C 0:2O 1:4C 2:2E 3:2B",
        card_points=[70, 50],
        cantes=[20, 0],
        winner=0,
        double=False,
    ),
    Sixty5(
        "sang 40, 84",
        [
            "7O 2O 12C 10C 6C 7E 4E 12B 11B 7B",
            "12O 11O 5O 4O 1C 3C 11C 10E 2E 10B",
            "1O 10O 6O 7C 5C 2C 5E 1B 3B 6B",
            "3O 4C 1E 3E 12E 11E 6E 5B 4B 2B",
        ],
        "5B",
        "0:12C 1:1C 2:7C 3:4C 1:3C 2:5C 3:5B 0:10C 3:1E 0:7E 1:10E 2:5E 3:3O 0:7O 1:12O "
        "2:1O 0:sing=B 2:1B 3:4B 0:12B 1:10B 2:3B 3:2B 0:11B 1:11O 2:10O 3:3E 0:2O 1:5O "
        "2:6O 3:12E 0:7B 1:4O 0:6C 1:11C 2:2C 3:11E 1:2E 2:6B 3:6E 0:4E",
        card_points=[74, 46],
        cantes=[40, 0],
        winner=1,
        double=False,
    ),
    Sixty5(
        "sang 40, 85",
        [
            "10O 6C 5C 2C 12E 5E 4E 12B 11B 5B",
            "3O 12O 7O 3C 7C 4C 10E 7E 6B 4B",
            "1O 11O 5O 4O 11C 1E 3E 6E 2E 1B",
            "6O 2O 1C 12C 10C 11E 3B 10B 7B 2B",
        ],
        "7B",
        "0:12E 1:10E 2:1E 3:11E 0:sing=B 2:1O 3:6O 0:10O 1:3O 2:1B 3:3B 0:12B 1:6B 2:3E "
        "3:10B 0:5E 1:7E 3:1C 0:6C 1:3C 2:11C 3:12C 0:5C 1:7C 2:11O 3:10C 0:2C 1:4C "
        "2:6E 3:7B 0:11B 1:4B 2:5O 0:5B 1:12O 2:4O 3:2B 0:4E 1:7O 2:2E 3:2O",
        card_points=[75, 45],
        cantes=[40, 0],
        winner=0,
        double=False,
    ),
    Sixty5(
        "sang 40+20, 84",
        [
            "3C 12C 11C 4C 11E 10E 7E 5E 1B 6B",
            "7O 5O 2O 1E 3E 12E 6E 4E 4B 2B",
            "3O 12O 11O 6O 10C 5C 2C 2E 12B 10B",
            "1O 10O 4O 1C 7C 6C 3B 11B 7B 5B",
        ],
        "1C",
        "0:1B 1:4B 2:12B 3:3B 0:sing=C 0:3C 1:1E 2:10C 3:1C 3:1O 0:12C 1:7O 2:3O "
        "2:sing=O 0:11C 1:3E 2:5C 3:7C 0:11E 1:12E 2:2E 3:6C 3:11B 0:6B 1:2B 2:10B "
        "3:10O 0:4C 1:5O 2:12O 0:10E 1:6E 2:2C 3:7B 2:11O 3:4O 0:7E 1:2O 2:6O 3:5B 0:5E "
        "1:4E",
        card_points=[74, 46],
        cantes=[60, 0],
        winner=1,
        double=False,
    ),
    Sixty5(
        "sang 40+20, 85",
        [
            "1O 6O 5O 4O 3C 10C 12E 6E 5E 4E",
            "10O 6C 3E 7E 2E 1B 6B 5B 4B 2B",
            "12O 2O 12C 11C 7C 1E 11E 3B 12B 11B",
            "3O 11O 7O 1C 5C 4C 2C 10E 10B 7B",
        ],
        "2C",
        "0:1O 1:10O 2:12O 3:3O 2:sing=C 0:3C 1:6C 2:12C 3:1C 3:11O 0:6O 1:1B 2:2O 3:10E "
        "0:12E 1:3E 2:1E 2:sing=B 2:3B 3:10B 0:10C 1:6B 0:6E 1:7E 2:11E 3:5C 3:7O 0:5O "
        "1:5B 2:11C 2:12B 3:7B 0:5E 1:4B 2:11B 3:4C 0:4O 1:2B 3:2C 0:4E 1:2E 2:7C",
        card_points=[75, 45],
        cantes=[60, 0],
        winner=0,
        double=False,
    ),
    Sixty5(
        "no cante, 101",
        [
            "11O 10O 2O 7C 1E 12E 7E 3B 7B 4B",
            "3O 7O 6O 5O 6C 2C 4E 12B 6B 2B",
            "1O 12O 3C 11C 5C 3E 5E 2E 1B 10B",
            "4O 1C 12C 10C 4C 11E 10E 6E 11B 5B",
        ],
        "11E",
        "0:1E 1:4E 2:3E 3:11E 0:3B 1:12B 2:1B 3:11B 2:1O 3:4O 0:11O 1:3O 2:3C 3:1C 0:7C "
        "1:6C 3:12C 0:12E 1:2C 2:11C 0:10O 1:7O 2:12O 3:10E 3:10C 0:7E 1:6O 2:5C 0:7B "
        "1:6B 2:10B 3:5B 2:5E 3:6E 0:4B 1:5O 3:4C 0:2O 1:2B 2:2E",
        card_points=[91, 29],
        cantes=[0, 0],
        winner=0,
        double=False,
    ),
    Sixty5(
        "no cante, 102",
        [
            "3O 10O 6O 12C 10C 3E 6E 5E 12B 6B",
            "11O 11C 7C 6C 4C 2C 10E 10B 5B 4B",
            "1O 12O 5O 5C 1E 12E 1B 3B 7B 2B",
            "7O 4O 2O 1C 3C 11E 7E 4E 2E 11B",
        ],
        "2E",
        "0:3O 1:11O 2:1O 3:7O 2:1E 3:11E 0:3E 1:10E 2:1B 3:11B 0:12B 1:10B 2:3B 3:7E "
        "0:6B 1:5B 3:1C 0:12C 1:11C 2:5C 3:3C 0:10C 1:7C 2:12E 2:12O 3:4O 0:10O 1:6C "
        "2:7B 3:4E 0:6E 1:4B 0:6O 1:4C 2:5O 3:2O 0:5E 1:2C 2:2B 3:2E",
        card_points=[92, 28],
        cantes=[0, 0],
        winner=0,
        double=True,
    ),
]


@pytest.mark.parametrize("case", SIXTY_FIVE, ids=[c.name for c in SIXTY_FIVE])
def test_sixty_five_bars_and_the_double(case: Sixty5) -> None:
    data = literal(
        "pairs", case.hands, case.turned, case.actions, dealer=3, options={"scoring": "sixty-five"}
    )
    answer = ok(data)
    result = answer["result"]
    assert answer["finished"] is True and result["end"] == "cards"
    # what the case is about: the cantes side 0 sang (40 in trumps), its card points
    trumps = case.turned[-1]
    sung = sorted(40 if a["sing"] == trumps else 20 for a in data["actions"] if "sing" in a)
    label = "+".join(str(points) for points in reversed(sung))
    assert case.name.split(",")[0] == (f"sang {label}" if sung else "no cante")
    assert all(a["seat"] in (0, 2) for a in data["actions"] if "sing" in a)
    assert result["card_points"] == case.card_points and result["cantes"] == case.cantes
    assert result["last_trick"] == 0
    # the cantes are not added to the scores
    assert result["scores"] == [case.card_points[0] + 10, case.card_points[1]]
    assert result["winner"] == case.winner
    assert result.get("double", False) is case.double


def test_a_tute_under_sixty_five_is_never_a_double() -> None:
    """Seat 0 keeps the four knights, wins six tricks with its aces and threes, and takes
    every other point card but the knights (108) before declaring tute."""
    hands = [
        "11O 11C 11E 11B 1O 3O 1C 3C 1E 3E",
        "12O 4O 12C 4C 12E 4E 7O 7C 7E 7B",
        "10O 5O 1B 3B 12B 10B 2B 4B 5B 6B",
        "2O 6O 10C 2C 10E 2E 5C 6C 5E 6E",
    ]
    tricks = (
        "0:1O 1:12O 2:10O 3:2O 0:3O 1:4O 2:5O 3:6O 0:1C 1:12C 2:1B 3:10C "
        "0:3C 1:4C 2:3B 3:2C 0:1E 1:12E 2:12B 3:10E 0:3E 1:4E 2:10B 3:2E"
    )
    data = literal(
        "pairs", hands, "2O", f"{tricks} 0:tute", dealer=3, options={"scoring": "sixty-five"}
    )
    answer = ok(data)
    result = answer["result"]
    assert answer["finished"] is True and len(answer["tricks"]) == 6
    assert result["end"] == "tute" and result["winner"] == 0
    assert result["card_points"] == [108, 0] and result["scores"] == [108, 0]
    assert result.get("double", False) is False


# ------------------------------------------------------- the exchange windows

# Habanero dealt by seat 0, oros trumps (1O turned under the stock): the 7O takes it.
# (id, exchange_window, hands, stock, actions, the seats that may exchange then)
EXCHANGES = [
    ("lead-no-window-yet", "before_lead", {1: "1C 7O", 0: "4C"}, "", "", []),
    ("lead-after-a-win", "before_lead", {1: "1C 7O", 0: "4C"}, "", "1:1C 0:4C", [1]),
    ("lead-loser-holds-it", "before_lead", {1: "1C", 0: "4C 7O"}, "", "1:1C 0:4C", []),
    ("lead-winner-seat-0", "before_lead", {1: "4C", 0: "1C 7O"}, "", "1:4C 0:1C", [0]),
    ("lead-just-drawn", "before_lead", {1: "1C", 0: "4C"}, "7O", "1:1C 0:4C", [1]),
    (
        "lead-after-a-cante",
        "before_lead",
        {1: "1C 7O 12B 11B", 0: "4C"},
        "",
        "1:1C 0:4C 1:sing=B",
        [1],
    ),
    ("lead-after-the-lead", "before_lead", {1: "1C 7O 3C", 0: "4C"}, "", "1:1C 0:4C 1:3C", []),
    ("draw-after-a-win", "before_draw", {1: "1C 7O", 0: "4C"}, "", "1:1C 0:4C", [1]),
    ("draw-no-window-yet", "before_draw", {1: "1C 7O", 0: "4C"}, "", "", []),
    ("draw-just-drawn-waits", "before_draw", {1: "1C", 0: "4C"}, "7O", "1:1C 0:4C", []),
    (
        "draw-after-a-cante",
        "before_draw",
        {1: "1C 7O 12B 11B", 0: "4C"},
        "",
        "1:1C 0:4C 1:sing=B",
        [],
    ),
    ("announce-leader-at-once", "announce", {1: "1C 7O", 0: "4C"}, "", "", [1]),
    ("announce-not-on-turn", "announce", {1: "1C", 0: "4C 7O"}, "", "", []),
    ("announce-on-turn", "announce", {1: "1C", 0: "4C 7O"}, "", "1:1C", [0]),
    ("announce-in-window", "announce", {1: "1C 7O", 0: "4C"}, "", "1:1C 0:4C", [1]),
    ("announce-once", "announce", {1: "1C 7O", 0: "4C"}, "", "1:exchange", []),
]


@pytest.mark.parametrize(
    ("window", "hands", "stock", "actions", "seats"),
    [case[1:] for case in EXCHANGES],
    ids=[case[0] for case in EXCHANGES],
)
def test_the_habanero_exchange_is_listed_for_the_right_seat(
    window: str, hands: dict[int, str], stock: str, actions: str, seats: list[int]
) -> None:
    options = {"exchange_window": window}
    data = make("habanero", hands, "1O", dealer=0, options=options, stock=stock, actions=actions)
    answer = ok(data)
    assert of_kind(answer, "exchange") == [(seat, True) for seat in seats]
    for seat in seats:  # and it is legal
        ok(plus(data, f"{seat}:exchange"))
    if "exchange" in actions:
        return
    # never with exchange off
    off = make(
        "habanero",
        hands,
        "1O",
        dealer=0,
        options={**options, "exchange": False},
        stock=stock,
        actions=actions,
    )
    assert of_kind(ok(off), "exchange") == []


@pytest.mark.parametrize(
    ("turned", "held", "seats"),
    [
        ("1O", "7O", [1]),
        ("3O", "7O", [1]),
        ("12O", "7O", [1]),
        ("11O", "7O", [1]),
        ("10O", "7O", [1]),
        ("10O", "2O", []),
        ("7O", "2O", [1]),
        ("6O", "2O", [1]),
        ("5O", "2O", [1]),
        ("4O", "2O", [1]),
        ("4O", "7O", []),
        ("2O", "7O", []),
    ],
)
def test_the_7_takes_a_high_turned_card_and_the_2_a_low_one(
    turned: str, held: str, seats: list[int]
) -> None:
    data = make("habanero", {1: f"1C {held}", 0: "4C"}, turned, dealer=0, actions="1:1C 0:4C")
    assert of_kind(ok(data), "exchange") == [(s, True) for s in seats]


# After the twelfth trick (the last with draws): seat 1 won it and holds the 2B, the turned
# 7B was drawn by seat 0. Only ``before_draw`` still lets seat 1 take it.
_LAST_DRAW = literal(
    "habanero",
    ["1O 12O 12C 4C 1E 11E 6B 5B", "7O 6O 4O 1C 6C 2C 5E 2B"],
    "7B",
    "1:1C 0:1O 1:7O 0:1E 1:3C 0:3E 1:12E 0:3B 0:12O 1:1B 1:6O 0:12C 1:10B 0:12B 0:11O 1:10E "
    "0:11C 1:11B 1:10O 0:11E 1:6C 0:3O 1:7E 0:10C",
    dealer=0,
    stock="4E 3E 3C 3B 12E 12B 4B 1B 2O 2E 10B 11O 11C 10E 10C 11B 10O 5O 5C 3O 7E 6E 7C",
)


@pytest.mark.parametrize(
    ("window", "seats"), [("before_draw", [1]), ("before_lead", []), ("announce", [])]
)
def test_before_draw_also_exchanges_after_the_last_draw(window: str, seats: list[int]) -> None:
    answer = ok({**_LAST_DRAW, "options": {"exchange_window": window}})
    assert len(answer["tricks"]) == 12 and answer["tricks"][-1]["winner"] == 1
    assert of_kind(answer, "exchange") == [(s, True) for s in seats]


# Arrastrado dealt by seat 0, 1B turned on the table: the 7B takes it.
_AUTO_OFF = {"auto_exchange": False}


def _arrastrado(hands: dict[int, str], options: dict[str, Any] | None, actions: str = "") -> Answer:
    return ok(make("arrastrado", hands, "1B", options=options, actions=actions))


def test_arrastrado_auto_exchange_false_lists_the_holder_before_the_first_lead() -> None:
    answer = _arrastrado({0: "7B", 1: "1O"}, _AUTO_OFF)
    assert answer["legal"][0] == {"seat": 0, "exchange": True}
    assert of_kind(answer, "exchange") == [(0, True)]
    assert {a["seat"] for a in answer["legal"][1:]} == {1}
    answer = _arrastrado({2: "7B", 1: "1O"}, _AUTO_OFF)
    assert answer["legal"][-1] == {"seat": 2, "exchange": True}
    # taken: once only; after the first lead: never
    assert of_kind(_arrastrado({0: "7B"}, _AUTO_OFF, "0:exchange"), "exchange") == []
    assert of_kind(_arrastrado({0: "7B", 1: "1O"}, _AUTO_OFF, "1:1O"), "exchange") == []
    data = make(
        "arrastrado", {0: "7B", 1: "1O"}, "1B", options=_AUTO_OFF, actions="1:1O 0:exchange"
    )
    refused_at(data, 1)


@pytest.mark.parametrize(
    ("options", "actions", "held", "not_held"),
    [
        (None, "", "1B", "7B"),  # the automatic exchange, made at the deal
        (_AUTO_OFF, "", "7B", "1B"),
        (_AUTO_OFF, "1:exchange", "1B", "7B"),
    ],
)
def test_the_holder_of_the_7_plays_the_turned_card_once_exchanged(
    options: dict[str, Any] | None, actions: str, held: str, not_held: str
) -> None:
    answer = _arrastrado({1: "7B"}, options, actions)
    cards = [card for _, card in of_kind(answer, "play")]
    assert held in cards and not_held not in cards
    assert of_kind(answer, "exchange") == ([(1, True)] if options and not actions else [])


@pytest.mark.parametrize(
    ("holder", "actions", "legal"),
    [
        (0, "", [{"seat": 0, "exchange": True}, *bids_then_pass(1)]),
        (2, "", [*bids_then_pass(1), {"seat": 2, "exchange": True}]),
        (1, "1:bid=110", [{"seat": 1, "exchange": True}, *bids_then_pass(2, 111)]),
        (0, "1:bid=110 2:pass", [{"seat": 0, "exchange": True}, *bids_then_pass(0, 111)]),
    ],
)
def test_arrastrado_exchange_by_hand_during_the_auction(
    holder: int, actions: str, legal: list[dict[str, Any]]
) -> None:
    data = make(
        "arrastrado",
        {holder: "7B"},
        "1B",
        options={"plato": True, "auto_exchange": False},
        actions=actions,
    )
    assert ok(data)["legal"] == legal
    after = ok(plus(data, f"{holder}:exchange"))
    assert of_kind(after, "exchange") == []
    assert after["legal"] == [a for a in legal if "exchange" not in a]  # the turn stays


def test_no_exchange_by_hand_for_a_turned_2_or_with_36_cards() -> None:
    data = make("arrastrado", {0: "7B"}, "2B", options=_AUTO_OFF)
    assert of_kind(ok(data), "exchange") == []
    assert of_kind(_arrastrado({0: "7B"}, {"deck": 36}), "exchange") == []


# ------------------------------------------------------- through the command


@pytest.mark.parametrize(
    "data",
    [
        make("habanero", {}, "1O", actions="2:1O"),
        make("arrastrado", actions="3:pass"),
        {**make("habanero", {}, "1O", options={"scoring": "sixty-five"}), "carry": [10, 20]},
        {**make("habanero", {}, "1O"), "options": {"pairs_sing": "each"}},
        {**make("arrastrado", options={"deck": 36}), "options": {"deck": 36, "seats": 4}},
    ],
    ids=[
        "habanero-seat-2",
        "arrastrado-seat-3",
        "sixty-five-carry",
        "pairs_sing-in-habanero",
        "seats-4-deck-36",
    ],
)
def test_the_command_exits_2_with_one_line_for_an_invalid_record(data: Record) -> None:
    done = referee(json.dumps(data))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("data", "index"),
    [
        (with_actions(_plato(), "1:bid=231"), 0),
        (with_actions(_plato(), "1:bid=110 2:bid=110"), 1),
        (make("arrastrado", {1: "1O"}, "1B", options={"seats": 4}, actions="1:1O 0:4O"), 1),
        (
            make(
                "habanero", _HAB_NINE, "1O", options={"scoring": "sixty-five"}, actions="1:resign"
            ),
            0,
        ),
    ],
    ids=["bid-231", "bid-not-above", "dealer-sitting-out", "resign-with-10-points"],
)
def test_the_command_exits_0_for_an_illegal_action(data: Record, index: int) -> None:
    done = referee(json.dumps(data))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer == judge(data)
    assert answer["valid_until"] == index and answer["error"]
