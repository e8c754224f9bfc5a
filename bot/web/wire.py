"""What a socket of the web table sends: a table and one seat's hand as plain JSON, field by
field. Only what the service's views already show each viewer, and of that only what the
page draws: a seat is its name, its robot and whether its player is away or gone (never a
member's account dates or settings); a hand goes to its own seat alone. Cards are their
codes (``"12O"``: rank and suit letter), so the page needs no table of its own.

What the page must say in words comes in the viewer's language (``lang``), from the message
catalog: why a card is held back, what a declaration's button says and the question before
one that binds the deal (suits in words alone: the page draws no emoji). Names are sent as
they are: the page inserts them as text."""

from __future__ import annotations

from typing import Any

from bot.engine import CODES, Action
from bot.i18n import t
from bot.tables.codes import encode_action
from bot.tables.form import choices, current, form_options
from bot.tables.history import DealHistory, PastTrick
from bot.tables.model import Seat, Status
from bot.tables.summary import DealSummary
from bot.tables.views import DealView, HandView, TableView
from bot.words import ASKED, card_name, hand_label, option_name, refusal_text, suit_text
from bot.words.result import (
    deal_lines,
    hints_line,
    plain,
    rounds_lines,
    seat_text,
    stakes_lines,
    tally_lines,
    tally_title,
)
from bot.words.result import winner_line as winner_text
from bot.words.settings import value_label, variant_title
from bot.words.tricks import happening_line

PROTOCOL = 2
"""The version of these messages; the page says which it speaks."""

Json = dict[str, Any]

SHARED_WORDS = (
    "tables.btn.leave_game",
    "tables.btn.cancel",
    "tables.btn.rematch",
    "replays.btn.open",
    "tables.btn.tricks",
    "tables.btn.settings",
)
"""The chat's words the page says too (its buttons' labels), served with the page's own."""


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


def table_state(table: TableView, now: float | None = None) -> Json:
    """The table as everybody sees it; ``now``: the time on the table's clock, so the page
    counts the turn's seconds down whatever its own clock says (``turn_left``)."""
    left = None
    if now is not None and table.turn_deadline is not None:
        left = max(0.0, round(table.turn_deadline - now, 1))
    return {
        "id": table.id,
        "variant": table.variant.value,
        "language": table.language,
        "status": table.status.value,
        "deal_no": table.deal_no,
        "seats": [_seat(seat) for seat in table.seats],
        "turn_deadline": table.turn_deadline,
        "turn_left": left,
        "paused_until": table.paused_until,
        "deal": None if table.deal is None else _deal(table.deal),
        "winner": table.winner,
        "sides": [list(side) for side in table.sides],
        "rounds_won": None if table.rounds_won is None else list(table.rounds_won),
        "commitment": table.commitment,
    }


def hand_state(hand: HandView, lang: str) -> Json:
    """One seat's own hand, for that seat alone: its cards, the ones it may play, why the
    others are held back (a catalog key, its parameters, and the sentence in ``lang``), and
    what else it may do: each declaration's code (what the page sends), its label, and for
    one that binds the deal (capote, resigning) the question to ask first and its Yes."""
    return {
        "seat": hand.seat,
        "deal_no": hand.deal_no,
        "trick_no": hand.trick_no,
        "cards": [_card(card) for card in hand.cards],
        "playable": sorted(_card(card) for card in hand.playable),
        "refusals": [
            {
                "card": _card(r.card),
                "key": f"tables.errors.{r.key}",
                "params": _plain(r.params),
                "text": refusal_text(r.key, r.params, lang, symbol=False),
            }
            for r in hand.refusals
        ],
        "declarations": [_declaration(action, hand, lang) for action in hand.declarations],
        "your_turn": hand.your_turn,
        "hint": hand.hint,
        "sits_out": hand.sits_out,
        "away": hand.away,
        "left": hand.left,
    }


def _declaration(action: Action, hand: HandView, lang: str) -> Json:
    code = encode_action(action)
    label = hand_label(action, hand, lang, symbol=False)
    found: Json = {"code": code, "label": label}
    if action.kind in ASKED:
        found["ask"] = t(f"hand.asked.{code}", lang)
        found["yes"] = t(f"hand.asked.yes.{code}", lang)
    return found


def state(
    table: TableView,
    hand: HandView | None,
    lang: str,
    now: float | None = None,
    *,
    viewer: int | None = None,
    shown: Json | None = None,
) -> Json:
    """What one socket is sent when the table changes: the table, the viewer's own hand
    (None for a spectator), its words in ``lang``; and what the viewer may do in a lobby
    (``you``: whether they sit at it, in which seat, whether they host it). ``shown``: the
    table's :func:`table_state` when made already (the same for every socket)."""
    seat = seat_of(table, viewer)
    found: Json = {
        "type": "state",
        "protocol": PROTOCOL,
        "lang": lang,
        "table": table_state(table, now) if shown is None else shown,
        "hand": None if hand is None else hand_state(hand, lang),
        "you": {
            "seated": seat is not None,
            "seat": seat,
            "host": viewer is not None and viewer == table.host_id,
        },
    }
    if table.status is Status.LOBBY:
        found["stakes"] = stakes_lines(table, lang)
    elif table.status is Status.FINISHED:
        found["result"] = result_state(table, lang)
    return found


