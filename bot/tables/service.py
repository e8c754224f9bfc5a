"""The table service: lobby, start, play, robots, clocks, votes, leaving and the end.

Every change to a table happens under that table's lock as load -> apply -> save: the
action is written ahead in the same transaction as the table's new state, then shown.
Nothing here imports discord: the adapter passes ids and names in and renders what the
``Presenter`` is told.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.ai import Level, choose_action
from bot.engine import (
    Action,
    IllegalActionError,
    Kind,
    Options,
    Round,
    SeatView,
    Variant,
    action_from_json,
    record_of,
    seat_view,
)
from bot.engine.cards import POINTS
from bot.engine.game import Game
from bot.storage import Database
from bot.storage import tables as repo
from bot.storage.standings import InsufficientChips

from .errors import TableError
from .model import DEFAULT_ROBOT, ROBOT_LEVELS, STAND_IN_ROBOT, Seat, Status, Table
from .settlement import (
    Settlement,
    chips_of,
    settle_deal,
    settle_forfeit,
    settle_game,
    settle_refund,
    stake_table,
)

log = logging.getLogger(__name__)

LOBBY_TIMEOUT = 15 * 60.0
ROBOT_DELAY = 1.2
DECLARE_GRACE = 4.0
"""Extra seconds a robot waits to lead while a human partner may still sing."""
AWAY_AFTER_MISSES = 2


@dataclass(slots=True)
class Announcement:
    """A message of its own in the table's channel: a round summary, the final result, the
    lobby closing. ``key`` names it in the catalog; the presenter renders it."""

    key: str
    params: dict[str, Any] = field(default_factory=dict[str, Any])


Robot = Callable[[SeatView, str, random.Random, float], Action | None]
"""Decides a robot's action from its seat's view alone (runs in a worker thread)."""


def default_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    return choose_action(view, Level(level), rng, budget)


class Presenter(Protocol):
    """What shows a table to people (the Discord adapter, or a test double)."""

    async def refresh(
        self, table: Table, *, skip_seat: int | None = None, announce: list[Announcement]
    ) -> None: ...


@dataclass(slots=True)
class Outcome:
    """What a user's request did: the table as it now is, and the seat whose own hand the
    caller shows in its answer (so the presenter need not edit it again)."""

    table: Table
    seat: int | None = None
    announce: list[Announcement] = field(default_factory=list[Announcement])


class TableService:
    def __init__(
        self,
        db: Database,
        presenter: Presenter,
        *,
        clock: Callable[[], float],
        robot_delay: float = ROBOT_DELAY,
        lobby_timeout: float = LOBBY_TIMEOUT,
        think_budget: float = 0.4,
        robot: Robot | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.db = db
        self.presenter = presenter
        self.clock = clock
        self.robot_delay = robot_delay
        self.lobby_timeout = lobby_timeout
        self.think_budget = think_budget
        self.robot: Robot = robot or default_robot
        # how the tables' clocks wait; the sandbox waits on its simulated clock instead
        self.sleep = sleep
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        # robots that chose not to declare out of turn, per table: (actions so far, seats)
        self._declined: dict[int, tuple[int, set[int]]] = {}
        self._closing = False

    # ------------------------------------------------------------------ access

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("gone")
        return table

    def open_tables(self, guild_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.guild_id == guild_id and t.status.is_open]

    # --------------------------------------------------------------- restore

    async def restore(self) -> list[Table]:
        """Load every open table after a start: rebuild its deal from the log, resume its
        clocks with the time that was left."""
        restored: list[Table] = []
        for row in await repo.open_tables(self.db):
            table = Table.from_state(
                table_id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                host_id=row.host_id,
                variant=row.variant,
                status=row.status,
                state=row.state,
            )
            if table.status is Status.PLAYING and table.game is not None:
                table.round = Round(table.game.deal_for(table.deal_rng()))
                for raw in await repo.deal_actions(self.db, table.id, table.deal_no):
                    table.round.apply(_action(raw))
            now = self.clock()
            if table.status is Status.PLAYING and table.turn_seat is not None:
                left = table.turn_left
                if left is None and table.turn_deadline is not None:
                    left = max(table.turn_deadline - row.updated_at, 0.0)
                table.turn_deadline = now + (left if left is not None else table.options.turn_time)
                table.turn_left = None
            self.tables[table.id] = table
            self._schedule(table)
            restored.append(table)
        return restored

    async def suspend(self) -> None:
        """Stop the clocks before the bot stops, keeping each turn's time left.

        A change under way (robots in the middle of their moves) is let finish and saved
        first: under the table's lock, so that nothing moves once this returns and the turn
        it leads to keeps its clock too."""
        self._closing = True
        for table in list(self.tables.values()):
            async with self.lock(table.id):
                timer = self._timers.pop(table.id, None)
                if timer is not None:
                    timer.cancel()
                if table.status is Status.PLAYING and table.turn_deadline is not None:
                    table.turn_left = max(table.turn_deadline - self.clock(), 0.0)
                    await self._save(table)

    # ------------------------------------------------------------------ lobby

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: Variant,
        options: Options,
        language: str,
        invited: list[int] | None = None,
        max_tables: int = 10,
        host_locale: str = "en",
        hand_delivery: str = "dm",
    ) -> Table:
        for other in self.open_tables(guild_id):
            if other.host_id == host_id:
                raise TableError("already_hosting", table=other.id)
        if len(self.open_tables(guild_id)) >= max_tables:
            raise TableError("too_many_tables", limit=max_tables)
        now = self.clock()
        seats: list[Seat | None] = [None] * variant.players
        seats[0] = Seat(name=host_name, user_id=host_id, locale=host_locale)
        table = Table(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            variant=variant,
            options=options,
            language=language,
            created_at=now,
            seats=seats,
            invited=sorted(set(invited or [])),
            hand_delivery=hand_delivery,
            seed=secrets.randbits(62),
            lobby_deadline=now + self.lobby_timeout,
        )
        table.add_log("tables.log.opened", name=host_name)
        async with self.db.transaction() as conn:
            table.id = await repo.create_table(
                conn,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                variant=variant.value,
                status=table.status.value,
                state=table.state_json(),
                now=now,
            )
        self.tables[table.id] = table
        self._schedule(table)
        return table

    async def set_messages(
        self,
        table_id: int,
        *,
        message_id: int | None = None,
        play_message_id: int | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Remember where the table's public messages live."""
        async with self.lock(table_id):
            table = self.get(table_id)
            if message_id is not None:
                table.message_id = message_id
            if play_message_id is not None:
                table.play_message_id = play_message_id
            if thread_id is not None:
                table.thread_id = thread_id
            await self._save(table)

    async def set_dm(
        self,
        table_id: int,
        seat: int,
        *,
        channel_id: int | None,
        message_id: int | None,
        closed: bool,
    ) -> None:
        """Remember a player's hand message in their DMs, or that their DMs are closed."""
        async with self.lock(table_id):
            table = self.get(table_id)
            occupant = table.seats[seat]
            if occupant is None:
                return
            occupant.dm_channel_id = channel_id
            occupant.dm_message_id = message_id
            occupant.dm_closed = closed
            await self._save(table)

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        team: int | None = None,
        locale: str = "en",
    ) -> Outcome:
        async with self.lock(table_id):
            table = self._lobby(table_id)
            if table.options.private and user_id != table.host_id and user_id not in table.invited:
                raise TableError("not_invited")
            current = table.seat_of(user_id)
            free = table.free_seats()
            if team is not None and table.variant is Variant.PAIRS:
                free = [i for i in free if i % 2 == team]
            elif current is not None:
                raise TableError("already_seated")
            if not free:
                raise TableError("team_full" if team is not None else "table_full")
            await self._check_chips(table, user_id)
            if current is not None:
                table.seats[current] = None
            table.seats[free[0]] = Seat(name=name, user_id=user_id, locale=locale)
            table.add_log("tables.log.joined", name=name)
            await self._save(table)
            return Outcome(table)

    async def leave(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            table = self.get(table_id)
            seat = table.seat_of(user_id)
            if seat is None or not table.status.is_open:
                raise TableError("not_seated")
            name = table.seats[seat].name  # type: ignore[union-attr]
            announce: list[Announcement] = []
            if table.status is Status.LOBBY:
                table.seats[seat] = None
                table.add_log("tables.log.left", name=name)
                if user_id == table.host_id:
                    humans = table.humans()
                    if humans:
                        table.host_id = humans[0]
                        table.add_log("tables.log.new_host", name=self._name(table, humans[0]))
                    else:
                        table.status = Status.CLOSED
                        announce.append(Announcement("tables.announce.closed_empty"))
                await self._save(table)
            else:
                occupant = table.seats[seat]
                assert occupant is not None
                occupant.left = True
                occupant.robot = STAND_IN_ROBOT
                table.add_log("tables.log.left_playing", name=name)
                if user_id in table.cancel_votes:
                    table.cancel_votes.remove(user_id)
                if user_id == table.host_id and table.humans():
                    table.host_id = table.humans()[0]
                settlement = settle_forfeit(table, user_id)
                if not table.humans():
                    # nobody is left to play with: the game ends here, the stakes are lost
                    settlement = settlement.merge(settle_refund(table))
                    table.status = Status.CANCELLED
                    table.round = None
                    announce.append(Announcement("tables.announce.abandoned"))
                elif table.cancel_votes and set(table.humans()) <= set(table.cancel_votes):
                    # everyone still at the table had voted to cancel: now it is agreed
                    settlement = settlement.merge(settle_refund(table))
                    table.status = Status.CANCELLED
                    table.round = None
                    table.add_log("tables.log.cancelled")
                    announce.append(Announcement("tables.announce.cancelled"))
                await self._save(table, settlement=settlement)
                self._schedule(table)
            if not table.status.is_open:
                self._stop(table)
            return Outcome(table, announce=announce)

    async def add_robot(
        self, table_id: int, user_id: int, level: str = DEFAULT_ROBOT, seat: int | None = None
    ) -> Outcome:
        async with self.lock(table_id):
            table = self._lobby(table_id)
            self._host_only(table, user_id)
            if level not in ROBOT_LEVELS:
                raise TableError("bad_level")
            free = table.free_seats()
            if seat is not None:
                free = [s for s in free if s == seat]
            if not free:
                raise TableError("table_full")
            table.seats[free[0]] = Seat(name=f"robot:{table.robot_number()}", robot=level)
            table.add_log("tables.log.robot_added", level=level)
            await self._save(table)
            return Outcome(table)

    async def remove_robot(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            table = self._lobby(table_id)
            self._host_only(table, user_id)
            robots = [i for i, s in enumerate(table.seats) if s is not None and s.is_robot]
            if not robots:
                raise TableError("no_robot")
            table.seats[robots[-1]] = None
            table.add_log("tables.log.robot_removed")
            await self._save(table)
            return Outcome(table)

    async def close(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            table = self._lobby(table_id)
            self._host_only(table, user_id)
            table.status = Status.CLOSED
            table.add_log("tables.log.closed")
            await self._save(table)
            self._stop(table)
            return Outcome(table, announce=[Announcement("tables.announce.closed_by_host")])

    async def start(self, table_id: int, user_id: int) -> Outcome:
        """Fill the empty seats with robots, take the stakes and deal."""
        async with self.lock(table_id):
            table = self._lobby(table_id)
            self._host_only(table, user_id)
            for uid in table.humans():
                await self._check_chips(table, uid)
            lobby = table.state_json()
            for i in table.free_seats():
                table.seats[i] = Seat(name=f"robot:{table.robot_number()}", robot=DEFAULT_ROBOT)
            table.status = Status.PLAYING
            table.game = Game(table.variant, table.options, dealer=table.players - 1)
            table.add_log("tables.log.started")
            settlement = stake_table(table)
            self._deal(table)
            try:
                await self._save(table, settlement=settlement, new_deal=True)
            except InsufficientChips as short:
                # another table took a member's chips since the check: nothing was saved,
                # and the table stays in the lobby as it was
                self.tables[table_id] = Table.from_state(
                    table_id=table.id,
                    guild_id=table.guild_id,
                    channel_id=table.channel_id,
                    host_id=table.host_id,
                    variant=table.variant.value,
                    status=Status.LOBBY.value,
                    state=lobby,
                )
                raise TableError("no_chips", bet=table.options.bet, chips=short.available) from None
            self._schedule(table)
            return Outcome(table)

    # ------------------------------------------------------------------ play

    async def act(
        self, table_id: int, user_id: int, action: Action, *, deal_no: int, trick_no: int
    ) -> Outcome:
        """A member's action from a button: refused when it comes from an earlier trick, when
        it is not theirs to take, or when the rules do not allow it."""
        async with self.lock(table_id):
            table = self.get(table_id)
            round_ = table.round
            if table.status is not Status.PLAYING or round_ is None:
                raise TableError("not_playing")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if deal_no != table.deal_no or trick_no != len(round_.tricks):
                raise TableError("stale")
            if action.seat != seat:
                raise TableError("not_your_seat")
            occupant = table.seats[seat]
            assert occupant is not None
            if occupant.away:
                raise TableError("away")
            try:
                round_.apply(action)
            except IllegalActionError as exc:
                raise TableError(f"illegal.{exc.reason}", **_illegal_params(exc)) from None
            occupant.missed = 0
            announce = await self._after_action(table, [action])
            return Outcome(table, seat=seat, announce=announce)

    async def im_back(self, table_id: int, user_id: int) -> Outcome:
        async with self.lock(table_id):
            table = self.get(table_id)
            seat = table.seat_of(user_id)
            if seat is None or table.status is not Status.PLAYING:
                raise TableError("not_seated")
            occupant = table.seats[seat]
            assert occupant is not None
            if not occupant.away:
                raise TableError("not_away")
            occupant.away = False
            occupant.missed = 0
            occupant.robot = None
            table.add_log("tables.log.back", name=occupant.name)
            self._start_clock(table)
            await self._save(table)
            self._schedule(table)
            return Outcome(table, seat=seat)

    async def vote_cancel(self, table_id: int, user_id: int) -> Outcome:
        """Cancel by agreement: every human at the table votes yes; robots do not vote."""
        async with self.lock(table_id):
            table = self.get(table_id)
            if table.status is not Status.PLAYING:
                raise TableError("not_playing")
            if table.seat_of(user_id) is None:
                raise TableError("not_seated")
            if user_id in table.cancel_votes:
                raise TableError("already_voted")
            table.cancel_votes.append(user_id)
            name = self._name(table, user_id)
            table.add_log(
                "tables.log.vote",
                name=name,
                votes=len(table.cancel_votes),
                needed=len(table.humans()),
            )
            announce: list[Announcement] = []
            settlement = Settlement()
            if set(table.humans()) <= set(table.cancel_votes):
                table.status = Status.CANCELLED
                table.round = None
                table.add_log("tables.log.cancelled")
                settlement = settle_refund(table)
                announce.append(Announcement("tables.announce.cancelled"))
                self._stop(table)
            await self._save(table, settlement=settlement)
            return Outcome(table, announce=announce)

    # --------------------------------------------------------------- internals

    def _lobby(self, table_id: int) -> Table:
        table = self.get(table_id)
        if table.status is not Status.LOBBY:
            raise TableError("not_lobby")
        return table

    @staticmethod
    def _host_only(table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise TableError("host_only")

    @staticmethod
    def _name(table: Table, user_id: int) -> str:
        seat = table.seat_of(user_id)
        occupant = table.seats[seat] if seat is not None else None
        return occupant.name if occupant is not None else str(user_id)

    async def _check_chips(self, table: Table, user_id: int) -> None:
        """A player needs the chips of the bet to sit (checked again at the start)."""
        if table.options.bet <= 0 or not table.options.competitive:
            return
        chips = await chips_of(self.db, table.guild_id, user_id, self.clock())
        if chips < table.options.bet:
            raise TableError("no_chips", bet=table.options.bet, chips=chips)

    def _deal(self, table: Table) -> None:
        game = table.game
        assert game is not None
        table.round = Round(game.deal_for(table.deal_rng()))
        table.cancel_votes.clear()
        self._start_clock(table)

    def _start_clock(self, table: Table) -> None:
        """Set the turn clock for the human whose turn it is (robots have none)."""
        round_ = table.round
        table.turn_seat = None
        table.turn_deadline = None
        if round_ is None or round_.finished:
            return
        seat = round_.turn
        occupant = table.seats[seat]
        if occupant is not None and not occupant.robot_plays:
            table.turn_seat = seat
            table.turn_deadline = self.clock() + table.options.turn_time

    async def _after_action(self, table: Table, actions: list[Action]) -> list[Announcement]:
        """Log what was done, save it (write-ahead), and move the game on."""
        round_ = table.round
        assert round_ is not None
        for action in actions:
            self._log_action(table, round_, action)
        announce: list[Announcement] = []
        settlement = Settlement()
        deal_over = round_.finished
        first_seq = len(round_.actions) - len(actions)
        if deal_over:
            settlement, announce = self._end_deal(table)
        else:
            previous = table.turn_seat
            if previous != round_.turn or table.turn_deadline is None:
                self._start_clock(table)
        await self._save(
            table,
            actions=list(enumerate(actions, start=first_seq)),
            settlement=settlement,
            finished_deal=round_ if deal_over else None,
            new_deal=deal_over and table.status is Status.PLAYING,
        )
        if not table.status.is_open:
            self._stop(table)
        else:
            self._schedule(table)
        return announce

    def _log_action(self, table: Table, round_: Round, action: Action) -> None:
        occupant = table.seats[action.seat]
        name = occupant.name if occupant is not None else "?"
        kind = action.kind
        if kind is Kind.SING:
            table.add_log(
                "tables.log.sang", name=name, suit=action.arg, points=round_.cantes[-1].points
            )
        elif kind is Kind.PLAY:
            if not round_.trick and round_.tricks:
                trick = round_.tricks[-1]
                winner = table.seats[trick.winner]
                table.add_log(
                    "tables.log.trick",
                    name=winner.name if winner else "?",
                    cards=list(trick.cards),
                    points=sum(_points(c) for c in trick.cards),
                )
        elif kind is Kind.BID:
            table.add_log("tables.log.bid", name=name, points=action.arg)
        elif kind is Kind.PASS:
            table.add_log("tables.log.pass", name=name)
        else:
            table.add_log(f"tables.log.{kind.name.lower()}", name=name)

    def _end_deal(self, table: Table) -> tuple[Settlement, list[Announcement]]:
        round_ = table.round
        game = table.game
        assert round_ is not None and game is not None and round_.result is not None
        result = round_.result
        rounds_before = list(game.rounds_won)
        settlement = settle_deal(table, round_)
        game.end_round(round_)
        summary: dict[str, Any] = {
            "deal_no": table.deal_no,
            "result": result.to_json(),
            "names": [s.name if s else "?" for s in table.seats],
            "taken": [
                [c for t in round_.tricks if round_.side_of[t.winner] == side for c in t.cards]
                for side in range(len(round_.sides))
            ],
            "cantes": [[c.seat, c.suit, c.points] for c in round_.cantes],
            "rounds_won": list(game.rounds_won),
            "rounds_before": rounds_before,
            "trump": round_.trump,
        }
        table.summary = summary
        announce = [Announcement("tables.announce.deal_over", {"summary": summary})]
        if game.finished:
            table.winner = game.winner
            table.status = Status.FINISHED
            table.turn_seat = table.turn_deadline = None
            settlement = settlement.merge(settle_game(table))
            announce.append(Announcement("tables.announce.game_over", {"winner": game.winner}))
            table.add_log("tables.log.game_over")
        else:
            table.deal_no += 1
            self._deal(table)
            settlement = settlement.merge(stake_table(table, deal_only=True))
        return settlement, announce

    async def _save(
        self,
        table: Table,
        *,
        actions: list[tuple[int, Action]] | None = None,
        settlement: Settlement | None = None,
        finished_deal: Round | None = None,
        new_deal: bool = False,
    ) -> None:
        """One atomic write: the actions (write-ahead), the deal records, the chips and the
        table's state, so a crash at any point loses or duplicates nothing."""
        now = self.clock()
        if finished_deal is None and not new_deal and (settlement is None or not settlement.ops):
            # A play (or a lobby change) writes only actions and state, with no reads: the
            # group commit takes it, shared with the other tables saving at the same time.
            await repo.save_progress(
                self.db,
                table.id,
                deal_no=table.deal_no,
                actions=[(seq, json.dumps(action.to_json())) for seq, action in actions or ()],
                host_id=table.host_id,
                status=table.status.value,
                state=table.state_json(),
                now=now,
            )
            return
        async with self.db.transaction() as conn:
            if actions:
                deal_no = table.deal_no - (1 if finished_deal is not None and new_deal else 0)
                for seq, action in actions:
                    await repo.append_action(
                        conn, table.id, deal_no, seq, json.dumps(action.to_json())
                    )
            if finished_deal is not None:
                deal_no = table.deal_no - (1 if new_deal else 0)
                await repo.save_deal(
                    conn,
                    table_id=table.id,
                    deal_no=deal_no,
                    guild_id=table.guild_id,
                    record=json.dumps(record_of(finished_deal)),
                    players=self._players(table),
                    finished_at=now,
                )
            if new_deal and table.round is not None:
                await repo.save_deal(
                    conn,
                    table_id=table.id,
                    deal_no=table.deal_no,
                    guild_id=table.guild_id,
                    record=json.dumps(record_of(table.round)),
                    players=self._players(table),
                    finished_at=None,
                )
            if settlement is not None:
                await settlement.apply(conn, table, now)
            await repo.save_table(
                conn,
                table.id,
                host_id=table.host_id,
                status=table.status.value,
                state=table.state_json(),
                now=now,
            )

    @staticmethod
    def _players(table: Table) -> list[tuple[int, int]]:
        return [
            (i, s.user_id)
            for i, s in enumerate(table.seats)
            if s is not None and s.user_id is not None
        ]

    # ----------------------------------------------------------------- clocks

    def _stop(self, table: Table) -> None:
        timer = self._timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _schedule(self, table: Table) -> None:
        """One timer per table: the lobby's expiry, a robot's move, or a human's turn."""
        if self._closing:
            return
        self._stop(table)
        when = self._next_wake(table)
        if when is None:
            return
        delay = max(when - self.clock(), 0.0)
        self._timers[table.id] = asyncio.create_task(
            self._wake(table.id, delay), name=f"table-{table.id}-clock"
        )

    def _next_wake(self, table: Table) -> float | None:
        now = self.clock()
        if table.status is Status.LOBBY:
            return table.lobby_deadline
        round_ = table.round
        if table.status is not Status.PLAYING or round_ is None or round_.finished:
            return None
        if self._robot_to_act(table, round_) is not None:
            delay = self.robot_delay
            if self._human_may_declare(table, round_):
                delay += DECLARE_GRACE
            return now + delay
        return table.turn_deadline

    async def _wake(self, table_id: int, delay: float) -> None:
        try:
            if delay > 0:
                await self.sleep(delay)
            await self._on_timer(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("The clock of table %s failed", table_id)

    async def _on_timer(self, table_id: int) -> None:
        announce: list[Announcement] = []
        async with self.lock(table_id):
            table = self.tables.get(table_id)
            if table is None or not table.status.is_open:
                return
            self._timers.pop(table_id, None)
            now = self.clock()
            if table.status is Status.LOBBY:
                if now + 0.001 < table.lobby_deadline:
                    self._schedule(table)
                    return
                table.status = Status.CLOSED
                table.add_log("tables.log.expired")
                await self._save(table)
                announce.append(
                    Announcement(
                        "tables.announce.expired", {"minutes": int(self.lobby_timeout // 60)}
                    )
                )
            else:
                round_ = table.round
                assert round_ is not None
                if self._robot_to_act(table, round_) is not None:
                    announce = await self._robots_play(table)
                elif table.turn_deadline is not None and now + 0.001 >= table.turn_deadline:
                    announce = await self._time_out(table)
                else:
                    self._schedule(table)
                    return
        await self.presenter.refresh(table, announce=announce)

    def _robot_to_act(self, table: Table, round_: Round) -> int | None:
        """A seat played by a robot that has something to do now: the seat on turn first,
        then a robot that may declare out of turn (a partner's cante, capote)."""
        legal = round_.legal_actions()
        seats = {a.seat for a in legal if a.kind is not Kind.RESIGN}
        turn = round_.turn
        occupant = table.seats[turn]
        if turn in seats and occupant is not None and occupant.robot_plays:
            return turn
        declined = self._declined.get(table.id)
        passed = declined[1] if declined and declined[0] == len(round_.actions) else set[int]()
        for seat in sorted(seats - passed):
            occupant = table.seats[seat]
            if (
                seat != turn
                and occupant is not None
                and occupant.robot_plays
                and any(a.seat == seat and a.kind in _ROBOT_OPTIONAL for a in legal)
            ):
                return seat
        return None

    @staticmethod
    def _human_may_declare(table: Table, round_: Round) -> bool:
        for action in round_.legal_actions():
            occupant = table.seats[action.seat]
            if (
                action.kind in (Kind.SING, Kind.TUTE)
                and occupant is not None
                and not occupant.robot_plays
            ):
                return True
        return False

    async def _robots_play(self, table: Table) -> list[Announcement]:
        """A run of robot actions, shown as one change: it stops when a human is to play,
        or at the end of a trick (so people can follow, trick by trick)."""
        round_ = table.round
        assert round_ is not None
        done: list[Action] = []
        tricks_at_start = len(round_.tricks)
        while not round_.finished:
            seat = self._robot_to_act(table, round_)
            if seat is None:
                break
            occupant = table.seats[seat]
            assert occupant is not None
            action = await self._robot_choice(table, round_, seat, occupant.robot or STAND_IN_ROBOT)
            if action is None:
                if seat == round_.turn:
                    raise RuntimeError("a robot on turn found nothing to play")
                count = len(round_.actions)
                known = self._declined.get(table.id)
                seats = known[1] if known and known[0] == count else set[int]()
                self._declined[table.id] = (count, seats | {seat})
                continue
            round_.apply(action)
            done.append(action)
            if len(round_.tricks) > tricks_at_start and not round_.trick:
                break
        if not done:
            self._schedule(table)
            return []
        return await self._after_action(table, done)

    async def _robot_choice(
        self, table: Table, round_: Round, seat: int, level: str
    ) -> Action | None:
        view = seat_view(round_, seat)
        legal = set(view.legal)
        if not legal:
            return None
        rng = _robot_rng(table, round_, seat)
        action = await asyncio.to_thread(self.robot, view, level, rng, self.think_budget)
        if action is not None and action not in legal:
            log.warning("Robot chose %s, not legal at table %s; playing another", action, table.id)
            action = None
        if action is None and seat == round_.turn:
            plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
            action = plays[-1] if plays else None
        return action

    async def _time_out(self, table: Table) -> list[Announcement]:
        """The human on turn ran out of time: the normal robot plays for them; after two
        such turns in a row a robot takes the seat until they click "I'm back"."""
        round_ = table.round
        assert round_ is not None
        seat = round_.turn
        occupant = table.seats[seat]
        assert occupant is not None
        occupant.missed += 1
        table.add_log("tables.log.timeout", name=occupant.name)
        if occupant.missed >= AWAY_AFTER_MISSES:
            occupant.away = True
            occupant.robot = STAND_IN_ROBOT
            table.add_log("tables.log.away", name=occupant.name)
        done: list[Action] = []
        while not round_.finished and round_.turn == seat:
            action = await self._robot_choice(table, round_, seat, STAND_IN_ROBOT)
            if action is None:
                break
            round_.apply(action)
            done.append(action)
        table.turn_deadline = None
        return await self._after_action(table, done)


_ROBOT_OPTIONAL = frozenset({Kind.SING, Kind.TUTE, Kind.CAPOTE, Kind.CLAIM, Kind.EXCHANGE})


def _robot_rng(table: Table, round_: Round, seat: int) -> random.Random:
    return random.Random(f"{table.seed}:{table.deal_no}:{len(round_.actions)}:{seat}")


def _action(raw: str) -> Action:
    return action_from_json(json.loads(raw))


def _points(card: int) -> int:
    return POINTS[card]


def _illegal_params(exc: IllegalActionError) -> dict[str, Any]:
    return {k: v for k, v in exc.params.items() if isinstance(v, int)}
