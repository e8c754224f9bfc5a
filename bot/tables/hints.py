"""Hints: on a table that is not competitive, what the hard robot would do in a member's
seat now, and why, in words a player can check against their own hand.

The choice comes from the seat's own view (``SeatView``) and nothing else, with randomness
seeded from that view and a budget counted in readings of its own clock (:class:`Ticks`),
not in seconds of the machine: the same decision gets the same hint on any machine, under
any load, and two deals that differ only in cards the seat cannot see get the same hint.
The reason is read from the same view (its hand, the trick, the public history, the cards
``infer`` knows to be placed), never from the deals the search imagined: a hint never
names a hidden card.

Each decision hinted is counted once per seat, in the table's saved state (``Seat.hints``);
the count is a note, not a move: it is taken under the table's lock and goes with the
table's next save if its own save fails.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from bot.ai import Level, choose_action
from bot.ai.knowledge import infer
from bot.engine import Action, Kind, SeatView, action_from_json, seat_view
from bot.engine.cards import PAIR_MASK, POINTS, SUIT_MASK, beats, mask_of, trick_best

from .errors import TableError
from .model import Status, Table
from .thinking import Thinking
from .turns import TURN_KINDS, turn_fallback

HINT_BUDGET: Final = 0.4
"""The hard robot's budget for a hint, in seconds of :class:`Ticks` (the robots' budget at a
table): about a second of a core at most."""
TICK: Final = 0.001
"""Seconds a hint's clock moves at each reading."""


class Ticks:
    """A search's clock that moves ``TICK`` at each reading: its budget is an amount of work,
    the same on any machine."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return self.readings * TICK


@dataclass(frozen=True, slots=True)
class Hint:
    """What the hard robot would do, and why: ``why`` names the reason (the catalog's
    ``hints.why.<why>``), ``other`` a card it speaks of (the card beaten, -1 for none),
    ``keeps`` the suit of a king and knight the play keeps for a cante (-1 for none).
    ``counted``: this ask was counted (the first for this decision)."""

    action: Action
    why: str
    other: int = -1
    keeps: int = -1
    trump: int = -1
    target: int = 0
    """The points a claim reaches."""
    counted: bool = False

    def to_json(self) -> dict[str, Any]:
        """The hint as plain JSON, its action in the referee's form (a forwarded hint's
        answer from the process holding the table)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["action"] = self.action.to_json()
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Hint:
        """The hint ``to_json`` wrote."""
        return Hint(**{**data, "action": action_from_json(data["action"])})


Moment = tuple[int, int]
"""A decision: (the deal's number, actions taken in it so far)."""


def hint_action(view: SeatView, budget: float) -> Action:
    """The hard robot's action from ``view`` (on a worker): seeded from the view alone, on
    a counted clock."""
    rng = random.Random(f"hint:{view.variant.value}:{view.seat}:{len(view.history)}:{view.hand}")
    action = choose_action(view, Level.HARD, rng, budget, clock=Ticks())
    if action is None or action not in view.legal:
        # the robot would let its turn pass (it never should): the robots' own fallback
        action = turn_fallback(view) or view.legal[0]
    return action


def reason(view: SeatView, action: Action) -> Hint:
    """Why ``action`` is good, from what ``view`` shows and nothing else."""
    return replace(_reason(view, action), target=view.options.target)


def _reason(view: SeatView, action: Action) -> Hint:
    kind = action.kind
    if kind is not Kind.PLAY:
        other = view.turned if kind is Kind.EXCHANGE else -1
        return Hint(action, kind.name.lower(), other, trump=view.trump)
    c = action.arg
    plays = [a.arg for a in view.legal if a.kind is Kind.PLAY]
    keeps = _keeps(view, c, plays)
    trump = view.trump
    if len(plays) == 1:
        return Hint(action, _duty(view, c), keeps=keeps, trump=trump)
    if not view.trick:
        return Hint(action, _lead(view, c), keeps=keeps, trump=trump)
    best_seat, best = trick_best(view.trick, trump)
    if best_seat != view.seat and view.side_of[best_seat] == view.my_side:
        why = "partner_points" if POINTS[c] else "partner_low"
        return Hint(action, why, best, keeps, trump)
    if beats(c, best, trump):
        last = len(view.trick) == len(view.order(view.leader)) - 1
        trumps = c // 10 == trump and best // 10 != trump
        why = "wins" if last else ("trumps" if trumps else "beats")
        return Hint(action, why, best, keeps, trump)
    if any(beats(p, best, trump) for p in plays):
        return Hint(action, "duck", best, keeps, trump)
    lowest = min(POINTS[p] for p in plays)
    return Hint(action, "lowest" if POINTS[c] == lowest else "cannot_win", best, keeps, trump)


