"""A rematch: the same game again, at the same table. The first member of a finished game
to ask opens its lobby and hosts it; the robots sit down again where they sat, turned so
that the host takes the first seat (partners stay partners); every other member of the game
is invited, and sits down by asking too. The options and the stakes are the same; each
member's chips are checked again when they sit down."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.storage.privacy import is_pseudonym

from .errors import TableError
from .model import DEFAULT_ROBOT, Status, Table


def check_may_ask(old: Table, user_id: int) -> int:
    """The seat the member had in the finished game ``old``; refused when they cannot ask
    for its rematch. A daily deal is played once: it has none."""
    if old.daily:
        raise TableError("daily_rematch")
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
    """The other members who played the finished game to its end: invited to its rematch
    (a former player, whose data was erased, is nobody to invite)."""
    return [
        s.user_id
        for s in old.seats
        if s is not None
        and s.human
        and s.user_id is not None
        and s.user_id != user_id
        and not is_pseudonym(s.user_id)
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


@dataclass(frozen=True, slots=True)
class Rematch:
    """What a member's asking for a rematch does: sit down in the lobby another member
    opened (``lobby_id``, in ``team``), or open it with ``opening`` and seat its robots
    (``robots``: level and seat)."""

    since: tuple[float | None, float | None]
    lobby_id: int | None = None
    team: int | None = None
    opening: dict[str, Any] = field(default_factory=dict[str, Any])
    robots: tuple[tuple[str, int], ...] = ()


def plan(old: Table, user_id: int, open_tables: list[Table]) -> Rematch:
    """What the member's asking for the rematch of ``old`` does now (the table service
    does it, under the lock of rematches)."""
    seat = check_may_ask(old, user_id)
    had = old.seats[seat]
    since = (None, None) if had is None else (had.account_created, had.joined_server)
    found = lobby_of(open_tables, old.id)
    if found is not None:
        team = found.team_of(turned(old, old.seat_of(found.host_id) or 0, seat))
        return Rematch(since, lobby_id=found.id, team=team)
    robots = tuple(
        ((occupant.robot or DEFAULT_ROBOT).value, turned(old, seat, robot_seat))
        for robot_seat, occupant in enumerate(old.seats)
        if occupant is not None and occupant.is_robot
    )
    opening = {**again(old), "rematch_of": old.id, "invited": others(old, user_id)}
    return Rematch(since, opening=opening, robots=robots)
