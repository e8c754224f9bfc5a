"""A finished deal's summary, as the table keeps it and its message shows it: how the deal
ended, who sat where, the cards each side took, the cantes sung, the rounds won.

Plain data that round-trips through JSON, on its own so that what happened to the table
(:mod:`announcement`) carries it without the table itself (:mod:`model`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Result


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A finished deal, for its summary: how it ended, who sat where, the cards each
    side took, the cantes sung, the rounds won before and after it and the trump suit."""

    deal_no: int
    result: Result
    names: tuple[str, ...]
    """Each seat's name at the end of the deal ("?" for an empty seat)."""
    taken: tuple[tuple[int, ...], ...]
    """Per side, the cards of the tricks it won, in the order they were played."""
    cantes: tuple[tuple[int, int, int], ...]
    """Each cante sung: (seat, suit, points)."""
    rounds_won: tuple[int, ...]
    rounds_before: tuple[int, ...]
    trump: int
    carried: tuple[int, ...] = ()
    """Habanero: each side's points carried into this deal from the earlier deals of the
    game (part of ``result.scores``); empty where nothing was carried."""

    def to_json(self) -> dict[str, Any]:
        saved: dict[str, Any] = {
            "deal_no": self.deal_no,
            "result": self.result.to_json(),
            "names": list(self.names),
            "taken": [list(cards) for cards in self.taken],
            "cantes": [list(cante) for cante in self.cantes],
            "rounds_won": list(self.rounds_won),
            "rounds_before": list(self.rounds_before),
            "trump": self.trump,
        }
        if self.carried:  # a summary of nothing carried reads as one saved before they were
            saved["carried"] = list(self.carried)
        return saved

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealSummary:
        return cls(
            deal_no=int(data["deal_no"]),
            result=Result.from_json(data["result"]),
            names=tuple(str(name) for name in data["names"]),
            taken=tuple(tuple(int(c) for c in cards) for cards in data["taken"]),
            cantes=tuple(
                (int(seat), int(suit), int(points)) for seat, suit, points in data["cantes"]
            ),
            rounds_won=tuple(int(n) for n in data["rounds_won"]),
            rounds_before=tuple(int(n) for n in data["rounds_before"]),
            trump=int(data["trump"]),
            carried=tuple(int(n) for n in data.get("carried", ())),
        )
