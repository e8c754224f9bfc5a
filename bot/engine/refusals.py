"""Why an action is refused, in words: the IllegalActionError that ``Deal.apply`` raises
and ``Deal.refusal`` returns, as functions over a deal that read it and change nothing.

The legal actions themselves are the deal's (``Deal.legal_actions``, ``Deal.declarations``);
what is said here must agree with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, IllegalActionError, Kind
from .cards import (
    CODES,
    HIGHER,
    KINGS_MASK,
    KNIGHTS_MASK,
    PAIR_MASK,
    RANK_OF,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_OF,
)
from .events import Phase, exchange_card
from .options import Scoring, StockDuty
from .variants import Variant

if TYPE_CHECKING:
    from .deal import Deal


def refuse_turn(deal: Deal, seat: int) -> IllegalActionError:
    """The refusal of an action by ``seat``, not on turn, where only the seat on turn may act."""
    if deal.phase is Phase.FINISHED:
        return IllegalActionError("finished", "the deal is over")
    if not 0 <= seat < deal.n:
        return IllegalActionError("no_seat", f"there is no seat {seat} in {deal.variant.value}")
    if deal.phase is Phase.AUCTION:
        return IllegalActionError(
            "not_your_turn", f"it is seat {deal.turn}'s turn to bid", turn=deal.turn
        )
    return IllegalActionError("not_your_turn", f"it is seat {deal.turn}'s turn", turn=deal.turn)


def refuse_card(deal: Deal, seat: int, c: int) -> IllegalActionError:
    """The refusal of card ``c`` played by ``seat`` in the play phase, where it is not that
    seat's turn or not a card the seat on turn may play."""
    if seat != deal.turn:
        return refuse_turn(deal, seat)
    return refuse_play(deal, seat, c)


def refuse_play(deal: Deal, seat: int, c: int) -> IllegalActionError:
    """The refusal of card ``c``, which ``seat`` (on turn) may not play now."""
    code = CODES[c]
    hand = deal.hands[seat]
    if not hand >> c & 1:
        return IllegalActionError("not_in_hand", f"seat {seat} does not hold {code}", card=c)
    led = SUIT_OF[deal.trick[0]]
    trump_name = SUIT_NAMES[deal.trump]
    follow = hand & SUIT_MASK[led]
    best = CODES[deal.best_card]
    if deal.duty is StockDuty.TRUMP:
        return IllegalActionError(
            "must_answer_trump",
            f"seat {seat} must answer the trump led with a trump ({trump_name})",
            card=c,
        )
    if follow and SUIT_OF[c] != led:
        return IllegalActionError(
            "must_follow", f"seat {seat} must follow {SUIT_NAMES[led]}", card=c, suit=led
        )
    if follow:
        return IllegalActionError(
            "must_beat",
            f"seat {seat} must beat {best} with a higher {SUIT_NAMES[led]}",
            card=c,
            beat=deal.best_card,
        )
    trumps = hand & SUIT_MASK[deal.trump]
    if SUIT_OF[deal.best_card] == deal.trump and trumps & HIGHER[deal.best_card]:
        return IllegalActionError(
            "must_overtrump",
            f"seat {seat} has no {SUIT_NAMES[led]} and must beat {best} with a higher {trump_name}",
            card=c,
            beat=deal.best_card,
        )
    return IllegalActionError(
        "must_trump",
        f"seat {seat} has no {SUIT_NAMES[led]} and must play a trump ({trump_name})",
        card=c,
    )


def refuse_other(deal: Deal, action: Action) -> IllegalActionError | None:
    """The refusal of any action but a card played in the play phase, or None where it is
    legal now."""
    kind = action.kind
    seat = action.seat
    if deal.phase is Phase.FINISHED:
        return IllegalActionError("finished", "the deal is over")
    if not 0 <= seat < deal.n:
        return IllegalActionError("no_seat", f"there is no seat {seat} in {deal.variant.value}")
    if deal.phase is Phase.AUCTION:
        if kind not in (Kind.BID, Kind.PASS):
            return IllegalActionError("auction", "the bidding for the pot comes first")
        if seat != deal.turn:
            return refuse_turn(deal, seat)
        if kind is Kind.BID and action.arg <= deal.high_bid:
            return IllegalActionError(
                "bid_low",
                f"a bid must be above the last bid of {deal.high_bid}",
                bid=action.arg,
            )
        return None
    if kind is Kind.PLAY:  # only reached outside the play phase
        return IllegalActionError("not_now", "no card can be played now")
    if kind in (Kind.BID, Kind.PASS):
        return IllegalActionError("no_auction", "there is no bidding now")
    if action not in deal.declarations():
        return IllegalActionError(kind.name.lower(), why_not(deal, action), seat=seat)
    return None


