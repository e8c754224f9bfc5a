"""A table: where it lives, who sits, its options, the game's progress and its clocks.

Everything here is plain data that round-trips through JSON; the deal in play is rebuilt
from the table's seed and its action log (the log is the source of truth).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Final

from bot.ai import Level
from bot.engine import Deal, Game, Options, Variant, parse_options
from bot.engine.dealing import Shuffler
from bot.engine.game import Payout
from bot.engine.shuffle import CHAIN, SHORT, VERSION, CommittedShuffle, commitment, deal_seed
from bot.engine.variants import sides_of
from bot.storage.settings import HandDelivery

from .events import LogEvent, RobotId, Who
from .ratings import RatingChange
from .summary import DealSummary


class Status(str, Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (Status.LOBBY, Status.PLAYING)

    def may_become(self, other: Status) -> bool:
        return other in _NEXT[self]


_NEXT: dict[Status, frozenset[Status]] = {
    Status.LOBBY: frozenset({Status.PLAYING, Status.CLOSED}),
    Status.PLAYING: frozenset({Status.FINISHED, Status.CANCELLED}),
    Status.FINISHED: frozenset(),
    Status.CLOSED: frozenset(),
    Status.CANCELLED: frozenset(),
}
"""A table's life, every move it may make: a lobby starts or closes; a game finishes or is
cancelled; the ends are final."""


class StatusError(RuntimeError):
    """A move a table's status may not make (a bug: the service checks first)."""


ROBOT_LEVELS = tuple(Level)
DEFAULT_ROBOT = Level.HARD
STAND_IN_ROBOT = Level.NORMAL
"""The level that plays for a player whose time ran out, or who left."""


@dataclass(slots=True)
class Seat:
    """A seat: a member (``user_id``) or a robot (``user_id`` None). A member who left or
    is away has a robot standing in (``robot`` set)."""

    name: str
    user_id: int | None = None
    robot: Level | None = None
    away: bool = False
    left: bool = False
    missed: int = 0
    acted: int = 0
    """Actions the member took themself at this table (not their stand-in's): a tournament
    match goes to an entrant who played over one who never showed."""
    locale: str = "en"
    """The member's Discord language, for their DMs."""
    notify: bool = True
    """Tell the member when their turn comes after others played (``/tute notify``)."""
    account_created: float | None = None
    """When the member's Discord account was made (seconds since the epoch; None: unknown),
    and when they joined the server: rated play may ask both to be old enough."""
    joined_server: float | None = None
    hints: int = 0
    """Hints the member asked for in this game, one per decision (``hints``)."""
    hinted: str = ""
    """The decision last hinted, "<deal>:<actions so far>" (asked again, not counted)."""

    @classmethod
    def for_robot(cls, number: int, level: Level | None = None) -> Seat:
        """The seat of Robot ``number``, playing at ``level``."""
        return cls(name=RobotId(number).name, robot=level)

    @property
    def who(self) -> Who:
        """Who sits here, as an event names them (a robot by its number)."""
        robot = self.robot_no
        return Who(self.name, self.user_id) if robot is None else Who(robot=robot)

    @property
    def robot_no(self) -> int | None:
        """A robot's number (Robot 2); None for a member."""
        return RobotId.seated(self.name).number if self.user_id is None else None

    @property
    def is_robot(self) -> bool:
        return self.user_id is None

    @property
    def human(self) -> bool:
        """A member who is present and plays for themself."""
        return self.user_id is not None and not self.left

    @property
    def robot_plays(self) -> bool:
        """A robot decides this seat's actions (a robot seat, or a stand-in)."""
        return self.user_id is None or self.left or self.away

    def to_json(self) -> dict[str, Any]:
        """Every field, in order, as ``dataclasses.asdict`` gives them but without its deep
        copy (each value is a plain immutable one; ``robot``, a str Enum, is written as its
        value by ``json``)."""
        return {name: getattr(self, name) for name in SEAT_FIELDS}


SEAT_FIELDS: Final = tuple(f.name for f in fields(Seat))
"""The fields of a seat, in the order its JSON lists them."""

