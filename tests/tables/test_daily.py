"""The daily deal through the table service, on a real SQLite file, in simulated time: one
deal a day per server, the same cards and the same robots for every member, played once
whatever becomes of it (left, restarted), scored on its own server's board; the streak
counts UTC days on the service's clock.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.engine import Action, Kind, Options, Variant
from bot.engine.fairness import verify_record
from bot.i18n import t
from bot.storage import Database
from bot.storage.members import member_stats
from bot.storage.replays import stored_deal
from bot.storage.settings import update_settings
from bot.tables.audience import kept_secret
from bot.tables.daily import (
    DAY,
    MEMBER_SEAT,
    DailyRefusal,
    DailyService,
    Scored,
    date_of,
    day_of,
    streak_of,
)
from bot.tables.errors import TableError
from bot.tables.model import Level, Status, Table
from bot.tables.service import TableService
from bot.tables.views import TableView
from tests.migrated import open_migrated
from tests.runtime import table_runtime
from tests.tables._sim import Recorder, SimTime

GUILD = 1
OTHER_GUILD = 2
DM = 500


@dataclass
class World:
    db: Database
    time: SimTime = field(default_factory=SimTime)
    services: list[TableService] = field(default_factory=list[TableService])
    told: list[Scored] = field(default_factory=list[Scored])

    def start(self) -> tuple[TableService, DailyService]:
        """The bot (again): a table service with the real robots, and the daily deals on
        it."""
        service = TableService(
            self.db,
            (Recorder(),),
            table_runtime(self.time, sleep=self.time.sleep),
            robot_delay=0.0,
            lobby_timeout=900.0,
            idle_timeout=600.0,
        )
        self.services.append(service)
        daily = DailyService(self.db, service)

        async def tell(scored: Scored) -> None:
            self.told.append(scored)

        daily.scored_listeners.append(tell)
        return service, daily

    async def stop(self, service: TableService) -> None:
        """The process stops: its clocks with it (nothing more is saved)."""
        timers = list(service.clocks.timers.values())
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)
        service.tables.clear()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    db = await open_migrated(tmp_path / "tute.db")
    w = World(db)
    try:
        yield w
    finally:
        for service in w.services:
            await w.stop(service)
        await db.close()


async def begin(daily: DailyService, user: int, guild: int = GUILD, channel: int = DM) -> Table:
    outcome = await daily.play(
        guild_id=guild, user_id=user, name=f"user{user}", language="en", channel_id=channel
    )
    return daily.tables.get(outcome.show.table.id)


def first_choice(table: Table) -> Action | None:
    """The member's play when it is their turn: the first card they may play (the same
    member's habit on every table)."""
    deal = table.deal
    if deal is None or deal.finished or deal.turn != MEMBER_SEAT:
        return None
    legal = [a for a in deal.legal_actions() if a.seat == MEMBER_SEAT]
    plays = [a for a in legal if a.kind is Kind.PLAY]
    return (plays or legal)[0]


async def play_out(
    world: World, service: TableService, table: Table, user: int, *, hint: bool = False
) -> Table:
    """The member plays every turn of theirs until the deal is over (``hint``: asking for a
    hint on their first turn, though playing their own card)."""
    for _ in range(200):
        await world.time.quiet(service)
        if not table.status.is_open:
            break
        action = first_choice(table)
        assert action is not None, "the member waits with nothing to play"
        deal = table.deal
        assert deal is not None
        if hint:
            await service.hint(table.id, user)
            hint = False
        await service.act(table.id, user, action, deal_no=table.deal_no, trick_no=len(deal.tricks))
    await service.told()
    assert table.status is Status.FINISHED
    return table


def hands(table: Table) -> list[list[int]]:
    deal = table.deal
    assert deal is not None
    return [sorted(deal.hand(seat)) for seat in range(table.players)]


