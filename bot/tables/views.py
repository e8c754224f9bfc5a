"""The read side of a table: what each person may see of it, and what must be redrawn.

The cogs render these and nothing else. A :class:`TableView` holds what everybody at the
table sees (no hand in it, only how many cards each seat holds); a :class:`HandView` holds
one seat's own cards and what that seat may do now, and why the rest is refused; a
:class:`Show` says, after a change, which messages to redraw and how edits merge. Each view
is a snapshot: the presenter may keep it while it retries, the table goes on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bot.engine import (
    Action,
    Cante,
    Contract,
    Deal,
    IllegalActionError,
    Kind,
    Options,
    Phase,
    Variant,
    seat_view,
)
from bot.engine.events import exchange_card
from bot.engine.variants import sides_of
from bot.storage.settings import HandDelivery

from .announcement import Announcement
from .errors import TableError
from .events import LogEvent
from .history import past_trick
from .model import GameTally, Level, Seat, Seating, Status, Table
from .summary import DealSummary
from .turns import TURN_KINDS, human_may_declare, robot_on_turn


@dataclass(frozen=True, slots=True)
class LastTrick:
    cards: tuple[tuple[int, int], ...]
    """(seat, card) in the order they were played."""
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class DealView:
    """What everybody sees of the deal in play: the trump, the trick, the stock, the cantes,
    the scores, and how many cards each seat holds (never which)."""

    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    auction: bool
    trump: int
    turned: int
    """The card that named trumps."""
    face_up: int | None
    """The card that lies face up on the table: the turned card under the stock, or the
    card left out of play (arrastrado with 40 cards)."""
    table_card: int | None
    stock_left: int | None
    """Cards in the stock, where the variant has one (habanero); None where it has none."""
    turn: int
    trick: tuple[tuple[int, int], ...]
    """(seat, card) of the trick in play."""
    trick_no: int
    """How many tricks are over (the trick in play is the next one)."""
    last_trick: LastTrick | None
    cantes: tuple[Cante, ...]
    scores: tuple[int, ...]
    """Each side's points now (cards and cantes)."""
    card_points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    contract: Contract | None
    capote_seat: int | None
    high_bid: int
    swap_by: int | None = None
    """The trump 7 (or 2) that may still take the turned card from the table (arrastrado,
    the exchange by hand, before the first lead); None where none may."""


@dataclass(frozen=True, slots=True)
class TableView(Seating):
    """A table as everybody sees it: who sits, its options and clocks, the
    log, the last deal's summary, and the deal in play (while it plays)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: Variant
    options: Options
    language: str
    status: Status
    seats: tuple[Seat | None, ...]
    hand_delivery: HandDelivery
    robot_level: Level
    deal_no: int
    lobby_deadline: float
    turn_deadline: float | None
    paused_until: float | None
    log: tuple[LogEvent, ...]
    summary: DealSummary | None
    winner: int | None
    rounds_won: tuple[int, ...] | None
    """Rounds each side has won (None before the game starts)."""
    deal: DealView | None
    """The deal in play: only while the table plays."""
    tally: GameTally | None = None
    """What a finished game gave each member."""
    invited: tuple[int, ...] = ()
    tournament_id: int | None = None
    """The tournament whose match this table plays (None: an ordinary table)."""
    daily: bool = False
    """The table plays a member's daily deal: it has no rematch and is not listed."""
    commitment: str | None = None
    """The first 12 hex digits of the commitment to its shuffle, shown before it deals
    (None: a table of the older shuffle)."""

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The game's sides (at a four-seat arrastrado table, each seat)."""
        return sides_of(self.variant, len(self.seats))

    def away_seats(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.seats) if s is not None and s.away)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a card of the hand may not be played now: a catalog key and its parameters."""

    card: int
    key: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's own hand and what it may do now, for that seat's player only."""

    table_id: int
    seat: int
    occupant: Seat | None
    deal_no: int
    trick_no: int
    """The trick the hand was drawn for: a click on an older hand is stale."""
    playing: bool
    """The table plays a deal (else the hand shows how the game ended)."""
    cards: tuple[int, ...]
    """The cards in the seat's hand, in order."""
    playable: frozenset[int]
    refusals: tuple[Refusal, ...]
    """Why each card not playable now is refused (on the seat's turn to play)."""
    declarations: tuple[Action, ...]
    """What the seat may do besides playing a card: sing, bid, exchange..."""
    your_turn: bool
    """The seat is to play a card or bid now."""
    may_declare: bool
    """The seat may declare something now, out of its turn to play."""
    trump: int
    exchange_card: int
    """The card an exchange takes (the turned card)."""
    target: int
    stock_left: int | None
    trick: tuple[tuple[int, int], ...]
    turn_deadline: float | None
    may_wait: bool = False
    """Nothing in it can be clicked now and a robot plays in a moment: its message may wait
    for that play (one edit instead of two)."""
    exchange_gives: int = -1
    """The trump 7 (or 2) an exchange gives for the turned card (-1: no exchange now)."""
    notify: bool = False
    """Their turn has just come, after others played: tell them (once), in a way that
    notifies (a message, where an edit notifies nobody)."""
    sits_out: bool = False
    """The seat deals this deal and sits it out, without cards (arrastrado with four at the
    table)."""
    hint: bool = False
    """The player may ask what the hard robot would do (their turn, at a friendly table)."""

    @property
    def left(self) -> bool:
        return self.occupant is not None and self.occupant.left

    @property
    def robot_plays(self) -> bool:
        return self.occupant is not None and self.occupant.robot_plays

    @property
    def away(self) -> bool:
        return self.occupant is not None and self.occupant.away

    @property
    def usable(self) -> bool:
        """Something in it can be clicked now."""
        return bool(self.playable or self.declarations)


