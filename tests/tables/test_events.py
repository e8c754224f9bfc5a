"""The table's log and announcements as typed events (bot/tables/events.py): saved and read
back as they were, a log saved as catalog keys (before the events) read into them, and who
did it told by id, not by name."""

from __future__ import annotations

import json

import pytest

from bot.tables.events import Happened, LogEvent, RobotId, Who
from bot.tables.model import Seat

EVERY_KIND = [
    LogEvent(Happened.OPENED, Who("Ana", 10)),
    LogEvent(Happened.ROBOT_ADDED, level="hard"),
    LogEvent(Happened.LEFT_PLAYING, Who("Luis", 11), stake=50),
    LogEvent(Happened.VOTE, Who("Ana", 10), votes=1, needed=2),
    LogEvent(Happened.SANG, Who(robot=2), suit=0, points=40),
    LogEvent(Happened.TRICK, Who(robot=1), cards=(15, 13, 21), points=2),
    LogEvent(Happened.BID, Who("Ana", 10), points=80),
    LogEvent(Happened.PAUSED),
]


@pytest.mark.parametrize("event", EVERY_KIND, ids=lambda e: e.what.value)
def test_an_event_reads_back_as_it_was_saved(event: LogEvent) -> None:
    saved = json.loads(json.dumps(event.to_json()))
    assert LogEvent.from_json(saved) == event
    assert "key" not in saved and "tables." not in json.dumps(saved), "no catalog key saved"


@pytest.mark.parametrize(
    ("old", "event"),
    [
        (
            {"key": "tables.log.opened", "params": {"name": "Alicia"}},
            LogEvent(Happened.OPENED, Who("Alicia")),
        ),
        (
            {
                "key": "tables.log.trick",
                "params": {"name": "robot:3", "cards": [1, 2], "points": 11},
            },
            LogEvent(Happened.TRICK, Who(robot=3), cards=(1, 2), points=11),
        ),
        (
            {"key": "tables.log.left_playing_stake", "params": {"name": "Luis", "stake": 50}},
            LogEvent(Happened.LEFT_PLAYING, Who("Luis"), stake=50),
        ),
        (
            {"key": "tables.log.robot_added", "params": {"level": "easy"}},
            LogEvent(Happened.ROBOT_ADDED, level="easy"),
        ),
        ({"key": "tables.log.started", "params": {}}, LogEvent(Happened.STARTED)),
    ],
)
def test_a_log_saved_as_catalog_keys_reads_into_events(
    old: dict[str, object], event: LogEvent
) -> None:
    assert LogEvent.from_json(old) == event


def test_who_is_told_by_id_and_a_robot_by_its_number() -> None:
    """A member may show a robot's name (``robot:2``): they stay a member; two members of
    one name stay two."""
    mimic = Seat("robot:2", user_id=77)
    assert mimic.who == Who("robot:2", 77) and mimic.who.robot is None
    assert mimic.robot_no is None
    robot = Seat("robot:2")
    assert robot.who == Who(robot=2) and robot.robot_no == 2
    assert Seat("Ana", user_id=1).who != Seat("Ana", user_id=2).who


@pytest.mark.parametrize("number", [1, 2, 9, 10, 123])
def test_a_robots_saved_name_round_trips(number: int) -> None:
    """The saved state names a robot's seat ``robot:<number>``, written and read in one
    place: its number comes back as it went, on the seat and in the events."""
    robot = RobotId(number)
    assert robot.name == f"robot:{number}" and RobotId.parse(robot.name) == robot
    seat = Seat.for_robot(number)
    assert seat.name == robot.name and seat.robot_no == number
    assert seat.who == Who(robot=number) == Who.from_old_name(robot.name)


@pytest.mark.parametrize("name", ["Ana", "robot:", "robot:x", "robot:2b", "Robot:2", "robot:²"])
def test_a_name_that_is_no_robots_is_a_members(name: str) -> None:
    assert RobotId.parse(name) is None
    assert Who.from_old_name(name) == Who(name)
    assert RobotId.seated(name) == RobotId(1), "a robot's seat saved without a number"
