"""The table service without Discord: a real SQLite file, a recording presenter."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.ai import Level
from bot.engine import Action, Contract, End, Kind, Options, SeatView, Variant
from bot.storage import Database, members
from bot.tables.announcement import Said
from bot.tables.errors import TableError
from bot.tables.model import Status, Table
from bot.tables.service import LostTable, TableService
from bot.tables.settlement import chips_of
from bot.tables.views import Show, table_view
from tests.migrated import open_migrated
from tests.runtime import table_runtime
from tests.tables._play import ROBOT_WAIT, opened, restored


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[int, list[Said]]] = []

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        self.calls.append((show.table.id, [a.what for a in show.announce]))

    async def table_lost(self, lost: LostTable) -> None:
        return None


def first_robot(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.PASS)]
    return plays[0] if plays and view.turn == view.seat else None


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def no_wait(seconds: float) -> None:
    """The tables' short waits (a robot's delay, a human's grace to sing) pass at once: no
    test waits on the wall clock. A longer one (a member's turn, a lobby's expiry) lasts
    until its timer is stopped: the clock never moves here, so it would never be due, and
    passing at once would only ring it again and again, a busy loop as long as the test."""
    if seconds <= ROBOT_WAIT:
        await asyncio.sleep(0)
        return
    await asyncio.Event().wait()


def quick_service(db: Database, presenter: Recorder | None = None) -> TableService:
    """The service with robots that choose at once and waits that pass at once."""
    return TableService(
        db,
        (presenter or Recorder(),),
        table_runtime(Clock(), sleep=no_wait, robot=first_robot),
        robot_delay=0,
    )


async def ana_opens(
    service: TableService, variant: Variant, options: Options, **details: Any
) -> Table:
    """Ana (member 10) opens a table in server 1, channel 2."""
    return await opened(
        service,
        guild_id=1,
        channel_id=2,
        host_id=10,
        host_name="Ana",
        variant=variant,
        options=options,
        **details,
    )


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "t.db")
    yield database
    await database.close()


async def settle(service: TableService, table: Table) -> None:
    """Let the robots' clock tasks run until a human is to act or the game ends."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while loop.time() < deadline:
        await asyncio.sleep(0.001)
        if service.lock(table.id).locked():
            continue
        timer = service.clocks.timers.get(table.id)
        if not table.status.is_open or table.deal is None:
            if timer is None:
                return
            continue
        deal = table.deal
        seat = table.seats[deal.turn]
        if seat is not None and not seat.robot_plays and not deal.finished:
            return
    raise AssertionError("the robots never stopped")


async def play_out(service: TableService, table: Table, rng: random.Random) -> None:
    while True:
        await settle(service, table)
        if table.status is not Status.PLAYING:
            break
        deal = table.deal
        assert deal is not None
        seat = deal.turn
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        legal = [
            a
            for a in deal.legal_actions()
            if a.seat == seat and a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)
        ]
        await service.act(
            table.id,
            occupant.user_id,
            rng.choice(legal),
            deal_no=table.deal_no,
            trick_no=len(deal.tricks),
        )


@pytest.mark.parametrize("variant", list(Variant))
async def test_a_whole_game_with_humans_and_robots(db: Database, variant: Variant) -> None:
    recorder = Recorder()
    service = quick_service(db, recorder)
    table = await ana_opens(service, variant, Options(), language="es")
    if variant.players > 2:
        await service.join(table.id, 11, "Bea")
    await service.start(table.id, 10)
    assert table.status is Status.PLAYING and all(s is not None for s in table.seats)
    await play_out(service, table, random.Random(1))
    assert table.status is Status.FINISHED and table.winner is not None
    assert any(Said.GAME_OVER in said for _, said in recorder.calls) or table.summary
    stats = await members.member_stats(db, 1, 10)
    assert stats is not None and stats.games_played == 1


@pytest.mark.parametrize("variant", list(Variant))
async def test_the_result_says_what_the_game_gave_each_member(
    db: Database, variant: Variant
) -> None:
    """Once the game is over, its view holds each member's chips won or lost and their
    experience: the same figures as their balance and their standing."""
    service = quick_service(db)
    table = await ana_opens(service, variant, Options(bet=100), language="es")
    members_in = [10, 11] if variant.players > 2 else [10]
    if variant.players > 2:
        await service.join(table.id, 11, "Bea")
    before = {u: await chips_of(db, 1, u, 0.0) for u in members_in}
    await service.start(table.id, 10)
    await play_out(service, table, random.Random(2))
    assert table.status is Status.FINISHED
    tally = table_view(table).tally
    assert tally is not None and set(tally.chips) == set(members_in)
    for user in members_in:
        stats = await members.member_stats(db, 1, user)
        assert stats is not None
        assert tally.chips[user] == stats.balance - before[user]
        assert tally.xp[user] == stats.xp > 0
        assert tally.places[user][1] == stats.rank  # their place on the chips board now


async def finished_pairs(service: TableService, robot_level: Level = Level.HARD) -> Table:
    """A pairs game played to its end: Ana (seat 0) and Bea (seat 1) against each other,
    with robots as their partners (of ``robot_level``, as picked with /tute new)."""
    table = await ana_opens(service, Variant.PAIRS, Options(bet=50), language="es")
    table.robot_level = robot_level
    await service.join(table.id, 11, "Bea", team=1)
    await service.add_robot(table.id, 10, "easy")
    await service.start(table.id, 10)
    await play_out(service, table, random.Random(3))
    assert table.status is Status.FINISHED
    return table