@dataclass(frozen=True, slots=True)
class Show:
    """What to redraw after a change, decided here so the presenter only renders and
    delivers: the public messages (or not yet: a robot plays in a moment and its play shows
    both in one edit), each member's hand; and what happened to the table as a whole, which
    the table's message says."""

    table: TableView
    hands: tuple[HandView, ...]
    """One per seat with a member (present, away or gone), in seat order."""
    public: bool
    announce: tuple[Announcement, ...]
    summary_pictured: bool
    """The last deal's summary under the table shows its picture: until the first trick of
    the next deal is over, and at the end. Its few lines stay through the deal."""
    new_lobby: bool = False
    """The lobby was opened outside the chat (from the web table): the chat posts its
    message in the table's channel (a ``/tute new`` lobby is its command's answer)."""

    def hand(self, seat: int) -> HandView:
        return next(h for h in self.hands if h.seat == seat)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a user's request did: what to redraw now (the caller answers the click, then
    hands it to the presenter), and the seat whose request it was."""

    show: Show
    seat: int | None = None

    @property
    def table(self) -> TableView:
        return self.show.table

    @property
    def announce(self) -> tuple[Announcement, ...]:
        return self.show.announce


# ------------------------------------------------------------------------- builders


def _last_trick(deal: Deal) -> LastTrick | None:
    if not deal.tricks:
        return None
    last = past_trick(deal, len(deal.tricks), deal.tricks[-1])
    return LastTrick(last.cards, last.winner, last.points)


def face_up(deal: Deal) -> int | None:
    """The card that shows trumps, where it still lies face up (under the stock, or on the
    table)."""
    if deal.turned >= 0:
        return deal.turned
    return deal.table_card if deal.table_card >= 0 else None


def deal_view(deal: Deal) -> DealView:
    return DealView(
        sides=deal.sides,
        side_of=deal.side_of,
        auction=deal.phase is Phase.AUCTION,
        trump=deal.trump,
        turned=deal.turned_card,
        face_up=face_up(deal),
        table_card=deal.table_card if deal.table_card >= 0 else None,
        stock_left=deal.stock_left if deal.variant.has_stock else None,
        turn=deal.turn,
        trick=tuple(deal.trick_seats()),
        trick_no=len(deal.tricks),
        last_trick=_last_trick(deal),
        cantes=tuple(deal.cantes),
        scores=tuple(deal.side_score(s) for s in range(len(deal.sides))),
        card_points=tuple(deal.card_points),
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        contract=deal.contract,
        capote_seat=deal.capote_seat if deal.capote_seat >= 0 else None,
        high_bid=deal.high_bid,
        swap_by=_swap_by(deal),
    )


def _swap_by(deal: Deal) -> int | None:
    open_ = deal.options.exchange and not deal.options.auto_exchange
    if not open_ or deal.table_card < 0 or deal.exchanges or not deal.before_first_lead():
        return None
    mine = exchange_card(deal.table_card, deal.trump)
    return mine if mine >= 0 else None


def _seats(table: Table) -> tuple[Seat | None, ...]:
    # copies: the view stays as it was when the table changes on
    return tuple(replace(s) if s is not None else None for s in table.seats)


def table_view(table: Table) -> TableView:
    deal = table.deal
    playing = deal is not None and table.status is Status.PLAYING
    return TableView(
        id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        variant=table.variant,
        options=table.options,
        language=table.language,
        status=table.status,
        seats=_seats(table),
        hand_delivery=table.hand_delivery,
        robot_level=table.robot_level,
        deal_no=table.deal_no,
        lobby_deadline=table.lobby_deadline,
        turn_deadline=table.turn_deadline,
        paused_until=table.paused_until,
        log=tuple(table.log),
        summary=table.summary,
        winner=table.winner,
        rounds_won=tuple(table.game.rounds_won) if table.game is not None else None,
        deal=deal_view(deal) if playing and deal is not None else None,
        tally=table.tally,
        invited=tuple(table.invited),
        tournament_id=table.tournament_id,
        daily=table.daily,
        commitment=table.short_commitment,
    )


BID_BUTTONS = 4
"""Bids offered at once: every tenth from the lowest allowed (the buttons fit a row)."""
DECLARATIONS_SHOWN = 9


def _declarations(legal: Iterable[Action]) -> tuple[Action, ...]:
    others = [a for a in legal if a.kind is not Kind.PLAY]
    if any(a.kind is Kind.BID for a in others):
        bids = [a for a in others if a.kind is Kind.BID][::10][:BID_BUTTONS]
        others = bids + [a for a in others if a.kind is Kind.PASS]
    return tuple(others[:DECLARATIONS_SHOWN])


def _refusals(deal: Deal, seat: int, cards: Iterable[int]) -> tuple[Refusal, ...]:
    found: list[Refusal] = []
    for card in cards:
        error: IllegalActionError | None = deal.refusal(Action.play(seat, card))
        if error is not None:
            refused = TableError.illegal(error)
            found.append(Refusal(card, refused.key, refused.params))
    return tuple(found)


def hand_view(table: Table, seat: int, *, may_wait: bool = False) -> HandView:
    """``seat``'s own hand, built from the engine's view of that seat alone (``SeatView``):
    its cards, what it may do now, and why each card it may not play is refused."""
    deal = table.deal
    occupant = table.seats[seat]
    if deal is None or table.status is not Status.PLAYING:
        return HandView(
            table.id, seat, replace(occupant) if occupant else None, table.deal_no, 0, False,
            (), frozenset(), (), (), False, False, 0, 0, table.options.target, None, (),
            table.turn_deadline,
        )  # fmt: skip
    own = seat_view(deal, seat)  # what this seat may know, and nothing of another hand
    legal = [] if occupant is not None and occupant.robot_plays else list(own.legal)
    playable = frozenset(a.arg for a in legal if a.kind is Kind.PLAY)
    your_turn = own.turn == seat and any(a.kind in TURN_KINDS for a in legal)
    refused = [c for c in own.hand if c not in playable]
    return HandView(
        table_id=table.id,
        seat=seat,
        occupant=replace(occupant) if occupant is not None else None,
        deal_no=table.deal_no,
        trick_no=len(own.tricks),
        playing=True,
        cards=own.hand,
        playable=playable,
        refusals=_refusals(deal, seat, refused) if your_turn and own.trick else (),
        declarations=_declarations(legal),
        your_turn=your_turn,
        may_declare=not your_turn and any(a.kind is not Kind.RESIGN for a in legal),
        trump=own.trump,
        exchange_card=own.turned,
        target=own.options.target,
        stock_left=own.stock_left if own.variant.has_stock else None,
        trick=own.trick,
        turn_deadline=table.turn_deadline,
        may_wait=may_wait,
        exchange_gives=deal.exchange_open(seat),
        sits_out=sits_out(table, seat, own.dealer) and not own.hand,
        hint=your_turn and table.offers_hints(),
    )


def sits_out(table: Table, seat: int, dealer: int) -> bool:
    """Whether ``seat`` sits this deal out: more seats than players, and it deals."""
    return table.players > table.variant.players and seat == dealer


# ---------------------------------------------------------------- what to redraw


def robot_plays_next(table: Table) -> bool:
    """Whether a robot is on turn and plays in a moment (after the robot delay; no human may
    sing first, which would make it wait longer). What there is to show may wait for that
    play: the table message then shows both in one edit (a run of plays, one edit), and a
    hand its player cannot use now is edited once, after it. Not while no member plays this
    deal for themself (they sit it out at an arrastrado table of four, or are away): no play
    of theirs would come to show the robots' with, and each run shows by itself, trick by
    trick."""
    deal = table.deal
    if (
        table.status is not Status.PLAYING
        or deal is None
        or deal.finished
        or table.paused_until is not None
    ):
        return False
    member_plays = any(  # a member who plays for themself, dealt into this deal
        deal.side_of[i] >= 0 and seat is not None and not seat.robot_plays
        for i, seat in enumerate(table.seats)
    )
    return member_plays and robot_on_turn(table, deal) and not human_may_declare(table, deal)


class Redraws:
    """Decides what each change redraws. It remembers, per table, who the public messages
    last showed away (a seat that goes away or comes back is shown at once, with I'm back,
    whoever plays next), and the last turn it told a member of (each turn is told once)."""

    def __init__(self) -> None:
        self._playing: set[int] = set()
        """Tables whose game has been shown since this process took them: until then, each
        change is shown (the game's first message goes up at once)."""
        self._away: dict[int, frozenset[int]] = {}
        self._told: dict[int, tuple[int, int]] = {}
        """Per table: (deal, actions so far) of the last turn a member was told of."""

    def _tell(self, table: Table, hand: HandView) -> bool:
        """Whether to tell this hand's player that their turn has come: it has, after
        another seat's action (or at a new deal), they want to be told, and this turn was
        not told yet."""
        deal = table.deal
        occupant = hand.occupant
        if deal is None or not hand.your_turn or occupant is None or not occupant.notify:
            return False
        if deal.actions and deal.actions[-1].seat == hand.seat:
            return False  # they acted last (a cante, an exchange): they know
        moment = (table.deal_no, len(deal.actions))
        if self._told.get(table.id) == moment:
            return False
        self._told[table.id] = moment
        return True

    def show(
        self,
        table: Table,
        *,
        announce: Iterable[Announcement] = (),
        tell: bool = True,
    ) -> Show:
        """``tell``: this change may tell a member that their turn has come (not a redraw
        of what was shown before a restart: that turn was told then)."""
        view = table_view(table)
        robot_next = table.id in self._playing and robot_plays_next(table)
        away = view.away_seats()
        public = self._away.get(table.id, frozenset()) != away or not robot_next
        if public:
            self._away[table.id] = away
            if table.status is Status.PLAYING:
                self._playing.add(table.id)
        hands = tuple(
            hand_view(table, i)
            for i, seat in enumerate(table.seats)
            if seat is not None and seat.user_id is not None and table.status is not Status.LOBBY
        )
        if robot_next:
            hands = tuple(
                replace(h, may_wait=True) if not h.away and not h.usable else h for h in hands
            )
        hands = tuple(
            replace(h, notify=True) if self._tell(table, h) and tell else h for h in hands
        )
        if not table.status.is_open:
            self._playing.discard(table.id)
            self._away.pop(table.id, None)
            self._told.pop(table.id, None)
        return Show(
            table=view,
            hands=hands,
            public=public,
            announce=tuple(announce),
            summary_pictured=view.deal is None or view.deal.trick_no == 0,
        )
