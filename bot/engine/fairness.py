"""``tute-referee verify``: deal a record's cards again from its revealed seed and public
input, and say whether they are the cards the record holds (docs/game-records.md, "The
shuffle")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, cast

from .cards import CODES
from .dealing import DealtCards, shuffle_deal
from .record import RecordError, read_dealt, read_shuffle
from .shuffle import CHAIN, VERSION, CommittedShuffle, seed_commits

_HEX64: Final = re.compile(r"[0-9a-f]{64}")

OLDER: Final = "not verifiable (older shuffle)"
PREPARED: Final = "not verifiable (a prepared deal)"


@dataclass(frozen=True, slots=True)
class Verdict:
    """A deal's check: ``fair``, or ``unverifiable`` (why, in words), or the
    ``differences`` found, each in words."""

    differences: tuple[str, ...] = ()
    unverifiable: str | None = None

    @property
    def fair(self) -> bool:
        return not self.differences and self.unverifiable is None


def verify_record(data: Any) -> Verdict:
    """Check one record's cards against its shuffle (raises RecordError when the record is
    not of the format)."""
    dealt = read_dealt(data)
    shuffle = read_shuffle(cast(dict[str, Any], data))
    if shuffle is None or shuffle.get("version") == 1:
        return Verdict(unverifiable=OLDER)
    if shuffle.get("prepared") is True:
        return Verdict(unverifiable=PREPARED)
    if shuffle.get("version") != VERSION:
        return Verdict(unverifiable=f"not verifiable (unknown shuffle {shuffle.get('version')!r})")
    committed = _hex(shuffle, "commitment")
    public_input = shuffle.get("input")
    if not isinstance(public_input, str):
        raise RecordError("shuffle.input must be a text")
    deal_no = shuffle.get("deal_no")
    if isinstance(deal_no, bool) or not isinstance(deal_no, int) or not 0 <= deal_no < CHAIN:
        raise RecordError(f"shuffle.deal_no must be a number from 0 to {CHAIN - 1}")
    if shuffle.get("seed") is None:
        return Verdict(unverifiable="not verifiable yet (the seed is revealed when the deal ends)")
    seed = bytes.fromhex(_hex(shuffle, "seed"))
    if not seed_commits(seed, deal_no, committed):
        return Verdict(differences=(f"the seed does not match the commitment {committed[:12]}",))
    seats = dealt.options.seats_at(dealt.variant)
    if not 0 <= dealt.dealer < seats:
        raise RecordError(f"dealer must be a seat from 0 to {seats - 1}")
    expected = shuffle_deal(
        dealt.variant,
        dealt.options,
        dealt.dealer,
        CommittedShuffle(seed, public_input),
        dealt.carry,
    )
    return Verdict(differences=tuple(differences(dealt, expected)))


def differences(dealt: DealtCards, expected: DealtCards) -> list[str]:
    """How the record's cards differ from the shuffle's, in words (none: the same)."""
    found: list[str] = []
    if len(dealt.hands) != len(expected.hands):
        found.append(f"{len(dealt.hands)} hands; the shuffle deals {len(expected.hands)}")
    for seat, (hand, should) in enumerate(zip(dealt.hands, expected.hands, strict=False)):
        extra = [CODES[c] for c in hand if c not in should]
        missing = [CODES[c] for c in should if c not in hand]
        if extra or missing:
            found.append(f"seat {seat}'s hand holds {_cards(extra)} instead of {_cards(missing)}")
    if dealt.turned != expected.turned:
        found.append(
            f"the turned card is {CODES[dealt.turned]}; the shuffle turned {CODES[expected.turned]}"
        )
    if len(dealt.stock) != len(expected.stock):
        found.append(
            f"the stock holds {len(dealt.stock)} cards; the shuffle leaves {len(expected.stock)}"
        )
    for place, (card, should) in enumerate(zip(dealt.stock, expected.stock, strict=False)):
        if card != should:
            found.append(
                f"stock card {place + 1} is {CODES[card]}; the shuffle put {CODES[should]} there"
            )
    return found


def _cards(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "nothing"


def _hex(shuffle: dict[str, Any], key: str) -> str:
    value = shuffle.get(key)
    if not isinstance(value, str) or not _HEX64.fullmatch(value.lower()):
        raise RecordError(f"shuffle.{key} must be 64 hex digits")
    return value.lower()


def records_of(data: Any) -> list[Any]:
    """The records a file holds: one record, or a list of them (a game's deals), each a
    record or an object with its ``record`` (a server's export); or an object with such a
    list in ``deals``."""
    if isinstance(data, list):
        items = cast(list[Any], data)
    elif isinstance(data, dict) and "deals" in data:
        deals = cast(dict[str, Any], data)["deals"]
        if not isinstance(deals, list):
            raise RecordError("deals must be a list of records")
        items = cast(list[Any], deals)
    else:
        return [data]
    return [
        cast(dict[str, Any], item)["record"]
        if isinstance(item, dict) and "record" in item
        else item
        for item in items
    ]
