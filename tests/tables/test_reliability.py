"""What the table service does when things go wrong: a save the database refuses, a table
that cannot be restored, members who all walk away, clicks that race, a shutdown, a full
disk. Time is simulated (the service's ``clock`` and ``sleep``): nothing here waits on the
wall clock, and nothing depends on how fast the machine is.

The database refuses writes on demand in one of two ways (``FAULTS``), both real SQLite
errors through the real transaction code:

- ``full``: every COMMIT that would write something is refused, as on a full disk in WAL
  mode (the statements run in the page cache; the COMMIT cannot append to the log). A
  transaction that changed nothing still commits, as it does on a full disk.
- ``locked``: another connection holds the write lock (a backup, a second process): every
  write transaction is refused at its BEGIN with "database is locked".

The last tests fill a real (tmpfs) disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import random
import secrets
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Action, Kind, SeatView, Variant, parse_options
from bot.storage import Database, ledger, open_database
from bot.storage import tables as repo
from bot.storage.members import ensure_member
from bot.storage.settings import update_settings
from bot.tables.errors import SaveFailed, TableError
from bot.tables.model import Status, Table
from bot.tables.service import (
    RETRY_FIRST,
    RETRY_MOST,
    LostTable,
    Outcome,
    TableService,
)
from bot.tables.views import Show
from tests.tables._play import opened

from ._checks import dump

GUILD = 1
CHANNEL = 2
START = 1000
"""Every member's starting chips."""
BET = 100
ROBOT_DELAY = 0.001
INSTANT = 5.0
"""A wait up to this long (a robot's, with a member's chance to sing) passes at once."""
IDLE = 600.0
"""How long a paused game waits for a member (the service's ``idle_timeout``)."""
LOBBY = 900.0


# ----------------------------------------------------------------------------- doubles


