"""The review of a finished deal, for one member who played it: the hard robot's judge
(:mod:`bot.ai.judge`) weighs each of their decisions (plays, cantes, swaps, bids,
declarations) from what their seat could see then, and says what each cost in points
against the best choice it found, with a mark, the deal's accuracy, and the costliest
decisions with the better choice and its reason (the hints' reasons, :mod:`.hints`).

What the seat saw is rebuilt from the deal's record through the seat-view API the robots
read (``seat_view``): the hidden cards never reach the judge. Each decision's randomness is
seeded from that view alone and its budget is a count of sampled deals, so the same deal
gets the same review on any machine, under any load, and two deals that differ only in
cards the seat could not see get the same marks.

Marks, by the points a decision lost to the best choice (``MARKS``): good below 3, an
inaccuracy below 8, a mistake below 15, a blunder from 15. A deal's accuracy is the mean,
over the decisions judged, of ``100 · exp(-cost / 10)``: 100 where every choice was the
best found, about 74 for a decision 3 points short, 22 for one 15 short. Decisions with a
single legal action are not judged.

Who may ask is the audience rule's (:func:`bot.tables.audience.check_replay`: no deal in
play, no daily deal still kept from them, a game without spectators for its players
alone), and the review is of the asker's own decisions: a member who did not play the deal
has none to review. The reviews are computed on the robots' workers, one deal at a time per
server, and kept once computed (:mod:`bot.storage.reviews`): a second look is instant.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from bot.ai.judge import JUDGE_WORLDS, Judged, judge
from bot.engine import (
    Action,
    Deal,
    Record,
    RecordError,
    SeatView,
    action_from_json,
    parse_record,
    seat_view,
)
from bot.storage import reviews as kept
from bot.storage.base import Database

from .errors import TableError
from .hints import Hint, reason
from .replay import action_steps, seen_deal
from .thinking import Thinking

REVIEW_VERSION: Final = 1
"""Written with each review: a review of another version is computed again."""
COSTLIEST: Final = 3
"""The costliest decisions a review tells in words."""
ACCURACY_SCALE: Final = 10.0
"""Points lost at which a decision's accuracy falls to 1/e (about 37)."""


class Mark(str, Enum):
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


MARKS: Final = ((3.0, Mark.GOOD), (8.0, Mark.INACCURACY), (15.0, Mark.MISTAKE))
"""The marks by points lost: below each bound its mark; from the last, a blunder."""


def mark_of(cost: float) -> Mark:
    for bound, mark in MARKS:
        if cost < bound:
            return mark
    return Mark.BLUNDER


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision judged: the ``index``-th action of the deal, shown at replay step
    ``step``; the choice ``made``, the ``best`` the judge found and why (``hint``), and
    the points ``cost`` (0 where the choice made was the best)."""

    index: int
    step: int
    made: Action
    best: Action
    cost: float
    hint: Hint

    @property
    def mark(self) -> Mark:
        return mark_of(self.cost)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "step": self.step,
            "made": self.made.to_json(),
            "best": self.best.to_json(),
            "cost": self.cost,
            "hint": self.hint.to_json(),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Decision:
        return Decision(
            index=int(data["index"]),
            step=int(data["step"]),
            made=action_from_json(data["made"]),
            best=action_from_json(data["best"]),
            cost=float(data["cost"]),
            hint=Hint.from_json(data["hint"]),
        )


@dataclass(frozen=True, slots=True)
class Review:
    """A member's decisions in one finished deal, judged."""

    table_id: int
    deal_no: int
    seat: int
    worlds: int
    """Sampled deals each decision was judged on."""
    decisions: tuple[Decision, ...]

    @property
    def accuracy(self) -> float:
        """0 to 100 (see the module's docstring); 100 with no decision judged."""
        if not self.decisions:
            return 100.0
        return (
            100.0
            * sum(math.exp(-d.cost / ACCURACY_SCALE) for d in self.decisions)
            / len(self.decisions)
        )

    @property
    def lost(self) -> float:
        """Points lost in all, against the best choice at each decision."""
        return sum(d.cost for d in self.decisions)

    def counts(self) -> dict[Mark, int]:
        found = dict.fromkeys(Mark, 0)
        for d in self.decisions:
            found[d.mark] += 1
        return found

    def costliest(self, n: int = COSTLIEST) -> list[Decision]:
        """The ``n`` costliest decisions that were not good, costliest first (the earlier of
        equals first)."""
        shown = [d for d in self.decisions if d.mark is not Mark.GOOD]
        return sorted(shown, key=lambda d: (-d.cost, d.index))[:n]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": REVIEW_VERSION,
            "table_id": self.table_id,
            "deal_no": self.deal_no,
            "seat": self.seat,
            "worlds": self.worlds,
            "decisions": [d.to_json() for d in self.decisions],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Review:
        return Review(
            table_id=int(data["table_id"]),
            deal_no=int(data["deal_no"]),
            seat=int(data["seat"]),
            worlds=int(data["worlds"]),
            decisions=tuple(Decision.from_json(d) for d in data["decisions"]),
        )


# ---------------------------------------------------------------- the decisions


@dataclass(frozen=True, slots=True)
class Moment:
    """A decision of the seat in the record: the ``index``-th action, what the seat saw
    before it, and what it did."""

    index: int
    view: SeatView
    made: Action