async def test_a_servers_members_play_the_same_cards_against_the_same_robots(
    world: World,
) -> None:
    service, daily = world.start()
    alice = await begin(daily, 10)
    dealt = hands(alice)
    assert [s.robot if s else None for s in alice.seats] == [None, *[Level.NORMAL] * 3]
    assert not alice.options.competitive and alice.options.bet == 0 and alice.options.rounds == 1
    bob = await begin(daily, 11)
    assert hands(bob) == dealt and bob.seed == alice.seed
    await play_out(world, service, alice, 10)
    await play_out(world, service, bob, 11)
    assert alice.deal is not None and bob.deal is not None
    assert alice.deal.actions == bob.deal.actions  # the same plays met the same answers
    # another server, or tomorrow, deals other cards
    carol = await begin(daily, 12, guild=OTHER_GUILD)
    assert hands(carol) != dealt
    world.time.advance(DAY)
    alice_tomorrow = await begin(daily, 10)
    assert hands(alice_tomorrow) != dealt


async def test_every_members_daily_deal_verifies_against_one_commitment(world: World) -> None:
    """The day's commitment is known before anyone plays, the same for every member; each
    member's record of the deal reveals the seed and verifies fair against it."""
    service, daily = world.start()
    day = daily.today()
    committed = await daily.commitment(GUILD, day)
    assert committed != await daily.commitment(OTHER_GUILD, day)
    assert committed != await daily.commitment(GUILD, day + 1)
    tables = [await begin(daily, user) for user in (10, 11)]
    for user, table in zip((10, 11), tables, strict=True):
        assert table.commitment == committed
        await play_out(world, service, table, user)
        stored = await stored_deal(world.db, table.id, 0)
        assert stored is not None and stored.finished
        record = json.loads(stored.record)
        assert record["shuffle"]["commitment"] == committed
        assert record["shuffle"]["input"] == f"daily:{GUILD}:{day}"
        assert verify_record(record).fair


async def test_the_deal_is_played_once_even_after_leaving_and_a_restart(world: World) -> None:
    service, daily = world.start()
    table = await begin(daily, 10)
    with pytest.raises(DailyRefusal) as refused:
        await begin(daily, 10)
    assert refused.value.key == "played"
    await world.time.quiet(service)
    await service.leave(table.id, 10)
    await service.told()
    assert table.status is Status.CANCELLED
    attempt = await daily.attempt(GUILD, 10)
    assert attempt is not None and attempt.status == "unfinished" and attempt.points == 0
    assert [s.attempt.status for s in world.told] == ["unfinished"]
    await world.stop(service)
    _, again = world.start()
    with pytest.raises(DailyRefusal):
        await begin(again, 10)
    # the next UTC day is a new deal
    world.time.advance(DAY)
    await begin(again, 10)


async def test_a_restart_in_the_middle_resumes_the_same_table_and_scores_it(
    world: World,
) -> None:
    service, daily = world.start()
    table = await begin(daily, 10)
    await world.time.quiet(service)
    first = first_choice(table)
    assert first is not None and table.deal is not None
    await service.act(table.id, 10, first, deal_no=table.deal_no, trick_no=0)
    await world.time.quiet(service)
    played = list(table.deal.actions)
    await world.stop(service)
    restarted, daily_again = world.start()
    await restarted.restore()
    resumed = restarted.get(table.id)
    assert resumed.deal is not None and resumed.deal.actions == played
    with pytest.raises(DailyRefusal):
        await begin(daily_again, 10)
    await play_out(world, restarted, resumed, 10)
    attempt = await daily_again.attempt(GUILD, 10)
    assert attempt is not None and attempt.status == "finished"
    assert len(attempt.tricks) == len(resumed.deal.tricks)  # type: ignore[union-attr]


async def test_a_table_that_ended_while_nobody_listened_is_scored_at_the_next_start(
    world: World,
) -> None:
    service, daily = world.start()
    table = await begin(daily, 10)
    daily.stop()  # the bot stops listening before the end is told
    await play_out(world, service, table, 10)
    assert (await daily.attempt(GUILD, 10)).status == "playing"  # type: ignore[union-attr]
    _, again = world.start()
    assert await again.catch_up() == 1
    attempt = await again.attempt(GUILD, 10)
    assert attempt is not None and attempt.status == "finished"


