"""What happens in a deal and how it ends: the phase, tricks, cantes, exchanges, the contract
and the result (with its JSON), and the rules that decide them from plain numbers: which
card an exchange takes, and which side wins on points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, Final, NamedTuple

from .cards import RANK_OF, card
from .options import DealScore, Options, Scoring
from .variants import Variant

_EXCHANGE_BY_SEVEN: Final = frozenset({1, 3, 12, 11, 10})
_EXCHANGE_BY_TWO: Final = frozenset({4, 5, 6, 7})


class Phase(IntEnum):
    AUCTION = 0
    PLAY = 1
    FINISHED = 2


class End(str, Enum):
    CARDS = "cards"
    TUTE = "tute"
    CAPOTE = "capote"
    CLAIM = "claim"
    RESIGN = "resign"


class Trick(NamedTuple):
    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class Cante:
    seat: int
    suit: int
    points: int


@dataclass(frozen=True, slots=True)
class Exchange:
    seat: int
    gave: int
    took: int


def exchange_card(turned: int, trump: int) -> int:
    """The trump 7 or 2 that may take the turned card's place (the 7 for a 1, 3, 12, 11 or
    10, the 2 for a 4, 5, 6 or 7), or -1: a turned 2, or no turned card (``turned`` < 0).
    The one exchange rule for the habanero swap by hand, arrastrado's at the deal, and
    the robots."""
    if turned < 0:
        return -1
    rank = RANK_OF[turned]
    if rank in _EXCHANGE_BY_SEVEN:
        return card(7, trump)
    if rank in _EXCHANGE_BY_TWO:
        return card(2, trump)
    return -1


def table_exchange(hands: Sequence[int], turned: int, trump: int) -> Exchange | None:
    """The exchange where the turned card lies on the table (arrastrado, 40 cards): the
    holder of the trump 7 (or 2) takes it as the deal ends and leaves the 7 (or 2) there,
    out of play. ``hands`` are masks by seat; None where nobody holds that card."""
    mine = exchange_card(turned, trump)
    if mine >= 0:
        for seat, hand in enumerate(hands):
            if hand >> mine & 1:
                return Exchange(seat, mine, turned)
    return None


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class Result:
    """How a deal ended; per-side lists follow ``sides``. ``winner`` is a side index, or None
    where the deal decides nothing on its own (habanero when nobody reached the target)."""

    end: End
    sides: tuple[tuple[int, ...], ...]
    card_points: tuple[int, ...]
    cantes: tuple[int, ...]
    last_trick: int | None
    scores: tuple[int, ...]
    winner: int | None
    double: bool = False
    by_seat: int | None = None
    contract: Contract | None = None
    contract_made: bool | None = None
    auction: bool = False
    """The deal had a plato auction: ``contract`` is written, null when nobody bid."""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "end": self.end.value,
            "sides": [list(s) for s in self.sides],
            "card_points": list(self.card_points),
            "cantes": list(self.cantes),
            "last_trick": self.last_trick,
            "scores": list(self.scores),
            "winner": self.winner,
        }
        if self.double:
            data["double"] = True
        if self.contract is not None:
            data["contract"] = {
                "seat": self.contract.seat,
                "points": self.contract.points,
                "made": self.contract_made,
            }
        elif self.auction:
            data["contract"] = None
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """The result ``to_json`` wrote. ``by_seat`` is not written there, so it reads back
        as None."""
        contract: Mapping[str, Any] | None = data.get("contract")
        return cls(
            end=End(data["end"]),
            sides=tuple(tuple(int(s) for s in side) for side in data["sides"]),
            card_points=tuple(int(p) for p in data["card_points"]),
            cantes=tuple(int(p) for p in data["cantes"]),
            last_trick=data["last_trick"],
            scores=tuple(int(p) for p in data["scores"]),
            winner=data["winner"],
            double=bool(data.get("double", False)),
            contract=None
            if contract is None
            else Contract(seat=int(contract["seat"]), points=int(contract["points"])),
            contract_made=None if contract is None else contract["made"],
            auction="contract" in data,
        )


def deal_winner(
    variant: Variant,
    options: Options,
    scores: Sequence[int],
    last: int,
    sang: Sequence[frozenset[int]],
    trick_sides: Sequence[int],
) -> int | None:
    """The side that wins a deal played to its last card, or None (habanero, nobody at the
    target): the higher score, a tie to the tied side that won the later trick (in habanero
    over the target, and with ``deal_score: per_deal``, the last trick's). ``sang``: the cante values each side sang; ``trick_sides``: who won each trick."""
    if options.scoring is Scoring.SIXTY_FIVE:
        # everything is decided from the side of the last ten: 65 (65-65 goes to it),
        # 75 if it sang a 20, 85 if it sang the 40
        bar = 85 if 40 in sang[last] else 75 if 20 in sang[last] else 65
        return last if scores[last] >= bar else 1 - last
    candidates = list(range(len(scores)))
    if variant is Variant.HABANERO and options.deal_score is DealScore.TARGET:
        candidates = [side for side in candidates if scores[side] >= options.target]
        if not candidates:
            return None
    top = max(scores[s] for s in candidates)
    tied = [s for s in candidates if scores[s] == top]
    for side in reversed(trick_sides):  # a tie goes to the tied side that won the later trick
        if side in tied:
            return side
    return tied[0]
