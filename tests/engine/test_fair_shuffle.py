"""The committed shuffle and ``tute-referee verify``: the test vector of
docs/game-records.md recomputes; a record dealt by the shuffle verifies "fair"; one whose
hands, turned card or stock differ by a single card, or whose seed is wrong, is rejected
with the difference named."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import CODES, Deal, Variant, parse_options, record_of
from bot.engine.cards import parse_card
from bot.engine.dealing import deck_order, shuffle_deal
from bot.engine.referee import main
from bot.engine.shuffle import CommittedShuffle, commitment, deal_seed, seed_commits

DOCS = Path(__file__).parents[2] / "docs" / "game-records.md"
SECRET = bytes(range(32))
INPUT = "discord:1234567890123456789"


def vector() -> dict[str, Any]:
    text = DOCS.read_text()
    found = re.search(r"<!-- shuffle test vector -->\n```json\n(.*?)```", text, re.S)
    assert found, "the docs hold the shuffle's test vector"
    return json.loads(found.group(1))


def test_the_documented_test_vector_recomputes() -> None:
    case = vector()
    secret = bytes.fromhex(case["secret"])
    assert commitment(secret) == case["commitment"]
    for deal_no, seed in case["seeds"].items():
        assert deal_seed(secret, int(deal_no)).hex() == seed
        assert seed_commits(bytes.fromhex(seed), int(deal_no), case["commitment"])
    variant = Variant.HABANERO
    deck = deck_order(variant, parse_options(variant, None))
    seed = bytes.fromhex(case["seeds"][str(case["deal_no"])])
    CommittedShuffle(seed, case["input"]).shuffle(deck)
    assert " ".join(CODES[c] for c in deck) == case["order"]
    # dealt as the docs say: seat 1 deals, seat 0 gets the first card
    options = parse_options(variant, None)
    dealt = shuffle_deal(variant, options, 1, CommittedShuffle(seed, case["input"]))
    order = case["order"].split()
    assert {CODES[c] for c in dealt.hands[0]} == set(order[0:16:2])
    assert {CODES[c] for c in dealt.hands[1]} == set(order[1:16:2])
    assert CODES[dealt.turned] == order[16] == "7B"
    assert [CODES[c] for c in dealt.stock] == order[17:]


def test_a_seed_commits_only_at_its_own_place_in_the_chain() -> None:
    committed = commitment(SECRET)
    assert hashlib.sha256(deal_seed(SECRET, 0)).hexdigest() == committed
    assert deal_seed(SECRET, 0) == hashlib.sha256(deal_seed(SECRET, 1)).digest()
    assert seed_commits(deal_seed(SECRET, 3), 3, committed)
    assert not seed_commits(deal_seed(SECRET, 3), 2, committed)
    assert not seed_commits(deal_seed(SECRET, 4), 3, committed)


def test_an_index_throws_away_the_words_that_would_bias_it() -> None:
    """With n = 3 * 2**30 a word at or over 3 * 2**30 is thrown away, not reduced."""
    n = 3 << 30
    shuffle = CommittedShuffle(deal_seed(SECRET, 0), INPUT)
    stream = CommittedShuffle(deal_seed(SECRET, 0), INPUT)
    words = [stream._word() for _ in range(64)]  # pyright: ignore[reportPrivateUsage]
    assert any(w >= n for w in words[:16]), "the stream holds a word to throw away"
    kept = [w for w in words if w < n]
    assert [shuffle.below(n) for _ in range(len(kept))] == kept
    first = hashlib.sha256(deal_seed(SECRET, 0) + INPUT.encode() + bytes(4)).digest()
    assert words[:8] == [int.from_bytes(first[i : i + 4], "big") for i in range(0, 32, 4)]


VARIANTS = [
    (Variant.HABANERO, {}),
    (Variant.ARRASTRADO, {}),
    (Variant.ARRASTRADO, {"deck": 36}),
    (Variant.ARRASTRADO, {"seats": 4}),
    (Variant.INDIVIDUAL, {}),
    (Variant.PAIRS, {}),
]


def committed_record(variant: Variant, raw: dict[str, Any], deal_no: int = 2) -> dict[str, Any]:
    """A record as the bot writes one once the deal is over."""
    options = parse_options(variant, raw or None)
    seed = deal_seed(SECRET, deal_no)
    dealt = shuffle_deal(variant, options, 1, CommittedShuffle(seed, INPUT))
    record = json.loads(json.dumps(record_of(Deal(dealt))))
    record["shuffle"] = {
        "version": 2,
        "commitment": commitment(SECRET),
        "input": INPUT,
        "deal_no": deal_no,
        "seed": seed.hex(),
    }
    return record


def verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any) -> tuple[int, list[str]]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    code = main(["verify", str(path)])
    return code, capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(("variant", "raw"), VARIANTS, ids=lambda v: str(v))
def test_a_committed_record_verifies_fair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: Variant, raw: dict[str, Any]
) -> None:
    assert verify(tmp_path, capsys, committed_record(variant, raw)) == (0, ["fair"])


def test_a_game_of_records_verifies_each_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = [committed_record(Variant.PAIRS, {}, n) for n in range(3)]
    assert verify(tmp_path, capsys, game) == (0, ["fair"])
    game[1]["shuffle"]["seed"] = game[2]["shuffle"]["seed"]
    code, lines = verify(tmp_path, capsys, {"deals": [{"record": r} for r in game]})
    assert code == 1
    assert lines == [f"deal 2: the seed does not match the commitment {commitment(SECRET)[:12]}"]


def swap(cards: list[str], old: str, new: str) -> None:
    cards[cards.index(old)] = new


def test_a_card_swapped_between_two_hands_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = committed_record(Variant.INDIVIDUAL, {})
    hands = record["hands"]
    a, b = hands[0][0], hands[2][-1]
    swap(hands[0], a, b)
    swap(hands[2], b, a)
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1
    assert lines == [
        f"seat 0's hand holds {b} instead of {a}",
        f"seat 2's hand holds {a} instead of {b}",
    ]


def test_a_different_turned_card_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = committed_record(Variant.HABANERO, {})
    turned, other = record["turned"], record["stock"][5]
    record["turned"], record["stock"][5] = other, turned
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1
    assert lines == [
        f"the turned card is {other}; the shuffle turned {turned}",
        f"stock card 6 is {turned}; the shuffle put {other} there",
    ]


def test_a_turned_card_that_is_not_the_dealers_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pairs: the turned card is the dealer's last; naming another of theirs differs."""
    record = committed_record(Variant.PAIRS, {})
    turned = record["turned"]
    other = next(c for c in record["hands"][1] if c != turned)
    record["turned"] = other
    code, lines = verify(tmp_path, capsys, record)
    assert (code, lines) == (1, [f"the turned card is {other}; the shuffle turned {turned}"])