class SimTime:
    """The service's clock and sleep, in simulated time. A wait up to ``INSTANT`` seconds
    passes at once (without moving the clock); a longer one (a member's turn, a lobby, a
    pause, a retry after a failed save) lasts until ``advance`` moves the clock to its end.
    ``pause`` holds every wait, short ones included, until ``resume``. ``delays`` are the
    waits asked for, in order."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.delays: list[float] = []
        self.parked: dict[asyncio.Task[Any], tuple[float, asyncio.Future[None]]] = {}
        self.gated: set[asyncio.Task[Any]] = set()
        self.on_sleep: Callable[[asyncio.Task[Any]], None] | None = None
        """Told which task is about to wait (each wait, as it is asked for)."""
        self._running = asyncio.Event()
        self._running.set()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.delays.append(delay)
        task = asyncio.current_task()
        assert task is not None
        if self.on_sleep is not None:
            self.on_sleep(task)
        if not self._running.is_set():
            self.gated.add(task)
            try:
                await self._running.wait()
            finally:
                self.gated.discard(task)
        if delay <= INSTANT:
            await asyncio.sleep(0)
            return
        wake = asyncio.get_running_loop().create_future()
        self.parked[task] = (self.now + delay, wake)
        try:
            await wake
        finally:
            self.parked.pop(task, None)

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()
        self.gated.clear()  # (they run on now)

    def advance(self, seconds: float) -> None:
        """Move the clock; the waits that end by then end."""
        self.now += seconds
        for task, (when, wake) in list(self.parked.items()):
            if when <= self.now + 1e-6:
                del self.parked[task]
                if not wake.done():
                    wake.set_result(None)

    def wake(self, task: asyncio.Task[Any]) -> None:
        """End a wait early, the clock where it is (a clock that runs early)."""
        _, wake = self.parked.pop(task)
        wake.set_result(None)

    def waiting(self, task: asyncio.Task[Any]) -> bool:
        return task in self.parked or task in self.gated

    def busy(self, service: TableService) -> bool:
        locks = service._locks  # pyright: ignore[reportPrivateUsage]
        timers = service._timers  # pyright: ignore[reportPrivateUsage]
        for table_id in list(service.tables):
            lock = locks.get(table_id)
            if lock is not None and lock.locked():
                return True
            timer = timers.get(table_id)
            if timer is not None and not timer.done() and not self.waiting(timer):
                return True
        return False

    async def quiet(self, service: TableService) -> None:
        """Until every table waits: for a member, for the clock, or held by ``pause``.
        (The loop's time bounds a hang; it never decides an outcome.)"""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while self.busy(service):
            if loop.time() > deadline:
                raise AssertionError("the tables never settled")
            await asyncio.sleep(0.001)


class Recorder:
    """A presenter that remembers what it was told, and each table's log as it showed it."""

    def __init__(self) -> None:
        self.announced: list[tuple[int, str]] = []
        self.logs: list[list[tuple[str, dict[str, Any]]]] = []
        self.lost: list[LostTable] = []

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        self.announced.extend((show.table.id, a.key) for a in show.announce)
        self.logs.append([(e.key, dict(e.params)) for e in show.table.log])

    async def table_lost(self, lost: LostTable) -> None:
        self.lost.append(lost)

    def keys(self, table_id: int) -> list[str]:
        return [key for tid, key in self.announced if tid == table_id]


def plain_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    """A robot that thinks in no time: on its turn a card (a bid, a pass) at random, from the
    seeded ``rng`` the service gives it; out of turn nothing."""
    if view.turn != view.seat:
        return None
    plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
    return rng.choice(plays) if plays else None


@pytest.fixture(autouse=True)
def same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables' seeds (their shuffles) come from a seeded generator: every run deals the
    same cards."""
    monkeypatch.setattr(secrets, "randbits", random.Random(20260101).getrandbits)


@dataclass
class Env:
    """A database file, simulated time, a recording presenter and the service on them."""

    db: Database
    path: Path
    time: SimTime = field(default_factory=SimTime)
    presenter: Recorder = field(default_factory=Recorder)
    services: list[TableService] = field(default_factory=list[TableService])
    crashing: bool = False
    """Every second robot decision fails (the first one's card is in memory by then)."""
    decisions: int = 0

    def __post_init__(self) -> None:
        self.service = self.new_service()

    def robot(self, view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
        self.decisions += 1
        if self.crashing and self.decisions % 2 == 0:
            raise RuntimeError("the robot failed")
        return plain_robot(view, level, rng, budget)

    def new_service(self, presenter: Recorder | None = None) -> TableService:
        service = TableService(
            self.db,
            presenter or self.presenter,
            clock=self.time,
            robot_delay=ROBOT_DELAY,
            lobby_timeout=LOBBY,
            idle_timeout=IDLE,
            robot=self.robot,
            sleep=self.time.sleep,
        )
        self.services.append(service)
        return service

    async def open(
        self,
        host: int = 10,
        *,
        members: tuple[int, ...] = (),
        variant: Variant = Variant.INDIVIDUAL,
        bet: int = 0,
        turn_time: int = 3600,
        start: bool = False,
        max_tables: int = 10,
    ) -> Table:
        """A table opened by ``host``, the ``members`` seated; started (robots in the other
        seats) and played by the robots up to a member's turn when ``start``."""
        service = self.service
        table = await opened(
            service,
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=host,
            host_name=f"user{host}",
            variant=variant,
            options=parse_options(variant, {"bet": bet, "turn_time": turn_time}),
            language="en",
            max_tables=max_tables,
        )
        for user in members:
            await service.join(table.id, user, f"user{user}")
        if start:
            await service.start(table.id, host)
            await self.time.quiet(service)
        return table

    async def stop_clocks(self, service: TableService) -> None:
        timers = list(service._timers.values())  # pyright: ignore[reportPrivateUsage]
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    async def close(self) -> None:
        for service in self.services:
            await self.stop_clocks(service)
        await self.db.close()


async def new_env(path: Path) -> Env:
    db = await open_database(path)
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, starting_chips=START)
    return Env(db, path)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await new_env(tmp_path / "tute.db")
    try:
        yield environment
    finally:
        await environment.close()


# ------------------------------------------------------------------------------ faults


class DiskFull:
    """Every COMMIT of a transaction that changed something is interrupted (SQLite's
    progress handler), as a full disk refuses it; reads and empty transactions go on."""

    def __init__(self, env: Env) -> None:
        self.db = env.db
        self.statement = ""
        self.changes_at_begin: int | None = None
        self.refused = 0

    def trace(self, sql: str) -> None:
        self.statement = sql.lstrip().upper()
        if self.statement.startswith("BEGIN"):
            self.changes_at_begin = self.db.connection.total_changes

    def progress(self) -> int:
        if (
            self.statement.startswith("COMMIT")
            and self.changes_at_begin is not None
            and self.db.connection.total_changes != self.changes_at_begin
        ):
            self.refused += 1
            return 1
        return 0

    async def start(self) -> None:
        await self.db.connection.set_trace_callback(self.trace)
        await self.db.connection.set_progress_handler(self.progress, 1)

    async def stop(self) -> None:
        # None removes them (sqlite3 takes it; aiosqlite's hints do not say so)
        await self.db.connection.set_progress_handler(None, 1)  # pyright: ignore[reportArgumentType]
        await self.db.connection.set_trace_callback(None)  # pyright: ignore[reportArgumentType]


class Locked:
    """Another connection to the file holds the write lock; the service's connection stops
    waiting for it (``busy_timeout`` 0 instead of 5 s), so each write is refused at once."""

    def __init__(self, env: Env) -> None:
        self.db = env.db
        self.path = env.path
        self.holder: sqlite3.Connection | None = None
        self.refused = 0

    async def start(self) -> None:
        await self.db.fetchall("PRAGMA busy_timeout = 0")
        self.holder = sqlite3.connect(self.path, isolation_level=None)
        self.holder.execute("BEGIN IMMEDIATE")

    async def stop(self) -> None:
        assert self.holder is not None
        self.holder.execute("ROLLBACK")
        self.holder.close()
        await self.db.fetchall("PRAGMA busy_timeout = 5000")


FAULTS: dict[str, Callable[[Env], DiskFull | Locked]] = {"full": DiskFull, "locked": Locked}


@contextlib.asynccontextmanager
async def failing(env: Env, kind: str) -> AsyncIterator[DiskFull | Locked]:
    fault = FAULTS[kind](env)
    await fault.start()
    try:
        yield fault
    finally:
        await fault.stop()


@contextlib.asynccontextmanager
async def clock_failing(env: Env, kind: str) -> AsyncIterator[None]:
    """A fault of ``FAULTS``, or ``robot``: a robot's decision fails mid-run."""
    if kind != "robot":
        async with failing(env, kind):
            yield
        return
    env.crashing = True
    try:
        yield
    finally:
        env.crashing = False


# ----------------------------------------------------------------------------- helpers


async def check_log(db: Database) -> None:
    """Each deal's action log is numbered 0, 1, 2... without a gap."""
    seqs: dict[tuple[int, int], list[int]] = {}
    for table_id, deal_no, seq in await db.fetchall(
        "SELECT table_id, deal_no, seq FROM actions ORDER BY table_id, deal_no, seq"
    ):
        seqs.setdefault((table_id, deal_no), []).append(seq)
    for (table_id, deal_no), found in seqs.items():
        assert found == list(range(len(found))), f"table {table_id} deal {deal_no}: {found}"


async def check_memory_is_the_log(db: Database, table: Table) -> None:
    """The deal in memory is the deal the log replays."""
    assert table.deal is not None
    logged = await repo.deal_actions(db, table.id, table.deal_no)
    assert [json.loads(raw) for raw in logged] == [a.to_json() for a in table.deal.actions]


async def check_chips(db: Database) -> None:
    audit = await ledger.audit(db, GUILD)
    assert audit.balanced, audit


def member_on_turn(table: Table) -> tuple[int, Action]:
    """The member whose turn it is, and a card (or bid, or pass) they may play."""
    deal = table.deal
    assert deal is not None and not deal.finished
    seat = deal.turn
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user_id is not None and not occupant.robot_plays, (
        f"seat {seat} is not a member's turn"
    )
    plays = [
        a
        for a in deal.legal_actions()
        if a.seat == seat and a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)
    ]
    return occupant.user_id, plays[0]


async def act(service: TableService, table: Table, user: int, action: Action) -> Outcome:
    deal = table.deal
    assert deal is not None
    return await service.act(
        table.id, user, action, deal_no=table.deal_no, trick_no=len(deal.tricks)
    )


async def play_out(env: Env, table: Table) -> None:
    """The members play their turns (the robots theirs) until the game ends."""
    for _ in range(1000):
        await env.time.quiet(env.service)
        if table.status is not Status.PLAYING:
            return
        user, action = member_on_turn(table)
        await act(env.service, table, user, action)
    raise AssertionError("the game never ended")


async def until_paused(env: Env, table: Table) -> None:
    """Let each member's turn run out (the clock moved to its end) until the game pauses,
    everyone away."""
    for _ in range(100):
        await env.time.quiet(env.service)
        if table.paused_until is not None:
            return
        member_on_turn(table)  # nothing else waits on a member
        assert table.turn_deadline is not None
        env.time.advance(table.turn_deadline - env.time.now)
    raise AssertionError("the game never paused")


def table_log(table: Table) -> list[tuple[str, dict[str, Any]]]:
    return [(e.key, dict(e.params)) for e in table.log]


def trick_entries(entries: list[tuple[str, dict[str, Any]]]) -> list[list[int]]:
    return [list(params["cards"]) for key, params in entries if key == "tables.log.trick"]


def private_state(service: TableService, table_id: int) -> dict[str, bool]:
    """Where the service keeps a table besides ``tables``."""
    return {
        "lock": table_id in service._locks,  # pyright: ignore[reportPrivateUsage]
        "timer": table_id in service._timers,  # pyright: ignore[reportPrivateUsage]
        "saved": table_id in service._saved,  # pyright: ignore[reportPrivateUsage]
        "retries": table_id in service._retries,  # pyright: ignore[reportPrivateUsage]
        "declined": table_id in service._declined,  # pyright: ignore[reportPrivateUsage]
    }


def check_gone(service: TableService, table: Table) -> None:
    """A table that no longer plays is out of memory: its buttons answer "gone"."""
    assert not table.status.is_open
    assert table.id not in service.tables
    assert not any(private_state(service, table.id).values()), private_state(service, table.id)
    with pytest.raises(TableError) as gone:
        service.get(table.id)
    assert gone.value.key == "gone"


# ------------------------------------------------------- 1. a failed save changes nothing


@dataclass
class Click:
    """A user's request at a prepared table (None: ``open_table``, no table yet), and what
    must still hold in memory when its save fails."""

    table: Table | None
    call: Callable[[], Awaitable[object]]
    unchanged: Callable[[], None] = lambda: None


async def click_open(env: Env) -> Click:
    async def call() -> object:
        return await env.open(30)

    return Click(None, call)


async def click_join(env: Env) -> Click:
    table = await env.open(10)

    def unchanged() -> None:
        assert table.seat_of(11) is None and table.free_seats() == [1, 2, 3]

    return Click(table, lambda: env.service.join(table.id, 11, "user11"), unchanged)


async def click_join_with_bet(env: Env) -> Click:
    """A member the server has never seen (their starting chips are written first) sits at a
    table with a bet."""
    table = await env.open(10, bet=BET)

    def unchanged() -> None:
        assert table.seat_of(12) is None

    return Click(table, lambda: env.service.join(table.id, 12, "user12"), unchanged)


async def click_start(env: Env) -> Click:
    """(Both members have chips already: what fails is the start's own save.)"""
    table = await env.open(10, members=(11,), bet=BET)
    async with env.db.transaction() as conn:
        await ensure_member(conn, GUILD, 10, START, env.time.now)

    def unchanged() -> None:
        assert table.status is Status.LOBBY and table.deal is None
        assert table.free_seats() == [2, 3] and not table.stakes

    return Click(table, lambda: env.service.start(table.id, 10), unchanged)


async def click_leave_lobby(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET)

    def unchanged() -> None:
        assert table.seat_of(11) == 1

    return Click(table, lambda: env.service.leave(table.id, 11, lobby=True), unchanged)


async def click_last_leaves_lobby(env: Env) -> Click:
    table = await env.open(10)

    def unchanged() -> None:
        assert table.status is Status.LOBBY and table.seat_of(10) == 0
        assert table.id in env.service.tables

    return Click(table, lambda: env.service.leave(table.id, 10, lobby=True), unchanged)


async def click_leave_game(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)

    def unchanged() -> None:
        assert table.seat_of(11) == 1 and table.status is Status.PLAYING

    return Click(table, lambda: env.service.leave(table.id, 11), unchanged)


async def click_abandon_game(env: Env) -> Click:
    table = await env.open(10, bet=BET, start=True)

    def unchanged() -> None:
        assert table.seat_of(10) == 0 and table.status is Status.PLAYING
        assert table.id in env.service.tables

    return Click(table, lambda: env.service.leave(table.id, 10), unchanged)


async def click_vote(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)

    def unchanged() -> None:
        assert table.cancel_votes == []

    return Click(table, lambda: env.service.vote_cancel(table.id, 10), unchanged)


async def click_last_vote(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)
    await env.service.vote_cancel(table.id, 11)

    def unchanged() -> None:
        assert table.cancel_votes == [11] and table.status is Status.PLAYING

    return Click(table, lambda: env.service.vote_cancel(table.id, 10), unchanged)


async def click_im_back(env: Env) -> Click:
    table = await env.open(10, bet=BET, turn_time=10, start=True)
    await until_paused(env, table)
    paused_until = table.paused_until

    def unchanged() -> None:
        occupant = table.seats[0]
        assert occupant is not None and occupant.away and table.paused_until == paused_until

    return Click(table, lambda: env.service.im_back(table.id, 10), unchanged)


async def click_card(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)
    deal = table.deal
    assert deal is not None
    user, card = member_on_turn(table)
    played = list(deal.actions)

    def unchanged() -> None:
        assert table.deal is not None and table.deal.actions == played
        assert card in table.deal.legal_actions()

    return Click(table, lambda: act(env.service, table, user, card), unchanged)


CLICKS: dict[str, Callable[[Env], Awaitable[Click]]] = {
    "open a table": click_open,
    "join": click_join,
    "join a table with a bet (a new member)": click_join_with_bet,
    "start": click_start,
    "leave the lobby": click_leave_lobby,
    "the last member leaves the lobby": click_last_leaves_lobby,
    "leave a game": click_leave_game,
    "the only member leaves a game": click_abandon_game,
    "vote to cancel": click_vote,
    "the vote that cancels": click_last_vote,
    "I'm back": click_im_back,
    "play a card": click_card,
}


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("click", list(CLICKS))
async def test_a_save_that_fails_leaves_the_table_as_it_was(
    env: Env, click: str, fault: str
) -> None:
    service = env.service
    prepared = await CLICKS[click](env)
    await env.time.quiet(service)
    table = prepared.table
    tables_before = dict(service.tables)
    state = table.state_json() if table is not None else None
    before = await dump(env.db)

    async with failing(env, fault) as refusing:
        with pytest.raises(SaveFailed) as refused:
            await prepared.call()
        assert refusing.refused or fault == "locked", "the fault refused nothing"
        assert refused.value.key == "save_failed" and isinstance(refused.value, TableError)
        assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
        await env.time.quiet(service)
        # in memory: the table as it was, nothing more, nothing less
        assert service.tables == tables_before
        if table is not None:
            assert service.get(table.id) is table
            assert table.state_json() == state
            prepared.unchanged()
        # in the file: nothing at all
        assert await dump(env.db) == before
    await check_log(env.db)

    # the fault lifted, the same click does it
    await prepared.call()
    await env.time.quiet(service)
    assert await dump(env.db) != before
    await check_log(env.db)
    await check_chips(env.db)
    for open_table in service.tables.values():
        if open_table.status is Status.PLAYING:
            await check_memory_is_the_log(env.db, open_table)
    if table is None:
        assert len(service.tables) == len(tables_before) + 1
    else:
        assert table.state_json() != state


# ------------------------------------------------- 2. the robots' clock tries again, later


@pytest.mark.parametrize("fault", [*FAULTS, "robot"])
async def test_robots_whose_change_fails_try_again_later_and_play_on(env: Env, fault: str) -> None:
    """The robots' run fails (its save refused, or a robot's decision after another's card):
    the table goes back to its last save, and its clock tries again later, and later."""
    service, time = env.service, env.time
    table = await env.open(10, bet=BET, start=True)  # the member leads; three robots follow
    timers = service._timers  # pyright: ignore[reportPrivateUsage]
    user, card = member_on_turn(table)
    time.pause()
    await act(service, table, user, card)
    await time.quiet(service)  # the robots' clock, held before its wait
    assert table.deal is not None
    played, state, before = list(table.deal.actions), table.state_json(), await dump(env.db)
    backoff = [min(RETRY_FIRST * 2**n, RETRY_MOST) for n in range(8)]
    assert backoff == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]

    # every wait is the table's own clock, the one the service holds for it (a table is
    # never left without one, not even between two tries)
    unknown: list[asyncio.Task[Any]] = []
    time.on_sleep = lambda task: None if timers.get(table.id) is task else unknown.append(task)
    async with clock_failing(env, fault):
        mark = len(time.delays)
        time.resume()
        # 1, 2 and 4 seconds pass at once; each longer wait until the clock gets there
        for tries in range(4, len(backoff) + 1):
            await time.quiet(service)
            assert time.delays[mark:] == backoff[:tries], "tries again, later each time"
            timer = timers.get(table.id)
            assert timer is not None and not timer.done(), "a table left without a clock"
            assert timer in time.parked
            # (a failed change puts back the table's deal as saved: a new Deal)
            assert table.deal is not None and table.deal.actions == played
            assert table.state_json() == state
            assert await dump(env.db) == before
            time.advance(time.delays[-1])
        await time.quiet(service)
        assert time.delays[mark:] == [*backoff, RETRY_MOST], "at most a minute apart"
        assert not unknown, "a wait that was not the table's clock"

    time.advance(RETRY_MOST)
    await time.quiet(service)
    assert table.deal is not None and len(table.deal.actions) > len(played), "they play on"
    assert table.id not in service._retries  # pyright: ignore[reportPrivateUsage]
    await check_memory_is_the_log(env.db, table)
    await play_out(env, table)
    assert table.status is Status.FINISHED
    await check_log(env.db)
    await check_chips(env.db)
    assert table.deal is not None
    tricks = [list(t.cards) for t in table.deal.tricks]
    shown = trick_entries(table_log(table))
    assert shown and shown == tricks[len(tricks) - len(shown) :], "each trick logged once"


