"""A finished deal stepped through, every hand shown (the deal is over: nothing is hidden
any more): the deal as dealt, then each trick, cante, swap or declaration as it came, then
the result.

Built only from the deal's stored game record, by replaying its actions on the engine;
the table's seats give the names. Who may step through which deal is the audience rule's
(:mod:`bot.tables.audience`): deals played to their end, of the asking server, of a game
that let others watch or that the asker sat at; a daily deal once nobody can gain by it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum

from bot.engine import (
    CODES,
    SUITS,
    Action,
    Cante,
    Deal,
    Exchange,
    Kind,
    Record,
    RecordError,
    Result,
    Variant,
    parse_record,
)
from bot.storage import replays as stored
from bot.storage._sql import Source
from bot.storage.tables import load_table

from .audience import check_replay
from .errors import TableError
from .history import PastTrick, past_trick
from .model import Table
from .persistence import table_of
from .views import face_up

SAID = frozenset({Kind.TUTE, Kind.CAPOTE, Kind.CLAIM, Kind.RESIGN, Kind.BID, Kind.PASS})
"""Declarations that are a moment of the deal of their own (the cantes and swaps are told
by what they did)."""


class StepKind(str, Enum):
    DEALT = "dealt"
    PLAYED = "played"
    RESULT = "result"


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """Who sat in a seat for the deal: a member (``user_id``; ``name`` None where the table
    no longer knows it) or a robot (its number where the table still seats it)."""

    user_id: int | None
    name: str | None
    robot_no: int | None


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The deal at one moment: what just happened and what each seat holds after it.

    ``trick``: the trick that just closed (None where none did); ``cantes``, ``exchanges``
    and ``declared`` what else came with this moment; ``scores`` each side's points so far;
    ``result`` how the deal ended, on the last step alone."""

    kind: StepKind
    hands: tuple[tuple[int, ...], ...]
    trick: PastTrick | None
    cantes: tuple[Cante, ...]
    exchanges: tuple[Exchange, ...]
    declared: tuple[Action, ...]
    scores: tuple[int, ...]
    face_up: int | None
    stock_left: int
    tricks_done: int
    result: Result | None


@dataclass(frozen=True, slots=True)
class DealReplay:
    table_id: int
    deal_no: int
    variant: Variant
    trump: int
    turned: int
    """The card turned at the deal, that named trumps."""
    dealer: int
    seats: tuple[ReplaySeat, ...]
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    steps: tuple[ReplayStep, ...]
    record: str
    """The game record it was built from (JSON)."""

    def team_of(self, seat: int) -> int | None:
        """The side of a seat where sides are teams (pairs), else None."""
        side = self.side_of[seat]
        return side if side >= 0 and len(self.sides[side]) > 1 else None


def steps_of(record: object) -> tuple[ReplayStep, ...]:
    """The steps of a parsed JSON record of a finished deal; RecordError where it is not one
    (an illegal action, or a deal not played to its end)."""
    return _steps(parse_record(record))


def _steps(parsed: Record) -> tuple[ReplayStep, ...]:
    return _walk(parsed)[0]


def action_steps(parsed: Record) -> tuple[int, ...]:
    """For each action of a finished deal's record, the step that shows it: the trick it
    closed or took part in, the cante, swap or declaration it made (a review's way to one
    decision of the replay)."""
    return _walk(parsed)[1]


def _walk(parsed: Record) -> tuple[tuple[ReplayStep, ...], tuple[int, ...]]:
    deal = Deal(parsed.dealt, check=False)
    steps = [_step(deal, StepKind.DEALT, None, tuple(deal.exchanges), (), ())]
    shown: list[int] = []
    waiting = 0  # actions not shown by a step yet (a card in a trick still open)
    for action in parsed.actions:
        waiting += 1
        tricks, cantes, swaps = len(deal.tricks), len(deal.cantes), len(deal.exchanges)
        deal.apply(action)
        closed = [past_trick(deal, i + 1, deal.tricks[i]) for i in range(tricks, len(deal.tricks))]
        new_cantes = tuple(deal.cantes[cantes:])
        new_swaps = tuple(deal.exchanges[swaps:])
        declared = (action,) if action.kind in SAID else ()
        if closed or new_cantes or new_swaps or declared:
            trick = closed[-1] if closed else None
            steps.append(_step(deal, StepKind.PLAYED, trick, new_swaps, new_cantes, declared))
            shown += [len(steps) - 1] * waiting
            waiting = 0
    if not deal.finished or deal.result is None:
        raise RecordError("the deal was not played to its end")
    steps.append(_step(deal, StepKind.RESULT, None, (), (), ()))
    shown += [len(steps) - 1] * waiting
    return tuple(steps), tuple(shown)


def _step(
    deal: Deal,
    kind: StepKind,
    trick: PastTrick | None,
    exchanges: tuple[Exchange, ...],
    cantes: tuple[Cante, ...],
    declared: tuple[Action, ...],
) -> ReplayStep:
    return ReplayStep(
        kind=kind,
        hands=tuple(tuple(deal.hand(seat)) for seat in range(deal.n)),
        trick=trick,
        cantes=cantes,
        exchanges=exchanges,
        declared=declared,
        scores=tuple(deal.side_score(side) for side in range(len(deal.sides))),
        face_up=face_up(deal),
        stock_left=deal.stock_left,
        tricks_done=len(deal.tricks),
        result=deal.result if kind is StepKind.RESULT else None,
    )


