"""The table service: lobby, start, play, robots, clocks, votes, leaving and the end.

Every change to a table happens under that table's lock as load -> apply -> save: the
action is written ahead in the same transaction as the table's new state, then shown.
Nothing here imports discord: the adapter passes ids and names in and renders what the
``Presenter`` is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
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

from .errors import SaveFailed, TableError
from .model import (
    DEFAULT_ROBOT,
    ROBOT_LEVELS,
    STAND_IN_ROBOT,
    DealSummary,
    Seat,
    Status,
    Table,
)
from .settlement import (
    Settlement,
    chips_of,
    refund_damaged,
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
IDLE_TIMEOUT = 15 * 60.0
"""How long a game waits, paused, for one of its members to come back."""
RETRY_FIRST = 1.0
RETRY_MOST = 60.0
"""A clock whose save failed tries again after 1 s, 2 s, 4 s... at most a minute apart."""


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


@dataclass(frozen=True, slots=True)
class LostTable:
    """A table that could not be restored after a start (a damaged row, a log that does not
    replay): set aside as cancelled, its stakes returned. Its players are told where it
    played."""

    table_id: int
    guild_id: int
    channel_id: int
    refunded: dict[int, int]
    """user id -> chips given back."""


class Presenter(Protocol):
    """What shows a table to people (the Discord adapter, or a test double)."""

    async def refresh(
        self, table: Table, *, skip_seat: int | None = None, announce: list[Announcement]
    ) -> None: ...

    async def table_lost(self, lost: LostTable) -> None: ...


@dataclass(slots=True)
class Outcome:
    """What a user's request did: the table as it now is, and the seat whose own hand the
    caller shows in its answer (so the presenter need not edit it again)."""

    table: Table
    seat: int | None = None
    announce: list[Announcement] = field(default_factory=list[Announcement])


@dataclass(frozen=True, slots=True)
class _Saved:
    """A table as its last successful save left it: what a failed change goes back to."""

    host_id: int
    status: str
    state: str
    actions: tuple[Action, ...]


class TableService:
    def __init__(
        self,
        db: Database,
        presenter: Presenter,
        *,
        clock: Callable[[], float],
        robot_delay: float = ROBOT_DELAY,
        lobby_timeout: float = LOBBY_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        think_budget: float = 0.4,
        robot: Robot | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.db = db
        self.presenter = presenter
        self.clock = clock
        self.robot_delay = robot_delay
        self.lobby_timeout = lobby_timeout
        self.idle_timeout = idle_timeout
        self.think_budget = think_budget
        self.robot: Robot = robot or default_robot
        # how the tables' clocks wait; the sandbox waits on its simulated clock instead
        self.sleep = sleep
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._guild_locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._saved: dict[int, _Saved] = {}
        self._retries: dict[int, int] = {}
        """Failed saves in a row of a table's clock: its next try waits longer."""
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

    @contextlib.asynccontextmanager
    async def _holding(self, table_id: int) -> AsyncIterator[None]:
        """The table's lock. Once let go, it is forgotten if the table is not in memory (it
        ended under it, or the click came from a table long gone): ids are never reused,
        and whoever still waits for it finds the table gone all the same."""
        lock = self.lock(table_id)
        try:
            async with lock:
                yield
        finally:
            if (
                table_id not in self.tables
                and not lock.locked()
                and self._locks.get(table_id) is lock
            ):
                del self._locks[table_id]

    @contextlib.asynccontextmanager
    async def _change(self, table_id: int) -> AsyncIterator[Table]:
        """The table, under its lock, for a change that ends with a save. If anything fails
        once the change has begun (the save above all), the table goes back to what its last
        save left: memory never runs ahead of the log. A refusal (a ``TableError`` raised
        before anything changed) leaves it alone."""
        async with self._holding(table_id):
            table = self.get(table_id)
            try:
                yield table
            except TableError as error:
                if isinstance(error, SaveFailed):
                    self._rollback(table)
                raise
            except Exception:
                self._rollback(table)
                raise

    def _remember(self, table: Table, state: str) -> None:
        round_ = table.round
        self._saved[table.id] = _Saved(
            host_id=table.host_id,
            status=table.status.value,
            state=state,
            actions=tuple(round_.actions) if round_ is not None else (),
        )

    def _rollback(self, table: Table) -> None:
        """Put the table back as its last save left it (in place: whoever holds it sees
        the change), keeping only where its messages live, which no game rule reads."""
        saved = self._saved.get(table.id)
        if saved is None:
            return
        restored = Table.from_state(
            table_id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=saved.host_id,
            variant=table.variant.value,
            status=saved.status,
            state=saved.state,
        )
        _replay(restored, saved.actions)
        restored.message_id = table.message_id
        restored.play_message_id = table.play_message_id
        restored.thread_id = table.thread_id
        for now, before in zip(restored.seats, table.seats, strict=True):
            if now is not None and before is not None and now.user_id == before.user_id:
                now.dm_channel_id = before.dm_channel_id
                now.dm_message_id = before.dm_message_id
                now.dm_closed = before.dm_closed
        for name in Table.__slots__:  # pyright: ignore[reportAttributeAccessIssue]
            setattr(table, name, getattr(restored, name))
        self._declined.pop(table.id, None)
        log.warning("Table %s went back to its last save", table.id)

    def _release(self, table: Table) -> None:
        """A table that no longer plays leaves memory (its buttons answer "gone")."""
        if table.status.is_open:
            return
        self._stop(table)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        # its lock goes once let go (``_holding``)
        for store in (self._saved, self._retries, self._declined):
            store.pop(table.id, None)

    # --------------------------------------------------------------- restore

    async def restore(self) -> list[Table]:
        """Load every open table after a start: rebuild its deal from the log, resume its
        clocks with the time that was left. A table that cannot be rebuilt is set aside
        (cancelled, stakes back, its players told) and the others are restored."""
        restored: list[Table] = []
        for row in await repo.open_tables(self.db):
            try:
                table = await self._restore_one(row)
            except Exception:
                log.exception("Table %s could not be restored: setting it aside", row.id)
                await self._set_aside(row)
                continue
            restored.append(table)
        return restored

    async def _restore_one(self, row: repo.TableRow) -> Table:
        table = Table.from_state(
            table_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            variant=row.variant,
            status=row.status,
            state=row.state,
        )
        if table.status is Status.PLAYING:
            raws = await repo.deal_actions(self.db, table.id, table.deal_no)
            _replay(table, [_action(raw) for raw in raws])
        now = self.clock()
        if table.status is Status.PLAYING and table.turn_seat is not None:
            left = table.turn_left
            if left is None and table.turn_deadline is not None:
                left = max(table.turn_deadline - row.updated_at, 0.0)
            table.turn_deadline = now + (left if left is not None else table.options.turn_time)
            table.turn_left = None
        self.tables[table.id] = table
        self._remember(table, row.state)
        self._schedule(table)
        return table

    async def _set_aside(self, row: repo.TableRow) -> None:
        now = self.clock()
        try:
            async with self.db.transaction() as conn:
                refunded = await refund_damaged(conn, row.guild_id, row.id, now)
                await repo.set_status(conn, row.id, status=Status.CANCELLED.value, now=now)
        except Exception:
            log.exception("Table %s could not be set aside either", row.id)
            return
        lost = LostTable(row.id, row.guild_id, row.channel_id, refunded)
        try:
            await self.presenter.table_lost(lost)
        except Exception:
            log.exception("Could not tell the players of table %s", row.id)

    async def suspend(self) -> None:
        """Stop the clocks before the bot stops, keeping each turn's time left.

        A change under way (robots in the middle of their moves) is let finish and saved
        first: under the table's lock, so that nothing moves once this returns and the turn
        it leads to keeps its clock too. Every table at once: their saves share batches.

        Every clock stops first, so that no robot run starts once this has begun: a timer
        still in ``_timers`` sleeps or waits for its table's lock (a run under way took its
        own out when it took the lock, and is waited for below). Such a run ends quickly:
        a search that starts from now on thinks 0 s (``_think``)."""
        self._closing = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        results = await asyncio.gather(
            *(self._suspend_one(table) for table in list(self.tables.values())),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, BaseException):
                log.error("A table's clock could not be kept", exc_info=result)

    async def _suspend_one(self, table: Table) -> None:
        async with self.lock(table.id):
            if table.status is Status.PLAYING and table.turn_deadline is not None:
                table.turn_left = max(table.turn_deadline - self.clock(), 0.0)
                await self._save(table)

    # ------------------------------------------------------------------ lobby

    def _guild_lock(self, guild_id: int) -> asyncio.Lock:
        return self._guild_locks.setdefault(guild_id, asyncio.Lock())

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
        # one opening at a time per server: the checks hold while the table is written
        async with self._guild_lock(guild_id):
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
            state = table.state_json()
            try:
                async with self.db.transaction() as conn:
                    table.id = await repo.create_table(
                        conn,
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        variant=variant.value,
                        status=table.status.value,
                        state=state,
                        now=now,
                    )
            except Exception as error:
                log.error("Could not open a table in server %s", guild_id, exc_info=error)
                raise SaveFailed from error
            self.tables[table.id] = table
            self._remember(table, state)
            self._schedule(table)
            return table

    async def discard(self, table_id: int) -> None:
        """A lobby nobody could see (its message was never posted): closed at once."""
        try:
            async with self._change(table_id) as table:
                if table.status is not Status.LOBBY:
                    return
                table.move_to(Status.CLOSED)
                table.add_log("tables.log.closed")
                await self._save(table)
                self._after_change(table)
        except TableError:
            return

    async def set_messages(
        self,
        table_id: int,
        *,
        message_id: int | None = None,
        play_message_id: int | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Remember where the table's public messages live. Kept in memory even when the
        save fails (it goes with the table's next save)."""
        async with self._holding(table_id):
            table = self.tables.get(table_id)
            if table is None:
                return
            if message_id is not None:
                table.message_id = message_id
            if play_message_id is not None:
                table.play_message_id = play_message_id
            if thread_id is not None:
                table.thread_id = thread_id or None  # 0: its thread is gone
            await self._save_quietly(table)

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
        async with self._holding(table_id):
            table = self.tables.get(table_id)
            if table is None:
                return
            occupant = table.seats[seat]
            if occupant is None:
                return
            occupant.dm_channel_id = channel_id
            occupant.dm_message_id = message_id
            occupant.dm_closed = closed
            await self._save_quietly(table)

    async def _save_quietly(self, table: Table) -> None:
        if not table.status.is_open:
            return
        try:
            await self._save(table)
        except SaveFailed:
            return

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        team: int | None = None,
        locale: str = "en",
    ) -> Outcome:
        async with self._change(table_id) as table:
            self._in_lobby(table)
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

    def leave_terms(self, table_id: int, user_id: int) -> tuple[str, int]:
        """What leaving would do now, for the question before it: ``(case, stake)``.
        ``lobby``: just the seat; ``robot``: a robot plays on, the stake is lost;
        ``end``: nobody is left, the game ends and the stake goes to the bank."""
        table = self.get(table_id)
        seat = table.seat_of(user_id)
        if seat is None or not table.status.is_open:
            raise TableError("not_seated")
        if table.status is Status.LOBBY:
            return "lobby", 0
        stake = table.stake_of(user_id)
        others = [uid for uid in table.humans() if uid != user_id]
        return ("robot" if others else "end"), stake

    async def leave(self, table_id: int, user_id: int, *, lobby: bool = False) -> Outcome:
        """Leave the table. ``lobby``: the click came from the lobby, and a game that has
        started since is not left from there (that would forfeit the stake unasked)."""
        async with self._change(table_id) as table:
            seat = table.seat_of(user_id)
            if lobby and table.status is not Status.LOBBY:
                raise TableError("already_started")
            if seat is None or not table.status.is_open:
                raise TableError("not_seated")
            occupant = table.seats[seat]
            assert occupant is not None
            announce: list[Announcement] = []
            if table.status is Status.LOBBY:
                table.seats[seat] = None
                table.add_log("tables.log.left", name=occupant.name)
                if user_id == table.host_id:
                    humans = table.humans()
                    if humans:
                        table.host_id = humans[0]
                        table.add_log("tables.log.new_host", name=self._name(table, humans[0]))
                    else:
                        table.move_to(Status.CLOSED)
                        announce.append(Announcement("tables.announce.closed_empty"))
                await self._save(table)
            else:
                settlement = self._leave_game(table, seat, user_id, announce)
                await self._save(table, settlement=settlement)
            self._after_change(table)
            return Outcome(table, announce=announce)

    def _leave_game(
        self, table: Table, seat: int, user_id: int, announce: list[Announcement]
    ) -> Settlement:
        occupant = table.seats[seat]
        assert occupant is not None
        occupant.left = True
        occupant.robot = STAND_IN_ROBOT
        if user_id in table.cancel_votes:
            table.cancel_votes.remove(user_id)
        if user_id == table.host_id and table.humans():
            table.host_id = table.humans()[0]
        stake = table.stake_of(user_id)
        settlement = settle_forfeit(table, user_id)
        if not table.humans():
            # nobody is left to play with: the game ends here; the leaver's stake goes to
            # the bank (a forfeit), anyone else's comes back
            settlement = settlement.merge(settle_refund(table))
            self._end_game(table, Status.CANCELLED)
            table.add_log("tables.log.abandoned", name=occupant.name)
            key = "tables.announce.abandoned" + ("_stake" if stake else "")
            announce.append(Announcement(key, {"name": occupant.name, "stake": stake}))
            return settlement
        key = "tables.log.left_playing" + ("_stake" if stake else "")
        table.add_log(key, name=occupant.name, stake=stake)
        if table.cancel_votes and set(table.humans()) <= set(table.cancel_votes):
            # everyone still at the table had voted to cancel: now it is agreed
            settlement = settlement.merge(settle_refund(table))
            self._cancel(table, announce)
        else:
            self._update_pause(table, announce)
        return settlement

    def _cancel(self, table: Table, announce: list[Announcement]) -> None:
        self._end_game(table, Status.CANCELLED)
        table.add_log("tables.log.cancelled")
        announce.append(Announcement("tables.announce.cancelled"))

    @staticmethod
    def _end_game(table: Table, status: Status) -> None:
        """The game is over: finished (its last deal stays, for the settlement and the
        view) or cancelled (the deal in play is dropped)."""
        table.move_to(status)
        if status is not Status.FINISHED:
            table.round = None
        table.turn_seat = table.turn_deadline = None
        table.paused_until = None

    async def add_robot(
        self, table_id: int, user_id: int, level: str = DEFAULT_ROBOT, seat: int | None = None
    ) -> Outcome:
        async with self._change(table_id) as table:
            self._in_lobby(table)
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
        async with self._change(table_id) as table:
            self._in_lobby(table)
            self._host_only(table, user_id)
            robots = [i for i, s in enumerate(table.seats) if s is not None and s.is_robot]
            if not robots:
                raise TableError("no_robot")
            table.seats[robots[-1]] = None
            table.add_log("tables.log.robot_removed")
            await self._save(table)
            return Outcome(table)

    async def close(self, table_id: int, user_id: int) -> Outcome:
        async with self._change(table_id) as table:
            self._in_lobby(table)
            self._host_only(table, user_id)
            table.move_to(Status.CLOSED)
            table.add_log("tables.log.closed")
            await self._save(table)
            self._after_change(table)
            return Outcome(table, announce=[Announcement("tables.announce.closed_by_host")])

    async def start(self, table_id: int, user_id: int) -> Outcome:
        """Fill the empty seats with robots, take the stakes and deal."""
        async with self._change(table_id) as table:
            self._in_lobby(table)
            self._host_only(table, user_id)
            for uid in table.humans():
                await self._check_chips(table, uid)
            for i in table.free_seats():
                table.seats[i] = Seat(name=f"robot:{table.robot_number()}", robot=DEFAULT_ROBOT)
            table.move_to(Status.PLAYING)
            table.game = Game(table.variant, table.options, dealer=table.players - 1)
            table.add_log("tables.log.started")
            settlement = stake_table(table)
            self._deal(table)
            try:
                await self._save(table, settlement=settlement, new_deal=True)
            except InsufficientChips as short:
                # another table took a member's chips since the check: nothing was saved,
                # and the table stays in the lobby as it was
                self._rollback(table)
                raise TableError("no_chips", bet=table.options.bet, chips=short.available) from None
            self._after_change(table)
            return Outcome(table)

    # ------------------------------------------------------------------ play

    async def act(
        self, table_id: int, user_id: int, action: Action, *, deal_no: int, trick_no: int
    ) -> Outcome:
        """A member's action from a button: refused when it comes from an earlier trick, when
        it is not theirs to take, or when the rules do not allow it."""
        async with self._change(table_id) as table:
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
                self._apply(table, round_, action)
            except IllegalActionError as exc:
                raise TableError(f"illegal.{exc.reason}", **_illegal_params(exc)) from None
            occupant.missed = 0
            announce = await self._after_action(table, [action])
            return Outcome(table, seat=seat, announce=announce)

    async def im_back(self, table_id: int, user_id: int) -> Outcome:
        async with self._change(table_id) as table:
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
            announce: list[Announcement] = []
            self._update_pause(table, announce)
            self._start_clock(table)
            await self._save(table)
            self._after_change(table)
            return Outcome(table, seat=seat, announce=announce)

    def vote_terms(self, table_id: int, user_id: int) -> tuple[int, int]:
        """What a vote to cancel would do now: ``(votes still missing after it, stake)``."""
        table = self.get(table_id)
        self._may_vote(table, user_id)
        missing = len(set(table.humans()) - set(table.cancel_votes) - {user_id})
        stake = table.stake_of(user_id)
        return missing, stake

    async def vote_cancel(self, table_id: int, user_id: int) -> Outcome:
        """Cancel by agreement: every human at the table votes yes; robots do not vote."""
        async with self._change(table_id) as table:
            self._may_vote(table, user_id)
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
                settlement = settle_refund(table)
                self._cancel(table, announce)
            await self._save(table, settlement=settlement)
            self._after_change(table)
            return Outcome(table, announce=announce)

    # --------------------------------------------------------------- internals

    @staticmethod
    def _may_vote(table: Table, user_id: int) -> None:
        if table.status is not Status.PLAYING:
            raise TableError("not_playing")
        if table.seat_of(user_id) is None:
            raise TableError("not_seated")
        if user_id in table.cancel_votes:
            raise TableError("already_voted")

    def _after_change(self, table: Table) -> None:
        """Once saved: the table's clock for what comes next, or out of memory if it ended."""
        if table.status.is_open:
            self._schedule(table)
        else:
            self._release(table)

    @staticmethod
    def _in_lobby(table: Table) -> None:
        if table.status is not Status.LOBBY:
            raise TableError("not_lobby")

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
        try:
            # a member's first check writes their starting chips: a write like any other
            chips = await chips_of(self.db, table.guild_id, user_id, self.clock())
        except Exception as error:
            log.error("The chips of %s could not be checked", user_id, exc_info=error)
            raise SaveFailed from error
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

    def _update_pause(self, table: Table, announce: list[Announcement]) -> None:
        """Pause the game when every member at the table is away (no robot plays their
        cards for them unseen); resume it when one is back."""
        if table.status is not Status.PLAYING:
            table.paused_until = None
            return
        if table.all_away():
            if table.paused_until is None:
                table.paused_until = self.clock() + self.idle_timeout
                table.add_log("tables.log.paused")
                announce.append(
                    Announcement(
                        "tables.announce.paused",
                        {
                            "minutes": round(self.idle_timeout / 60),
                            "until": int(table.paused_until),
                        },
                    )
                )
        elif table.paused_until is not None:
            table.paused_until = None
            table.add_log("tables.log.resumed")

    def _apply(self, table: Table, round_: Round, action: Action) -> None:
        """Apply an action to the deal and log it: each event once, as it happens."""
        round_.apply(action)
        self._log_action(table, round_, action)

    async def _after_action(self, table: Table, actions: list[Action]) -> list[Announcement]:
        """Save what was done (write-ahead) and move the game on."""
        round_ = table.round
        assert round_ is not None
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
        self._update_pause(table, announce)
        await self._save(
            table,
            actions=list(enumerate(actions, start=first_seq)),
            settlement=settlement,
            finished_deal=round_ if deal_over else None,
            new_deal=deal_over and table.status is Status.PLAYING,
        )
        self._after_change(table)
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
        rounds_before = tuple(game.rounds_won)
        settlement = settle_deal(table, round_)
        game.end_round(round_)
        summary = DealSummary(
            deal_no=table.deal_no,
            result=result,
            names=tuple(s.name if s else "?" for s in table.seats),
            taken=tuple(
                tuple(c for t in round_.tricks if round_.side_of[t.winner] == side for c in t.cards)
                for side in range(len(round_.sides))
            ),
            cantes=tuple((c.seat, c.suit, c.points) for c in round_.cantes),
            rounds_won=tuple(game.rounds_won),
            rounds_before=rounds_before,
            trump=round_.trump,
        )
        table.summary = summary
        announce = [Announcement("tables.announce.deal_over", {"summary": summary})]
        if game.finished:
            table.winner = game.winner
            self._end_game(table, Status.FINISHED)
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
        table's state, so a crash at any point loses or duplicates nothing. A write the
        database refuses raises :class:`SaveFailed` (a lack of chips stays itself: the
        start tells it apart)."""
        state = table.state_json()
        try:
            await self._write(table, state, actions, settlement, finished_deal, new_deal)
        except InsufficientChips:
            raise
        except Exception as error:
            log.error("Table %s could not be saved", table.id, exc_info=error)
            raise SaveFailed from error
        self._remember(table, state)

    async def _write(
        self,
        table: Table,
        state: str,
        actions: list[tuple[int, Action]] | None,
        settlement: Settlement | None,
        finished_deal: Round | None,
        new_deal: bool,
    ) -> None:
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
                state=state,
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
                state=state,
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

    def _schedule(self, table: Table, *, delay: float | None = None) -> None:
        """One timer per table: the lobby's expiry, a robot's move, a human's turn, the end
        of a pause; or, after a failed save, the next try (``delay``)."""
        if self._closing:
            return
        self._stop(table)
        if delay is None:
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
        if table.paused_until is not None:
            return table.paused_until
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
            self._retry_later(table_id)

    def _retry_later(self, table_id: int) -> None:
        """The clock's change could not be made (its save failed): the table is as it was;
        try again a little later, and later still after each failure."""
        table = self.tables.get(table_id)
        if table is None or not table.status.is_open:
            return
        tries = self._retries.get(table_id, 0) + 1
        self._retries[table_id] = tries
        self._schedule(table, delay=min(RETRY_FIRST * 2 ** (tries - 1), RETRY_MOST))

    async def _on_timer(self, table_id: int) -> None:
        if self._closing or table_id not in self.tables:
            return
        async with self._change(table_id) as table:
            if not table.status.is_open:
                return
            self._timers.pop(table_id, None)
            announce = await self._timer_change(table)
            if announce is None:
                return
        self._retries.pop(table_id, None)
        try:
            await self.presenter.refresh(table, announce=announce)
        except Exception:
            log.exception("Could not show table %s", table_id)

    async def _timer_change(self, table: Table) -> list[Announcement] | None:
        """What the table's clock does now (None: nothing yet, the timer is set again)."""
        now = self.clock()
        if table.status is Status.LOBBY:
            if now + 0.001 < table.lobby_deadline:
                self._schedule(table)
                return None
            table.move_to(Status.CLOSED)
            table.add_log("tables.log.expired")
            await self._save(table)
            self._after_change(table)
            minutes = int(self.lobby_timeout // 60)
            return [Announcement("tables.announce.expired", {"minutes": minutes})]
        round_ = table.round
        assert round_ is not None
        if table.paused_until is not None:
            if now + 0.001 < table.paused_until:
                self._schedule(table)
                return None
            announce: list[Announcement] = []
            self._end_game(table, Status.CANCELLED)
            table.add_log("tables.log.idle_cancelled")
            minutes = round(self.idle_timeout / 60)
            announce.append(Announcement("tables.announce.idle_cancelled", {"minutes": minutes}))
            await self._save(table, settlement=settle_refund(table))
            self._after_change(table)
            return announce
        if self._robot_to_act(table, round_) is not None:
            return await self._robots_play(table)
        if table.turn_deadline is not None and now + 0.001 >= table.turn_deadline:
            return await self._time_out(table)
        self._schedule(table)
        return None

    def _robot_to_act(self, table: Table, round_: Round) -> int | None:
        """A seat played by a robot that has something to do now: the seat on turn first,
        then a robot that may declare out of turn (a partner's cante, capote). None while
        the game is paused."""
        if table.paused_until is not None:
            return None
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
            self._apply(table, round_, action)
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
        action = await asyncio.to_thread(self._think, view, level, rng)
        if action is not None and action not in legal:
            log.warning("Robot chose %s, not legal at table %s; playing another", action, table.id)
            action = None
        if action is None and seat == round_.turn:
            plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
            action = plays[-1] if plays else None
        return action

    def _think(self, view: SeatView, level: str, rng: random.Random) -> Action | None:
        """The robot's search, on a worker thread. Its budget is read when it starts, not
        when it was queued: once the bot is stopping, a search still waiting for a thread
        takes 0 s (one sampled deal), so that ``suspend`` need not wait for the queue of
        searches of every table in the middle of a move (100 s with 1,000 of them)."""
        return self.robot(view, level, rng, 0.0 if self._closing else self.think_budget)

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
            self._apply(table, round_, action)
            done.append(action)
        table.turn_deadline = None
        return await self._after_action(table, done)


_ROBOT_OPTIONAL = frozenset({Kind.SING, Kind.TUTE, Kind.CAPOTE, Kind.CLAIM, Kind.EXCHANGE})


def _robot_rng(table: Table, round_: Round, seat: int) -> random.Random:
    return random.Random(f"{table.seed}:{table.deal_no}:{len(round_.actions)}:{seat}")


def _replay(table: Table, actions: Iterable[Action]) -> None:
    """The deal in play, rebuilt from the table's seed and its actions (the log)."""
    if table.status is not Status.PLAYING:
        return
    if table.game is None:
        raise ValueError("a table in play without its game")
    table.round = Round(table.game.deal_for(table.deal_rng()))
    for action in actions:
        table.round.apply(action)


def _action(raw: str) -> Action:
    return action_from_json(json.loads(raw))


def _points(card: int) -> int:
    return POINTS[card]


def _illegal_params(exc: IllegalActionError) -> dict[str, Any]:
    return {k: v for k, v in exc.params.items() if isinstance(v, int)}
