"""Tournaments played through the table service on a real SQLite file: members' turns are
played by a seeded random player (``_play.pick``), robots (the fillers of a short table)
answer at once, and the clock is simulated (turn timeouts never run out here)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.engine import Options, Variant, parse_options
from bot.storage import Database
from bot.storage import tournaments as stored
from bot.tables.competition.tournament import BYE, Format
from bot.tables.competition.tournaments import (
    Tournament,
    TournamentService,
    TournamentStatus,
    match_winner,
)
from bot.tables.errors import TableError
from bot.tables.model import Status
from bot.tables.service import TableService
from tests.migrated import open_migrated

from ._play import CHANNEL, GUILD, Clock, Timers, make_service, pick

HOST = 1
MEMBERS = [100 + n for n in range(8)]


def quick(variant: Variant = Variant.HABANERO) -> Options:
    raw: dict[str, int] = {"turn_time": 3600}
    if variant is Variant.HABANERO:
        raw["target"] = 31
    return parse_options(variant, raw)


@dataclass
class House:
    db: Database
    timers: Timers
    tables: TableService
    tournaments: TournamentService


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "tute.sqlite3"


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def build(path: Path, clock: Clock, *, restore: bool = False) -> House:
    db = await open_migrated(path)
    timers = Timers()
    tables = make_service(db, timers, clock)
    tournaments = TournamentService(db, tables, clock)
    if restore:
        await tables.restore()
        await tournaments.restore()
    return House(db, timers, tables, tournaments)


async def stop(house: House) -> None:
    await settle(house)
    await house.tables.suspend()
    await house.timers.stop()
    await house.db.close()


@pytest.fixture
async def house(path: Path, clock: Clock) -> AsyncIterator[House]:
    built = await build(path, clock)
    yield built
    await stop(built)


async def settle(house: House) -> None:
    """Until the robots have answered and every game over has been dealt with."""
    while True:
        await house.tables.told()
        await house.timers.quiet(house.tables)
        if not house.tables.telling:
            return


async def open_tournament(
    house: House,
    format: Format,
    entrants: list[int],
    *,
    swiss_rounds: int = 3,
    max_entrants: int = 64,
    entry: int = 0,
) -> Tournament:
    t = await house.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        variant=Variant.HABANERO,
        options=quick(),
        format=format,
        deadline=house.tournaments.clock() + 600,
        swiss_rounds=swiss_rounds,
        max_entrants=max_entrants,
        entry=entry,
    )
    for user in entrants:
        await house.tournaments.sign_up(t.id, user, f"user{user}")
    return t


async def move_once(house: House, tournament_id: int, rng: random.Random) -> bool:
    """Each table of the tournament in play: one member's action. False when none moved."""
    moved = False
    for table in list(house.tables.tables.values()):
        if table.tournament_id != tournament_id or table.status is not Status.PLAYING:
            continue
        deal = table.deal
        assert deal is not None
        moves = [
            (s.user_id, a)
            for a in deal.legal_actions()
            if (s := table.seats[a.seat]) is not None and s.user_id and not s.robot_plays
        ]
        if not moves:
            continue
        on_turn = [m for m in moves if m[1].seat == deal.turn]
        moves = on_turn or moves
        action = pick([a for _, a in moves], rng)
        user = next(u for u, a in moves if a == action)
        assert user is not None
        await house.tables.act(
            table.id, user, action, deal_no=table.deal_no, trick_no=len(deal.tricks)
        )
        moved = True
        await settle(house)
    return moved


async def play_to_end(
    house: House, tournament_id: int, rng: random.Random, *, moves: int | None = None
) -> Tournament:
    """Play the tournament's tables until it is over (or for ``moves`` rounds of moves)."""
    await settle(house)
    done = 0
    while tournament_id in house.tournaments.tournaments:
        if moves is not None and done >= moves:
            break
        assert await move_once(house, tournament_id, rng), "a running tournament stands still"
        done += 1
    return await house.tournaments.load(tournament_id)


