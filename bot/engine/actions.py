"""Actions a seat can take, and the refusal of an illegal one.

Actions are interned: ``Action.play(seat, card)`` always returns the same object, and the
plays a mask allows are looked up whole (``PLAY_TABLE``), so the hot path of a playout
allocates nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar, Final, cast

from .cards import CODES, N_CARDS, SUITS, parse_card, parse_suit


class Kind(IntEnum):
    """Kinds of action, in the order the referee lists them."""

    PLAY = 0
    SING = 1
    TUTE = 2
    EXCHANGE = 3
    CAPOTE = 4
    CLAIM = 5
    RESIGN = 6
    BID = 7
    PASS = 8


KIND_KEYS: Final = {
    Kind.PLAY: "play",
    Kind.SING: "sing",
    Kind.TUTE: "tute",
    Kind.EXCHANGE: "exchange",
    Kind.CAPOTE: "capote",
    Kind.CLAIM: "claim",
    Kind.RESIGN: "resign",
    Kind.BID: "bid",
    Kind.PASS: "pass",
}
_KIND_BY_KEY: Final = {key: kind for kind, key in KIND_KEYS.items()}

MIN_BID: Final = 101
MAX_BID: Final = 230
MAX_SEATS: Final = 4


@dataclass(frozen=True, slots=True)
class Action:
    """One action: ``arg`` is the card for a play, the suit for a sing, the points of a bid."""

    seat: int
    kind: Kind
    arg: int = -1
    sort_key: tuple[int, int, int] = field(default=(0, 0, 0), compare=False, repr=False)

    _table: ClassVar[dict[tuple[int, int, int], Action]] = {}

    @staticmethod
    def of(seat: int, kind: Kind, arg: int = -1) -> Action:
        found = Action._table.get((seat, kind, arg))
        if found is None:
            raise ValueError(f"no such action: seat {seat}, {kind.name.lower()} {arg}")
        return found

    @staticmethod
    def play(seat: int, card: int) -> Action:
        return _PLAYS[seat][card]

    @staticmethod
    def sing(seat: int, suit: int) -> Action:
        return Action.of(seat, Kind.SING, suit)

    @staticmethod
    def simple(seat: int, kind: Kind) -> Action:
        """tute, exchange, capote, claim, resign or pass."""
        return Action.of(seat, kind)

    @staticmethod
    def bid(seat: int, points: int) -> Action:
        """A bid; one outside the contracts (``MIN_BID`` to ``MAX_BID``) is a new object,
        read from a record only to be refused."""
        found = Action._table.get((seat, Kind.BID, points))
        return found or Action(seat, Kind.BID, points, _sort_key(seat, Kind.BID, points))

    def to_json(self) -> dict[str, Any]:
        key = KIND_KEYS[self.kind]
        value: Any
        if self.kind is Kind.PLAY:
            value = CODES[self.arg]
        elif self.kind is Kind.SING:
            value = SUITS[self.arg]
        elif self.kind is Kind.BID:
            value = self.arg
        else:
            value = True
        return {"seat": self.seat, key: value}

    def __reduce__(self) -> tuple[Callable[[int, int, int], Action], tuple[int, int, int]]:
        """Pickled as its three numbers, and unpickled as the one shared instance: a robot's
        view crosses to a worker process with its history in a few bytes an action."""
        return (_action_of, (self.seat, int(self.kind), self.arg))

    def __str__(self) -> str:
        data = self.to_json()
        key = KIND_KEYS[self.kind]
        value = data[key]
        return f"seat {self.seat} {key}" + ("" if value is True else f" {value}")


def _action_of(seat: int, kind: int, arg: int) -> Action:
    if kind == Kind.BID:
        return Action.bid(seat, arg)
    return Action.of(seat, Kind(kind), arg)


def _sort_key(seat: int, kind: Kind, arg: int) -> tuple[int, int, int]:
    if kind is Kind.PLAY:
        # strongest first; equal strengths in suit order O, C, E, B
        return (seat, kind, (9 - arg % 10) * 4 + arg // 10)
    if kind is Kind.BID:
        return (seat, kind, arg)
    return (seat, kind, max(arg, 0))


def _intern(seat: int, kind: Kind, arg: int = -1) -> Action:
    action = Action(seat, kind, arg, _sort_key(seat, kind, arg))
    Action._table[(seat, kind, arg)] = action  # pyright: ignore[reportPrivateUsage]
    return action


_PLAYS: Final = tuple(
    tuple(_intern(seat, Kind.PLAY, c) for c in range(N_CARDS)) for seat in range(MAX_SEATS)
)
for _seat in range(MAX_SEATS):
    for _suit in range(4):
        _intern(_seat, Kind.SING, _suit)
    for _kind in (Kind.TUTE, Kind.EXCHANGE, Kind.CAPOTE, Kind.CLAIM, Kind.RESIGN, Kind.PASS):
        _intern(_seat, _kind)
    for _points in range(MIN_BID, MAX_BID + 1):
        _intern(_seat, Kind.BID, _points)

# Plays are looked up, not built (``Deal.legal_actions``): one tuple of interned actions per
# seat, suit and the 10-bit slice of a play mask for that suit, strongest card first, at
# ``seat << 12 | suit << 10 | slice``; filled lazily by ``play_chunk``.
PLAY_TABLE: Final[list[tuple[Action, ...]]] = [()] * (MAX_SEATS * 4 * 1024)


def play_chunk(index: int) -> tuple[Action, ...]:
    """The plays at ``PLAY_TABLE[index]``, put there."""
    seat, suit, chunk = index >> 12, index >> 10 & 3, index & 1023
    found = tuple(
        Action.play(seat, suit * 10 + bit) for bit in range(9, -1, -1) if chunk >> bit & 1
    )
    PLAY_TABLE[index] = found
    return found


def auction_actions(seat: int, high_bid: int) -> list[Action]:
    """What the seat on turn in the auction may do: bid above ``high_bid``, or pass."""
    acts = [Action.bid(seat, p) for p in range(max(MIN_BID, high_bid + 1), MAX_BID + 1)]
    acts.append(Action.simple(seat, Kind.PASS))
    return acts


class ActionFormatError(ValueError):
    """A JSON action that is not of the record format."""


def action_from_json(data: Any) -> Action:
    """Read ``{"seat": 0, "play": "1O"}`` and its kin (REFEREE.md)."""
    if not isinstance(data, dict):
        raise ActionFormatError("an action must be an object")
    data = cast(dict[str, Any], data)
    seat = data.get("seat")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS:
        raise ActionFormatError(f"action {data!r} needs a seat number")
    keys = [k for k in data if k != "seat"]  # pyright: ignore[reportUnknownVariableType]
    if len(keys) != 1 or keys[0] not in _KIND_BY_KEY:
        raise ActionFormatError(
            f"action {data!r} must have exactly one of: {', '.join(_KIND_BY_KEY)}"
        )
    key: str = keys[0]  # pyright: ignore[reportUnknownVariableType]
    kind = _KIND_BY_KEY[key]
    value: Any = data[key]
    try:
        if kind is Kind.PLAY:
            return Action.play(seat, parse_card(value))
        if kind is Kind.SING:
            return Action.sing(seat, parse_suit(value))
    except ValueError as exc:
        raise ActionFormatError(f"action {data!r}: {exc}") from None
    if kind is Kind.BID:  # a number out of the contracts' range is an illegal action
        if isinstance(value, bool) or not isinstance(value, int):
            raise ActionFormatError(f"action {data!r}: a bid is a number of points")
        return Action.bid(seat, value)
    if value is not True:
        raise ActionFormatError(f"action {data!r}: {key} takes the value true")
    return Action.simple(seat, kind)


class IllegalActionError(ValueError):
    """An action the rules do not allow now. ``reason`` is a stable code, ``params`` its data;
    ``str()`` says why in words."""

    def __init__(self, reason: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params
