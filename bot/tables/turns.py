"""Whose move it is: the one place that says whether a robot acts now and whether a member
may still declare, and how a member's turn is timed (its clock, the pause when every member
is away). The clock (when to wake), the robots (who plays), the play and the read side (what
may wait for the robot's play) all ask here."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import Action, Deal, Kind, SeatView

from .announcement import Announcement, Said
from .events import Happened, LogEvent
from .model import Status, Table

OPTIONAL = frozenset({Kind.SING, Kind.TUTE, Kind.CAPOTE, Kind.CLAIM, Kind.EXCHANGE})
"""What a robot may do out of turn, or choose not to do."""
TURN_KINDS = frozenset({Kind.PLAY, Kind.BID, Kind.PASS})
"""What takes a seat's turn: a card, a bid or a pass (declarations only go with it)."""


def turn_fallback(view: SeatView) -> Action | None:
    """What a seat plays when its robot's search gave nothing legal: the last of the actions
    that take its turn (None where it has none)."""
    taking = [a for a in view.legal if a.kind in TURN_KINDS]
    return taking[-1] if taking else None


def robot_on_turn(table: Table, deal: Deal) -> bool:
    """The seat on turn is played by a robot and has something to do now (never while the
    game is paused)."""
    if table.paused_until is not None:
        return False
    turn = deal.turn
    occupant = table.seats[turn]
    if occupant is None or not occupant.robot_plays:
        return False
    return any(a.seat == turn and a.kind is not Kind.RESIGN for a in deal.legal_actions())


def human_may_declare(table: Table, deal: Deal) -> bool:
    """A member may still sing or declare tute: a robot about to lead gives them time."""
    for action in deal.legal_actions():
        occupant = table.seats[action.seat]
        if (
            action.kind in (Kind.SING, Kind.TUTE)
            and occupant is not None
            and not occupant.robot_plays
        ):
            return True
    return False


def start_turn(table: Table, clock: Callable[[], float]) -> None:
    """Set the turn clock for the human whose turn it is (robots have none). ``clock`` is
    read only if a clock starts, as the time of that moment."""
    deal = table.deal
    table.turn_seat = None
    table.turn_deadline = None
    if deal is None or deal.finished:
        return
    seat = deal.turn
    occupant = table.seats[seat]
    if occupant is not None and not occupant.robot_plays:
        table.turn_seat = seat
        table.turn_deadline = clock() + table.options.turn_time


def update_pause(
    table: Table, announce: list[Announcement], clock: Callable[[], float], idle_timeout: float
) -> None:
    """Pause the game when every member at the table is away (no robot plays their
    cards for them unseen); resume it when one is back. ``clock`` is read only if the
    pause begins."""
    if table.status is not Status.PLAYING:
        table.paused_until = None
        return
    if table.all_away():
        if table.paused_until is None:
            table.paused_until = clock() + idle_timeout
            table.add_log(LogEvent(Happened.PAUSED))
            announce.append(
                Announcement(
                    Said.PAUSED, minutes=round(idle_timeout / 60), until=int(table.paused_until)
                )
            )
    elif table.paused_until is not None:
        table.paused_until = None
        table.add_log(LogEvent(Happened.RESUMED))