async def test_a_knockout_of_eight_plays_to_a_winner(house: House) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, MEMBERS)
    started = await house.tournaments.start(t.id, house.tournaments.clock(), by=HOST)
    assert started.status is TournamentStatus.RUNNING
    assert len([x for x in house.tables.tables.values() if x.tournament_id == t.id]) == 4

    done = await play_to_end(house, t.id, random.Random(1))

    assert done.status is TournamentStatus.FINISHED
    draw = done.draw
    assert draw is not None and draw.finished
    assert [len(draw.round_matches(n)) for n in (1, 2, 3)] == [4, 2, 1]
    assert done.winner in MEMBERS
    assert len(done.tables) == 7
    # each match went to a player of its table, and the winners met in the next round
    for round_no in (1, 2):
        winners = {m.winner for m in draw.round_matches(round_no)}
        assert winners == {e for m in draw.round_matches(round_no + 1) for e in m.players}
    row = await stored.load_tournament(house.db, t.id)
    assert row is not None and row.status == "finished"
    assert await stored.active_tournaments(house.db) == []


async def test_a_swiss_of_eight_plays_three_rounds(house: House) -> None:
    t = await open_tournament(house, Format.SWISS, MEMBERS, swiss_rounds=3)
    await house.tournaments.start(t.id, t.deadline)  # at the deadline

    done = await play_to_end(house, t.id, random.Random(2))

    assert done.status is TournamentStatus.FINISHED
    draw = done.draw
    assert draw is not None
    assert [len(draw.round_matches(n)) for n in (1, 2, 3)] == [4, 4, 4]
    assert all(m.winner is not None and not m.is_bye for m in draw.matches)
    assert sum(draw.wins().values()) == 12
    assert done.winner == draw.standings()[0][0]
    assert len(done.tables) == 12


async def test_a_restart_in_the_middle_goes_on_to_a_winner(path: Path, clock: Clock) -> None:
    rng = random.Random(3)
    house = await build(path, clock)
    t = await open_tournament(house, Format.KNOCKOUT, MEMBERS)
    await house.tournaments.start(t.id, clock(), by=HOST)
    await play_to_end(house, t.id, rng, moves=40)
    await stop(house)

    # the tables come back first, and one of them plays to its end before the tournaments
    # are back: its match is decided when they are
    house = await build(path, clock)
    await house.tables.restore()
    ours = [x for x in house.tables.tables.values() if x.tournament_id == t.id]
    assert ours, "its tables came back"
    table = ours[0]
    house.tables.game_over_listeners.clear()
    while table.status.is_open:
        await move_once(house, t.id, rng)
    before = (await house.tournaments.load(t.id)).draw
    assert before is not None
    decided_before = sum(m.winner is not None for m in before.matches)
    await stop(house)

    house = await build(path, clock, restore=True)
    try:
        back = house.tournaments.get(t.id)
        assert back.status is TournamentStatus.RUNNING
        assert back.draw is not None
        decided = sum(m.winner is not None for m in back.draw.matches)
        assert decided > decided_before, "the table that ended meanwhile decided its match"
        done = await play_to_end(house, t.id, rng)
        assert done.status is TournamentStatus.FINISHED
        assert done.winner in MEMBERS
        assert done.draw is not None and len(done.draw.matches) == 7
    finally:
        await stop(house)