async def deal_replay(
    source: Source,
    guild_id: int | None,
    table_id: int,
    deal_no: int,
    *,
    user_id: int,
    now: float,
) -> DealReplay:
    """The replay of deal ``deal_no`` (0 the first) of table ``table_id``, asked by member
    ``user_id`` from server ``guild_id`` (None: from their DMs, where only the deals they
    played are theirs to see). Refused (TableError) where there is no such deal, and where
    the audience rule keeps it from them (:func:`bot.tables.audience.check_replay`)."""
    deal, table = await seen_deal(source, guild_id, table_id, deal_no, user_id=user_id, now=now)
    data = json.loads(deal.record)
    try:
        parsed = parse_record(data)
        steps = _steps(parsed)
    except RecordError:
        raise TableError("replay_unreadable", id=table_id, deal=deal_no + 1) from None
    first = parsed.dealt
    probe = Deal(first, check=False)
    return DealReplay(
        table_id=table_id,
        deal_no=deal_no,
        variant=first.variant,
        trump=probe.trump,
        turned=first.turned,
        dealer=first.dealer,
        seats=tuple(_seat(table, deal.members, seat) for seat in range(probe.n)),
        sides=tuple(tuple(side) for side in probe.sides),
        side_of=tuple(probe.side_of),
        steps=steps,
        record=deal.record,
    )


async def recent_deals(
    source: Source, guild_id: int | None, user_id: int, limit: int
) -> list[stored.PastDeal]:
    """The member's last finished deals in this server (None: from their DMs, their deals
    of any server, as :func:`deal_replay` lets them see), newest first, to replay one."""
    return await stored.recent_deals(source, guild_id, user_id, limit)


async def seen_deal(
    source: Source,
    guild_id: int | None,
    table_id: int,
    deal_no: int,
    *,
    user_id: int,
    now: float,
) -> tuple[stored.StoredDeal, Table | None]:
    """Deal ``deal_no`` of table ``table_id`` as kept, and its table (None: gone), for
    member ``user_id`` asking from server ``guild_id``: what a replay and a review start
    from. Refused (TableError) where there is no such deal, and where the audience rule
    keeps it from them (:func:`bot.tables.audience.check_replay`)."""
    deal = await stored.stored_deal(source, table_id, deal_no)
    if deal is None:
        raise TableError("replay_none", id=table_id, deal=deal_no + 1)
    table = await _table(source, table_id)
    spectators = table is None or table.options.spectators
    await check_replay(source, deal, spectators, user_id=user_id, place=guild_id, now=now)
    return deal, table


async def _table(source: Source, table_id: int) -> Table | None:
    row = await load_table(source, table_id)
    return None if row is None else table_of(row)


def _seat(table: Table | None, members: dict[int, int], seat: int) -> ReplaySeat:
    """Who sat in ``seat`` for the deal: the deal's own list of members says whether a
    member did; the table's seats, their names (the same member) or the robot's number."""
    now = table.seats[seat] if table is not None and seat < len(table.seats) else None
    user_id = members.get(seat)
    if user_id is None:
        return ReplaySeat(None, None, now.robot_no if now is not None else None)
    known = [s for s in (table.seats if table is not None else []) if s and s.user_id == user_id]
    return ReplaySeat(user_id, known[0].name if known else None, None)


def replay_json(replay: DealReplay) -> dict[str, object]:
    """The replay as plain JSON data (cards by code, suits by letter), for the web table."""
    return {
        "table_id": replay.table_id,
        "deal_no": replay.deal_no,
        "variant": replay.variant.value,
        "trump": SUITS[replay.trump],
        "turned": CODES[replay.turned],
        "dealer": replay.dealer,
        "seats": [
            {
                "user_id": None if s.user_id is None else str(s.user_id),
                "name": s.name,
                "robot": s.robot_no,
            }
            for s in replay.seats
        ],
        "sides": [list(side) for side in replay.sides],
        "steps": [_step_json(step) for step in replay.steps],
    }


def _step_json(step: ReplayStep) -> dict[str, object]:
    trick = step.trick
    return {
        "kind": step.kind.value,
        "hands": [[CODES[c] for c in hand] for hand in step.hands],
        "trick": None
        if trick is None
        else {
            "number": trick.number,
            "cards": [[seat, CODES[card]] for seat, card in trick.cards],
            "winner": trick.winner,
            "points": trick.points,
        },
        "cantes": [
            {"seat": c.seat, "suit": SUITS[c.suit], "points": c.points} for c in step.cantes
        ],
        "exchanges": [
            {"seat": e.seat, "gave": CODES[e.gave], "took": CODES[e.took]} for e in step.exchanges
        ],
        "declared": [a.to_json() for a in step.declared],
        "scores": list(step.scores),
        "face_up": None if step.face_up is None else CODES[step.face_up],
        "stock_left": step.stock_left,
        "result": None if step.result is None else step.result.to_json(),
    }