_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""``json.dumps(..., separators=(",", ":"))``, built once. The state has no cycles to look
for (a cycle would still fail, with a RecursionError)."""


LOG_LENGTH = 6


def table_secret(seed: int) -> bytes:
    """The end of a table's chain of seeds, from its own seed: never shown (each deal's
    seed is revealed when the deal is over, and tells nothing of the next)."""
    return hashlib.sha256(f"tute shuffle:{seed}".encode()).digest()


def table_commitment(seed: int) -> str:
    """The commitment of a table of this seed (64 hex digits), shown before it deals."""
    return commitment(table_secret(seed))


class Seating:
    """Who sits where, read the same way from a table and from its views."""

    __slots__ = ()
    variant: Variant
    options: Options
    seats: Sequence[Seat | None]
    channel_id: int

    @property
    def players(self) -> int:
        """The seats at the table: the variant's players, or four at an arrastrado table
        with ``seats: 4`` (the dealer sits each deal out)."""
        return self.options.seats_at(self.variant)

    def who_at(self, seat: int) -> Who:
        """Who sits in ``seat``, as an event names them."""
        occupant = self.seats[seat]
        return occupant.who if occupant is not None else Who("?")

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id and not seat.left:
                return i
        return None

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and s.human and s.user_id]

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def team_of(self, seat: int) -> int | None:
        """The pair a seat plays in, where seats play in pairs."""
        sides = sides_of(self.variant)
        if len(sides[0]) == 1:
            return None
        return next(i for i, side in enumerate(sides) if seat in side)


@dataclass(frozen=True, slots=True)
class GameTally:
    """What a finished game gave each member (user id): chips won (lost, when negative) and
    experience."""

    chips: dict[int, int]
    xp: dict[int, int]
    places: dict[int, tuple[int, int]] = field(default_factory=dict[int, tuple[int, int]])
    """Each member's place on the server's chips board, before the game and after it."""
    ratings: dict[int, RatingChange] = field(default_factory=dict[int, RatingChange])
    """Each rated member's skill rating before the game and after it."""


