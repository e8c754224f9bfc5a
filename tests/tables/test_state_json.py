"""A table's saved state: the JSON ``Table.state_json`` writes is, byte for byte, what it
wrote when each seat was ``dataclasses.asdict`` and the whole went through one
``json.dumps``, and it restores every seat field as it was."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict, fields, replace
from typing import Any

import pytest

from bot.ai import Level
from bot.engine import Contract, End, Game, Options, Result, Scoring, Variant
from bot.tables.events import Happened, LogEvent, Who
from bot.tables.model import Seat, Status, Table
from bot.tables.summary import DealSummary
from tests.tables._play import restored

MEMBER = 1_100_000_000_000_000_003
AWAY = 1_100_000_000_000_000_004
LEFT = 1_100_000_000_000_000_005


def every_kind_of_seat() -> list[Seat | None]:
    """A member, a robot, an empty seat, and an away member with
    a robot standing in."""
    return [
        Seat(
            name="Alicia",
            user_id=MEMBER,
            locale="es-ES",
        ),
        Seat(name="robot:1", robot=Level.HARD),
        None,
        Seat(
            name="Bernardo",
            user_id=AWAY,
            robot=Level.NORMAL,
            away=True,
            missed=2,
            locale="fr",
            notify=False,
        ),
    ]


def lobby() -> Table:
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=MEMBER,
        variant=Variant.PAIRS,
        options=Options(),
        language="es",
        created_at=1_800_000_000.5,
        seats=every_kind_of_seat(),
        invited=[AWAY],
        hand_delivery="ephemeral",
        lobby_deadline=1_800_000_600.0,
    )


def in_play() -> Table:
    """The table in its second deal: a game, a summary of the first deal, a log, stakes;
    the empty seat is now a member who left (a robot plays for them)."""
    options = Options(bet=50, turn_time=90, scoring=Scoring.SIXTY_FIVE, allow_tute=False)
    table = replace(lobby(), options=options, status=Status.PLAYING)
    table.seats[2] = Seat(name="Carmen", user_id=LEFT, robot=Level.EASY, left=True)
    table.seed, table.deal_no = 1_473_362_194_664_956_953, 2
    table.turn_deadline, table.turn_seat, table.turn_left = 1_800_000_090.0, 3, 12.5
    table.cancel_votes = [MEMBER]
    table.stakes = {MEMBER: 50, AWAY: 50, LEFT: 50}
    table.game = Game(Variant.PAIRS, options, dealer=1, rounds_won=[1, 0], carry=(0, 30))
    table.add_log(LogEvent(Happened.OPENED, Who("Alicia", MEMBER)))
    table.add_log(LogEvent(Happened.TRICK, Who(robot=1), cards=(15, 13, 21), points=2))
    table.summary = DealSummary(
        deal_no=1,
        result=Result(
            end=End.CARDS,
            sides=((0, 2), (1, 3)),
            card_points=(80, 40),
            cantes=(20, 0),
            last_trick=0,
            scores=(100, 40),
            winner=0,
            double=True,
            contract=Contract(seat=0, points=70),
            contract_made=True,
            auction=True,
        ),
        names=("Alicia", "robot:1", "Carmen", "Bernardo"),
        taken=((35, 38, 30, 24), (25, 23, 1, 2)),
        cantes=((0, 3, 20),),
        rounds_won=(1, 0),
        rounds_before=(0, 0),
        trump=3,
    )
    return table


def as_asdict_wrote_it(table: Table) -> str:
    """``state_json`` as it was written before: every seat through ``dataclasses.asdict``,
    the options and the summary built at every call, one ``json.dumps``."""
    game = table.game
    data: dict[str, Any] = {
        "options": table.options.to_dict(),
        "language": table.language,
        "created_at": table.created_at,
        "seats": [None if s is None else asdict(s) for s in table.seats],
        "invited": table.invited,
        "hand_delivery": table.hand_delivery,
        "robot_level": table.robot_level,
        "seed": table.seed,
        "deal_no": table.deal_no,
        "lobby_deadline": table.lobby_deadline,
        "turn_deadline": table.turn_deadline,
        "turn_seat": table.turn_seat,
        "turn_left": table.turn_left,
        "paused_until": table.paused_until,
        "cancel_votes": table.cancel_votes,
        "stakes": {str(k): v for k, v in table.stakes.items()},
        "log": [e.to_json() for e in table.log],
        "summary": None if table.summary is None else table.summary.to_json(),
        "winner": table.winner,
        "rematch_of": table.rematch_of,
        **({"shuffle": 2, "public_input": table.public_input} if table.shuffle == 2 else {}),
        "game": None
        if game is None
        else {
            "dealer": game.dealer,
            "rounds_won": game.rounds_won,
            "carry": game.carry,
            "deals_in_round": game.deals_in_round,
            "pot": game.pot,
        },
    }
    return json.dumps(data, separators=(",", ":"))


TABLES = [lobby, in_play]


@pytest.mark.parametrize("make", TABLES, ids=["lobby", "in play"])
def test_the_seats_are_written_as_asdict_wrote_them(make: Callable[[], Table]) -> None:
    table = make()
    seats = json.loads(table.state_json())["seats"]
    expected = [None if s is None else asdict(s) for s in table.seats]
    assert seats == expected
    for written, seat in zip(seats, table.seats, strict=True):
        if seat is not None:
            assert list(written) == [f.name for f in fields(Seat)]
            robot = None if seat.robot is None else seat.robot.value
            assert written["robot"] == robot and type(written["robot"]) is type(robot)


@pytest.mark.parametrize("make", TABLES, ids=["lobby", "in play"])
def test_the_state_is_byte_for_byte_what_it_was(make: Callable[[], Table]) -> None:
    table = make()
    assert table.state_json() == as_asdict_wrote_it(table)
    assert table.state_json() == as_asdict_wrote_it(table)  # the reused parts too


@pytest.mark.parametrize("make", TABLES, ids=["lobby", "in play"])
def test_every_seat_field_restores(make: Callable[[], Table]) -> None:
    table = make()
    state = table.state_json()
    back = restored(table, state)
    assert len(back.seats) == len(table.seats)
    for seat, again in zip(table.seats, back.seats, strict=True):
        if seat is None:
            assert again is None
            continue
        assert again is not None
        for f in fields(Seat):
            assert getattr(again, f.name) == getattr(seat, f.name), f.name
        assert again.robot is None or type(again.robot) is Level
    assert back.options == table.options and back.summary == table.summary
    assert back.state_json() == state


def test_changes_show_in_the_next_state() -> None:
    """The options' and the summary's JSON are reused only while they are the same objects;
    the seats are read afresh at every call."""
    table = in_play()
    before = table.state_json()
    seat = table.seats[0]
    assert seat is not None
    seat.acted, seat.missed = 99, 1
    table.options = replace(table.options, turn_time=120)
    summary = table.summary
    assert summary is not None
    table.summary = replace(summary, deal_no=2, trump=1)
    table.log.append(LogEvent(Happened.STARTED))
    after = table.state_json()
    assert after != before and after == as_asdict_wrote_it(table)
    data = json.loads(after)
    assert data["options"]["turn_time"] == 120 and data["summary"]["trump"] == 1
    assert data["seats"][0]["acted"] == 99
    table.summary = None
    assert table.state_json() == as_asdict_wrote_it(table)
    assert json.loads(table.state_json())["summary"] is None


@pytest.mark.parametrize("level", list(Level), ids=[lv.value for lv in Level])
def test_the_robots_level_restores(level: Level) -> None:
    table = replace(lobby(), robot_level=level)
    assert restored(table, table.state_json()).robot_level is level


def test_a_table_saved_before_robot_levels_restores_with_hard_robots() -> None:
    table = lobby()
    data = json.loads(table.state_json())
    del data["robot_level"]
    assert restored(table, json.dumps(data)).robot_level is Level.HARD


def test_a_state_saved_with_where_its_messages_lived_reads_without_them() -> None:
    """Before version 10, the state held the table's thread and messages and each seat's DM
    hand: they now live with the Discord side (``table_places``), and the state reads as
    if they were never there."""
    table = in_play()
    data = json.loads(table.state_json())
    data.update(thread_id=3, message_id=4, play_message_id=5, play_message_deal=2)
    data["play_message_v2"] = True
    data["seats"][0].update(dm_channel_id=10, dm_message_id=11, dm_closed=True, dm_message_v2=True)
    back = Table.from_state(
        table_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        variant=table.variant.value,
        status=table.status.value,
        state=json.dumps(data),
    )
    assert back.state_json() == table.state_json()


def test_a_daily_table_restores_as_one_and_an_older_state_as_none() -> None:
    """The daily flag is written only where it is set: an ordinary table's state, and one
    saved before the flag, read as not daily."""
    daily = replace(in_play(), daily=True)
    assert json.loads(daily.state_json())["daily"] is True
    assert restored(daily, daily.state_json()).daily
    ordinary = in_play()
    assert "daily" not in json.loads(ordinary.state_json())
    assert not restored(ordinary, ordinary.state_json()).daily


def test_an_older_state_deals_on_with_the_older_shuffle() -> None:
    """A table saved before the committed shuffle (no ``shuffle`` in its state) reads as
    dealing with the older one, and deals the cards it dealt before; a new one writes its
    shuffle and its public input, and reads back committed."""
    table = replace(in_play(), public_input="discord:1")
    state = json.loads(table.state_json())
    assert (state["shuffle"], state["public_input"]) == (2, "discord:1")
    again = restored(table, table.state_json())
    assert (again.shuffle, again.public_input) == (2, "discord:1")
    assert again.commitment == table.commitment is not None
    del state["shuffle"], state["public_input"]
    older = restored(table, json.dumps(state))
    assert older.shuffle == 1 and older.commitment is None
    deck = list(range(40))
    older.deal_rng().shuffle(deck)
    expected = list(range(40))
    random.Random(f"{table.seed}:{table.deal_no}").shuffle(expected)
    assert deck == expected