# ------------------------------------------------------- 3. a broken table is set aside


async def damage_state(path: Path, table: Table) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE tables SET state = ? WHERE id = ?", ('{"options": {', table.id))
        conn.commit()


async def damage_action(path: Path, table: Table) -> None:
    """The deal's last logged card becomes one its seat never held (another seat's)."""
    deal = table.deal
    assert deal is not None and deal.actions
    last = deal.actions[-1]
    assert last.kind is Kind.PLAY
    other = next(s for s in range(table.players) if s != last.seat and deal.hand(s))
    wrong = Action.play(last.seat, deal.hand(other)[0])
    with contextlib.closing(sqlite3.connect(path)) as conn:
        changed = conn.execute(
            "UPDATE actions SET action = ? WHERE table_id = ? AND deal_no = ? AND seq = ?",
            (json.dumps(wrong.to_json()), table.id, table.deal_no, len(deal.actions) - 1),
        ).rowcount
        conn.commit()
    assert changed == 1


DAMAGES: dict[str, Callable[[Path, Table], Awaitable[None]]] = {
    "state is not JSON": damage_state,
    "a logged card that does not replay": damage_action,
}


@pytest.mark.parametrize("damage", list(DAMAGES))
async def test_a_table_that_cannot_be_restored_is_set_aside_with_its_stakes_back(
    env: Env, damage: str
) -> None:
    service = env.service
    broken = await env.open(10, members=(11,), bet=BET)
    playing = await env.open(12, members=(13,), bet=BET, start=True)
    lobby = await env.open(14)
    await service.start(broken.id, 10)
    await env.time.quiet(service)
    user, card = member_on_turn(broken)
    await act(service, broken, user, card)
    await env.time.quiet(service)  # the robots answered: a few cards in the log
    assert (await ledger.table_state(env.db, broken.id)).stakes == {10: BET, 11: BET}
    assert playing.deal is not None
    kept = list(playing.deal.actions)

    await service.suspend()
    await env.stop_clocks(service)
    await DAMAGES[damage](env.path, broken)

    presenter = Recorder()
    restarted = env.new_service(presenter)
    env.service = restarted
    restored = await restarted.restore()
    assert sorted(t.id for t in restored) == [playing.id, lobby.id]
    assert broken.id not in restarted.tables
    row = await repo.load_table(env.db, broken.id)
    assert row is not None and row.status == Status.CANCELLED.value
    # its stakes are back; the other table in play still holds its own
    for user in (10, 11):
        assert await ledger.balance(env.db, GUILD, user) == START
    for user in (12, 13):
        assert await ledger.balance(env.db, GUILD, user) == START - BET
    assert (await ledger.table_state(env.db, broken.id)).held == 0
    assert (await ledger.table_state(env.db, playing.id)).held == 2 * BET
    await check_chips(env.db)
    assert presenter.lost == [LostTable(broken.id, GUILD, CHANNEL, {10: BET, 11: BET})]
    again = restarted.get(playing.id)
    assert again.deal is not None
    assert list(again.deal.actions) == kept
    await check_memory_is_the_log(env.db, again)

    # a second start finds the broken table set aside already: nothing twice
    another = env.new_service(presenter)
    env.service = another
    assert sorted(t.id for t in await another.restore()) == [playing.id, lobby.id]
    assert len(presenter.lost) == 1
    await check_chips(env.db)


