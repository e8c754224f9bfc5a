"""Whose move it is: the one place that says whether a robot acts now and whether a member
may still declare. The clock (when to wake), the robots (who plays) and the read side (what
may wait for the robot's play) all ask here."""

from __future__ import annotations

from bot.engine import Deal, Kind

from .model import Table

OPTIONAL = frozenset({Kind.SING, Kind.TUTE, Kind.CAPOTE, Kind.CLAIM, Kind.EXCHANGE})
"""What a robot may do out of turn, or choose not to do."""


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
