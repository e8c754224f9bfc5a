"""What a change writes: the actions just taken, ahead of the state that follows from them
(the write-ahead record), a deal just dealt, the chips that move with it. The concerns that
change a table (``play``) say it; ``persistence`` writes it in one transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.engine import Action, Deal

from .settlement import Settlement


@dataclass(frozen=True, slots=True)
class Played:
    """Actions just taken in one deal, written ahead of the state that follows from them.

    The deal is named here rather than read from the table because a deal that ended may
    already have made way for the next one, which the table now numbers."""

    deal_no: int
    first: int
    """Where the first of them goes in the deal's log."""
    actions: tuple[Action, ...]
    ended: Deal | None = None
    """The deal, when these actions finished it: its record is written as finished."""

    def numbered(self) -> list[tuple[int, str]]:
        return [
            (seq, json.dumps(action.to_json()))
            for seq, action in enumerate(self.actions, start=self.first)
        ]


@dataclass(frozen=True, slots=True)
class Write:
    """What a save writes besides the table's state, which it always writes."""

    played: Played | None = None
    dealt: Deal | None = None
    """A deal just dealt (the table's deal in play): its record, still open."""
    settlement: Settlement | None = None
    """Chips that move in the same transaction: stakes, a deal's payments, refunds."""

    @property
    def shared(self) -> bool:
        """Only actions and state: nothing to read first, so the save may join the group
        commit with the other tables saving at the same time."""
        return (
            (self.played is None or self.played.ended is None)
            and self.dealt is None
            and (self.settlement is None or not self.settlement.ops)
        )


STATE = Write()
"""The table's state alone: a lobby change, a clock kept, where its messages live."""