# -------------------------------------------------------------- 4. everyone away: a pause


@pytest.mark.parametrize("ending", ["a member comes back", "nobody comes back"])
async def test_a_game_whose_members_are_all_away_pauses(env: Env, ending: str) -> None:
    service, time = env.service, env.time
    table = await env.open(10, members=(11,), bet=BET, turn_time=10, start=True)
    await until_paused(env, table)
    for seat in (0, 1):
        occupant = table.seats[seat]
        assert occupant is not None and occupant.away and occupant.missed >= 2
    assert table.paused_until == pytest.approx(time.now + IDLE)
    assert "tables.announce.paused" in env.presenter.keys(table.id)
    deal = table.deal
    assert deal is not None and not deal.finished
    played, state = list(deal.actions), table.state_json()

    # nothing moves while paused: neither with the clock nearly at its end, nor when the
    # table's clock runs early, again and again
    timers = service._timers  # pyright: ignore[reportPrivateUsage]
    for _ in range(9):
        time.advance(IDLE / 10)
        timer = timers.get(table.id)
        assert timer is not None and timer in time.parked
        time.wake(timer)
        await time.quiet(service)
        again = timers.get(table.id)
        assert again is not None and again is not timer and again in time.parked
        assert deal.actions == played and table.state_json() == state
    assert table.status is Status.PLAYING

    if ending == "a member comes back":
        outcome = await service.im_back(table.id, 11)
        assert outcome.table.id == table.id and table.paused_until is None
        assert "tables.log.resumed" in [e.key for e in table.log]
        await time.quiet(service)
        # the robots (one for member 10, still away) play up to member 11's turn
        user, _ = member_on_turn(table)
        assert user == 11 and table.turn_deadline is not None
        assert table.status is Status.PLAYING
        await check_memory_is_the_log(env.db, table)
    else:
        time.advance(IDLE / 10)
        await time.quiet(service)
        assert table.status is Status.CANCELLED
        assert env.presenter.keys(table.id)[-1] == "tables.announce.idle_cancelled"
        for user in (10, 11):
            assert await ledger.balance(env.db, GUILD, user) == START
        assert (await ledger.table_state(env.db, table.id)).held == 0
        row = await repo.load_table(env.db, table.id)
        assert row is not None and row.status == Status.CANCELLED.value
        check_gone(service, table)
    await check_chips(env.db)
    await check_log(env.db)


