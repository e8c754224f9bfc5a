"""The bot as several processes on one PostgreSQL database (bot/tables/cluster/processes.py).

Each "process" here is a table service with its own database pool, bus connection and
presenter, as a separate ``tute-bot --shards ...`` would have: a click on a DM hand that
reaches the process without the table is played by the one holding it, and a click on its
Hint button is thought of and counted there; a process that dies mid-game has its shards
taken over, and its tables go on from the database with every action it had answered for."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace

import asyncpg
import pytest

from bot.engine import Kind, Options, Variant, parse_options, seat_view
from bot.i18n import LANGUAGES
from bot.storage import Database, leases, open_database
from bot.storage import tables as repo
from bot.storage.bus import Bus
from bot.tables.cluster import (
    CLAIM_RETRY,
    FORWARD_TIMEOUT,
    HINT_TIMEOUT,
    LEASE_TTL,
    Click,
    Cluster,
    shard_of,
)
from bot.tables.codes import encode_action
from bot.tables.errors import SaveFailed, TableError
from bot.tables.hints import hint_action, reason
from bot.tables.service import LostTable, TableService
from bot.tables.views import Show
from bot.words import hint_line
from tests.pgserver import fresh_postgres
from tests.runtime import table_runtime

from ._play import Clock, Timers, instant_robot, opened, restored

SHARDS = 2
GUILD_ON = {shard: (1000 + shard) << 22 for shard in range(SHARDS)}
"""A server on each shard: Discord puts a server on ``(id >> 22) % shards``."""
HUMAN = 555
FRIENDLY = parse_options(Variant.INDIVIDUAL, {"competitive": False})
"""A table that gives hints."""
HINT_BUDGET = 0.02
"""The hint's budget in its counted clock's seconds: a few sampled deals."""


class Recorder:
    """A presenter that keeps what it was asked to redraw."""

    def __init__(self) -> None:
        self.shown: list[tuple[Show, int | None]] = []
        self.redrawn = asyncio.Event()

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        self.shown.append((show, skip_seat))
        self.redrawn.set()

    async def next_redraw(self) -> list[int | None]:
        """Waits for the holder's redraw, which follows its answer to the click; what it
        skipped (``None``: nothing, the clicker's hand included)."""
        await asyncio.wait_for(self.redrawn.wait(), 10.0)
        return [skip for _, skip in self.shown]

    async def table_lost(self, lost: LostTable) -> None:
        return None


class Sleeps:
    """A cluster's ``sleep``: each wait is parked until the test lets it go."""

    def __init__(self) -> None:
        self.waiting: asyncio.Queue[tuple[float, asyncio.Future[None]]] = asyncio.Queue()

    async def sleep(self, delay: float) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.put_nowait((delay, done))
        await done


@dataclass
class Process:
    db: Database
    service: TableService
    cluster: Cluster
    timers: Timers
    presenter: Recorder
    sleeps: Sleeps = field(default_factory=Sleeps)

    async def kill(self) -> None:
        """Gone at once, as with SIGKILL: nothing saved on the way out, no lease given back."""
        await self.timers.stop()
        if self.cluster.bus is not None:
            await self.cluster.bus.close()
        if self.cluster._renewing is not None:  # pyright: ignore[reportPrivateUsage]
            self.cluster._renewing.cancel()  # pyright: ignore[reportPrivateUsage]
        await self.db.close()


@pytest.fixture
async def url(pg_server: str) -> str:
    return await fresh_postgres(pg_server, migrated=True)


@pytest.fixture
async def processes(url: str) -> AsyncIterator[list[Process]]:
    made: list[Process] = []
    yield made
    for process in made:
        await process.timers.stop()
        await process.cluster.stop()
        await process.db.close()


async def start(
    url: str, shards: list[int], made: list[Process], lease_clock: Clock, *, go: bool = True
) -> Process:
    """A process running ``shards`` of the bot; with ``go``, started (leases held)."""
    db = await open_database(url)
    timers, presenter = Timers(), Recorder()
    service = TableService(
        db,
        (presenter,),
        table_runtime(Clock(), sleep=timers.sleep, robot=instant_robot),
        robot_delay=0.0,
    )
    sleeps = Sleeps()
    cluster = Cluster(
        db,
        shard_count=SHARDS,
        shards=shards,
        bus=Bus(url),
        clock=lease_clock,
        sleep=sleeps.sleep,
        forward_timeout=2.0,
    )
    process = Process(db, service, cluster, timers, presenter, sleeps)
    made.append(process)
    if go:
        await cluster.start(service)
        await service.restore()
    return process


async def table_with_robots(process: Process, guild_id: int, options: Options | None = None) -> int:
    """A started table of one member (seat 0) and robots, waiting for the member."""
    table = await opened(
        process.service,
        guild_id=guild_id,
        channel_id=guild_id + 1,
        host_id=HUMAN,
        host_name="Ana",
        variant=Variant.INDIVIDUAL,
        options=options or parse_options(Variant.INDIVIDUAL, {}),
        language="en",
        max_tables=10,
    )
    await process.service.start(table.id, HUMAN)
    await process.timers.quiet(process.service)
    return table.id


def human_click(process: Process, table_id: int, rng: random.Random) -> Click:
    """A legal card of the member's hand, as their button would send it."""
    table = process.service.tables[table_id]
    deal = table.deal
    assert deal is not None and deal.turn == 0
    cards = [a for a in deal.legal_actions() if a.seat == 0 and a.kind is Kind.PLAY]
    return Click(table_id, HUMAN, encode_action(rng.choice(cards)), table.deal_no, len(deal.tricks))


def test_a_server_belongs_to_the_process_holding_its_shard() -> None:
    clock = Clock()
    first = Cluster(None, shard_count=SHARDS, shards=[0], clock=clock)  # type: ignore[arg-type]
    second = Cluster(None, shard_count=SHARDS, shards=[1], clock=clock)  # type: ignore[arg-type]
    for shard, guild in GUILD_ON.items():
        assert shard_of(guild, SHARDS) == shard
        assert first.owns(guild) == (shard == 0) and second.owns(guild) == (shard == 1)
    assert not first.whole
    assert Cluster(None, shard_count=4, clock=clock).whole  # type: ignore[arg-type]


async def test_a_dm_click_reaching_the_other_process_is_played_where_the_table_is(
    url: str, processes: list[Process]
) -> None:
    lease_clock = Clock()
    shard0 = await start(url, [0], processes, lease_clock)
    shard1 = await start(url, [1], processes, lease_clock)
    table_id = await table_with_robots(shard1, GUILD_ON[1])
    assert table_id not in shard0.service.tables
    rng = random.Random(7)

    for _ in range(3):
        table = shard1.service.tables[table_id]
        assert table.deal is not None
        before = len(table.deal.actions)
        click = human_click(shard1, table_id, rng)
        shard1.presenter.shown.clear()
        shard1.presenter.redrawn.clear()

        await shard0.cluster.forward(click)  # answered once the holder has saved it

        deal = shard1.service.tables[table_id].deal
        assert deal is not None and len(deal.actions) > before
        assert encode_action(deal.actions[before]) == click.code
        # the holder redrew the table and every hand, the clicker's DM hand included
        assert (await shard1.presenter.next_redraw())[:1] == [None]
        await shard1.timers.quiet(shard1.service)

    # the same click again is from a trick gone: refused there, and the refusal comes back
    stale = Click(table_id, HUMAN, click.code, click.deal_no, click.trick_no)
    with pytest.raises(TableError) as refused:
        await shard0.cluster.forward(stale)
    assert refused.value.key == "stale"
    # a stranger's click is refused as it would be on the holder's side
    with pytest.raises(TableError) as refused:
        await shard0.cluster.forward(Click(table_id, 999, click.code, 0, 0))
    assert refused.value.key == "not_seated"
    # a table that is not open anywhere
    with pytest.raises(TableError) as refused:
        await shard0.cluster.forward(Click(table_id + 100, HUMAN, click.code, 0, 0))
    assert refused.value.key == "gone"


async def test_a_click_nobody_answers_is_refused_in_time(
    url: str, processes: list[Process]
) -> None:
    lease_clock = Clock()
    shard1 = await start(url, [1], processes, lease_clock)
    table_id = await table_with_robots(shard1, GUILD_ON[1])
    click = human_click(shard1, table_id, random.Random(1))
    await shard1.kill()
    processes.remove(shard1)
    shard0 = await start(url, [0], processes, lease_clock)
    shard0.cluster.forward_timeout = 0.2

    with pytest.raises(SaveFailed):  # "try again": the member's click is answered
        await shard0.cluster.forward(click)


async def test_a_hint_asked_on_the_other_process_is_thought_and_counted_where_the_table_is(
    url: str, processes: list[Process]
) -> None:
    lease_clock = Clock()
    shard0 = await start(url, [0], processes, lease_clock)
    shard1 = await start(url, [1], processes, lease_clock)
    shard1.service.hints.budget = HINT_BUDGET
    table_id = await table_with_robots(shard1, GUILD_ON[1], FRIENDLY)
    table = shard1.service.tables[table_id]
    assert table.deal is not None and table.deal.turn == 0
    view = seat_view(table.deal, 0)
    shard1.presenter.shown.clear()

    hint = await shard0.cluster.forward_hint(table_id, HUMAN)

    # the holder's hint for this decision, in the same words, counted there once
    expected = replace(reason(view, hint_action(view, HINT_BUDGET)), counted=True)
    assert hint == expected
    for lang in LANGUAGES:
        assert hint_line(hint, lang) == hint_line(expected, lang)
    occupant = table.seats[0]
    assert occupant is not None and occupant.hints == 1
    row = await repo.load_table(shard0.db, table_id)
    assert row is not None and restored(table, row.state).seats[0] == occupant
    # asked again: the same hint, not counted again
    assert await shard0.cluster.forward_hint(table_id, HUMAN) == replace(hint, counted=False)
    assert occupant.hints == 1
    serving = shard1.cluster._serving  # pyright: ignore[reportPrivateUsage]
    await asyncio.gather(*serving)
    assert shard1.presenter.shown == []  # nothing the table shows changed: no redraw

    # off the member's turn (the robots held after the member's card): refused there, and
    # the refusal comes back
    shard1.service.robot_delay = 0.001
    shard1.timers.pause()
    rng = random.Random(5)
    while table.deal.turn == 0:
        await shard0.cluster.forward(human_click(shard1, table_id, rng))
    with pytest.raises(TableError) as refused:
        await shard0.cluster.forward_hint(table_id, HUMAN)
    assert refused.value.key == "hint_not_your_turn"
    assert occupant.hints == 1
    shard1.timers.resume()
    await shard1.timers.quiet(shard1.service)


async def test_a_hint_nobody_answers_in_time_is_refused_with_try_again(
    url: str, processes: list[Process]
) -> None:
    assert HINT_TIMEOUT > FORWARD_TIMEOUT  # the robot thinks longer than a card is played
    lease_clock = Clock()
    shard1 = await start(url, [1], processes, lease_clock)
    table_id = await table_with_robots(shard1, GUILD_ON[1], FRIENDLY)
    await shard1.kill()
    processes.remove(shard1)
    shard0 = await start(url, [0], processes, lease_clock)
    shard0.cluster.hint_timeout = 0.0  # its answer is due at once: none has come

    with pytest.raises(SaveFailed):  # "try again": the member's click is answered
        await shard0.cluster.forward_hint(table_id, HUMAN)


async def test_a_process_killed_mid_game_is_taken_over_without_losing_an_action(
    url: str, processes: list[Process]
) -> None:
    lease_clock = Clock()
    dying = await start(url, [0], processes, lease_clock)
    table_id = await table_with_robots(dying, GUILD_ON[0])
    rng = random.Random(3)
    for _ in range(4):
        click = human_click(dying, table_id, rng)
        action = next(
            a
            for a in dying.service.tables[table_id].deal.legal_actions()  # type: ignore[union-attr]
            if encode_action(a) == click.code
        )
        await dying.service.act(
            table_id, HUMAN, action, deal_no=click.deal_no, trick_no=click.trick_no
        )
        await dying.timers.quiet(dying.service)
    answered = list(dying.service.tables[table_id].deal.actions)  # type: ignore[union-attr]
    await dying.kill()
    processes.remove(dying)

    # its replacement (the container restarted, with the same shards) waits for the lease
    heir = await start(url, [0], processes, lease_clock, go=False)
    starting = asyncio.create_task(heir.cluster.start(heir.service))
    delay, retry = await heir.sleeps.waiting.get()
    assert delay == CLAIM_RETRY and not starting.done()
    assert set(await leases.holders(heir.db)) == {0}
    assert not heir.cluster.held, "not ready (/readyz) while it waits"
    lease_clock.now += LEASE_TTL  # the dead process never renewed it
    retry.set_result(None)
    await starting
    assert await leases.held(heir.db, heir.cluster.name) == {0}
    assert heir.cluster.held

    await heir.service.restore()
    table = heir.service.tables[table_id]
    assert table.deal is not None
    assert list(table.deal.actions) == answered  # every action it answered for, once
    # and the game goes on there: the member's next card
    await heir.timers.quiet(heir.service)
    click = human_click(heir, table_id, rng)
    await heir.service.act(
        table_id,
        HUMAN,
        next(a for a in table.deal.legal_actions() if encode_action(a) == click.code),
        deal_no=click.deal_no,
        trick_no=click.trick_no,
    )
    assert len(heir.service.tables[table_id].deal.actions) > len(answered)  # type: ignore[union-attr]


async def test_a_process_restores_only_its_own_shards_tables(
    url: str, processes: list[Process]
) -> None:
    lease_clock = Clock()
    first = await start(url, [0, 1], processes, lease_clock)
    on0 = await table_with_robots(first, GUILD_ON[0])
    on1 = await table_with_robots(first, GUILD_ON[1])
    await first.timers.stop()
    await first.cluster.stop()  # a clean stop gives the leases back: no wait
    await first.db.close()
    processes.remove(first)

    shard0 = await start(url, [0], processes, lease_clock)
    shard1 = await start(url, [1], processes, lease_clock)
    assert set(shard0.service.tables) == {on0}
    assert set(shard1.service.tables) == {on1}


async def test_a_process_whose_shards_were_taken_stops_playing_them(
    url: str, processes: list[Process]
) -> None:
    """A process that could not renew its lease in time (a stalled host) finds another
    holding its shards: it lets their tables go at once, saving nothing."""
    lease_clock = Clock()
    stalled = await start(url, [0], processes, lease_clock)
    table_id = await table_with_robots(stalled, GUILD_ON[0])
    lost: list[bool] = []

    async def on_lost() -> None:
        stalled.service.abandon()
        lost.append(True)

    stalled.cluster.on_lost = on_lost
    delay, renewal = await stalled.sleeps.waiting.get()  # its renewal, due in RENEW_EVERY
    lease_clock.now += LEASE_TTL + delay  # ... came far too late
    heir = await start(url, [0], processes, lease_clock)
    assert table_id in heir.service.tables
    saved = await repo.load_table(heir.db, table_id)

    renewal.set_result(None)
    renewing = stalled.cluster._renewing  # pyright: ignore[reportPrivateUsage]
    assert renewing is not None
    await renewing

    assert lost == [True]
    assert not stalled.cluster.held, "not ready (/readyz) any more"
    assert stalled.service.tables == {}
    assert await leases.held(heir.db, heir.cluster.name) == {0}
    assert await repo.load_table(heir.db, table_id) == saved  # nothing written over it


async def test_forwarding_comes_back_after_the_database_drops_the_bus(
    url: str, processes: list[Process]
) -> None:
    """PostgreSQL drops both ends' connections of the bus (a restart, a network cut): the
    listener connects again by itself, the sender on its next message, and the next click is
    played as before."""
    lease_clock = Clock()
    shard0 = await start(url, [0], processes, lease_clock)
    shard1 = await start(url, [1], processes, lease_clock)
    table_id = await table_with_robots(shard1, GUILD_ON[1])
    rng = random.Random(11)
    await shard0.cluster.forward(human_click(shard1, table_id, rng))
    await shard1.timers.quiet(shard1.service)

    old = [p.cluster.bus._listener for p in (shard0, shard1)]  # pyright: ignore[reportOptionalMemberAccess, reportPrivateUsage]
    admin = await asyncpg.connect(url)
    try:
        # every connection of both buses (not the pools: those are the databases')
        dropped = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND (query LIKE 'LISTEN%' OR query LIKE 'SELECT pg_notify%')"
        )
    finally:
        await admin.close()
    assert dropped >= 3  # both listeners, and at least the sender that forwarded

    for _ in range(1000):  # the listeners reconnect in the background: new connections
        listeners = [p.cluster.bus._listener for p in (shard0, shard1)]  # pyright: ignore[reportOptionalMemberAccess, reportPrivateUsage]
        if all(
            c is not None and c is not was and not c.is_closed()
            for c, was in zip(listeners, old, strict=True)
        ):
            break
        await asyncio.sleep(0.01)
    else:
        pytest.fail("the listeners did not connect again")
    before = len(shard1.service.tables[table_id].deal.actions)  # type: ignore[union-attr]
    await shard0.cluster.forward(human_click(shard1, table_id, rng))
    assert len(shard1.service.tables[table_id].deal.actions) > before  # type: ignore[union-attr]