def result_state(table: TableView, lang: str) -> Json:
    """A finished game, in ``lang``, as the chat's result says it: who won (the sides'
    names), the rounds each side won, and what moved for each member (chips, experience,
    their place on the board, their rating), the hints each member asked for; whether it
    may be played again (a daily deal may not) and its last deal: how it ended, each side's
    points, and its number for the replay. Names as typed: the page inserts text."""
    winner = None
    if table.winner is not None and table.rounds_won is not None:
        winner = winner_text(table, table.winner, lang, say=plain)
    tally = tally_lines(table, lang, say=plain)
    return {
        "title": t("summary.game_over", lang, id=table.id),
        "winner": winner,
        "rounds_title": t("summary.rounds", lang),
        "rounds": rounds_lines(table, lang, say=plain),
        "tally_title": tally_title(table, lang) if tally else None,
        "tally": tally,
        "rematch": not table.daily,
        "replay_deal": None if table.summary is None else table.summary.deal_no,
        "deal": None if table.summary is None else _last_deal(table, table.summary, lang),
        "hints": hints_line(table, lang, say=plain) or None,
    }


def _last_deal(table: TableView, summary: DealSummary, lang: str) -> Json:
    """The game's last deal, as the chat's result ends: its title, how it ended and each
    side's points."""
    ending, sides = deal_lines(table, summary, lang)
    title = t("summary.title", lang, deal=summary.deal_no + 1, id=table.id)
    return {"title": title, "ending": ending, "sides": sides}


def tricks(table: TableView, history: DealHistory, lang: str) -> Json:
    """The deal's tricks so far (the chat's Tricks), oldest first: each trick, cante and
    swap in a line of words (names as typed, cards and suits in words), a trick's cards
    too (``[seat, card]``, and who took it) for the page to draw."""

    def name(seat: int) -> str:
        return seat_text(table.seats[seat], lang, bare=True)

    def card(code: int) -> str:
        return card_name(code, lang)

    happened: list[Json] = []
    for h in history.happened:
        line = happening_line(h, lang, name, card, say=plain, symbol=False)
        if isinstance(h, PastTrick):
            cards = [[seat, _card(played)] for seat, played in h.cards]
            happened.append({"line": line, "cards": cards, "winner": h.winner})
        else:
            happened.append({"line": line, "cards": None, "winner": None})
    return {
        "type": "tricks",
        "title": t("tables.tricks.title", lang, deal=history.deal_no + 1, id=table.id),
        "trumps": plain("hand.trumps", lang, suit=suit_text(history.trump, lang, symbol=False)),
        "happened": happened,
        "none": None if history.tricks else t("tables.tricks.none", lang),
    }


def settings(table: TableView, lang: str, saved: str | None = None) -> Json:
    """A lobby's Settings form, for its host (the chat's): its title, what it does (or what
    was just saved), and each option the table has: its name, what it does, its value and
    the values it may take, each as typed (what the page sends back) and in words."""
    options: list[Json] = []
    for name in form_options(table.variant, table.options):
        options.append(
            {
                "name": name,
                "label": option_name(name, lang),
                "help": t(f"settings.{name}.help", lang),
                "value": current(table.variant, table.options, name),
                "choices": [
                    {"value": typed, "label": value_label(name, typed, lang)}
                    for typed in choices(table.variant, table.options, name)
                ],
            }
        )
    return {
        "type": "settings",
        "title": t("settings.title", lang, table=variant_title(table, lang)),
        "said": saved or t("settings.intro", lang),
        "options": options,
    }


def seat_of(table: TableView, user_id: int | None) -> int | None:
    """The seat of the member ``user_id`` at the table (a seat they left too: their hand
    is still theirs to see); None for a spectator, or nobody (None)."""
    if user_id is None:
        return None
    return next(
        (i for i, seat in enumerate(table.seats) if seat is not None and seat.user_id == user_id),
        None,
    )


def kept_from(table_id: int) -> Json:
    """The table of the channel plays a game its viewer may not watch (no spectators): the
    page says so (``web.watch_private``) and shows nothing of it."""
    return {"type": "private", "table": table_id}


def refused(key: str, params: dict[str, Any], lang: str) -> Json:
    """An action the table did not take: its catalog key (``tables.errors.<key>``), its
    parameters, and the sentence in ``lang``."""
    plain = _plain(params)
    return {
        "type": "refused",
        "key": f"tables.errors.{key}",
        "params": plain,
        "text": refusal_text(key, params, lang, symbol=False),
    }


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """A refusal's parameters as JSON takes them."""
    return {
        key: value if isinstance(value, int | str) else str(value) for key, value in params.items()
    }