def why_not(deal: Deal, action: Action) -> str:
    """Why a declaration (sing, tute, exchange, capote, claim, resign) is not open now."""
    seat, kind = action.seat, action.kind
    if kind is Kind.SING:
        return f"seat {seat} cannot sing {SUIT_NAMES[action.arg]}: " + (
            _why_not_sing(deal, seat, action.arg) or "not now"
        )
    if kind is Kind.TUTE:
        return f"seat {seat} cannot declare tute: " + (_why_not_tute(deal, seat) or "not now")
    if kind is Kind.EXCHANGE:
        return f"seat {seat} cannot exchange: " + (_why_not_exchange(deal, seat) or "not now")
    if kind is Kind.CAPOTE:
        if deal.variant is not Variant.HABANERO or not deal.options.capote:
            return "capote is not played at this table"
        if deal.capote_seat >= 0:
            return f"seat {deal.capote_seat} has already announced capote"
        return "capote is announced right after the last draw, before the next lead"
    if kind is Kind.CLAIM:
        if deal.variant is not Variant.HABANERO or deal.options.scoring is not Scoring.MOST:
            return "claiming the target exists only in habanero"
        if deal.dealt.carry is None:
            return "the target can be claimed from the second deal on"
        return "only a player who has just won a trick may claim, before the next card"
    if kind is Kind.RESIGN:
        if deal.options.scoring is not Scoring.SIXTY_FIVE:
            return "resigning exists only with sixty-five scoring"
        return f"seat {seat}'s side has 10 points or more and cannot resign"
    return "not now"


def _cante_window_reason(deal: Deal, seat: int) -> str | None:
    if deal.window_side < 0 or deal.side_of[seat] != deal.window_side:
        return "only the side that has just won a trick may declare, before the next card"
    if deal.window_used:
        return "one cante per trick won"
    if deal.variant is Variant.HABANERO and not deal.to_draw:
        return "no cante once the stock is empty"
    return None


def _why_not_sing(deal: Deal, seat: int, suit: int) -> str | None:
    reason = _cante_window_reason(deal, seat)
    if reason:
        return reason
    if deal.sung_mask >> suit & 1:
        return f"{SUIT_NAMES[suit]} has already been sung"
    if deal.hands[seat] & PAIR_MASK[suit] != PAIR_MASK[suit]:
        return f"seat {seat} does not hold the king and the knight of {SUIT_NAMES[suit]}"
    if suit == deal.trump and deal.lost40[seat]:
        return f"seat {seat} sang a 20 while holding the 40, and lost the 40"
    return None


def _why_not_tute(deal: Deal, seat: int) -> str | None:
    if not deal.options.allow_tute:
        return "tute is not allowed at this table"
    reason = _cante_window_reason(deal, seat)
    if reason:
        return reason
    if deal.sang[seat]:
        return f"seat {seat} has sung a cante and can no longer declare tute"
    hand = deal.hands[seat]
    if hand & KINGS_MASK != KINGS_MASK and hand & KNIGHTS_MASK != KNIGHTS_MASK:
        return f"seat {seat} holds neither the four kings nor the four knights"
    return None


def _why_not_exchange(deal: Deal, seat: int) -> str | None:
    if deal.variant is not Variant.HABANERO:
        return "the exchange is made by hand only in habanero"
    if not deal.options.exchange:
        return "the exchange is off at this table"
    if deal.turned < 0:
        return "the turned card is no longer under the stock"
    if deal.window_side < 0 or seat != deal.window_seat:
        return "only the winner of the last trick may exchange, before leading"
    if deal.exchange_card_of(seat) < 0:
        needed = exchange_card(deal.turned, deal.trump)
        if needed < 0:
            return f"the turned {CODES[deal.turned]} cannot be exchanged"
        return f"seat {seat} does not hold the {RANK_OF[needed]} of trumps"
    return None
