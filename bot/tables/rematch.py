"""A rematch: the same game again, at the same table. The first member of a finished game
to ask opens its lobby and hosts it; the robots sit down again where they sat, turned so
that the host takes the first seat (partners stay partners); every other member of the game
is invited, and sits down by asking too. The options and the stakes are the same; each
member's chips are checked again when they sit down."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import TableError
from .model import DEFAULT_ROBOT, Status, Table
from .views import Outcome

if TYPE_CHECKING:
    from .service import TableService


def check_may_ask(old: Table, user_id: int) -> int:
    """The seat the member had in the finished game ``old``; refused when they cannot ask
    for its rematch."""
    if old.status is not Status.FINISHED:
        raise TableError("not_finished")
    for seat, occupant in enumerate(old.seats):
        if occupant is not None and occupant.user_id == user_id:
            return seat
    raise TableError("not_seated")


def turned(old: Table, host_seat: int, seat: int) -> int:
    """Where an old seat sits in the rematch, the host now in the first one."""
    return (seat - host_seat) % old.players


def others(old: Table, user_id: int) -> list[int]:
    """The other members who played the finished game to its end: invited to its rematch."""
    return [
        s.user_id
        for s in old.seats
        if s is not None and s.human and s.user_id is not None and s.user_id != user_id
    ]


def again(old: Table) -> dict[str, Any]:
    """What the rematch keeps of the finished game: where, what and how it is played."""
    return {
        "guild_id": old.guild_id,
        "channel_id": old.channel_id,
        "variant": old.variant,
        "options": old.options,
        "language": old.language,
        "hand_delivery": old.hand_delivery,
        "robot_level": old.robot_level,
    }


def lobby_of(tables: list[Table], old_id: int) -> Table | None:
    """The open lobby of the rematch of ``old_id``, if one was opened."""
    return next((t for t in tables if t.rematch_of == old_id and t.status is Status.LOBBY), None)


async def open_or_join(
    service: TableService, old: Table, user_id: int, name: str, *, locale: str, max_tables: int
) -> tuple[Outcome, bool]:
    """The member asks for the rematch of ``old``: they sit down in its lobby, or open it
    (and host it) when nobody has yet. The caller holds the lock of rematches."""
    seat = check_may_ask(old, user_id)
    had = old.seats[seat]
    since = (None, None) if had is None else (had.account_created, had.joined_server)
    found = lobby_of(list(service.tables.values()), old.id)
    if found is not None:
        team = found.team_of(turned(old, old.seat_of(found.host_id) or 0, seat))
        joined = await service.join(found.id, user_id, name, team=team, locale=locale, since=since)
        return joined, False
    view = await service.open_table(
        **again(old),
        rematch_of=old.id,
        host_id=user_id,
        host_name=name,
        invited=others(old, user_id),
        max_tables=max_tables,
        host_locale=locale,
        host_since=since,
    )
    for robot_seat, occupant in enumerate(old.seats):
        if occupant is not None and occupant.is_robot:
            level = (occupant.robot or DEFAULT_ROBOT).value
            where = turned(old, seat, robot_seat)
            await service.add_robot(view.id, user_id, level, where)
    show = service.redraw(view.id)
    assert show is not None  # a lobby just opened stays in memory
    return Outcome(show), True
