"""Leaving and votes: a member leaving the lobby or the game, a vote to cancel by agreement,
and the end of a game that everyone left, or that waited too long for anyone to come back.

Every function here changes the table in memory only and returns the chips that move; the
service saves them with the table.
"""

from __future__ import annotations

from collections.abc import Callable

from .announcement import Announcement, Said
from .errors import TableError
from .events import Happened, LogEvent, Who
from .model import STAND_IN_ROBOT, Status, Table
from .play import end_game
from .settlement import Settlement, settle_forfeit, settle_refund
from .turns import update_pause


def terms(table: Table, user_id: int) -> tuple[str, int]:
    """What leaving would do now, for the question before it: ``(case, stake)``.
    ``lobby``: just the seat; ``close``: the host is the last member in the lobby, so the
    table closes; ``robot``: a robot plays on, the stake is lost; ``end``: nobody is left,
    the game ends and the stake goes to the bank; ``tournament``: a tournament's match, which
    leaving forfeits, and the tournament with it."""
    seat = table.seat_of(user_id)
    if seat is None or not table.status.is_open:
        raise TableError("not_seated")
    if table.status is Status.LOBBY:
        return ("close" if _closes_lobby(table, user_id) else "lobby"), 0
    stake = table.stake_of(user_id)
    if table.tournament_id is not None:
        return "tournament", stake
    others = [uid for uid in table.humans() if uid != user_id]
    return ("robot" if others else "end"), stake


def leaver_seat(table: Table, user_id: int, *, from_lobby: bool) -> int:
    """The seat of a member who asks to leave. A click from the lobby does not leave a game
    that has started since (that would forfeit the stake unasked)."""
    seat = table.seat_of(user_id)
    if from_lobby and table.status is not Status.LOBBY:
        raise TableError("already_started")
    if seat is None or not table.status.is_open:
        raise TableError("not_seated")
    return seat


def leave_lobby(table: Table, seat: int, user_id: int) -> list[Announcement]:
    """The seat is free again; a host who leaves hands the table to the next member, and
    the last member to leave closes it."""
    occupant = table.seats[seat]
    assert occupant is not None
    announce: list[Announcement] = []
    closes = _closes_lobby(table, user_id)
    table.seats[seat] = None
    table.add_log(LogEvent(Happened.LEFT, occupant.who))
    if closes:
        table.move_to(Status.CLOSED)
        announce.append(Announcement(Said.CLOSED_EMPTY))
    elif user_id == table.host_id:
        new_host = table.humans()[0]
        table.host_id = new_host
        table.add_log(LogEvent(Happened.NEW_HOST, who_of(table, new_host)))
    return announce


def _closes_lobby(table: Table, user_id: int) -> bool:
    """Whether this member getting up closes the lobby: the host, with no other member
    seated (robots leave with the table)."""
    return user_id == table.host_id and not any(u != user_id for u in table.humans())


def leave_game(
    table: Table, seat: int, user_id: int, clock: Callable[[], float], idle_timeout: float
) -> tuple[Settlement, list[Announcement]]:
    """A robot plays on for the leaver, whose stake is forfeit; the game ends when no member
    is left, or when everyone left had voted to cancel."""
    occupant = table.seats[seat]
    assert occupant is not None
    announce: list[Announcement] = []
    occupant.left = True
    occupant.robot = STAND_IN_ROBOT
    if user_id in table.cancel_votes:
        table.cancel_votes.remove(user_id)
    if user_id == table.host_id and table.humans():
        table.host_id = table.humans()[0]
    stake = table.stake_of(user_id)
    settlement = settle_forfeit(table, user_id)
    if not table.humans():
        # nobody is left to play with: the game ends here; the leaver's stake goes to
        # the bank (a forfeit), anyone else's comes back
        settlement = settlement.merge(settle_refund(table))
        end_game(table, Status.CANCELLED)
        table.add_log(LogEvent(Happened.ABANDONED, occupant.who, stake=stake or None))
        announce.append(Announcement(Said.ABANDONED, occupant.who, stake=stake))
        return settlement, announce
    table.add_log(LogEvent(Happened.LEFT_PLAYING, occupant.who, stake=stake))
    if table.cancel_votes and set(table.humans()) <= set(table.cancel_votes):
        # everyone still at the table had voted to cancel: now it is agreed
        settlement = settlement.merge(settle_refund(table))
        _cancel(table, announce)
    else:
        update_pause(table, announce, clock, idle_timeout)
    return settlement, announce


def vote_terms(table: Table, user_id: int) -> tuple[int, int, bool]:
    """What a vote to cancel would do now: ``(votes still missing after it, stake, whether
    it is a leave)`` (see :func:`is_a_leave`)."""
    _may_vote(table, user_id)
    missing = len(set(table.humans()) - set(table.cancel_votes) - {user_id})
    stake = table.stake_of(user_id)
    return missing, stake, is_a_leave(table, user_id)


def is_a_leave(table: Table, user_id: int) -> bool:
    """Whether a vote to cancel counts as leaving: the only member at the table, alone with
    robots, once the game's first trick is over. Their vote alone would be the whole
    agreement, and a game going badly would give its stake back; so, as when leaving, the
    stake goes to the bank. Before the first trick, or with other members to agree, a
    vote cancels and gives every stake back."""
    if table.humans() != [user_id]:
        return False
    return table.deal_no > 1 or (table.deal is not None and bool(table.deal.tricks))


def vote(
    table: Table, user_id: int, clock: Callable[[], float], idle_timeout: float
) -> tuple[Settlement, list[Announcement]]:
    """Cancel by agreement: every human at the table votes yes; robots do not vote. A vote
    that is a leave (:func:`is_a_leave`) is one."""
    _may_vote(table, user_id)
    if is_a_leave(table, user_id):
        seat = table.seat_of(user_id)
        assert seat is not None
        return leave_game(table, seat, user_id, clock, idle_timeout)
    table.cancel_votes.append(user_id)
    table.add_log(
        LogEvent(
            Happened.VOTE,
            who_of(table, user_id),
            votes=len(table.cancel_votes),
            needed=len(table.humans()),
        )
    )
    announce: list[Announcement] = []
    settlement = Settlement()
    if set(table.humans()) <= set(table.cancel_votes):
        settlement = settle_refund(table)
        _cancel(table, announce)
    return settlement, announce


def cancel_idle(table: Table, idle_timeout: float) -> tuple[Settlement, list[Announcement]]:
    """The game waited, paused, for a member to come back, and nobody did: every stake
    comes back."""
    end_game(table, Status.CANCELLED)
    table.add_log(LogEvent(Happened.IDLE_CANCELLED))
    minutes = round(idle_timeout / 60)
    announce = [Announcement(Said.IDLE_CANCELLED, minutes=minutes)]
    return settle_refund(table), announce


def who_of(table: Table, user_id: int) -> Who:
    seat = table.seat_of(user_id)
    occupant = table.seats[seat] if seat is not None else None
    return occupant.who if occupant is not None else Who(str(user_id), user_id)


def _cancel(table: Table, announce: list[Announcement]) -> None:
    end_game(table, Status.CANCELLED)
    table.add_log(LogEvent(Happened.CANCELLED))
    announce.append(Announcement(Said.CANCELLED))


def _may_vote(table: Table, user_id: int) -> None:
    if table.status is not Status.PLAYING:
        raise TableError("not_playing")
    if table.seat_of(user_id) is None:
        raise TableError("not_seated")
    if user_id in table.cancel_votes:
        raise TableError("already_voted")