def test_two_stock_cards_swapped_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = committed_record(Variant.HABANERO, {})
    stock = record["stock"]
    first, second = stock[0], stock[1]
    stock[0], stock[1] = second, first
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1
    assert lines == [
        f"stock card 1 is {second}; the shuffle put {first} there",
        f"stock card 2 is {first}; the shuffle put {second} there",
    ]


def test_a_stock_card_swapped_with_a_hand_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = committed_record(Variant.HABANERO, {})
    held, drawn = record["hands"][0][0], record["stock"][-1]
    swap(record["hands"][0], held, drawn)
    record["stock"][-1] = held
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1
    assert lines == [
        f"seat 0's hand holds {drawn} instead of {held}",
        f"stock card 23 is {held}; the shuffle put {drawn} there",
    ]


def test_a_wrong_seed_and_a_seed_off_the_commitment_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = commitment(SECRET)[:12]
    # another deal's seed of the same chain: it commits, at another place
    record = committed_record(Variant.HABANERO, {})
    record["shuffle"]["seed"] = deal_seed(SECRET, 3).hex()
    assert verify(tmp_path, capsys, record) == (
        1,
        [f"the seed does not match the commitment {short}"],
    )
    # a seed of another table, and its commitment: the seed commits, the cards differ
    other = bytes(32)
    record = committed_record(Variant.HABANERO, {})
    record["shuffle"]["seed"] = deal_seed(other, 2).hex()
    record["shuffle"]["commitment"] = commitment(other)
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1 and lines[0].startswith("seat 0's hand holds ")
    # the right seed, the cards dealt again from another public input
    record = committed_record(Variant.HABANERO, {})
    record["shuffle"]["input"] = "discord:1"
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1 and lines != ["fair"]


def test_an_older_or_unfinished_record_is_not_verifiable_rather_than_unfair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = committed_record(Variant.HABANERO, {})
    del record["shuffle"]["seed"]
    code, lines = verify(tmp_path, capsys, record)
    assert code == 1 and lines[0].startswith("not verifiable yet")
    record["shuffle"] = {"version": 1}
    assert verify(tmp_path, capsys, record) == (1, ["not verifiable (older shuffle)"])
    del record["shuffle"]
    assert verify(tmp_path, capsys, record) == (1, ["not verifiable (older shuffle)"])


def test_a_file_that_is_no_record_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = committed_record(Variant.HABANERO, {})
    record["shuffle"]["seed"] = "zz"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 2
    assert "shuffle.seed must be 64 hex digits" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2


def test_the_plain_referee_still_reads_a_record_with_its_shuffle() -> None:
    from bot.engine.referee import judge

    record = committed_record(Variant.HABANERO, {})
    assert judge(record)["valid_until"] == 0
    assert parse_card(record["turned"]) >= 0


def test_the_installed_command_verifies_from_standard_input() -> None:
    command = shutil.which("tute-referee")
    argv = [command] if command else [sys.executable, "-m", "bot.engine.referee"]
    record = json.dumps(committed_record(Variant.ARRASTRADO, {}))
    done = subprocess.run(
        [*argv, "verify", "-"], input=record, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "fair\n")


def test_a_servers_export_verifies_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tute-records.json``: a list of deals, each with its record."""
    exported = [
        {"table_id": 1, "deal_no": n, "record": committed_record(Variant.HABANERO, {}, n)}
        for n in range(2)
    ]
    assert verify(tmp_path, capsys, exported) == (0, ["fair"])
    exported[0]["record"]["stock"].reverse()
    code, lines = verify(tmp_path, capsys, exported)
    assert code == 1 and lines[0].startswith("deal 1: stock card 1 is ")