async def test_a_rematch_plays_the_same_game_again_at_the_same_table(db: Database) -> None:
    """The first member to ask opens the lobby and hosts it, the robots back in their seats
    (the table turned so the host sits first, partners still partners), the other member
    invited; when they ask too, they sit down on their side; a third ask is refused."""
    service = quick_service(db)
    old = await finished_pairs(service, Level.EASY)
    before = [(s.user_id, s.robot) if s else None for s in old.seats]
    assert [b[0] if b else None for b in before] == [10, 11, None, None]

    lobby, opened = await service.rematch(old.id, 11, "Bea", locale="es")
    assert opened
    assert lobby.id != old.id and lobby.status is Status.LOBBY and lobby.host_id == 11
    assert (lobby.variant, lobby.options, lobby.channel_id) == (old.variant, old.options, 2)
    assert lobby.robot_level is Level.EASY
    assert lobby.invited == (10,)
    # Bea sat at 1: turned, she sits first; the robots of seats 2 and 3 sit at 1 and 2
    seated = [(s.user_id, s.is_robot) if s else None for s in lobby.seats]
    assert seated == [(11, False), (None, True), (None, True), None]
    assert service.get(lobby.id).rematch_of == old.id

    again, opened = await service.rematch(old.id, 10, "Ana")
    assert not opened and again.id == lobby.id
    assert again.seat_of(10) == 3  # Ana's side is Bea's opponents', as before
    assert again.team_of(3) != again.team_of(0)
    with pytest.raises(TableError) as refused:
        await service.rematch(old.id, 99, "Zoe")
    assert refused.value.key == "not_seated"


async def test_only_a_finished_game_has_a_rematch(db: Database) -> None:
    service = quick_service(db)
    table = await ana_opens(service, Variant.HABANERO, Options(), language="en")
    await service.close(table.id, 10)
    with pytest.raises(TableError) as refused:
        await service.rematch(table.id, 10, "Ana")
    assert refused.value.key == "not_finished"
    with pytest.raises(TableError) as gone:
        await service.rematch(10_000, 10, "Ana")
    assert gone.value.key == "gone"


async def test_lobby_rules(db: Database) -> None:
    service = quick_service(db)
    table = await ana_opens(
        service, Variant.PAIRS, Options(private=True), language="en", invited=[11]
    )
    with pytest.raises(TableError) as err:
        await service.join(table.id, 12, "Cid")
    assert err.value.key == "not_invited"
    await service.join(table.id, 11, "Bea", team=0)
    assert table.seat_of(11) == 2
    with pytest.raises(TableError) as err:
        await service.start(table.id, 11)
    assert err.value.key == "host_only"
    with pytest.raises(TableError) as err:
        await service.open_table(
            guild_id=1,
            channel_id=2,
            host_id=10,
            host_name="Ana",
            variant=Variant.HABANERO,
            options=Options(),
            language="en",
        )
    assert err.value.key == "already_hosting"
    await service.leave(table.id, 10)
    assert table.host_id == 11 and table.status is Status.LOBBY
    await service.leave(table.id, 11)
    assert table.status is Status.CLOSED


async def test_two_robots_never_share_a_name(db: Database) -> None:
    """A robot seated after another one left takes the lowest number no robot goes by, so
    the table never shows two "Robot 2"."""
    service = quick_service(db)
    table = await ana_opens(service, Variant.INDIVIDUAL, Options(), language="en")
    await service.add_robot(table.id, 10, seat=3)
    await service.add_robot(table.id, 10, seat=1)
    await service.remove_robot(table.id, 10)  # the last seated: seat 3's robot 1
    await service.add_robot(table.id, 10)
    await service.start(table.id, 10)
    numbers = [s.robot_no for s in table.seats if s is not None and s.is_robot]
    assert len(numbers) == 3 and set(numbers) == {1, 2, 3}


@pytest.mark.parametrize("variant", list(Variant))
async def test_the_deal_summary_round_trips_through_the_state(
    db: Database, variant: Variant
) -> None:
    service = quick_service(db)
    table = await ana_opens(service, variant, Options(), language="en")
    await service.start(table.id, 10)
    await play_out(service, table, random.Random(2))
    summary = table.summary
    assert summary is not None
    state = table.state_json()
    again = restored(table, state)
    assert again.state_json() == state
    assert again.summary is not None
    assert again.summary.to_json() == summary.to_json()
    # everything but the engine's by_seat, which the result's JSON does not carry
    assert again.summary == replace(summary, result=replace(summary.result, by_seat=None))
    assert restored(again, again.state_json()).summary == again.summary


async def test_a_summary_saved_as_a_plain_dict_restores(db: Database) -> None:
    """The summary's JSON is the dict tables have always saved: an old state restores."""
    service = quick_service(db)
    table = await ana_opens(service, Variant.ARRASTRADO, Options(), language="en")
    old = {
        "deal_no": 2,
        "result": {
            "end": "cards",
            "sides": [[0], [1]],
            "card_points": [70, 50],
            "cantes": [20, 0],
            "last_trick": 0,
            "scores": [100, 50],
            "winner": 0,
            "contract": {"seat": 1, "points": 70, "made": False},
        },
        "names": ["Ana", "?"],
        "taken": [[0, 10, 20], [1, 11]],
        "cantes": [[0, 3, 20]],
        "rounds_won": [1, 0],
        "rounds_before": [0, 0],
        "trump": 3,
    }
    data = json.loads(table.state_json())
    data["summary"] = old
    again = restored(table, json.dumps(data, separators=(",", ":")))
    summary = again.summary
    assert summary is not None
    assert summary.deal_no == 2 and summary.names == ("Ana", "?") and summary.trump == 3
    assert summary.result.end is End.CARDS and summary.result.contract == Contract(1, 70)
    assert summary.result.contract_made is False and not summary.result.double
    assert summary.taken == ((0, 10, 20), (1, 11)) and summary.cantes == ((0, 3, 20),)
    assert json.loads(again.state_json())["summary"] == old
