"""The rules that close each declaration (sing, tute, exchange, capote, claim, resign),
stated once: ``why_not`` names the rule that closes one now, or None when it is open. The
declarations open now (``Deal.declarations``) are those ``why_not`` leaves open, and a
refused one (``Deal.apply`` raises, ``Deal.refusal`` returns) says the rule that closes it.
A card refused says why too (``refuse_play``): which cards are playable is the duty's
(``duty.playable``); this only names it.

A part of ``Deal`` (its base class, over the exchange's part): it reads the deal's own state,
declared here for the type checker, and changes nothing.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .actions import MAX_BID, MIN_BID, Action, IllegalActionError, Kind
from .cards import (
    CODES,
    HIGHER,
    KINGS_MASK,
    KNIGHTS_MASK,
    PAIR_MASK,
    POINTS,
    RANK_OF,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_OF,
)
from .events import Phase, exchange_card
from .exchange import ExchangeRules
from .options import DealScore, ExchangeWindow, FortyFirst, PairsSing, Scoring, SingUntil, StockDuty
from .variants import Variant


class Why(NamedTuple):
    """Why a declaration is refused: a stable ``code`` (the catalog's
    ``tables.errors.illegal.<code>``), its ``params`` (cards and suits as ints) and the
    reason in words."""

    code: str
    text: str
    params: dict[str, int]


_HABANERO: Final = Variant.HABANERO
_BEFORE_DRAW: Final = ExchangeWindow.BEFORE_DRAW


def _why(code: str, text: str, **params: int) -> Why:
    return Why(code, text, params)


class RefusalRules(ExchangeRules):
    """The rules of the declarations, and why an action is refused (see the module)."""

    __slots__ = ()

    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    sing_side: int
    window_used: bool
    window_sang: int
    to_draw: int
    sung_mask: int
    lost40: list[bool]
    sang: list[bool]
    capote_open: bool
    capote_seat: int
    high_bid: int
    best_card: int
    duty: StockDuty

    def may_resign(self, seat: int) -> bool:
        """Sixty-five, before the first lead: the seat's dealt hand holds under 10 points."""
        return sum([POINTS[c] for c in self.dealt.hands[seat]]) < 10

    def may_sing(self, seat: int) -> bool:
        """The seat's side won the last trick and this seat may still sing in its window:
        one cante a side (``pairs_sing: side``) or one a partner (``each``)."""
        if self.options.pairs_sing is PairsSing.EACH:
            return not self.window_sang >> seat & 1
        return not self.window_used

    def exchange_open(self, seat: int) -> int:
        """The trump 7 (or 2) this seat may give in an exchange now, or -1 (RULES.md,
        ``exchange_window``): the card, where the exchange's rule leaves it open."""
        if self.phase is Phase.FINISHED or self._why_not_exchange(seat) is not None:
            return -1
        if self.variant is _HABANERO and self.options.exchange_window is _BEFORE_DRAW:
            return exchange_card(self.turned_before_draw(), self.trump)
        return self.exchange_card_of(seat)

    def refuse_turn(self, seat: int) -> IllegalActionError:
        """The refusal of an action by ``seat``, not on turn, where only the seat on turn may act."""
        if self.phase is Phase.FINISHED:
            return IllegalActionError("finished", "the deal is over")
        if not 0 <= seat < self.n:
            return IllegalActionError("no_seat", f"there is no seat {seat} in {self.variant.value}")
        if self.phase is Phase.AUCTION:
            return IllegalActionError(
                "not_your_turn", f"it is seat {self.turn}'s turn to bid", turn=self.turn
            )
        return IllegalActionError("not_your_turn", f"it is seat {self.turn}'s turn", turn=self.turn)

    def refuse_card(self, seat: int, c: int) -> IllegalActionError:
        """The refusal of card ``c`` played by ``seat`` in the play phase, where it is not that
        seat's turn or not a card the seat on turn may play."""
        if seat != self.turn:
            return self.refuse_turn(seat)
        return self.refuse_play(seat, c)

    def refuse_play(self, seat: int, c: int) -> IllegalActionError:
        """The refusal of card ``c``, which ``seat`` (on turn) may not play now."""
        code = CODES[c]
        hand = self.hands[seat]
        if not hand >> c & 1:
            return IllegalActionError("not_in_hand", f"seat {seat} does not hold {code}", card=c)
        led = SUIT_OF[self.trick[0]]
        trump_name = SUIT_NAMES[self.trump]
        follow = hand & SUIT_MASK[led]
        best = CODES[self.best_card]
        if self.duty is StockDuty.TRUMP:
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
                beat=self.best_card,
            )
        trumps = hand & SUIT_MASK[self.trump]
        if (
            self.options.overtrump
            and SUIT_OF[self.best_card] == self.trump
            and trumps & HIGHER[self.best_card]
        ):
            return IllegalActionError(
                "must_overtrump",
                f"seat {seat} has no {SUIT_NAMES[led]} and must beat {best} with a higher {trump_name}",
                card=c,
                beat=self.best_card,
            )
        return IllegalActionError(
            "must_trump",
            f"seat {seat} has no {SUIT_NAMES[led]} and must play a trump ({trump_name})",
            card=c,
        )

    def refuse_other(self, action: Action) -> IllegalActionError | None:
        """The refusal of any action but a card played in the play phase, or None where it
        is legal now."""
        kind = action.kind
        seat = action.seat
        if self.phase is Phase.FINISHED:
            return IllegalActionError("finished", "the deal is over")
        if not 0 <= seat < self.n:
            return IllegalActionError("no_seat", f"there is no seat {seat} in {self.variant.value}")
        if self.phase is Phase.AUCTION:
            if kind is Kind.EXCHANGE and self._why_not_exchange(seat) is None:
                return None
            if kind not in (Kind.BID, Kind.PASS):
                return IllegalActionError("auction", "the bidding for the pot comes first")
            if seat != self.turn:
                return self.refuse_turn(seat)
            if kind is Kind.BID and not MIN_BID <= action.arg <= MAX_BID:
                return IllegalActionError(
                    "bid_range",
                    f"a contract is from {MIN_BID} to {MAX_BID} points",
                    bid=action.arg,
                )
            if kind is Kind.BID and action.arg <= self.high_bid:
                return IllegalActionError(
                    "bid_low",
                    f"a bid must be above the last bid of {self.high_bid}",
                    bid=action.arg,
                )
            return None
        if kind is Kind.PLAY:  # only reached outside the play phase
            return IllegalActionError("not_now", "no card can be played now")
        if kind in (Kind.BID, Kind.PASS):
            return IllegalActionError("no_auction", "there is no bidding now")
        why = self.why_not(action)
        if why is not None:
            return IllegalActionError(why.code, why.text, seat=seat, **why.params)
        return None

    def why_not(self, action: Action) -> Why | None:
        """The rule that closes a declaration (sing, tute, exchange, capote, claim, resign)
        now, or None when it is open: the one statement of when each may be made."""
        seat, kind = action.seat, action.kind
        if kind is Kind.SING:
            why = self._why_not_sing(seat, action.arg)
            name = SUIT_NAMES[action.arg]
            return why and why._replace(text=f"seat {seat} cannot sing {name}: {why.text}")
        if kind is Kind.TUTE:
            why = self._why_not_tute(seat)
            return why and why._replace(text=f"seat {seat} cannot declare tute: {why.text}")
        if kind is Kind.EXCHANGE:
            why = self._why_not_exchange(seat)
            return why and why._replace(text=f"seat {seat} cannot exchange: {why.text}")
        if kind is Kind.CAPOTE:
            return self._why_not_capote()
        if kind is Kind.CLAIM:
            return self._why_not_claim(seat)
        if kind is Kind.RESIGN:
            return self._why_not_resign(seat)
        return _why(kind.name.lower(), "not now")

    def _why_not_capote(self) -> Why | None:
        if self.variant is not Variant.HABANERO or not self.options.capote:
            return _why("capote_off", "capote is not played at this table")
        if self.capote_seat >= 0:
            return _why(
                "capote_taken",
                f"seat {self.capote_seat} has already announced capote",
                by=self.capote_seat,
            )
        if self.window_side < 0 or not self.capote_open:
            return _why(
                "capote", "capote is announced right after the last draw, before the next lead"
            )
        return None

    def _why_not_claim(self, seat: int) -> Why | None:
        options = self.options
        if self.variant is not Variant.HABANERO or options.scoring is not Scoring.MOST:
            return _why("claim_off", "claiming the target exists only in habanero")
        if options.deal_score is DealScore.PER_DEAL:
            return _why(
                "claim_per_deal", "each deal is a round of its own here: there is no target"
            )
        if self.dealt.carry is None:
            return _why("claim_first_deal", "the target can be claimed from the second deal on")
        if self.capote_seat >= 0:
            return _why("claim_capote", "nobody may claim while a capote runs")
        if self.window_side < 0 or seat != self.window_seat:
            return _why(
                "claim", "only a player who has just won a trick may claim, before the next card"
            )
        return None

    def _why_not_resign(self, seat: int) -> Why | None:
        if self.options.scoring is not Scoring.SIXTY_FIVE:
            return _why("resign_off", "resigning exists only with sixty-five scoring")
        if not self.before_first_lead():
            return _why("resign_first_lead", "resigning is only before the first lead")
        if not self.may_resign(seat):
            return _why(
                "resign", f"seat {seat}'s hand holds 10 card points or more and cannot resign"
            )
        return None

    def _cante_window_reason(self, seat: int) -> Why | None:
        if self.sing_side < 0 or self.side_of[seat] != self.sing_side:
            if self.options.sing_until is SingUntil.NEXT_TRICK:
                return _why(
                    "sing_window_trick",
                    "only the side that won the last trick may declare, until the next trick ends",
                )
            return _why(
                "sing_window",
                "only the side that has just won a trick may declare, before the next card",
            )
        if not self.may_sing(seat):
            if self.options.pairs_sing is PairsSing.EACH:
                return _why("one_cante_each", "one cante per partner per trick won")
            return _why("one_cante", "one cante per trick won")
        if self.variant is Variant.HABANERO and not self.to_draw:
            return _why("stock_empty", "no cante once the stock is empty")
        return None

    def _why_not_sing(self, seat: int, suit: int) -> Why | None:
        reason = self._cante_window_reason(seat)
        if reason:
            return reason
        name = SUIT_NAMES[suit]
        if self.sung_mask >> suit & 1:
            return _why("sung", f"{name} has already been sung", suit=suit)
        if self.hands[seat] & PAIR_MASK[suit] != PAIR_MASK[suit]:
            return _why(
                "no_pair", f"seat {seat} does not hold the king and the knight of {name}", suit=suit
            )
        if suit == self.trump and self.lost40[seat]:
            return _why(
                "lost_forty", f"seat {seat} sang a 20 while holding the 40, and lost the 40"
            )
        trump_pair = PAIR_MASK[self.trump]
        if (
            self.options.forty_first is FortyFirst.STRICT
            and suit != self.trump
            and not self.sung_mask >> self.trump & 1
            and self.hands[seat] & trump_pair == trump_pair
        ):
            return _why("forty_first", f"seat {seat} holds the 40 and must sing it first")
        drawn = self.last_drawn[seat]
        if not self.options.sing_drawn and drawn >= 0 and PAIR_MASK[suit] >> drawn & 1:
            return _why(
                "just_drawn",
                f"seat {seat} has just drawn {CODES[drawn]} and cannot sing it in this window",
                card=drawn,
            )
        return None

    def _why_not_tute(self, seat: int) -> Why | None:
        if not self.options.allow_tute:
            return _why("tute_off", "tute is not allowed at this table")
        reason = self._cante_window_reason(seat)
        if reason:
            return reason
        if self.sang[seat]:
            return _why(
                "tute_after_cante", f"seat {seat} has sung a cante and can no longer declare tute"
            )
        hand = self.hands[seat]
        if not self.options.tute_knights:
            if hand & KINGS_MASK != KINGS_MASK:
                return _why(
                    "tute_kings",
                    f"seat {seat} does not hold the four kings (only kings make a tute here)",
                )
        elif hand & KINGS_MASK != KINGS_MASK and hand & KNIGHTS_MASK != KNIGHTS_MASK:
            return _why("no_tute", f"seat {seat} holds neither the four kings nor the four knights")
        return None

    def _why_not_exchange(self, seat: int) -> Why | None:
        options = self.options
        if not options.exchange:
            return _why("exchange_off", "the exchange is off at this table")
        if self.variant is not Variant.HABANERO:
            return self._why_not_table_exchange(seat)
        if self.exchanges:
            gave = self.exchanges[-1].gave
            return _why(
                "one_swap",
                f"one exchange a deal: the turned card was already taken for {CODES[gave]}",
                card=gave,
            )
        window = self.window_side >= 0 and seat == self.window_seat
        match options.exchange_window:
            case ExchangeWindow.BEFORE_LEAD:
                if self.turned < 0:
                    return _why("turned_gone", "the turned card is no longer under the stock")
                if not window:
                    return _why(
                        "exchange_before_lead",
                        "only the winner of the last trick may exchange, before leading",
                    )
                return self._why_not_hold(seat, self.turned)
            case ExchangeWindow.BEFORE_DRAW:
                if not window or self.actions[-1].kind is not Kind.PLAY:
                    return _why(
                        "exchange_before_draw",
                        "only the winner of a trick may exchange, before the draws",
                    )
                turned = self.turned_before_draw()
                if turned < 0:
                    return _why("turned_gone", "the turned card is no longer under the stock")
                mine = exchange_card(turned, self.trump)
                if mine >= 0 and self.last_drawn[seat] == mine:
                    return _why(
                        "drawn_waits",
                        f"a {CODES[mine]} drawn in this trick waits for the next win",
                        card=mine,
                    )
                return self._why_not_hold(seat, turned)
            case ExchangeWindow.ANNOUNCE:
                if self.turned < 0:
                    return _why("turned_gone", "the turned card is no longer under the stock")
                if self.pending >= 0:
                    return _why(
                        "exchange_pending",
                        f"seat {self.pending_seat} has already put {CODES[self.pending]} under it",
                        card=self.pending,
                        by=self.pending_seat,
                    )
                if not window and self.turn != seat:
                    return _why(
                        "exchange_announce",
                        "the exchange is announced on your turn or after your side wins a trick",
                    )
                return self._why_not_hold(seat, self.turned)

    def _why_not_table_exchange(self, seat: int) -> Why | None:
        options = self.options
        if self.variant is not Variant.ARRASTRADO or options.deck != 40 or options.auto_exchange:
            return _why("exchange_by_hand", "the exchange is made by hand only in habanero")
        if self.exchanges or not self.before_first_lead():
            return _why(
                "exchange_first_lead", "the turned card can only be taken before the first lead"
            )
        return self._why_not_hold(seat, self.table_card)

    def _why_not_hold(self, seat: int, turned: int) -> Why | None:
        needed = exchange_card(turned, self.trump)
        if needed < 0:
            return _why(
                "not_exchangeable", f"the turned {CODES[turned]} cannot be exchanged", card=turned
            )
        if not self.hands[seat] >> needed & 1:
            return _why(
                "no_seven",
                f"seat {seat} does not hold the {RANK_OF[needed]} of trumps",
                card=needed,
            )
        return None
