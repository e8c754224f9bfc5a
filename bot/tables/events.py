"""What happens at a table, as typed events: the lines of its log (:class:`LogEvent`, saved
with the table; what is said in its channel apart is an ``Announcement``). They name who
did it (:class:`Who`: a member by their id, a robot by its number) and carry numbers, never
words: the Discord side turns each into a sentence of the catalog (``cogs/tables/said.py``),
so renaming a message never touches a saved table, and two players who show the same name
stay two.

A log saved before these events (a catalog key and its parameters) reads into them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class RobotId:
    """A robot at a table, by its number (Robot 2). The saved state names its seat
    ``robot:<number>``: this is the one place that writes that name and reads it back;
    everything else says the robot's number."""

    number: int

    PREFIX: ClassVar[str] = "robot:"

    @property
    def name(self) -> str:
        """The robot's seat name, as the saved state holds it (``robot:2``)."""
        return f"{self.PREFIX}{self.number}"

    @classmethod
    def parse(cls, name: str) -> RobotId | None:
        """The robot a saved name is (``robot:2`` -> Robot 2); None for any other name."""
        number = name.removeprefix(cls.PREFIX)
        return cls(int(number)) if number != name and number.isdecimal() else None

    @classmethod
    def seated(cls, name: str) -> RobotId:
        """The robot a robot's seat of that name holds: one saved without a number is 1."""
        return cls.parse(name) or cls(1)


@dataclass(frozen=True, slots=True)
class Who:
    """Someone at a table as an event names them: a member (``user_id``) with the name they
    had then, or a robot (``robot``: its number, Robot 2)."""

    name: str = ""
    user_id: int | None = None
    robot: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.robot is not None:
            return {"robot": self.robot}
        return {"name": self.name, "user_id": self.user_id}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Who:
        if data.get("robot") is not None:
            return cls(robot=int(data["robot"]))
        user_id = data.get("user_id")
        return cls(str(data.get("name", "?")), None if user_id is None else int(user_id))

    @classmethod
    def from_old_name(cls, name: str) -> Who:
        """A name as a log saved before these events held it (a robot's was ``robot:N``;
        a member's carried no id)."""
        robot = RobotId.parse(name)
        return cls(name) if robot is None else cls(robot=robot.number)


class Happened(Enum):
    """What a line of the log tells. The values are how the log is saved: never renamed."""

    OPENED = "opened"
    JOINED = "joined"
    LEFT = "left"
    NEW_HOST = "new_host"
    LEFT_PLAYING = "left_playing"
    """A member left a game in play: a robot plays for them (``stake``: what they lost)."""
    ROBOT_ADDED = "robot_added"
    ROBOT_REMOVED = "robot_removed"
    CLOSED = "closed"
    EXPIRED = "expired"
    STARTED = "started"
    BACK = "back"
    VOTE = "vote"
    CANCELLED = "cancelled"
    SANG = "sang"
    TRICK = "trick"
    BID = "bid"
    PASS = "pass"
    TUTE = "tute"
    EXCHANGE = "exchange"
    """The turned card taken for the trump 7 (or 2): ``cards`` is (the card given, the
    turned card taken); a line saved before it carried them has none."""
    PUT_UNDER = "put_under"
    """The trump 7 (or 2), ``cards``, put under the turned card: the swap waits for its
    holder's next win (habanero, ``exchange_window: announce``)."""
    CAPOTE = "capote"
    CLAIM = "claim"
    RESIGN = "resign"
    GAME_OVER = "game_over"
    TIMEOUT = "timeout"
    AWAY = "away"
    ABANDONED = "abandoned"
    PAUSED = "paused"
    RESUMED = "resumed"
    IDLE_CANCELLED = "idle_cancelled"


_NUMBERS = ("suit", "points", "votes", "needed", "stake")
"""The numbers a log line may carry (each only where its kind has it)."""


@dataclass(frozen=True, slots=True)
class LogEvent:
    """A line of the table's log: what happened, who did it, and its numbers (a cante's
    ``suit`` and ``points``, a trick's ``cards``, a swap's (the card given, then the card
    taken), a bid, the votes to cancel, a lost ``stake``), or the ``level`` of a robot
    seated."""

    what: Happened
    who: Who | None = None
    suit: int | None = None
    points: int | None = None
    cards: tuple[int, ...] = ()
    votes: int | None = None
    needed: int | None = None
    stake: int | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Only what the event has (a number it lacks is None, and not written)."""
        data: dict[str, Any] = {"what": self.what.value}
        if self.who is not None:
            data["who"] = self.who.to_json()
        for name in _NUMBERS:
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.cards:
            data["cards"] = list(self.cards)
        if self.level is not None:
            data["level"] = self.level
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LogEvent:
        if "key" in data:
            return cls._from_old(str(data["key"]), dict(data.get("params", {})))
        who = data.get("who")
        return cls(
            Happened(data["what"]),
            None if who is None else Who.from_json(who),
            cards=tuple(data.get("cards", ())),
            level=data.get("level"),
            **{name: data[name] for name in _NUMBERS if name in data},
        )

    @classmethod
    def _from_old(cls, key: str, params: dict[str, Any]) -> LogEvent:
        """A line saved as a catalog key and its parameters (``tables.log.sang``...)."""
        what = key.rpartition(".")[2].removesuffix("_stake")
        name = params.pop("name", None)
        return cls(
            Happened(what),
            None if name is None else Who.from_old_name(str(name)),
            cards=tuple(params.pop("cards", ())),
            level=params.pop("level", None),
            **{k: int(v) for k, v in params.items() if k in _NUMBERS},
        )