async def test_the_board_is_each_servers_own(world: World) -> None:
    service, daily = world.start()
    for user, guild in ((11, GUILD), (10, GUILD), (12, OTHER_GUILD)):
        table = await begin(daily, user, guild=guild)
        await play_out(world, service, table, user, hint=user == 11)
    board = await daily.board(GUILD)
    # the same points, but bob asked for a hint: alice ranks first
    assert [(e.attempt.user_id, e.attempt.hints) for e in board.entries] == [(10, 0), (11, 1)]
    assert [e.place for e in board.entries] == [1, 2]
    assert [e.attempt.user_id for e in (await daily.board(OTHER_GUILD)).entries] == [12]
    assert board.entries[0].attempt.points == board.entries[1].attempt.points  # same deal


async def test_the_streak_counts_consecutive_utc_days(world: World) -> None:
    service, daily = world.start()
    start = world.time.now
    for days_later in (0, 1, 2, 4, 5):
        world.time.now = start + days_later * DAY
        table = await begin(daily, 10)
        await world.time.quiet(service)
        await service.leave(table.id, 10)  # a deal left unfinished is a day played
    assert await daily.streak(GUILD, 10, daily.today()) == 2  # day 3 was missed
    assert (await daily.board(GUILD)).entries[0].streak == 2
    today = day_of(world.time.now)
    assert streak_of([today - 1, today - 2], today) == 2  # not played yet today: still on
    assert streak_of([today - 2], today) == 0
    assert date_of(day_of(1_795_000_000.0)) == "2026-11-18"


async def test_experience_only_where_the_server_chose_it(world: World) -> None:
    service, daily = world.start()
    await play_out(world, service, await begin(daily, 10), 10)
    assert await member_stats(world.db, GUILD, 10) is None  # no chips, no experience
    async with world.db.transaction() as conn:
        await update_settings(conn, OTHER_GUILD, daily_experience=True)
    await play_out(world, service, await begin(daily, 10, guild=OTHER_GUILD), 10)
    stats = await member_stats(world.db, OTHER_GUILD, 10)
    assert stats is not None and stats.xp > 0


async def test_a_days_deal_is_kept_from_the_others_until_the_day_is_over(world: World) -> None:
    service, daily = world.start()
    table = await play_out(world, service, await begin(daily, 10), 10)
    now = world.time.now
    assert await kept_secret(world.db, table.id, 11, now)  # bob has still to play it
    assert not await kept_secret(world.db, table.id, 10, now)  # her own deal
    tomorrow = (day_of(now) + 1) * DAY
    assert not await kept_secret(world.db, table.id, 11, tomorrow)
    assert not await kept_secret(world.db, 999, 11, now)  # not a daily deal's table


async def test_a_member_still_playing_yesterdays_deal_after_midnight_cannot_see_it(
    world: World,
) -> None:
    service, daily = world.start()
    ana = await play_out(world, service, await begin(daily, 10), 10)
    world.time.now = (day_of(world.time.now) + 1) * DAY - 60  # a minute to midnight
    await begin(daily, 11)  # bob starts the same deal...
    after_midnight = world.time.now + 120
    # ...and is still at it after midnight: ana's copy shows the very cards he holds
    assert await kept_secret(world.db, ana.id, 11, after_midnight)


async def test_a_member_who_finished_the_days_deal_may_compare_it_at_once(world: World) -> None:
    service, daily = world.start()
    ana = await play_out(world, service, await begin(daily, 10), 10)
    bob = await begin(daily, 11)
    assert await kept_secret(world.db, ana.id, 11, world.time.now)  # bob is playing it
    await play_out(world, service, bob, 11)
    assert not await kept_secret(world.db, ana.id, 11, world.time.now)
    assert not await kept_secret(world.db, bob.id, 10, world.time.now)
    eva = await begin(daily, 12)
    await service.leave(eva.id, 12)  # left unfinished: she cannot play it again
    await world.time.quiet(service)
    await service.told()
    assert not await kept_secret(world.db, ana.id, 12, world.time.now)


