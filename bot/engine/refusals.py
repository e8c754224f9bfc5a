"""Why an action is refused, in words: the IllegalActionError that ``Deal.apply`` raises
and ``Deal.refusal`` returns, as functions over a deal that read it and change nothing.

The legal actions themselves are the deal's (``Deal.legal_actions``, ``Deal.declarations``);
what is said here must agree with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .actions import MAX_BID, MIN_BID, Action, IllegalActionError, Kind
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
from .options import DealScore, ExchangeWindow, FortyFirst, PairsSing, Scoring, SingUntil, StockDuty
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
    if (
        deal.options.overtrump
        and SUIT_OF[deal.best_card] == deal.trump
        and trumps & HIGHER[deal.best_card]
    ):
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
        if kind is Kind.EXCHANGE and action in deal.declarations():
            return None
        if kind not in (Kind.BID, Kind.PASS):
            return IllegalActionError("auction", "the bidding for the pot comes first")
        if seat != deal.turn:
            return refuse_turn(deal, seat)
        if kind is Kind.BID and not MIN_BID <= action.arg <= MAX_BID:
            return IllegalActionError(
                "bid_range",
                f"a contract is from {MIN_BID} to {MAX_BID} points",
                bid=action.arg,
            )
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
        why = why_not(deal, action)
        return IllegalActionError(why.code, why.text, seat=seat, **why.params)
    return None


class Why(NamedTuple):
    """Why a declaration is refused: a stable ``code`` (the catalog's
    ``tables.errors.illegal.<code>``), its ``params`` (cards and suits as ints) and the
    reason in words."""

    code: str
    text: str
    params: dict[str, int]


def _why(code: str, text: str, **params: int) -> Why:
    return Why(code, text, params)


def why_not(deal: Deal, action: Action) -> Why:
    """Why a declaration (sing, tute, exchange, capote, claim, resign) is not open now,
    naming the rule that closes it."""
    seat, kind = action.seat, action.kind
    if kind is Kind.SING:
        why = _why_not_sing(deal, seat, action.arg) or _why("sing", "not now")
        return why._replace(text=f"seat {seat} cannot sing {SUIT_NAMES[action.arg]}: {why.text}")
    if kind is Kind.TUTE:
        why = _why_not_tute(deal, seat) or _why("tute", "not now")
        return why._replace(text=f"seat {seat} cannot declare tute: {why.text}")
    if kind is Kind.EXCHANGE:
        why = _why_not_exchange(deal, seat) or _why("exchange", "not now")
        return why._replace(text=f"seat {seat} cannot exchange: {why.text}")
    if kind is Kind.CAPOTE:
        return _why_not_capote(deal)
    if kind is Kind.CLAIM:
        return _why_not_claim(deal)
    if kind is Kind.RESIGN:
        return _why_not_resign(deal, seat)
    return _why(kind.name.lower(), "not now")


def _why_not_capote(deal: Deal) -> Why:
    if deal.variant is not Variant.HABANERO or not deal.options.capote:
        return _why("capote_off", "capote is not played at this table")
    if deal.capote_seat >= 0:
        return _why(
            "capote_taken",
            f"seat {deal.capote_seat} has already announced capote",
            by=deal.capote_seat,
        )
    return _why("capote", "capote is announced right after the last draw, before the next lead")


def _why_not_claim(deal: Deal) -> Why:
    options = deal.options
    if deal.variant is not Variant.HABANERO or options.scoring is not Scoring.MOST:
        return _why("claim_off", "claiming the target exists only in habanero")
    if options.deal_score is DealScore.PER_DEAL:
        return _why("claim_per_deal", "each deal is a round of its own here: there is no target")
    if deal.dealt.carry is None:
        return _why("claim_first_deal", "the target can be claimed from the second deal on")
    if deal.capote_seat >= 0:
        return _why("claim_capote", "nobody may claim while a capote runs")
    return _why("claim", "only a player who has just won a trick may claim, before the next card")


def _why_not_resign(deal: Deal, seat: int) -> Why:
    if deal.options.scoring is not Scoring.SIXTY_FIVE:
        return _why("resign_off", "resigning exists only with sixty-five scoring")
    if not deal.before_first_lead():
        return _why("resign_first_lead", "resigning is only before the first lead")
    return _why("resign", f"seat {seat}'s hand holds 10 card points or more and cannot resign")


def _cante_window_reason(deal: Deal, seat: int) -> Why | None:
    if deal.sing_side < 0 or deal.side_of[seat] != deal.sing_side:
        if deal.options.sing_until is SingUntil.NEXT_TRICK:
            return _why(
                "sing_window_trick",
                "only the side that won the last trick may declare, until the next trick ends",
            )
        return _why(
            "sing_window",
            "only the side that has just won a trick may declare, before the next card",
        )
    if not deal.may_sing(seat):
        if deal.options.pairs_sing is PairsSing.EACH:
            return _why("one_cante_each", "one cante per partner per trick won")
        return _why("one_cante", "one cante per trick won")
    if deal.variant is Variant.HABANERO and not deal.to_draw:
        return _why("stock_empty", "no cante once the stock is empty")
    return None


def _why_not_sing(deal: Deal, seat: int, suit: int) -> Why | None:
    reason = _cante_window_reason(deal, seat)
    if reason:
        return reason
    name = SUIT_NAMES[suit]
    if deal.sung_mask >> suit & 1:
        return _why("sung", f"{name} has already been sung", suit=suit)
    if deal.hands[seat] & PAIR_MASK[suit] != PAIR_MASK[suit]:
        return _why(
            "no_pair", f"seat {seat} does not hold the king and the knight of {name}", suit=suit
        )
    if suit == deal.trump and deal.lost40[seat]:
        return _why("lost_forty", f"seat {seat} sang a 20 while holding the 40, and lost the 40")
    trump_pair = PAIR_MASK[deal.trump]
    if (
        deal.options.forty_first is FortyFirst.STRICT
        and suit != deal.trump
        and not deal.sung_mask >> deal.trump & 1
        and deal.hands[seat] & trump_pair == trump_pair
    ):
        return _why("forty_first", f"seat {seat} holds the 40 and must sing it first")
    drawn = deal.last_drawn[seat]
    if not deal.options.sing_drawn and drawn >= 0 and PAIR_MASK[suit] >> drawn & 1:
        return _why(
            "just_drawn",
            f"seat {seat} has just drawn {CODES[drawn]} and cannot sing it in this window",
            card=drawn,
        )
    return None


def _why_not_tute(deal: Deal, seat: int) -> Why | None:
    if not deal.options.allow_tute:
        return _why("tute_off", "tute is not allowed at this table")
    reason = _cante_window_reason(deal, seat)
    if reason:
        return reason
    if deal.sang[seat]:
        return _why(
            "tute_after_cante", f"seat {seat} has sung a cante and can no longer declare tute"
        )
    hand = deal.hands[seat]
    if not deal.options.tute_knights:
        if hand & KINGS_MASK != KINGS_MASK:
            return _why(
                "tute_kings",
                f"seat {seat} does not hold the four kings (only kings make a tute here)",
            )
    elif hand & KINGS_MASK != KINGS_MASK and hand & KNIGHTS_MASK != KNIGHTS_MASK:
        return _why("no_tute", f"seat {seat} holds neither the four kings nor the four knights")
    return None


def _why_not_exchange(deal: Deal, seat: int) -> Why | None:
    options = deal.options
    if not options.exchange:
        return _why("exchange_off", "the exchange is off at this table")
    if deal.variant is not Variant.HABANERO:
        return _why_not_table_exchange(deal, seat)
    if deal.exchanges:
        gave = deal.exchanges[-1].gave
        return _why(
            "one_swap",
            f"one exchange a deal: the turned card was already taken for {CODES[gave]}",
            card=gave,
        )
    window = deal.window_side >= 0 and seat == deal.window_seat
    match options.exchange_window:
        case ExchangeWindow.BEFORE_LEAD:
            if deal.turned < 0:
                return _why("turned_gone", "the turned card is no longer under the stock")
            if not window:
                return _why(
                    "exchange_before_lead",
                    "only the winner of the last trick may exchange, before leading",
                )
            return _why_not_hold(deal, seat, deal.turned)
        case ExchangeWindow.BEFORE_DRAW:
            if not window or deal.actions[-1].kind is not Kind.PLAY:
                return _why(
                    "exchange_before_draw",
                    "only the winner of a trick may exchange, before the draws",
                )
            turned = deal.turned_before_draw()
            if turned < 0:
                return _why("turned_gone", "the turned card is no longer under the stock")
            mine = exchange_card(turned, deal.trump)
            if mine >= 0 and deal.last_drawn[seat] == mine:
                return _why(
                    "drawn_waits",
                    f"a {CODES[mine]} drawn in this trick waits for the next win",
                    card=mine,
                )
            return _why_not_hold(deal, seat, turned)
        case ExchangeWindow.ANNOUNCE:
            if deal.turned < 0:
                return _why("turned_gone", "the turned card is no longer under the stock")
            if deal.pending >= 0:
                return _why(
                    "exchange_pending",
                    f"seat {deal.pending_seat} has already put {CODES[deal.pending]} under it",
                    card=deal.pending,
                    by=deal.pending_seat,
                )
            if not window and deal.turn != seat:
                return _why(
                    "exchange_announce",
                    "the exchange is announced on your turn or after your side wins a trick",
                )
            return _why_not_hold(deal, seat, deal.turned)


def _why_not_table_exchange(deal: Deal, seat: int) -> Why | None:
    options = deal.options
    if deal.variant is not Variant.ARRASTRADO or options.deck != 40 or options.auto_exchange:
        return _why("exchange_by_hand", "the exchange is made by hand only in habanero")
    if deal.exchanges or not deal.before_first_lead():
        return _why(
            "exchange_first_lead", "the turned card can only be taken before the first lead"
        )
    return _why_not_hold(deal, seat, deal.table_card)


def _why_not_hold(deal: Deal, seat: int, turned: int) -> Why | None:
    needed = exchange_card(turned, deal.trump)
    if needed < 0:
        return _why(
            "not_exchangeable", f"the turned {CODES[turned]} cannot be exchanged", card=turned
        )
    if not deal.hands[seat] >> needed & 1:
        return _why(
            "no_seven",
            f"seat {seat} does not hold the {RANK_OF[needed]} of trumps",
            card=needed,
        )
    return None
