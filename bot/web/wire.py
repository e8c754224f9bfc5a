"""What a socket of the web table sends: a table and one seat's hand as plain JSON, field by
field. Only what the service's views already show each viewer, and of that only what the
page draws: a seat is its name, its robot and whether its player is away or gone (never a
member's account dates or settings); a hand goes to its own seat alone. Cards are numbers,
with their codes (``"12O"``) beside them, so the page needs no table of its own."""

from __future__ import annotations

from typing import Any

from bot.engine import CODES
from bot.tables.codes import encode_action
from bot.tables.model import Seat
from bot.tables.views import DealView, HandView, TableView

PROTOCOL = 1
"""The version of these messages; the page says which it speaks."""

Json = dict[str, Any]


def _card(card: int) -> str:
    return CODES[card]


def _seat(seat: Seat | None) -> Json | None:
    if seat is None:
        return None
    return {
        "name": seat.name if seat.user_id is not None else None,
        "robot": seat.robot_no,
        "level": seat.robot.value if seat.robot is not None else None,
        "away": seat.away,
        "left": seat.left,
    }


def _deal(deal: DealView) -> Json:
    last = deal.last_trick
    return {
        "sides": [list(side) for side in deal.sides],
        "trump": deal.trump,
        "turned": _card(deal.turned),
        "face_up": None if deal.face_up is None else _card(deal.face_up),
        "stock_left": deal.stock_left,
        "turn": deal.turn,
        "auction": deal.auction,
        "trick": [[seat, _card(card)] for seat, card in deal.trick],
        "trick_no": deal.trick_no,
        "last_trick": None
        if last is None
        else {
            "cards": [[seat, _card(card)] for seat, card in last.cards],
            "winner": last.winner,
            "points": last.points,
        },
        "cantes": [[c.seat, c.suit, c.points] for c in deal.cantes],
        "scores": list(deal.scores),
        "hand_sizes": list(deal.hand_sizes),
        "contract": None
        if deal.contract is None
        else {"seat": deal.contract.seat, "points": deal.contract.points},
        "capote_seat": deal.capote_seat,
    }


def table_state(table: TableView) -> Json:
    """The table as everybody sees it."""
    return {
        "id": table.id,
        "variant": table.variant.value,
        "language": table.language,
        "status": table.status.value,
        "deal_no": table.deal_no,
        "seats": [_seat(seat) for seat in table.seats],
        "turn_deadline": table.turn_deadline,
        "paused_until": table.paused_until,
        "deal": None if table.deal is None else _deal(table.deal),
        "winner": table.winner,
        "rounds_won": None if table.rounds_won is None else list(table.rounds_won),
    }


def hand_state(hand: HandView) -> Json:
    """One seat's own hand, for that seat alone: its cards, the ones it may play, why the
    others are held back (a catalog key and its parameters), and what else it may do, as
    the codes the buttons send."""
    return {
        "seat": hand.seat,
        "deal_no": hand.deal_no,
        "trick_no": hand.trick_no,
        "cards": [_card(card) for card in hand.cards],
        "playable": sorted(_card(card) for card in hand.playable),
        "refusals": [
            {"card": _card(r.card), "key": f"tables.errors.{r.key}", "params": _plain(r.params)}
            for r in hand.refusals
        ],
        "declarations": [encode_action(action) for action in hand.declarations],
        "your_turn": hand.your_turn,
        "sits_out": hand.sits_out,
    }


def state(table: TableView, hand: HandView | None) -> Json:
    """What one socket is sent when the table changes: the table, and the viewer's own hand
    (None for a spectator)."""
    return {
        "type": "state",
        "protocol": PROTOCOL,
        "table": table_state(table),
        "hand": None if hand is None else hand_state(hand),
    }


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """A refusal's parameters as JSON takes them."""
    return {
        key: value if isinstance(value, int | str) else str(value) for key, value in params.items()
    }