@dataclass(slots=True)
class Table(Seating):
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: Variant
    options: Options
    language: str
    created_at: float
    seats: list[Seat | None]
    status: Status = Status.LOBBY
    invited: list[int] = field(default_factory=list[int])
    hand_delivery: HandDelivery = "dm"
    """"dm": each hand by direct message; "ephemeral": players open it with My hand."""
    robot_level: Level = DEFAULT_ROBOT
    """How well the robots the host seats play (Add robot, and the seats left at the start)."""
    seed: int = 0
    deal_no: int = 0
    lobby_deadline: float = 0.0
    turn_deadline: float | None = None
    turn_seat: int | None = None
    turn_left: float | None = None
    """Seconds that were left on the clock when the bot stopped (resumed on restart)."""
    paused_until: float | None = None
    """Every member at the table is away: nothing moves until one is back; at this time
    the game is cancelled (stakes back)."""
    cancel_votes: list[int] = field(default_factory=list[int])
    stakes: dict[int, int] = field(default_factory=dict[int, int])
    log: list[LogEvent] = field(default_factory=list[LogEvent])
    summary: DealSummary | None = None
    """The last finished deal, for its summary."""
    winner: int | None = None
    game: Game | None = None
    deal: Deal | None = None
    rematch_of: int | None = None
    """The finished table this lobby plays again (same seats, options and stakes)."""
    tournament_id: int | None = None
    """The tournament whose match this table plays (None: an ordinary table). Written only
    when set, so that the state of an ordinary table reads as before."""
    shuffle: int = VERSION
    """How its deals are shuffled (``bot.engine.shuffle``): 2, committed; 1, the older
    shuffle of a table saved before there was another (it deals on as it began)."""
    public_input: str = ""
    """What its committed shuffle mixes in that the bot cannot choose, set at the start
    (docs/game-records.md): ``discord:`` and the Start click's id, ``web:`` and the card
    table's nonce; ``daily:`` the server and the day; ``table:`` its id where nobody
    clicked (a tournament's match)."""
    daily: bool = False
    """The table plays a member's daily deal (``bot.tables.daily``): once, alone in their
    DMs; never listed, never played again. Written only when set, as ``tournament_id``."""
    tally: GameTally | None = None
    """What the game gave each member, once it is over (shown with the result; not saved)."""
    _options_json: tuple[Options, str] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """The JSON of ``options``, and the options object it was written for (frozen: the same
    object always writes the same JSON). Not saved."""
    _summary_json: tuple[DealSummary, str] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """The JSON of ``summary``, and the summary it was written for (frozen too). Not saved."""
    _commitment: str | None = field(default=None, init=False, repr=False, compare=False)
    """The commitment of the seed it was computed for. Not saved."""

    # ------------------------------------------------------------------ queries

    def new_robot(self, level: Level) -> Seat:
        """A robot to seat, numbered the lowest no robot at the table goes by (two robots
        never share a number, whichever left before)."""
        taken = {s.robot_no for s in self.seats if s is not None}
        number = 1
        while number in taken:
            number += 1
        return Seat.for_robot(number, level)

    def stake_of(self, user_id: int) -> int:
        """The chips a member has at stake here (none on a friendly table)."""
        return self.stakes.get(user_id, 0) if self.options.competitive else 0

    def offers_hints(self) -> bool:
        """A friendly table, and no tournament's match: its players may ask for hints."""
        return not self.options.competitive and self.tournament_id is None

    def present(self) -> list[int]:
        """Members at the table who play their own cards (not away, not gone)."""
        return [
            s.user_id for s in self.seats if s is not None and s.human and not s.away and s.user_id
        ]

    def all_away(self) -> bool:
        """Members sit at the table, and every one of them is away."""
        return bool(self.humans()) and not self.present()

    def deal_rng(self) -> Shuffler:
        """The shuffle of this deal: the same table seed, public input and deal number give
        the same deal. Committed (its seed from the table's chain) where the table deals so,
        else the older shuffle."""
        if self.committed(self.deal_no):
            return CommittedShuffle(deal_seed(self.secret(), self.deal_no), self.public_input)
        return random.Random(f"{self.seed}:{self.deal_no}")

    def committed(self, deal_no: int) -> bool:
        """Deal ``deal_no`` is dealt by the committed shuffle."""
        return self.shuffle == VERSION and deal_no < CHAIN

    def secret(self) -> bytes:
        """The end of the table's chain of seeds (:func:`table_secret`)."""
        return table_secret(self.seed)

    @property
    def commitment(self) -> str | None:
        """The table's commitment, 64 hex digits (None: the older shuffle)."""
        if self.shuffle != VERSION:
            return None
        if self._commitment is None:  # a table's seed never changes
            self._commitment = table_commitment(self.seed)
        return self._commitment

    @property
    def short_commitment(self) -> str | None:
        """The commitment as the table shows it: its first 12 hex digits."""
        full = self.commitment
        return None if full is None else full[:SHORT]

    def shuffle_record(self, deal_no: int, *, reveal: bool) -> dict[str, Any]:
        """The ``shuffle`` of deal ``deal_no``'s record: its seed only when ``reveal`` (the
        deal is over)."""
        if not self.committed(deal_no):
            return {"version": 1}
        record: dict[str, Any] = {
            "version": 2,
            "commitment": self.commitment,
            "input": self.public_input,
            "deal_no": deal_no,
        }
        if reveal:
            record["seed"] = deal_seed(self.secret(), deal_no).hex()
        return record

    def move_to(self, status: Status) -> None:
        """The one way a table's status changes, along ``_NEXT``."""
        if not self.status.may_become(status):
            raise StatusError(
                f"table {self.id} cannot go from {self.status.value} to {status.value}"
            )
        self.status = status

    def add_log(self, event: LogEvent) -> None:
        self.log.append(event)
        del self.log[:-LOG_LENGTH]

    # ------------------------------------------------------------ persistence

    def state_json(self) -> str:
        """Everything but the actions of the deal in play (those are the log).

        The JSON is ``json.dumps(state, separators=(",", ":"))`` of one dict whose keys run
        from "options" to "game"; the options' and the summary's JSON are written once per
        object (both are frozen) and spliced in where they stand in that dict."""
        game = self.game
        middle: dict[str, Any] = {
            "language": self.language,
            "created_at": self.created_at,
            "seats": [None if s is None else s.to_json() for s in self.seats],
            "invited": self.invited,
            "hand_delivery": self.hand_delivery,
            "robot_level": self.robot_level,
            "seed": self.seed,
            "deal_no": self.deal_no,
            "lobby_deadline": self.lobby_deadline,
            "turn_deadline": self.turn_deadline,
            "turn_seat": self.turn_seat,
            "turn_left": self.turn_left,
            "paused_until": self.paused_until,
            "cancel_votes": self.cancel_votes,
            "stakes": {str(k): v for k, v in self.stakes.items()},
            "log": [e.to_json() for e in self.log],
        }
        end: dict[str, Any] = {
            "winner": self.winner,
            "rematch_of": self.rematch_of,
            **({} if self.tournament_id is None else {"tournament_id": self.tournament_id}),
            **({"daily": True} if self.daily else {}),
            **(
                {"shuffle": VERSION, "public_input": self.public_input}
                if self.shuffle == VERSION
                else {}
            ),
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
        encode = _ENCODER.encode
        return (
            f'{{"options":{self._options_text()},{encode(middle)[1:-1]},'
            f'"summary":{self._summary_text()},{encode(end)[1:]}'
        )

    def _options_text(self) -> str:
        cached = self._options_json
        if cached is None or cached[0] is not self.options:
            cached = self._options_json = (
                self.options,
                _ENCODER.encode(self.options.to_dict(variant=self.variant)),
            )
        return cached[1]

    def _summary_text(self) -> str:
        summary = self.summary
        if summary is None:
            return "null"
        cached = self._summary_json
        if cached is None or cached[0] is not summary:
            cached = self._summary_json = (summary, _ENCODER.encode(summary.to_json()))
        return cached[1]

    @classmethod
    def from_state(
        cls,
        *,
        table_id: int,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        status: str,
        state: str,
    ) -> Table:
        data = json.loads(state)
        v = Variant(variant)
        table = cls(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            variant=v,
            options=parse_options(v, data["options"], named=False),
            language=data["language"],
            created_at=data["created_at"],
            seats=[None if s is None else _seat(s) for s in data["seats"]],
            status=Status(status),
            invited=list(data["invited"]),
            hand_delivery="ephemeral" if data.get("hand_delivery") == "ephemeral" else "dm",
            robot_level=Level(data.get("robot_level", DEFAULT_ROBOT.value)),
            seed=data["seed"],
            deal_no=data["deal_no"],
            lobby_deadline=data["lobby_deadline"],
            turn_deadline=data["turn_deadline"],
            turn_seat=data["turn_seat"],
            turn_left=data["turn_left"],
            paused_until=data.get("paused_until"),
            cancel_votes=list(data["cancel_votes"]),
            stakes={int(k): v for k, v in data["stakes"].items()},
            log=[LogEvent.from_json(e) for e in data["log"]],
            summary=None if data["summary"] is None else DealSummary.from_json(data["summary"]),
            winner=data["winner"],
            rematch_of=data.get("rematch_of"),
            tournament_id=data.get("tournament_id"),
            daily=bool(data.get("daily", False)),
            shuffle=int(data.get("shuffle", 1)),
            public_input=data.get("public_input", ""),
        )
        game = data["game"]
        if game is not None:
            carry = game["carry"]
            table.game = Game(
                v,
                table.options,
                dealer=game["dealer"],
                rounds_won=list(game["rounds_won"]),
                carry=None if carry is None else (carry[0], carry[1]),
                deals_in_round=game["deals_in_round"],
                pot=game["pot"],
            )
        return table


_OLD_SEAT_FIELDS: Final = ("dm_channel_id", "dm_message_id", "dm_closed", "dm_message_v2")
"""Where a hand's DM lived, saved with the seat before migration 10 moved it out."""


def _seat(data: dict[str, Any]) -> Seat:
    robot = data.get("robot")
    kept = {k: v for k, v in data.items() if k not in _OLD_SEAT_FIELDS}
    return Seat(**{**kept, "robot": Level(robot) if robot else None})


def payout_to_dict(payout: Payout) -> dict[str, Any]:
    return {"seats": list(payout.seats), "bank": payout.bank, "pot": payout.pot}
