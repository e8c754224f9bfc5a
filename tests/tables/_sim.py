"""The table service on simulated time, for the tests of what it does when things go wrong:
its ``clock`` and ``sleep`` are simulated (nothing waits on the wall clock, and nothing
depends on how fast the machine is), its presenter records what it was told, its robots
think in no time.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.ai import Level
from bot.engine import Action, Kind, SeatView, Variant, parse_options
from bot.storage import Database, ledger
from bot.storage import tables as repo
from bot.storage.settings import update_settings
from bot.tables.announcement import Said
from bot.tables.errors import TableError
from bot.tables.events import Happened, LogEvent
from bot.tables.model import Status, Table
from bot.tables.runtime import Robot
from bot.tables.service import LostTable, Outcome, TableService
from bot.tables.views import Show
from tests.migrated import open_migrated
from tests.runtime import seeds, table_runtime
from tests.tables._play import opened

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
        locks = service.locks
        timers = service.clocks.timers
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
        self.announced: list[tuple[int, Said]] = []
        self.logs: list[list[LogEvent]] = []
        self.lost: list[LostTable] = []

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        self.announced.extend((show.table.id, a.what) for a in show.announce)
        self.logs.append(list(show.table.log))

    async def table_lost(self, lost: LostTable) -> None:
        self.lost.append(lost)

    def said(self, table_id: int) -> list[Said]:
        """What was announced at the table, in order."""
        return [what for tid, what in self.announced if tid == table_id]


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
    seeds().draw_from(random.Random(20260101).getrandbits)


@dataclass
class Env:
    """A database file, simulated time, a recording presenter and the service on them."""

    db: Database
    path: Path
    time: SimTime = field(default_factory=SimTime)
    presenter: Recorder = field(default_factory=Recorder)
    services: list[TableService] = field(default_factory=list[TableService])
    plays: Robot = plain_robot
    """How its robots choose (a test may bring its own)."""
    crashing: bool = False
    """Every second robot decision fails (the first one's card is in memory by then)."""
    decisions: int = 0

    def __post_init__(self) -> None:
        self.service = self.new_service()

    def robot(
        self, view: SeatView, level: Level, rng: random.Random, budget: float
    ) -> Action | None:
        """The service's robot: the test's own choice (``plays``), failing every second
        time while ``crashing``."""
        self.decisions += 1
        if self.crashing and self.decisions % 2 == 0:
            raise RuntimeError("the robot failed")
        return self.plays(view, level, rng, budget)

    def new_service(self, presenter: Recorder | None = None) -> TableService:
        service = TableService(
            self.db,
            (presenter or self.presenter,),
            table_runtime(self.time, sleep=self.time.sleep, robot=self.robot),
            robot_delay=ROBOT_DELAY,
            lobby_timeout=LOBBY,
            idle_timeout=IDLE,
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
        timers = list(service.clocks.timers.values())
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    async def close(self) -> None:
        for service in self.services:
            await self.stop_clocks(service)
        await self.db.close()


async def new_env(path: Path) -> Env:
    db = await open_migrated(path)
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


def table_log(table: Table) -> list[LogEvent]:
    return list(table.log)


def trick_entries(entries: list[LogEvent]) -> list[list[int]]:
    return [list(e.cards) for e in entries if e.what is Happened.TRICK]


def private_state(service: TableService, table_id: int) -> dict[str, bool]:
    """Where the service keeps a table besides ``tables``."""
    return {
        "lock": table_id in service.locks,
        "timer": table_id in service.clocks.timers,
        "saved": table_id in service.store.saved,
        "retries": table_id in service.clocks.retries,
        "declined": table_id in service.robots.declined,
    }


def check_gone(service: TableService, table: Table) -> None:
    """A table that no longer plays is out of memory: its buttons answer "gone"."""
    assert not table.status.is_open
    assert table.id not in service.tables
    assert not any(private_state(service, table.id).values()), private_state(service, table.id)
    with pytest.raises(TableError) as gone:
        service.get(table.id)
    assert gone.value.key == "gone"
