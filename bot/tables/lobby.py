"""The lobby: a new table, who sits where, the host's robots, and its closing (by the host,
by nobody seeing it, or by time); a member's own deal in their DMs, and its one press at a
time (``Dealing``).

Every function here checks and changes the table in memory only; the service holds the
lock, checks chips in the database and saves.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Final

from bot.engine import Options, Variant
from bot.storage.settings import HandDelivery

from .announcement import Announcement, Said
from .errors import TableError
from .events import Happened, LogEvent
from .model import DEFAULT_ROBOT, ROBOT_LEVELS, Level, Seat, Status, Table


def alone_options(turn_time: int) -> Options:
    """A member's table in their DMs (a daily or a practice deal): a friendly game of one
    deal, with ``turn_time`` a turn, that nobody else joins or watches."""
    return Options(
        rounds=1, bet=0, competitive=False, private=True, spectators=False, turn_time=turn_time
    )


Deliver = Callable[[], Awaitable[int]]
"""Sends a member's own deal (a daily or a practice deal) its first word in their DMs and
gives the DMs' channel, where the deal is then played; raises when that could not be sent,
and nothing is dealt."""


class Dealing:
    """The members whose own deal in their DMs (a daily or a practice deal) is being dealt:
    from the first check, through its first word sent to their DMs, to its table started.
    A second press meanwhile (two clicks at once) is refused (``dealing``) before it sends
    anything."""

    def __init__(self) -> None:
        self._members: set[int] = set()

    @contextlib.contextmanager
    def __call__(self, user_id: int) -> Iterator[None]:
        if user_id in self._members:
            raise TableError("dealing")
        self._members.add(user_id)
        try:
            yield
        finally:
            self._members.discard(user_id)


NO_SERVER: Final = 0
"""The server of a table that belongs to none (a practice deal in a member's DMs): no
server's limit of open tables counts it. Discord's shard 0, which receives DMs, holds it."""


def alone(table: Table) -> bool:
    """Whether a table is one member's own deal in their DMs (a daily or a practice deal),
    with robots alone: nobody else joins, sees or closes it; it ends with its deal, or when
    its member leaves it or lets it wait too long."""
    return table.daily or table.guild_id == NO_SERVER


def may_open(open_tables: list[Table], host_id: int, max_tables: int) -> None:
    """A member hosts one table at a time; a server has at most ``max_tables`` open. A
    member's own deal in their DMs (:func:`alone`) counts for neither: it takes no seat
    anybody else could want, and holding one, its member may host a table in any server
    (and playing the daily or a practice deal is not refused to a host)."""
    may_host(counted(open_tables), host_id)
    may_seat(open_tables, max_tables)


def counted(open_tables: list[Table]) -> list[Table]:
    """The tables a server's limit and its hosts count: not its members' own deals."""
    return [t for t in open_tables if not alone(t)]


def may_seat(open_tables: list[Table], max_tables: int) -> None:
    """Refused (``too_many_tables``) while the server has ``max_tables`` open (its members'
    own deals not counted)."""
    if len(counted(open_tables)) >= max_tables:
        raise TableError("too_many_tables", limit=max_tables)


def may_host(open_tables: list[Table], host_id: int) -> None:
    """Refused (``already_hosting``) while the member hosts one of these tables."""
    for other in open_tables:
        if other.host_id == host_id:
            raise TableError("already_hosting", table=other.id)


def new_table(
    *,
    guild_id: int,
    channel_id: int,
    host: Seat,
    variant: Variant,
    options: Options,
    language: str,
    invited: list[int] | None,
    hand_delivery: HandDelivery,
    robot_level: Level = DEFAULT_ROBOT,
    rematch_of: int | None = None,
    seed: int,
    now: float,
    deadline: float,
) -> Table:
    """A lobby with its host in the first seat (its id comes with its first save)."""
    assert host.user_id is not None
    seats: list[Seat | None] = [None] * options.seats_at(variant)
    seats[0] = host
    table = Table(
        id=0,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host.user_id,
        variant=variant,
        options=options,
        language=language,
        created_at=now,
        seats=seats,
        invited=sorted(set(invited or [])),
        hand_delivery=hand_delivery,
        robot_level=robot_level,
        rematch_of=rematch_of,
        seed=seed,
        lobby_deadline=deadline,
    )
    table.add_log(LogEvent(Happened.OPENED, host.who))
    return table


def host_in_lobby(table: Table, user_id: int) -> None:
    """What only the host may do, and only before the game."""
    in_lobby(table)
    if user_id != table.host_id:
        raise TableError("host_only")


def in_lobby(table: Table) -> None:
    if table.status is not Status.LOBBY:
        raise TableError("not_lobby")


def seat_for(table: Table, user_id: int, team: int | None) -> tuple[int | None, int]:
    """Where a member joining would sit: ``(the seat they leave, the seat they take)``.
    Only a member of a pairs table changing team may move."""
    in_lobby(table)
    if table.options.private and user_id != table.host_id and user_id not in table.invited:
        raise TableError("not_invited")
    current = table.seat_of(user_id)
    free = table.free_seats()
    if team is not None and table.variant is Variant.PAIRS:
        free = [i for i in free if i % 2 == team]
    elif current is not None:
        raise TableError("already_seated")
    if not free:
        raise TableError("team_full" if team is not None else "table_full")
    return current, free[0]


def sit(table: Table, seat: Seat, at: int, *, moving_from: int | None) -> None:
    if moving_from is not None:
        table.seats[moving_from] = None
    table.seats[at] = seat
    table.add_log(LogEvent(Happened.JOINED, seat.who))


def add_robot(table: Table, user_id: int, level: str | None, seat: int | None) -> None:
    """The host seats a robot of ``level`` (None: the table's own level)."""
    host_in_lobby(table, user_id)
    if level is None:
        level = table.robot_level
    if level not in ROBOT_LEVELS:
        raise TableError("bad_level")
    level = Level(level)
    free = table.free_seats()
    if seat is not None:
        free = [s for s in free if s == seat]
    if not free:
        raise TableError("table_full")
    table.seats[free[0]] = table.new_robot(level)
    table.add_log(LogEvent(Happened.ROBOT_ADDED, level=level.value))


def remove_robot(table: Table, user_id: int) -> None:
    """The host takes back the last robot seated."""
    host_in_lobby(table, user_id)
    robots = [i for i, s in enumerate(table.seats) if s is not None and s.is_robot]
    if not robots:
        raise TableError("no_robot")
    table.seats[robots[-1]] = None
    table.add_log(LogEvent(Happened.ROBOT_REMOVED))


def close(table: Table) -> None:
    table.move_to(Status.CLOSED)
    table.add_log(LogEvent(Happened.CLOSED))


def expire(table: Table, lobby_timeout: float) -> list[Announcement]:
    """Nobody started the game in time."""
    table.move_to(Status.CLOSED)
    table.add_log(LogEvent(Happened.EXPIRED))
    minutes = int(lobby_timeout // 60)
    return [Announcement(Said.EXPIRED, minutes=minutes)]
