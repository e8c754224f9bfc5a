"""Tables played through the service as people play them, for the durability and standings
tests: members choose legal actions at random (from a seeded ``random.Random``), some leave,
some vote to cancel; robots answer at once.

Nothing here waits on a real clock: robots' short waits pass at once, and a human's turn
clock or a lobby's expiry never runs out (other tests cover those).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Action, Kind, Options, SeatView, Variant, parse_options
from bot.storage import Database
from bot.tables.errors import TableError
from bot.tables.model import DEFAULT_ROBOT, Level, Status, Table
from bot.tables.service import LostTable, TableService
from bot.tables.views import Show
from tests.runtime import table_runtime

GUILD = 1
CHANNEL = 2

ROBOT_DELAY = 0.001
"""Robots wait (through the service's ``sleep``), so that ``Timers.pause`` holds them too."""
ROBOT_WAIT = 5.0
"""The longest a robot waits before it acts (its delay and a human's chance to sing)."""

_DECLARE = frozenset({Kind.SING, Kind.TUTE, Kind.EXCHANGE})
_RISKY = frozenset({Kind.CAPOTE, Kind.CLAIM, Kind.RESIGN})


class NullPresenter:
    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        return None

    async def table_lost(self, lost: LostTable) -> None:
        return None


class Clock:
    """Simulated time: it moves only when a test moves it."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def pick(actions: list[Action], rng: random.Random) -> Action:
    """A player's choice among legal actions: mostly a card (or a bid or a pass), often a
    cante when there is one, rarely a capote, a claim or a resignation."""
    risky = [a for a in actions if a.kind in _RISKY]
    declare = [a for a in actions if a.kind in _DECLARE]
    bids = [a for a in actions if a.kind is Kind.BID]
    plain = [a for a in actions if a.kind in (Kind.PLAY, Kind.PASS)]
    roll = rng.random()
    if risky and roll < 0.02:
        return rng.choice(risky)
    if declare and roll < 0.5:
        return rng.choice(declare)
    if bids and rng.random() < 0.3:
        return bids[0] if rng.random() < 0.7 else rng.choice(bids)
    return rng.choice(plain or actions)


def instant_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    """A robot that needs no time to think: on its turn, any legal action; out of its turn,
    nothing (it lets its partner's cante pass)."""
    if view.turn != view.seat or not view.legal:
        return None
    return pick(list(view.legal), rng)


class Timers:
    """The service's ``sleep``: a robot's wait passes at once; a longer wait (a human's turn
    clock, a lobby's expiry) lasts until the clock is cancelled. ``quiet`` waits until every
    table is waiting for a person. With ``park_all`` every wait lasts: nothing moves."""

    def __init__(self, *, park_all: bool = False) -> None:
        self.park_all = park_all
        self.parked: set[asyncio.Task[Any]] = set()
        self._changed = asyncio.Event()
        self._running = asyncio.Event()
        self._running.set()

    def pause(self) -> None:
        """Hold every clock where it is (robots included) until ``resume``."""
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    async def stop(self) -> None:
        """Cancel every waiting clock."""
        tasks = list(self.parked)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def sleep(self, delay: float) -> None:
        await self._running.wait()
        if delay <= ROBOT_WAIT and not self.park_all:
            await asyncio.sleep(0)
            return
        task = asyncio.current_task()
        assert task is not None
        self.parked.add(task)
        self._changed.set()
        try:
            await asyncio.Event().wait()
        finally:
            self.parked.discard(task)

    def busy(self, service: TableService, table_ids: Iterable[int] | None = None) -> bool:
        ids = list(service.tables) if table_ids is None else list(table_ids)
        timers = service.clocks.timers
        for table_id in ids:
            if service.lock(table_id).locked():
                return True
            timer = timers.get(table_id)
            if timer is not None and not timer.done() and timer not in self.parked:
                return True
        return False

    async def quiet(self, service: TableService, table_ids: Iterable[int] | None = None) -> None:
        ids = None if table_ids is None else list(table_ids)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while self.busy(service, ids):
            if loop.time() > deadline:
                raise AssertionError("the robots never stopped")
            self._changed.clear()
            changed = asyncio.ensure_future(self._changed.wait())
            await asyncio.wait({changed}, timeout=0.002)
            changed.cancel()


def random_options(variant: Variant, rng: random.Random, bets: tuple[int, ...]) -> Options:
    raw: dict[str, Any] = {
        "bet": rng.choice(bets),
        "rounds": rng.choice((1, 1, 1, 2, 3)),
        "competitive": rng.random() < 0.9,
        "turn_time": 3600,
    }
    if variant is Variant.HABANERO:
        raw["target"] = rng.choice((31, 61, 101))
        raw["stock_duty"] = rng.choice(("free", "trump", "full"))
    if variant is Variant.ARRASTRADO:
        raw["plato"] = rng.random() < 0.5
        raw["deck"] = rng.choice((40, 36))
        if raw["deck"] == 40 and rng.random() < 0.4:
            raw["seats"] = 4
    if variant in (Variant.HABANERO, Variant.PAIRS) and rng.random() < 0.25:
        raw["scoring"] = "sixty-five"
        raw.pop("target", None)  # no target under sixty-five
    if rng.random() < 0.3:
        raw["allow_tute"] = rng.random() < 0.5
    if rng.random() < 0.4:  # the house rules of a seed
        raw["rules"] = rng.choice(("fournier", "online", "sixty-five"))
        if raw["rules"] in ("sixty-five", "online") and variant is Variant.HABANERO:
            raw.pop("target", None)  # no target under sixty-five, nor deal by deal
    return parse_options(variant, raw)


@dataclass
class Seen:
    """What happened at one table, as its players saw it."""

    table_id: int
    variant: Variant
    options: Options
    members: dict[int, int] = field(default_factory=dict[int, int])
    """seat -> user id of the members who sat at the start."""
    left: dict[int, int] = field(default_factory=dict[int, int])
    """user id -> the deal in play when they left."""
    voted: list[int] = field(default_factory=list[int])
    agree: bool = False
    started: bool = False


@dataclass
class Habits:
    """How often people do something other than play a card."""

    leave: float = 0.01
    vote: float = 0.01
    agree: float = 0.5
    close: float = 0.05


class Players:
    """Members of one server who open tables, sit, play, leave and vote."""

    def __init__(
        self,
        service: TableService,
        timers: Timers,
        rng: random.Random,
        users: list[int],
        *,
        bets: tuple[int, ...] = (0, 10, 50, 100),
        habits: Habits | None = None,
        guild_id: int = GUILD,
        variants: list[Variant] | None = None,
    ) -> None:
        self.service = service
        self.timers = timers
        self.rng = rng
        self.users = users
        self.bets = bets
        self.habits = habits or Habits()
        self.guild_id = guild_id
        self.variants = variants or list(Variant)
        self.seen: dict[int, Seen] = {}
        self.on_leave: Callable[[Table, int], None] | None = None
        self.on_saved: Callable[[int, int, int], None] | None = None
        """Told (table, deal, seq) of each action once the service has taken it."""

    # ------------------------------------------------------------------ lobby

    def hosts(self) -> list[int]:
        busy = {t.host_id for t in self.service.open_tables(self.guild_id)}
        return [u for u in self.users if u not in busy]

    async def open(self) -> int | None:
        """A member opens a table, others sit, robots fill it; the host starts it (or, now and
        then, closes it). Returns the table, or None when it never started."""
        hosts = self.hosts()
        if not hosts:
            return None
        rng = self.rng
        host = rng.choice(hosts)
        variant = rng.choice(self.variants)
        options = random_options(variant, rng, self.bets)
        try:
            table = await opened(
                self.service,
                guild_id=self.guild_id,
                channel_id=CHANNEL,
                host_id=host,
                host_name=f"user{host}",
                variant=variant,
                options=options,
                language="en",
            )
        except TableError as refusal:
            # another lane's table for the same host was opened while this one waited, or
            # the host's chips do not cover the bet (refused as at /tute new)
            if refusal.key not in ("already_hosting", "no_chips"):
                raise
            return None
        seen = self.seen[table.id] = Seen(table.id, variant, options)
        others = [u for u in self.users if u != host]
        rng.shuffle(others)
        for user in others[: rng.randrange(variant.players)]:
            try:
                await self.service.join(table.id, user, f"user{user}")
            except TableError as refusal:
                if refusal.key != "no_chips":  # the only refusal a member may get here
                    raise
        return await self.start(table.id, seen)

    async def start(self, table_id: int, seen: Seen | None = None) -> int | None:
        table = table_of(self.service, table_id)
        rng = self.rng
        if rng.random() < 0.5 and table.free_seats():
            await self.service.add_robot(table_id, table.host_id, rng.choice(("easy", "normal")))
        if rng.random() < self.habits.close:
            if rng.random() < 0.5:
                await self.service.close(table_id, table.host_id)
            else:
                for user in table.humans():
                    await self.service.leave(table_id, user)
            return None
        try:
            await self.service.start(table_id, table.host_id)
        except TableError as refusal:
            if refusal.key != "no_chips":
                raise
            await self.service.close(table_id, table.host_id)
            return None
        if seen is not None:
            seen.started = True
            seen.members = {
                i: s.user_id for i, s in enumerate(table.seats) if s is not None and s.user_id
            }
        return table_id

    # ------------------------------------------------------------------- play

    async def move(self, table_id: int) -> bool:
        """One thing a person does at a table in play, once the robots have answered: a
        card, a cante, a bid..., now and then leaving or a vote to cancel. False once the
        table is over."""
        await self.timers.quiet(self.service, [table_id])
        table = table_of(self.service, table_id)
        if table.status is Status.LOBBY:
            await self.start(table_id)
            return self._open(table_id)
        if table.status is not Status.PLAYING:
            return False
        deal = table.deal
        assert deal is not None
        seen = self.seen.get(table_id)
        rng = self.rng
        humans = table.humans()
        voters = [u for u in humans if u not in table.cancel_votes]
        if table.cancel_votes and voters and (seen is None or seen.agree):
            if rng.random() < 0.3:
                await self.vote(table, rng.choice(voters), seen)
                return self._open(table_id)
        elif not table.cancel_votes and rng.random() < self.habits.vote:
            if seen is not None:
                seen.agree = rng.random() < self.habits.agree
            await self.vote(table, rng.choice(humans), seen)
            return self._open(table_id)
        if rng.random() < self.habits.leave:
            await self.leave(table, rng.choice(humans), seen)
            return self._open(table_id)
        moves: list[tuple[int, Action]] = []
        for action in deal.legal_actions():
            occupant = table.seats[action.seat]
            if occupant is not None and occupant.user_id and not occupant.robot_plays:
                moves.append((occupant.user_id, action))
        assert moves, "nobody to play at a quiet table"
        if rng.random() < 0.8:
            # usually the player on turn; the others' declarations are rarer
            on_turn = [m for m in moves if m[1].seat == deal.turn]
            moves = on_turn or moves
        action = pick([a for _, a in moves], rng)
        user = next(u for u, a in moves if a == action)
        deal_no, seq = table.deal_no, len(deal.actions)
        await self.service.act(table_id, user, action, deal_no=deal_no, trick_no=len(deal.tricks))
        if self.on_saved is not None:
            self.on_saved(table_id, deal_no, seq)
        return self._open(table_id)

    async def vote(self, table: Table, user: int, seen: Seen | None) -> None:
        if self.service.vote_terms(table.id, user)[2]:
            # alone with robots past the first trick: the vote is a leave
            await self.leave(table, user, seen, vote=True)
            return
        await self.service.vote_cancel(table.id, user)
        if seen is not None:
            seen.voted.append(user)

    async def leave(
        self, table: Table, user: int, seen: Seen | None, *, vote: bool = False
    ) -> None:
        deal_no = table.deal_no
        if vote:
            await self.service.vote_cancel(table.id, user)
        else:
            await self.service.leave(table.id, user)
        if seen is not None:
            seen.left[user] = deal_no
        if self.on_leave is not None:
            self.on_leave(table, user)

    def _open(self, table_id: int) -> bool:
        return table_of(self.service, table_id).status.is_open

    async def play_out(self, table_id: int) -> None:
        """Play a table to its end."""
        while await self.move(table_id):
            pass


def make_service(db: Database, timers: Timers, clock: Callable[[], float]) -> TableService:
    """A service as the bot builds one, but with instant robots and nothing to show."""
    return TableService(
        db,
        (NullPresenter(),),
        table_runtime(clock, sleep=timers.sleep, robot=instant_robot),
        robot_delay=ROBOT_DELAY,
    )


def keep_ended(cls: type[TableService] = TableService) -> Callable[[], None]:
    """Make the service keep each table it releases from memory in ``service.kept_ended``, so
    that a test can still look at how a game ended. Returns what undoes it."""
    release = cls.release

    def keeping(self: TableService, table: Table) -> None:
        if not table.status.is_open:
            self.__dict__.setdefault("kept_ended", {})[table.id] = table
        release(self, table)

    cls.release = keeping  # type: ignore[method-assign]

    def undo() -> None:
        cls.release = release  # type: ignore[method-assign]

    return undo


def tables_of(service: TableService) -> dict[int, Table]:
    """Every table the service holds or has released (see :func:`keep_ended`)."""
    ended: dict[int, Table] = service.__dict__.get("kept_ended", {})
    return {**ended, **service.tables}


async def opened(service: TableService, **details: Any) -> Table:
    """Open a table (``TableService.open_table``) and the table itself, for a test to watch:
    the service answers with its public view."""
    return service.get((await service.open_table(**details)).id)


async def started_tables(
    service: TableService,
    count: int,
    *,
    guild_id: int,
    variant: Variant,
    options: Options,
    robot_level: Level = DEFAULT_ROBOT,
) -> list[Table]:
    """``count`` tables of one server, started, each with one member (its host, in seat 0)
    and robots of ``robot_level`` in the other seats: a busy server, for the benchmarks."""
    tables: list[Table] = []
    for n in range(count):
        table = await opened(
            service,
            guild_id=guild_id,
            channel_id=10_000 + n,
            host_id=100_000 + n,
            host_name=f"member{n}",
            variant=variant,
            options=options,
            language="en",
            max_tables=count + 1,
            robot_level=robot_level,
        )
        await service.start(table.id, table.host_id)
        tables.append(table)
    return tables


def table_of(service: TableService, table_id: int) -> Table:
    """A table the service holds, or one it released at its end."""
    found = tables_of(service).get(table_id)
    if found is None:
        raise KeyError(table_id)
    return found


def restored(table: Table, state: str) -> Table:
    """``table`` as restored from ``state`` (what ``state_json`` wrote), as after a restart."""
    return Table.from_state(
        table_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        variant=table.variant.value,
        status=table.status.value,
        state=state,
    )