# ----------------------------------------------------------------- 5. each event once


async def test_each_trick_is_logged_once(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every entry the service writes in a table's log, in order: each completed trick once,
    whoever played it (the robots play three cards after the member's, or lead)."""
    written: list[tuple[str, dict[str, Any]]] = []
    add_log = Table.add_log

    def recording(self: Table, key: str, **params: Any) -> None:
        written.append((key, params))
        add_log(self, key, **params)

    monkeypatch.setattr(Table, "add_log", recording)
    table = await env.open(10, start=True)
    await play_out(env, table)
    assert table.status is Status.FINISHED
    deal = table.deal
    assert deal is not None and deal.finished
    tricks = [list(t.cards) for t in deal.tricks]
    assert len(tricks) == 10
    assert trick_entries(written) == tricks, "each trick logged once, in order"
    for shown in [*env.presenter.logs, table_log(table)]:
        cards = trick_entries(shown)
        assert len({tuple(c) for c in cards}) == len(cards), f"a trick repeated: {shown}"


# --------------------------------------------------- 6. the only member leaves a bet game


async def test_the_only_member_who_leaves_a_game_with_a_bet_ends_it_once(env: Env) -> None:
    service = env.service
    table = await env.open(10, bet=BET, start=True)
    assert service.leave_terms(table.id, 10) == ("end", BET)
    outcome = await service.leave(table.id, 10)
    await env.time.quiet(service)
    assert table.status is Status.CANCELLED
    assert [a.key for a in outcome.announce] == ["tables.announce.abandoned_stake"]
    assert env.presenter.keys(table.id) == [], "nothing else announced"
    assert await ledger.balance(env.db, GUILD, 10) == START - BET
    assert await ledger.bank_balance(env.db, GUILD) == BET
    assert (await ledger.table_state(env.db, table.id)).held == 0
    member = await env.db.fetchall(
        "SELECT kind, amount FROM ledger WHERE table_id = ? AND account = 'member'", (table.id,)
    )
    # the stake, marked forfeited (a row of 0 chips), and nothing back
    assert [tuple(r) for r in member] == [("stake", -BET), ("forfeit", 0)]
    await check_chips(env.db)
    check_gone(service, table)


async def test_a_member_who_leaves_with_another_still_seated_leaves_a_robot(env: Env) -> None:
    service = env.service
    table = await env.open(10, members=(11,), bet=BET, start=True)
    assert service.leave_terms(table.id, 10) == ("robot", BET)
    outcome = await service.leave(table.id, 10)
    assert outcome.announce == () and table.status is Status.PLAYING
    occupant = table.seats[0]
    assert occupant is not None and occupant.left and occupant.robot_plays
    state = await ledger.table_state(env.db, table.id)
    assert state.forfeited == BET and state.stakes == {11: BET}
    await play_out(env, table)  # the game goes on, member 11 against three robots
    assert table.status is Status.FINISHED
    assert await ledger.balance(env.db, GUILD, 10) == START - BET
    await check_chips(env.db)
    check_gone(service, table)


# ---------------------------------------------------------------------------- 7. races


async def test_two_openings_at_once_for_the_same_host_open_one_table(env: Env) -> None:
    results = await asyncio.gather(env.open(10), env.open(10), return_exceptions=True)
    opened = [r for r in results if isinstance(r, Table)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(opened) == 1 and len(refused) == 1, results
    assert refused[0].key == "already_hosting"
    assert list(env.service.tables) == [opened[0].id]
    assert len(await env.db.fetchall("SELECT id FROM tables")) == 1


async def test_six_openings_at_once_keep_the_servers_limit(env: Env) -> None:
    results = await asyncio.gather(
        *(env.open(host, max_tables=2) for host in range(20, 26)), return_exceptions=True
    )
    opened = [r for r in results if isinstance(r, Table)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(opened) == 2 and len(refused) == 4, results
    assert {r.key for r in refused} == {"too_many_tables"}
    assert len(env.service.tables) == 2
    assert len(await env.db.fetchall("SELECT id FROM tables")) == 2


@pytest.mark.parametrize("when", ["while it starts", "after it started"])
async def test_a_lobby_leave_that_comes_after_the_start_forfeits_nothing(
    env: Env, when: str
) -> None:
    service = env.service
    table = await env.open(10, members=(11,), bet=BET)
    leave = service.leave(table.id, 11, lobby=True)
    if when == "while it starts":
        # the start takes the table's lock first; the leave waits for it, then is refused
        started, left = await asyncio.gather(
            service.start(table.id, 10), leave, return_exceptions=True
        )
        assert isinstance(started, Outcome), started
    else:
        await service.start(table.id, 10)
        left = await asyncio.gather(leave, return_exceptions=True)
        left = left[0]
    assert isinstance(left, TableError) and left.key == "already_started", left
    assert table.status is Status.PLAYING and table.seat_of(11) == 1
    occupant = table.seats[1]
    assert occupant is not None and not occupant.left and not occupant.robot_plays
    assert table.stakes == {10: BET, 11: BET}
    state = await ledger.table_state(env.db, table.id)
    assert state.stakes == {10: BET, 11: BET} and state.forfeited == 0
    assert await ledger.balance(env.db, GUILD, 11) == START - BET
    await check_chips(env.db)


# --------------------------------------------------------- 8. ended tables leave memory


async def end_by_playing(env: Env) -> Table:
    table = await env.open(10, variant=Variant.HABANERO, start=True)
    await play_out(env, table)
    assert table.status is Status.FINISHED
    return table


async def end_by_closing(env: Env) -> Table:
    table = await env.open(10)
    await env.service.close(table.id, 10)
    return table


async def end_by_expiry(env: Env) -> Table:
    table = await env.open(10)
    await env.time.quiet(env.service)
    env.time.advance(LOBBY)
    await env.time.quiet(env.service)
    assert table.status is Status.CLOSED
    assert env.presenter.keys(table.id) == ["tables.announce.expired"]
    return table


async def end_by_emptying(env: Env) -> Table:
    table = await env.open(10)
    await env.service.leave(table.id, 10, lobby=True)
    return table


async def end_by_discarding(env: Env) -> Table:
    table = await env.open(10)
    await env.service.discard(table.id)
    return table


async def end_by_votes(env: Env) -> Table:
    table = await env.open(10, members=(11,), bet=BET, start=True)
    await env.service.vote_cancel(table.id, 10)
    await env.service.vote_cancel(table.id, 11)
    return table


async def end_by_abandoning(env: Env) -> Table:
    table = await env.open(10, bet=BET, start=True)
    await env.service.leave(table.id, 10)
    return table


async def end_by_idling(env: Env) -> Table:
    table = await env.open(10, turn_time=10, start=True)
    await until_paused(env, table)
    env.time.advance(IDLE)
    return table


ENDINGS: dict[str, Callable[[Env], Awaitable[Table]]] = {
    "game over": end_by_playing,
    "closed by the host": end_by_closing,
    "lobby expired": end_by_expiry,
    "lobby emptied": end_by_emptying,
    "lobby discarded": end_by_discarding,
    "cancelled by vote": end_by_votes,
    "abandoned": end_by_abandoning,
    "cancelled while paused": end_by_idling,
}


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_a_table_that_ended_leaves_memory(env: Env, ending: str) -> None:
    service = env.service
    table = await ENDINGS[ending](env)
    await env.time.quiet(service)
    check_gone(service, table)
    # a click that still comes from its message is answered, and leaves nothing behind
    with pytest.raises(TableError) as gone:
        await service.join(table.id, 99, "late")
    assert gone.value.key == "gone"
    assert not any(private_state(service, table.id).values()), private_state(service, table.id)
    await check_chips(env.db)


# -------------------------------------------------------------------------- 9. shutdown

SUSPENDED = 200


async def test_suspend_keeps_every_turns_time_at_once(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hundred tables, each waiting for its member: ``suspend`` saves each one's time
    left, every table at once. One table's lock is held by a task that lets go only once
    every other table is saved: a suspend that went table by table would wait forever."""
    service, time = env.service, env.time
    turn_time = 600
    tables = [
        await env.open(
            1000 + n,
            variant=Variant.HABANERO,
            turn_time=turn_time,
            start=True,
            max_tables=SUSPENDED,
        )
        for n in range(SUSPENDED)
    ]
    for table in tables:
        member_on_turn(table)
        assert table.turn_deadline == pytest.approx(time.now + turn_time)
    time.advance(7)
    held = tables[0]
    assert next(iter(service.tables)) == held.id, "the held table comes first"
    others = {t.id for t in tables[1:]}

    saved: list[int] = []
    all_saved = asyncio.Event()
    save_progress = repo.save_progress

    async def saving(db: Database, table_id: int, **kwargs: Any) -> None:
        await save_progress(db, table_id, **kwargs)
        saved.append(table_id)
        if others <= set(saved):
            all_saved.set()

    monkeypatch.setattr(repo, "save_progress", saving)
    holding = asyncio.Event()
    saved_before_release: list[int] = []

    async def hold() -> None:
        async with service.lock(held.id):
            holding.set()
            await all_saved.wait()
            saved_before_release.extend(saved)

    holder = asyncio.create_task(hold())
    await holding.wait()
    batches = env.db.counts.batches
    suspending = asyncio.create_task(service.suspend())
    done, _ = await asyncio.wait({suspending}, timeout=30)  # (bounds a hang only)
    if not done:
        suspending.cancel()
        holder.cancel()
        await asyncio.gather(suspending, holder, return_exceptions=True)
        raise AssertionError(f"suspend waited table by table: {len(saved)} saved")
    await holder
    assert set(saved_before_release) == others, "the others were saved before the release"
    assert saved.count(held.id) == 1 and saved[-1] == held.id
    assert env.db.counts.batches - batches < 10, "their saves shared batches"
    assert not service._timers  # pyright: ignore[reportPrivateUsage]
    for table in tables:
        row = await repo.load_table(env.db, table.id)
        assert row is not None and row.status == Status.PLAYING.value
        assert json.loads(row.state)["turn_left"] == pytest.approx(turn_time - 7)


# ----------------------------------------------------------------- 10. a real full disk


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs of its own (skipped where mounting is not allowed)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as error:
        pytest.skip(f"no mount command here ({error}): the full-disk test needs a tmpfs")
    if mounted.returncode != 0:
        pytest.skip(
            "cannot mount a tmpfs here (it needs root or CAP_SYS_ADMIN): "
            + (mounted.stderr.strip() or f"exit {mounted.returncode}")
        )
    try:
        yield disk
    finally:
        if subprocess.run(["umount", str(disk)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(disk)], check=False)


def fill_up(disk: Path) -> Path:
    """Write a file until the disk has not a byte left."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            block = bytes(size)
            while True:
                try:
                    os.write(fd, block)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)
    return filler


@pytest.mark.parametrize("click", ["play a card", "join a table with a bet (a new member)"])
async def test_a_full_disk_refuses_the_save_and_nothing_changes(
    small_disk: Path, click: str
) -> None:
    env = await new_env(small_disk / "tute.db")
    try:
        prepared = await CLICKS[click](env)
        table = prepared.table
        assert table is not None
        await env.time.quiet(env.service)
        # the log copied into the file and emptied: the next COMMIT must grow it
        (busy, *_), *_ = await env.db.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        assert busy == 0
        state, before = table.state_json(), await dump(env.db)
        filler = fill_up(small_disk)
        with pytest.raises(SaveFailed) as refused:
            await prepared.call()
        cause = refused.value.__cause__
        assert isinstance(cause, sqlite3.OperationalError), cause
        assert "database or disk is full" in str(cause)
        await env.time.quiet(env.service)
        assert table.state_json() == state
        prepared.unchanged()
        assert await dump(env.db) == before

        filler.unlink()
        await prepared.call()
        await env.time.quiet(env.service)
        assert table.state_json() != state
        await check_log(env.db)
        await check_chips(env.db)
        if table.status is Status.PLAYING:
            await check_memory_is_the_log(env.db, table)
    finally:
        await env.close()
