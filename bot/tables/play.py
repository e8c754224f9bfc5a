"""Play: the game's start, a member's action, the table's log of what happened, the end of
a deal and of the game, and what each of them saves and settles.

Every function here changes the table in memory only; the service saves what they return.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import Action, Deal, IllegalActionError, Kind, Result
from bot.engine.cards import POINTS
from bot.engine.game import Game, first_dealer

from .announcement import Announcement, Said
from .errors import TableError
from .events import Happened, LogEvent
from .model import Status, Table
from .settlement import Settlement, settle_deal, settle_game, stake_table
from .summary import DealSummary
from .turns import start_turn, update_pause
from .writes import Played, Write


def start(table: Table, clock: Callable[[], float], public_input: str | None = None) -> Write:
    """Fill the empty seats with robots, take the stakes and deal. ``public_input``: what
    the committed shuffle mixes in that the bot cannot choose (the Start click's id; None:
    nobody clicked, the table's id)."""
    table.public_input = f"table:{table.id}" if public_input is None else public_input
    for i in table.free_seats():
        table.seats[i] = table.new_robot(table.robot_level)
    table.move_to(Status.PLAYING)
    dealer = first_dealer(table.seed, table.players)
    table.game = Game(table.variant, table.options, dealer=dealer)
    table.add_log(LogEvent(Happened.STARTED))
    settlement = stake_table(table)
    _deal(table, clock)
    return Write(dealt=table.deal, settlement=settlement)


def member_action(
    table: Table, user_id: int, action: Action, *, deal_no: int, trick_no: int
) -> int:
    """Apply a member's action from a button; returns their seat. Refused when it comes
    from an earlier trick, when it is not theirs to take, or when the rules do not allow it."""
    deal = table.deal
    if table.status is not Status.PLAYING or deal is None:
        raise TableError("not_playing")
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("not_seated")
    if deal_no != table.deal_no or trick_no != len(deal.tricks):
        raise TableError("stale")
    if action.seat != seat:
        raise TableError("not_your_seat")
    occupant = table.seats[seat]
    assert occupant is not None
    if occupant.away:
        raise TableError("away")
    try:
        apply(table, deal, action)
    except IllegalActionError as exc:
        raise TableError.illegal(exc) from None
    occupant.missed = 0
    occupant.acted += 1
    return seat


def back(
    table: Table, user_id: int, clock: Callable[[], float], idle_timeout: float
) -> tuple[int, list[Announcement]]:
    """A member who was away plays again: their stand-in robot goes, the game resumes."""
    seat = table.seat_of(user_id)
    if seat is None or table.status is not Status.PLAYING:
        raise TableError("not_seated")
    occupant = table.seats[seat]
    assert occupant is not None
    if not occupant.away:
        raise TableError("not_away")
    occupant.away = False
    occupant.missed = 0
    occupant.robot = None
    table.add_log(LogEvent(Happened.BACK, occupant.who))
    announce: list[Announcement] = []
    update_pause(table, announce, clock, idle_timeout)
    start_turn(table, clock)
    return seat, announce


def apply(table: Table, deal: Deal, action: Action) -> None:
    """Apply an action to the deal and log it: each event once, as it happens (a swap
    when it is made: at an exchange, or at the win it waited for)."""
    swaps = len(deal.exchanges)
    deal.apply(action)
    _log_action(table, deal, action)
    log_swaps(table, deal, swaps)
    if action.kind is Kind.EXCHANGE and len(deal.exchanges) == swaps and deal.pending >= 0:
        who = table.who_at(action.seat)
        table.add_log(LogEvent(Happened.PUT_UNDER, who, cards=(deal.pending,)))


def log_swaps(table: Table, deal: Deal, since: int = 0) -> None:
    """Log the deal's swaps from the ``since``-th on: who took the turned card for which
    trump 7 (or 2). Everybody sees it made."""
    for swap in deal.exchanges[since:]:
        who = table.who_at(swap.seat)
        table.add_log(LogEvent(Happened.EXCHANGE, who, cards=(swap.gave, swap.took)))


def move_on(
    table: Table, actions: list[Action], clock: Callable[[], float], idle_timeout: float
) -> tuple[Write, list[Announcement]]:
    """After actions were applied: end the deal (and deal the next, or end the game), or
    start the turn clock of whoever plays next. Returns what to save: the actions ahead of
    the state they lead to."""
    deal = table.deal
    assert deal is not None
    announce: list[Announcement] = []
    settlement = Settlement()
    deal_over = deal.finished
    played = Played(
        deal_no=table.deal_no,
        first=len(deal.actions) - len(actions),
        actions=tuple(actions),
        ended=deal if deal_over else None,
    )
    if deal_over:
        settlement, announce = _end_deal(table, clock)
    elif table.turn_seat != deal.turn or table.turn_deadline is None:
        start_turn(table, clock)
    update_pause(table, announce, clock, idle_timeout)
    dealt = table.deal if deal_over and table.status is Status.PLAYING else None
    return Write(played=played, dealt=dealt, settlement=settlement), announce


def end_game(table: Table, status: Status) -> None:
    """The game is over: finished (its last deal stays, for the settlement and the
    view) or cancelled (the deal in play is dropped)."""
    table.move_to(status)
    if status is not Status.FINISHED:
        table.deal = None
    table.turn_seat = table.turn_deadline = None
    table.paused_until = None


def _deal(table: Table, clock: Callable[[], float]) -> None:
    game = table.game
    assert game is not None
    table.deal = Deal(game.deal_for(table.deal_rng()))
    log_swaps(table, table.deal)  # arrastrado: the automatic swap, as the deal ends
    table.cancel_votes.clear()
    start_turn(table, clock)


def summary_of(
    table: Table, deal: Deal, result: Result, rounds_before: tuple[int, ...]
) -> DealSummary:
    """What the summary of ``deal``, just ended and counted in the game, shows."""
    game = table.game
    assert game is not None
    return DealSummary(
        deal_no=table.deal_no,
        result=result,
        names=tuple(s.name if s else "?" for s in table.seats),
        taken=tuple(
            tuple(c for t in deal.tricks if deal.side_of[t.winner] == side for c in t.cards)
            for side in range(len(deal.sides))
        ),
        cantes=tuple((c.seat, c.suit, c.points) for c in deal.cantes),
        rounds_won=tuple(game.rounds_won),
        rounds_before=rounds_before,
        trump=deal.trump,
        carried=deal.dealt.carry or (),
    )


def _end_deal(table: Table, clock: Callable[[], float]) -> tuple[Settlement, list[Announcement]]:
    deal = table.deal
    game = table.game
    assert deal is not None and game is not None and deal.result is not None
    result = deal.result
    rounds_before = tuple(game.rounds_won)
    settlement = settle_deal(table, deal)
    game.end_deal(deal)
    summary = table.summary = summary_of(table, deal, result, rounds_before)
    announce = [Announcement(Said.DEAL_OVER, summary=summary)]
    if game.finished:
        table.winner = game.winner
        end_game(table, Status.FINISHED)
        settlement = settlement.merge(settle_game(table))
        announce.append(Announcement(Said.GAME_OVER, winner=game.winner))
        table.add_log(LogEvent(Happened.GAME_OVER))
    else:
        table.deal_no += 1
        _deal(table, clock)
        settlement = settlement.merge(stake_table(table, deal_only=True))
    return settlement, announce


DECLARED = {
    Kind.PASS: Happened.PASS,
    Kind.TUTE: Happened.TUTE,
    Kind.CAPOTE: Happened.CAPOTE,
    Kind.CLAIM: Happened.CLAIM,
    Kind.RESIGN: Happened.RESIGN,
}
"""The declarations the log tells by who made them alone (a swap tells its cards:
``log_swaps``)."""


def _log_action(table: Table, deal: Deal, action: Action) -> None:
    who = table.who_at(action.seat)
    kind = action.kind
    if kind is Kind.SING:
        points = deal.cantes[-1].points
        table.add_log(LogEvent(Happened.SANG, who, suit=action.arg, points=points))
    elif kind is Kind.PLAY:
        if not deal.trick and deal.tricks:
            trick = deal.tricks[-1]
            table.add_log(
                LogEvent(
                    Happened.TRICK,
                    table.who_at(trick.winner),
                    cards=tuple(trick.cards),
                    points=sum(POINTS[c] for c in trick.cards),
                )
            )
    elif kind is Kind.BID:
        table.add_log(LogEvent(Happened.BID, who, points=action.arg))
    elif kind in DECLARED:
        table.add_log(LogEvent(DECLARED[kind], who))