async def test_sign_up_refusals(house: House, clock: Clock) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, [100, 101], max_entrants=3)

    with pytest.raises(TableError) as refused:
        await house.tournaments.sign_up(t.id, 100, "again")
    assert refused.value.key == "already_signed_up"
    await house.tournaments.sign_up(t.id, 102, "user102")
    with pytest.raises(TableError) as refused:
        await house.tournaments.sign_up(t.id, 103, "user103")
    assert refused.value.key == "tournament_full"
    with pytest.raises(TableError) as refused:
        await house.tournaments.withdraw(t.id, 103)
    assert refused.value.key == "not_signed_up"
    await house.tournaments.withdraw(t.id, 102)
    assert house.tournaments.get(t.id).entrant_ids() == [100, 101]
    with pytest.raises(TableError) as refused:
        await house.tournaments.start(t.id, clock())
    assert refused.value.key == "tournament_not_yet"
    with pytest.raises(TableError) as refused:
        await house.tournaments.start(t.id, clock(), by=100)
    assert refused.value.key == "host_only"

    await house.tournaments.start(t.id, clock(), by=HOST)
    with pytest.raises(TableError) as refused:
        await house.tournaments.sign_up(t.id, 103, "user103")
    assert refused.value.key == "tournament_started"
    with pytest.raises(TableError) as refused:
        await house.tournaments.withdraw(t.id, 100)
    assert refused.value.key == "tournament_started"

    lonely = await open_tournament(house, Format.KNOCKOUT, [104])
    with pytest.raises(TableError) as refused:
        await house.tournaments.start(lonely.id, clock(), by=HOST)
    assert refused.value.key == "tournament_too_few"
    # the sign-ups were saved: a new service reads them back
    row = await stored.load_tournament(house.db, lonely.id)
    assert row is not None and Tournament.from_row(row).entrant_ids() == [104]


async def test_an_odd_field_gives_a_bye_decided_at_once(house: House) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, [100, 101, 102])
    await house.tournaments.start(t.id, house.tournaments.clock(), by=HOST)

    draw = house.tournaments.get(t.id).draw
    assert draw is not None
    (bye,) = [m for m in draw.round_matches(1) if m.is_bye]
    assert bye.winner == bye.players[0] and BYE in bye.entrants
    (played,) = [m for m in draw.round_matches(1) if not m.is_bye]
    assert played.winner is None
    ours = [x for x in house.tables.tables.values() if x.tournament_id == t.id]
    assert len(ours) == 1 and sorted(ours[0].humans()) == sorted(played.players)
    assert ours[0].status is Status.PLAYING

    done = await play_to_end(house, t.id, random.Random(4))
    assert done.status is TournamentStatus.FINISHED
    assert done.draw is not None and bye.winner in done.draw.round_matches(2)[0].players


async def test_a_short_table_is_filled_with_robots(house: House) -> None:
    t = await house.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        variant=Variant.INDIVIDUAL,
        options=quick(Variant.INDIVIDUAL),
        format=Format.SWISS,
        swiss_rounds=1,
        deadline=0.0,
    )
    for user in (100, 101, 102, 103, 104, 105):
        await house.tournaments.sign_up(t.id, user, f"user{user}")
    await house.tournaments.start_due(house.tournaments.clock())

    ours = [x for x in house.tables.tables.values() if x.tournament_id == t.id]
    assert sorted(len(x.humans()) for x in ours) == [2, 4]
    short = next(x for x in ours if len(x.humans()) == 2)
    assert sum(1 for s in short.seats if s is not None and s.is_robot) == 2
    assert all(x.options.competitive and x.options.bet == 0 for x in ours)

    done = await play_to_end(house, t.id, random.Random(5))
    assert done.status is TournamentStatus.FINISHED
    assert done.draw is not None
    assert all(m.winner in m.players for m in done.draw.matches)


@pytest.mark.parametrize(
    ("acted", "game_winner", "expected"),
    [
        ((3, 0), 1, 100),  # the no-show's stand-in won: the member who played takes it
        ((0, 3), 0, 101),
        ((3, 3), 1, 101),  # both played: the game decides
        ((0, 0), 1, 101),  # neither showed: the game decides
    ],
)
async def test_a_no_show_never_takes_a_match_from_who_played(
    house: House, acted: tuple[int, int], game_winner: int, expected: int
) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, [100, 101])
    await house.tournaments.start(t.id, house.tournaments.clock(), by=HOST)
    tour = house.tournaments.get(t.id)
    assert tour.draw is not None
    (match,) = tour.draw.round_matches(1)
    (table,) = [x for x in house.tables.tables.values() if x.tournament_id == t.id]
    for user, n in zip((100, 101), acted, strict=True):
        seat = table.seats[table.seat_of(user) or 0]
        assert seat is not None
        seat.acted = n
    table.status, table.winner = Status.FINISHED, table.seat_of((100, 101)[game_winner])

    assert match_winner(match, table, tour.draw.entrants) == expected