def _duty(view: SeatView, c: int) -> str:
    """The rules leave only ``c``: why."""
    if not view.trick:
        return "only"
    led = view.trick[0][1] // 10
    if c // 10 == led:
        same = sum(1 for h in view.hand if h // 10 == led)
        return "must_beat" if same > 1 else "must_follow"
    return "must_trump" if c // 10 == view.trump else "only"


def _lead(view: SeatView, c: int) -> str:
    suit = c // 10
    if suit == view.trump and sum(1 for h in view.hand if h // 10 == suit) > 1:
        return "draw_trumps"
    know = infer(view)
    out = know.unseen
    for seat, cards in enumerate(know.known):
        if seat != view.seat:
            out |= cards
    stronger = SUIT_MASK[suit] & ~((1 << (c + 1)) - 1)
    if not stronger & out:
        return "master"
    return "lead_low" if POINTS[c] == 0 else "best"


def _keeps(view: SeatView, c: int, plays: list[int]) -> int:
    """The suit of a king and knight in the hand, not sung yet, that this play keeps
    together though it might have broken them (-1: none)."""
    hand = mask_of(view.hand)
    sung = {cante.suit for cante in view.cantes}
    playable = mask_of(plays)
    for suit in range(4):
        pair = PAIR_MASK[suit]
        if suit in sung or hand & pair != pair or pair >> c & 1 or not playable & pair:
            continue
        return suit
    return -1


def may_hint(table: Table, user_id: int) -> tuple[int, SeatView]:
    """The member's seat and its view, if they may ask for a hint now: a table that is not
    competitive, in play, on their turn (refused in words otherwise)."""
    if not table.offers_hints():
        raise TableError("hint_competitive")
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("not_seated")
    occupant = table.seats[seat]
    deal = table.deal
    if table.status is not Status.PLAYING or deal is None or deal.finished:
        raise TableError("hint_not_playing")
    if occupant is None or occupant.robot_plays or deal.turn != seat:
        raise TableError("hint_not_your_turn")
    view = seat_view(deal, seat)
    if not any(a.kind in TURN_KINDS for a in view.legal):
        raise TableError("hint_not_your_turn")
    return seat, view


class Hints:
    """The hints asked at the service's tables: one search per decision, however often it
    is asked, and each decision counted once."""

    def __init__(
        self,
        tables: dict[int, Table],
        holding: Callable[[int], AbstractAsyncContextManager[None]],
        save: Callable[[Table], Awaitable[None]],
        thinking: Thinking,
    ) -> None:
        self._tables = tables
        self._holding = holding
        self._save = save
        self._thinking = thinking
        self.budget = HINT_BUDGET
        self._asked: dict[tuple[int, int], tuple[Moment, asyncio.Task[Hint]]] = {}
        """Per (table, seat): the decision last hinted and its search (or its hint)."""

    async def ask(self, table_id: int, user_id: int) -> Hint:
        """What the hard robot would do in this member's seat now, and why; counted once
        per decision. Refused (``TableError``) at a competitive table or off their turn."""
        table = self._tables.get(table_id)
        if table is None:
            raise TableError("gone")
        seat, view = may_hint(table, user_id)
        moment = (table.deal_no, len(view.history))
        for key in [k for k in self._asked if k[0] not in self._tables]:
            del self._asked[key]  # tables that ended
        asked = self._asked.get((table_id, seat))
        if asked is None or asked[0] != moment:
            task = asyncio.create_task(self._think(view), name=f"table-{table_id}-hint-{seat}")
            asked = self._asked[(table_id, seat)] = (moment, task)
        try:
            hint = await asyncio.shield(asked[1])
        except Exception:
            if self._asked.get((table_id, seat)) is asked:
                del self._asked[(table_id, seat)]  # the next ask thinks again
            raise
        return replace(hint, counted=await self._count(table_id, user_id, seat, moment))

    async def _think(self, view: SeatView) -> Hint:
        action = await self._thinking.run(hint_action, view, self.budget)
        return reason(view, action)

    async def _count(self, table_id: int, user_id: int, seat: int, moment: Moment) -> bool:
        """Count the hint of ``moment`` for the seat, unless it was already: whether it was
        counted now. Refused when the decision has passed while the robot thought."""
        async with self._holding(table_id):
            table = self._tables.get(table_id)
            deal = table.deal if table is not None else None
            if table is None or deal is None or table.seat_of(user_id) != seat:
                raise TableError("hint_not_your_turn")
            if (table.deal_no, len(deal.actions)) != moment or deal.turn != seat:
                raise TableError("hint_not_your_turn")
            occupant = table.seats[seat]
            assert occupant is not None
            hinted = f"{moment[0]}:{moment[1]}"
            if occupant.hinted == hinted:
                return False
            occupant.hints += 1
            occupant.hinted = hinted
            await self._save(table)
            return True