def moments(parsed: Record, seat: int) -> list[Moment]:
    """The seat's decisions in the deal: each action it took with more than one legal
    choice, and the seat's own view just before it (``seat_view``: never the hidden
    cards)."""
    deal = Deal(parsed.dealt, check=False)
    found: list[Moment] = []
    for index, action in enumerate(parsed.actions):
        if action.seat == seat:
            view = seat_view(deal, seat)
            if len(view.legal) > 1 and action in view.legal:
                found.append(Moment(index, view, action))
        deal.apply(action)
    return found


def seed_of(view: SeatView) -> str:
    """The judge's seed for a decision: from the seat's view alone (the record's public
    part and the seat's own cards up to that moment), the same on any machine. The view's
    ``repr`` holds only tuples, numbers and enums, none of which Python's hash seed
    changes (a test reviews a deal in another process to hold it so)."""
    return "review:" + hashlib.sha256(repr(view).encode()).hexdigest()


def judge_moment(view: SeatView, made: Action, worlds: int) -> Judged:
    """The judge's values at one decision (on a worker: only the seat's view crosses)."""
    return judge(view, made, seed_of(view), worlds)


def decision_of(moment: Moment, judged: Judged, step: int) -> Decision:
    best = judged.choices[judged.best]
    cost = round(judged.cost, 2)
    if cost <= 0:
        best = moment.made
    return Decision(moment.index, step, moment.made, best, cost, reason(moment.view, best))


def review_record(
    record: str, seat: int, table_id: int = 0, deal_no: int = 0, worlds: int = JUDGE_WORLDS
) -> Review:
    """The review of the seat's decisions in a finished deal's record (JSON), in this
    process: the benchmark's and the tests' way; the service's runs each decision on the
    robots' workers (:class:`Reviews`)."""
    parsed = parse_record(json.loads(record))
    steps = action_steps(parsed)
    decisions = tuple(
        decision_of(m, judge_moment(m.view, m.made, worlds), steps[m.index])
        for m in moments(parsed, seat)
    )
    return Review(table_id, deal_no, seat, worlds, decisions)


# ------------------------------------------------------------------ the service


class Reviews:
    """The reviews asked of this process: computed on the robots' workers, one deal at a
    time per server, each decision a task of its own (the robots' searches take turns with
    them), and kept once computed."""

    def __init__(
        self,
        db: Database,
        thinking: Thinking,
        clock: Callable[[], float],
        worlds: int = JUDGE_WORLDS,
    ) -> None:
        self._db = db
        self._thinking = thinking
        self._clock = clock
        self.worlds = worlds
        self._servers: dict[int, tuple[asyncio.Lock, int]] = {}
        """Per server with a review asked: its lock, and how many reviews hold or wait for it."""
        self.computed = 0
        """Reviews computed here (not read back from those kept)."""

    async def review(
        self, guild_id: int | None, table_id: int, deal_no: int, *, user_id: int
    ) -> Review:
        """The review of the member's decisions in deal ``deal_no`` of table ``table_id``,
        asked from server ``guild_id`` (None: their DMs). Refused (``TableError``) where
        there is no such deal, where the audience rule keeps it from them, and where they
        did not play it."""
        db = self._db
        deal, _ = await seen_deal(
            db, guild_id, table_id, deal_no, user_id=user_id, now=self._clock()
        )
        seats = [seat for seat, user in deal.members.items() if user == user_id]
        if not seats:
            raise TableError("review_not_played")
        found = await self._kept(table_id, deal_no, user_id)
        if found is not None:
            return found
        server = deal.guild_id
        lock, asking = self._servers.get(server, (asyncio.Lock(), 0))
        self._servers[server] = (lock, asking + 1)
        try:
            async with lock:  # one deal at a time per server
                found = await self._kept(table_id, deal_no, user_id)
                if found is not None:
                    return found
                review = await self.compute(deal.record, min(seats), table_id, deal_no)
                data = json.dumps(review.to_json(), separators=(",", ":"))
                await kept.keep(db, server, table_id, deal_no, user_id, data, self._clock())
                self.computed += 1
        finally:
            lock, asking = self._servers[server]
            if asking > 1:
                self._servers[server] = (lock, asking - 1)
            else:
                del self._servers[server]  # nobody of that server waits: no lock kept
        return review

    async def _kept(self, table_id: int, deal_no: int, user_id: int) -> Review | None:
        text = await kept.kept(self._db, table_id, deal_no, user_id)
        if text is None:
            return None
        data = json.loads(text)
        if data.get("version") != REVIEW_VERSION:
            return None
        return Review.from_json(data)

    async def compute(self, record: str, seat: int, table_id: int, deal_no: int) -> Review:
        """The review of the seat's decisions in a record, each decision judged on the
        robots' workers in turn (nothing read or kept: :meth:`review` does)."""
        try:
            parsed = parse_record(json.loads(record))
            steps = action_steps(parsed)
        except (RecordError, ValueError):
            raise TableError("replay_unreadable", id=table_id, deal=deal_no + 1) from None
        decisions: list[Decision] = []
        for m in moments(parsed, seat):
            judged = await self._thinking.run(judge_moment, m.view, m.made, self.worlds)
            decisions.append(decision_of(m, judged, steps[m.index]))
        return Review(table_id, deal_no, seat, self.worlds, tuple(decisions))