async def test_a_daily_deal_and_a_table_its_member_hosts_do_not_block_each_other(
    world: World,
) -> None:
    """A member's daily deal is their own, in their DMs: it is dealt while they host a
    table in the server, and while it is on they host one (from /tute new or the card
    table's opener); nobody's limit of open tables counts it."""
    service, daily = world.start()

    async def hosted(max_tables: int = 10) -> TableView:
        return await service.open_table(
            guild_id=GUILD,
            channel_id=77,
            host_id=10,
            host_name="user10",
            variant=Variant.PAIRS,
            options=Options(),
            language="en",
            max_tables=max_tables,
        )

    lobby = await hosted()
    table = await begin(daily, 10)
    assert table.status is Status.PLAYING
    await service.close(lobby.id, 10)
    again = await hosted(max_tables=1)
    assert again.host_id == 10, "her daily deal does not make her a host already"
    await service.close(again.id, 10)
    async with world.db.transaction() as conn:
        await update_settings(conn, GUILD, max_tables=1)
    for user in (11, 12):
        await begin(daily, user)
    page = await service.open_from_page(
        guild_id=GUILD,
        channel_id=78,
        host_id=13,
        host_name="user13",
        variant=Variant.HABANERO,
        language="en",
    )
    assert page.host_id == 13, "three daily deals on: the server's one table opens"


async def test_two_presses_at_once_send_one_introduction_and_refuse_the_second(
    world: World,
) -> None:
    """Two presses of /tute challenge play at once: the second is refused in words before
    anything is sent to the member's DMs; one attempt, one table."""
    service, daily = world.start()
    sent: list[int] = []

    async def deliver() -> int:
        sent.append(10)
        await asyncio.sleep(0)  # sending takes a while: the other press comes meanwhile
        return DM

    async def press() -> object:
        return await daily.deal(
            guild_id=GUILD, user_id=10, name="user10", language="en", deliver=deliver
        )

    first, second = await asyncio.gather(press(), press(), return_exceptions=True)
    assert not isinstance(first, BaseException)
    assert isinstance(second, TableError) and second.key == "dealing"
    assert sent == [10], "one introduction"
    assert len([t for t in service.tables.values() if t.daily]) == 1
    with pytest.raises(DailyRefusal):  # once dealt: played today, and nothing more is sent
        await press()
    assert sent == [10]


async def test_a_deal_whose_introduction_could_not_be_sent_is_not_played(
    world: World,
) -> None:
    _, daily = world.start()

    async def refused() -> int:
        raise OSError("Discord refused the DM")

    with pytest.raises(OSError, match="refused the DM"):
        await daily.deal(guild_id=GUILD, user_id=10, name="user10", language="en", deliver=refused)
    assert await daily.attempt(GUILD, 10) is None, "not played: it may be played later"


async def test_a_daily_table_is_not_listed_and_has_no_rematch(world: World) -> None:
    """A daily table is its member's own, in their DMs: no list of the server's tables
    shows it, and, played once, it is not played again: a rematch asked is refused in
    words."""
    service, daily = world.start()
    lobby = await service.open_table(
        guild_id=GUILD,
        channel_id=77,
        host_id=11,
        host_name="user11",
        variant=Variant.PAIRS,
        options=Options(competitive=False),
        language="en",
    )
    table = await begin(daily, 10)
    assert table.daily and service.view(table.id).daily and not lobby.daily
    assert [v.id for v in service.open_tables(GUILD)] == [lobby.id]
    await play_out(world, service, table, 10)
    with pytest.raises(TableError) as refused:
        await service.rematch(table.id, 10, "user10")
    assert refused.value.key == "daily_rematch"
    said = {t(f"tables.errors.{refused.value.key}", lang) for lang in ("en", "es")}
    assert len(said) == 2  # the catalog says it, in each language
    assert [v.id for v in service.open_tables(GUILD)] == [lobby.id]  # no lobby was opened
