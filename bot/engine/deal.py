"""One deal of Tute being played: legal actions, apply, tricks, cantes and the result.

Hands are 40-bit ints (see ``cards``); the hot path of a playout (``legal_actions`` then
``apply`` of a play) is a handful of bit operations and allocates only the trick record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, Final, NamedTuple

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
    card,
    cards_of,
    display_order,
    mask_of,
)
from .dealing import DealtCards, check_deal, dealing_of
from .duty import duty_of, playable
from .options import Options, Scoring, StockDuty
from .variants import VARIANTS, TurnedCard, Variant
from .variants import sides_of as sides_of  # where benchmarks/robots.py finds it

LAST_TRICK_BONUS: Final = 10
_KNIGHT_STRENGTH: Final = card(11, 0)
_EXCHANGE_BY_SEVEN: Final = frozenset({1, 3, 12, 11, 10})
_EXCHANGE_BY_TWO: Final = frozenset({4, 5, 6, 7})


def exchange_card(turned: int, trump: int) -> int:
    """The trump 7 or 2 that may take the turned card's place (the 7 for a 1, 3, 12, 11 or
    10, the 2 for a 4, 5, 6 or 7), or -1: a turned 2, or no turned card (``turned`` < 0).
    The one exchange rule for the habanero swap by hand, arrastrado's at the deal, and
    the robots."""
    if turned < 0:
        return -1
    rank = RANK_OF[turned]
    if rank in _EXCHANGE_BY_SEVEN:
        return card(7, trump)
    if rank in _EXCHANGE_BY_TWO:
        return card(2, trump)
    return -1


class Phase(IntEnum):
    AUCTION = 0
    PLAY = 1
    FINISHED = 2


class End(str, Enum):
    CARDS = "cards"
    TUTE = "tute"
    CAPOTE = "capote"
    CLAIM = "claim"
    RESIGN = "resign"


class Trick(NamedTuple):
    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class Cante:
    seat: int
    suit: int
    points: int


@dataclass(frozen=True, slots=True)
class Exchange:
    seat: int
    gave: int
    took: int


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class Result:
    """How a deal ended; per-side lists follow ``sides``. ``winner`` is a side index, or None
    where the deal decides nothing on its own (habanero when nobody reached the target)."""

    end: End
    sides: tuple[tuple[int, ...], ...]
    card_points: tuple[int, ...]
    cantes: tuple[int, ...]
    last_trick: int | None
    scores: tuple[int, ...]
    winner: int | None
    double: bool = False
    by_seat: int | None = None
    contract: Contract | None = None
    contract_made: bool | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "end": self.end.value,
            "sides": [list(s) for s in self.sides],
            "card_points": list(self.card_points),
            "cantes": list(self.cantes),
            "last_trick": self.last_trick,
            "scores": list(self.scores),
            "winner": self.winner,
        }
        if self.double:
            data["double"] = True
        if self.contract is not None:
            data["contract"] = {
                "seat": self.contract.seat,
                "points": self.contract.points,
                "made": self.contract_made,
            }
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """The result ``to_json`` wrote. ``by_seat`` is not written there, so it reads back
        as None."""
        contract: Mapping[str, Any] | None = data.get("contract")
        return cls(
            end=End(data["end"]),
            sides=tuple(tuple(int(s) for s in side) for side in data["sides"]),
            card_points=tuple(int(p) for p in data["card_points"]),
            cantes=tuple(int(p) for p in data["cantes"]),
            last_trick=data["last_trick"],
            scores=tuple(int(p) for p in data["scores"]),
            winner=data["winner"],
            double=bool(data.get("double", False)),
            contract=None
            if contract is None
            else Contract(seat=int(contract["seat"]), points=int(contract["points"])),
            contract_made=None if contract is None else contract["made"],
        )


_PLAY_PHASE: Final = Phase.PLAY
_PLAY: Final = Kind.PLAY
_HABANERO: Final = Variant.HABANERO
_SIXTY_FIVE: Final = Scoring.SIXTY_FIVE

# Plays are looked up, not built: one tuple of interned actions per seat, suit and the
# 10-bit slice of the play mask for that suit, strongest card first; filled lazily.
_PLAY_TABLE: list[tuple[Action, ...]] = [()] * (4 * 4 * 1024)


def _play_chunk(index: int) -> tuple[Action, ...]:
    seat, suit, chunk = index >> 12, index >> 10 & 3, index & 1023
    found = tuple(
        Action.play(seat, suit * 10 + bit) for bit in range(9, -1, -1) if chunk >> bit & 1
    )
    _PLAY_TABLE[index] = found
    return found


def deal_winner(
    variant: Variant,
    options: Options,
    scores: Sequence[int],
    last: int,
    sang: Sequence[frozenset[int]],
    trick_sides: Sequence[int],
) -> int | None:
    """The side that wins a deal played to its last card, or None (habanero, nobody at the
    target). ``sang``: the cante values each side sang; ``trick_sides``: who won each trick."""
    if options.scoring is Scoring.SIXTY_FIVE:
        # everything is decided from the side of the last ten: 65 (65-65 goes to it),
        # 75 if it sang a 20, 85 if it sang the 40
        bar = 85 if 40 in sang[last] else 75 if 20 in sang[last] else 65
        return last if scores[last] >= bar else 1 - last
    candidates = list(range(len(scores)))
    if variant is Variant.HABANERO:
        candidates = [side for side in candidates if scores[side] >= options.target]
        if not candidates:
            return None
    top = max(scores[s] for s in candidates)
    tied = [s for s in candidates if scores[s] == top]
    for side in reversed(trick_sides):  # a tie goes to the tied side that won the later trick
        if side in tied:
            return side
    return tied[0]


class Deal:
    """The state of one deal. Build it with ``Deal(dealt)``; it is rebuilt from a record
    by replaying its actions."""

    __slots__ = (
        "_pm",
        "actions",
        "auction_count",
        "best_card",
        "best_seat",
        "cante_points",
        "cantes",
        "capote_open",
        "capote_seat",
        "card_points",
        "contract",
        "dealt",
        "duty",
        "exchanges",
        "finished",
        "hands",
        "high_bid",
        "high_bidder",
        "leader",
        "lost40",
        "n",
        "options",
        "phase",
        "result",
        "sang",
        "side_of",
        "sides",
        "stock",
        "sung_mask",
        "table_card",
        "to_draw",
        "trick",
        "tricks",
        "trump",
        "turn",
        "turned",
        "variant",
        "window_seat",
        "window_side",
        "window_used",
    )

    def __init__(self, dealt: DealtCards, *, check: bool = True) -> None:
        if check:
            check_deal(dealt)
        rules = VARIANTS[dealt.variant]
        turned_lies = dealing_of(dealt.variant, dealt.options).turned
        self.dealt = dealt
        self.variant = dealt.variant
        self.options = dealt.options.resolved(dealt.variant)
        self.n = rules.players
        self.sides = rules.sides
        self.side_of = rules.side_of
        self.hands = [mask_of(h) for h in dealt.hands]
        self.trump = SUIT_OF[dealt.turned]
        # the card under the stock (habanero) or on the table (arrastrado, 40 cards);
        # -1 once drawn, taken, or where it belongs to the dealer's hand
        self.turned = -1 if turned_lies is TurnedCard.IN_HAND else dealt.turned
        self.stock = list(reversed(dealt.stock))  # pop() draws the next card
        self.to_draw = len(self.stock) + 1 if rules.has_stock else 0
        # the duty changes only when the stock runs out (see _draw)
        self.duty = duty_of(self.variant, self.options, self.to_draw)
        self.finished = False
        self.table_card = -1
        self.leader = (dealt.dealer + 1) % self.n
        self.turn: int = self.leader
        self.trick: list[int] = []
        self.best_card = -1
        self.best_seat = -1
        self.tricks: list[Trick] = []
        self.card_points = [0] * len(self.sides)
        self.cante_points = [0] * len(self.sides)
        self.cantes: list[Cante] = []
        self.sung_mask = 0
        self.lost40 = [False] * self.n
        self.sang = [False] * self.n
        self.window_side = -1
        self.window_seat = -1
        self.window_used = False
        self.capote_open = False
        self.capote_seat = -1
        self.exchanges: list[Exchange] = []
        self.high_bid = 0
        self.high_bidder = -1
        self.auction_count = 0
        self.contract: Contract | None = None
        self.actions: list[Action] = []
        self.result: Result | None = None
        self._pm = -1
        if turned_lies is TurnedCard.ON_TABLE:
            self._table_exchange()
        self.phase = Phase.AUCTION if self.options.plato else Phase.PLAY

    # ------------------------------------------------------------------ queries

    @property
    def stock_left(self) -> int:
        """Cards still to draw, the turned card included (habanero)."""
        return self.to_draw

    @property
    def turned_card(self) -> int:
        """The card that named trumps (after any exchange in habanero)."""
        return self.turned if self.turned >= 0 else self.dealt.turned

    def trick_seats(self) -> list[tuple[int, int]]:
        """The current trick as (seat, card) pairs."""
        return [((self.leader + i) % self.n, c) for i, c in enumerate(self.trick)]

    def hand(self, seat: int) -> list[int]:
        return display_order(cards_of(self.hands[seat]))

    def side_score(self, side: int) -> int:
        """A side's points so far: card points, cantes (unless sixty-five) and carry."""
        score = self.card_points[side]
        if self.options.scoring is not Scoring.SIXTY_FIVE:
            score += self.cante_points[side]
        if self.dealt.carry is not None:
            score += self.dealt.carry[side]
        return score

    def copy(self) -> Deal:
        new = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands[:]
        new.stock = self.stock[:]
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.card_points = self.card_points[:]
        new.cante_points = self.cante_points[:]
        new.cantes = self.cantes[:]
        new.lost40 = self.lost40[:]
        new.sang = self.sang[:]
        new.exchanges = self.exchanges[:]
        new.actions = self.actions[:]
        return new

    # ------------------------------------------------------------- legality

    def play_mask(self) -> int:
        """The cards the seat on turn may play now (0 outside the play phase). Kept until
        the next action, so that ``apply`` checks the card against it for free."""
        if self.phase is not _PLAY_PHASE:
            return 0
        m = self._pm
        if m < 0:
            m = self._pm = self._playable_now()
        return m

    def _playable_now(self) -> int:
        seat = self.turn
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand
        options = self.options
        return playable(
            hand,
            trick[0] // 10,
            self.best_card,
            self.trump,
            self.duty,
            options.undertrump,
            not options.beat_partner and self._partner_holds(seat),
        )

    def _partner_holds(self, seat: int) -> bool:
        return self.best_seat != seat and self.side_of[self.best_seat] == self.side_of[seat]

    def legal_actions(self) -> list[Action]:
        """Every action any seat may take now: the plays of the seat on turn first, then
        cantes, tute, exchange, capote, claim, resign for whoever may make them."""
        if self.phase is not _PLAY_PHASE:
            return self._auction_actions() if self.phase is Phase.AUCTION else []
        m = self._pm
        if m < 0:
            m = self._pm = self._playable_now()
        base = self.turn << 12
        table = _PLAY_TABLE
        acts: list[Action] = []
        x = m & 1023
        if x:
            acts += table[base | x] or _play_chunk(base | x)
        x = m >> 10 & 1023
        if x:
            acts += table[base | 1024 | x] or _play_chunk(base | 1024 | x)
        x = m >> 20 & 1023
        if x:
            acts += table[base | 2048 | x] or _play_chunk(base | 2048 | x)
        x = m >> 30
        if x:
            acts += table[base | 3072 | x] or _play_chunk(base | 3072 | x)
        if self.window_side >= 0 or self.options.scoring is _SIXTY_FIVE:
            acts += self._declarations()
        return acts

    def _auction_actions(self) -> list[Action]:
        seat = self.turn
        acts = [Action.bid(seat, p) for p in range(max(MIN_BID, self.high_bid + 1), MAX_BID + 1)]
        acts.append(Action.simple(seat, Kind.PASS))
        return acts

    def _declarations(self) -> list[Action]:
        """The declarations open now; the ``_why_not_*`` methods explain a refusal and
        must agree with this."""
        acts: list[Action] = []
        side = self.window_side
        if side >= 0:
            habanero = self.variant is _HABANERO
            if not self.window_used and (not habanero or self.to_draw):
                allow_tute = self.options.allow_tute
                for seat in self.sides[side]:
                    hand = self.hands[seat]
                    pairs = hand >> 1 & hand & KNIGHTS_MASK  # a knight whose king is held too
                    if pairs:
                        for suit in range(4):
                            if (
                                pairs >> (suit * 10 + _KNIGHT_STRENGTH) & 1
                                and not self.sung_mask >> suit & 1
                                and not (suit == self.trump and self.lost40[seat])
                            ):
                                acts.append(Action.sing(seat, suit))
                    if (
                        allow_tute
                        and not self.sang[seat]
                        and (hand & KINGS_MASK == KINGS_MASK or hand & KNIGHTS_MASK == KNIGHTS_MASK)
                    ):
                        acts.append(Action.simple(seat, Kind.TUTE))
            if habanero:
                seat = self.window_seat
                if self.options.exchange and self._exchange_card(seat) >= 0:
                    acts.append(Action.simple(seat, Kind.EXCHANGE))
                if self.capote_open:
                    acts += [Action.simple(s, Kind.CAPOTE) for s in range(self.n)]
                if self.options.scoring is Scoring.MOST and self.dealt.carry is not None:
                    acts.append(Action.simple(seat, Kind.CLAIM))
        if self.options.scoring is _SIXTY_FIVE:
            acts += [
                Action.simple(seat, Kind.RESIGN)
                for seat in range(self.n)
                if self.card_points[self.side_of[seat]] < 10
            ]
        return acts

    def _cante_window_reason(self, seat: int) -> str | None:
        if self.window_side < 0 or self.side_of[seat] != self.window_side:
            return "only the side that has just won a trick may declare, before the next card"
        if self.window_used:
            return "one cante per trick won"
        if self.variant is Variant.HABANERO and not self.to_draw:
            return "no cante once the stock is empty"
        return None

    def _why_not_sing(self, seat: int, suit: int) -> str | None:
        reason = self._cante_window_reason(seat)
        if reason:
            return reason
        if self.sung_mask >> suit & 1:
            return f"{SUIT_NAMES[suit]} has already been sung"
        if self.hands[seat] & PAIR_MASK[suit] != PAIR_MASK[suit]:
            return f"seat {seat} does not hold the king and the knight of {SUIT_NAMES[suit]}"
        if suit == self.trump and self.lost40[seat]:
            return f"seat {seat} sang a 20 while holding the 40, and lost the 40"
        return None

    def _why_not_tute(self, seat: int) -> str | None:
        if not self.options.allow_tute:
            return "tute is not allowed at this table"
        reason = self._cante_window_reason(seat)
        if reason:
            return reason
        if self.sang[seat]:
            return f"seat {seat} has sung a cante and can no longer declare tute"
        hand = self.hands[seat]
        if hand & KINGS_MASK != KINGS_MASK and hand & KNIGHTS_MASK != KNIGHTS_MASK:
            return f"seat {seat} holds neither the four kings nor the four knights"
        return None

    def _why_not_exchange(self, seat: int) -> str | None:
        if self.variant is not Variant.HABANERO:
            return "the exchange is made by hand only in habanero"
        if not self.options.exchange:
            return "the exchange is off at this table"
        if self.turned < 0:
            return "the turned card is no longer under the stock"
        if self.window_side < 0 or seat != self.window_seat:
            return "only the winner of the last trick may exchange, before leading"
        if self._exchange_card(seat) < 0:
            needed = exchange_card(self.turned, self.trump)
            if needed < 0:
                return f"the turned {CODES[self.turned]} cannot be exchanged"
            return f"seat {seat} does not hold the {RANK_OF[needed]} of trumps"
        return None

    def _exchange_card(self, seat: int) -> int:
        """The trump 7 or 2 this seat may give for the turned card under the stock, or -1."""
        mine = exchange_card(self.turned, self.trump)
        return mine if mine >= 0 and self.hands[seat] >> mine & 1 else -1

    # ---------------------------------------------------------------- apply

    def apply(self, action: Action) -> None:
        """Apply a legal action; anything else raises IllegalActionError saying why."""
        if action.kind is _PLAY and self.phase is _PLAY_PHASE:
            seat = action.seat
            c = action.arg
            if seat != self.turn:
                raise self._refuse_turn(seat)
            m = self._pm
            if m < 0:
                m = self.play_mask()
            if not m >> c & 1:
                raise self._refuse_play(seat, c)
            self._pm = -1
            self.hands[seat] ^= 1 << c
            self.actions.append(action)
            trick = self.trick
            if trick:
                best = self.best_card
                if c // 10 == best // 10:
                    if c > best:
                        self.best_card = c
                        self.best_seat = seat
                elif c // 10 == self.trump:
                    self.best_card = c
                    self.best_seat = seat
            else:  # a lead closes the windows for declarations
                self.best_card = c
                self.best_seat = seat
                self.window_side = -1
                self.capote_open = False
            trick.append(c)
            if len(trick) < self.n:
                self.turn = seat + 1 if seat + 1 < self.n else 0
            else:
                self._close_trick()
            return
        self._apply_other(action)

    def _close_trick(self) -> None:
        trick = self.trick
        winner = self.best_seat
        side = self.side_of[winner]
        self.card_points[side] += sum([POINTS[c] for c in trick])
        self.tricks.append(Trick(self.leader, tuple(trick), winner))
        self.trick = []
        self.leader = self.turn = winner
        if self.capote_seat >= 0 and self.side_of[self.capote_seat] != side:
            self._finish(End.CAPOTE, winner=side, by_seat=self.capote_seat)
            return
        if not self.hands[winner]:
            self._finish_cards()
            return
        if self.to_draw:
            self._draw(winner)
        self.window_side = side
        self.window_seat = winner
        self.window_used = False

    def _draw(self, winner: int) -> None:
        for seat in (winner, 1 - winner):
            if self.stock:
                drawn = self.stock.pop()
            else:
                drawn = self.turned
                self.turned = -1
            self.hands[seat] |= 1 << drawn
        self.to_draw -= 2
        if not self.to_draw:
            self.duty = duty_of(self.variant, self.options, 0)
            if self.options.capote:
                self.capote_open = True

    def _apply_other(self, action: Action) -> None:
        kind = action.kind
        seat = action.seat
        if self.phase is Phase.FINISHED:
            raise IllegalActionError("finished", "the deal is over")
        if not 0 <= seat < self.n:
            raise IllegalActionError("no_seat", f"there is no seat {seat} in {self.variant.value}")
        if self.phase is Phase.AUCTION:
            if kind not in (Kind.BID, Kind.PASS):
                raise IllegalActionError("auction", "the bidding for the pot comes first")
            if seat != self.turn:
                raise self._refuse_turn(seat)
            self._bid(action)
            return
        if kind is Kind.PLAY:  # only reached outside the play phase
            raise IllegalActionError("not_now", "no card can be played now")
        if kind in (Kind.BID, Kind.PASS):
            raise IllegalActionError("no_auction", "there is no bidding now")
        if action not in self._declarations():
            raise IllegalActionError(kind.name.lower(), self._why_not(action), seat=seat)
        self._pm = -1
        self.actions.append(action)
        if kind is Kind.SING:
            self._sing(seat, action.arg)
        elif kind is Kind.TUTE:
            self.window_used = True
            self._finish(End.TUTE, winner=self.side_of[seat], by_seat=seat)
        elif kind is Kind.EXCHANGE:
            mine = self._exchange_card(seat)
            self.hands[seat] ^= (1 << mine) | (1 << self.turned)
            self.exchanges.append(Exchange(seat, mine, self.turned))
            self.turned = mine
        elif kind is Kind.CAPOTE:
            self.capote_seat = seat
            self.capote_open = False
        elif kind is Kind.CLAIM:
            side = self.side_of[seat]
            made = self.side_score(side) >= self.options.target
            self._finish(End.CLAIM, winner=side if made else 1 - side, by_seat=seat)
        elif kind is Kind.RESIGN:
            side = self.side_of[seat]
            self._finish(End.RESIGN, winner=1 - side, by_seat=seat)

    def _why_not(self, action: Action) -> str:
        seat, kind = action.seat, action.kind
        if kind is Kind.SING:
            return f"seat {seat} cannot sing {SUIT_NAMES[action.arg]}: " + (
                self._why_not_sing(seat, action.arg) or "not now"
            )
        if kind is Kind.TUTE:
            return f"seat {seat} cannot declare tute: " + (self._why_not_tute(seat) or "not now")
        if kind is Kind.EXCHANGE:
            return f"seat {seat} cannot exchange: " + (self._why_not_exchange(seat) or "not now")
        if kind is Kind.CAPOTE:
            if self.variant is not Variant.HABANERO or not self.options.capote:
                return "capote is not played at this table"
            if self.capote_seat >= 0:
                return f"seat {self.capote_seat} has already announced capote"
            return "capote is announced right after the last draw, before the next lead"
        if kind is Kind.CLAIM:
            if self.variant is not Variant.HABANERO or self.options.scoring is not Scoring.MOST:
                return "claiming the target exists only in habanero"
            if self.dealt.carry is None:
                return "the target can be claimed from the second deal on"
            return "only a player who has just won a trick may claim, before the next card"
        if kind is Kind.RESIGN:
            if self.options.scoring is not Scoring.SIXTY_FIVE:
                return "resigning exists only with sixty-five scoring"
            return f"seat {seat}'s side has 10 points or more and cannot resign"
        return "not now"

    def _sing(self, seat: int, suit: int) -> None:
        side = self.side_of[seat]
        points = 40 if suit == self.trump else 20
        if points == 20:
            pair = PAIR_MASK[self.trump]
            if self.hands[seat] & pair == pair:
                self.lost40[seat] = True
        self.sung_mask |= 1 << suit
        self.sang[seat] = True
        self.window_used = True
        self.cante_points[side] += points
        self.cantes.append(Cante(seat, suit, points))

    def _bid(self, action: Action) -> None:
        if action.kind is Kind.BID:
            if action.arg <= self.high_bid:
                raise IllegalActionError(
                    "bid_low",
                    f"a bid must be above the last bid of {self.high_bid}",
                    bid=action.arg,
                )
            self.high_bid = action.arg
            self.high_bidder = action.seat
        self.actions.append(action)
        self.auction_count += 1
        if self.auction_count < self.n:
            self.turn = (self.turn + 1) % self.n
            return
        if self.high_bidder >= 0:
            self.contract = Contract(self.high_bidder, self.high_bid)
        self.turn = self.leader
        self.phase = Phase.PLAY

    def _table_exchange(self) -> None:
        """The turned card lies on the table (arrastrado, 40 cards); the holder of the trump
        7 (or 2) takes it as the deal ends and leaves the 7 (or 2) there, out of play."""
        turned = self.turned
        self.table_card = turned
        self.turned = -1
        mine = exchange_card(turned, self.trump)
        if not self.options.exchange or mine < 0:
            return
        for seat in range(self.n):
            if self.hands[seat] >> mine & 1:
                self.hands[seat] ^= (1 << mine) | (1 << turned)
                self.exchanges.append(Exchange(seat, mine, turned))
                self.table_card = mine
                return

    # --------------------------------------------------------------- refusals

    def _refuse_turn(self, seat: int) -> IllegalActionError:
        if self.phase is Phase.FINISHED:
            return IllegalActionError("finished", "the deal is over")
        if not 0 <= seat < self.n:
            return IllegalActionError("no_seat", f"there is no seat {seat} in {self.variant.value}")
        if self.phase is Phase.AUCTION:
            return IllegalActionError(
                "not_your_turn", f"it is seat {self.turn}'s turn to bid", turn=self.turn
            )
        return IllegalActionError("not_your_turn", f"it is seat {self.turn}'s turn", turn=self.turn)

    def _refuse_play(self, seat: int, c: int) -> IllegalActionError:
        code = CODES[c]
        if not self.hands[seat] >> c & 1:
            return IllegalActionError("not_in_hand", f"seat {seat} does not hold {code}", card=c)
        led = SUIT_OF[self.trick[0]]
        trump_name = SUIT_NAMES[self.trump]
        hand = self.hands[seat]
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
        if SUIT_OF[self.best_card] == self.trump and trumps & HIGHER[self.best_card]:
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

    # ----------------------------------------------------------------- result

    def _finish_cards(self) -> None:
        last = self.side_of[self.tricks[-1].winner]
        if self.capote_seat >= 0:
            self._finish(
                End.CAPOTE,
                winner=self.side_of[self.capote_seat],
                by_seat=self.capote_seat,
                last=last,
            )
            return
        scores = self._scores(last)
        self._finish(End.CARDS, winner=self._winner_by_points(scores, last), last=last)

    def _scores(self, last: int | None) -> list[int]:
        scores = [self.side_score(side) for side in range(len(self.sides))]
        if last is not None:
            scores[last] += LAST_TRICK_BONUS
        return scores

    def _winner_by_points(self, scores: list[int], last: int) -> int | None:
        sang = [
            frozenset(c.points for c in self.cantes if self.side_of[c.seat] == side)
            for side in range(len(self.sides))
        ]
        trick_sides = [self.side_of[t.winner] for t in self.tricks]
        return deal_winner(self.variant, self.options, scores, last, sang, trick_sides)

    def _finish(
        self, end: End, *, winner: int | None, by_seat: int | None = None, last: int | None = None
    ) -> None:
        scores = self._scores(last)
        double = (
            self.options.scoring is Scoring.SIXTY_FIVE
            and winner is not None
            and scores[winner] > 101
        )
        contract_made: bool | None = None
        if self.contract is not None:
            contract_made = scores[self.side_of[self.contract.seat]] >= self.contract.points
        self.result = Result(
            end=end,
            sides=self.sides,
            card_points=tuple(self.card_points),
            cantes=tuple(self.cante_points),
            last_trick=last,
            scores=tuple(scores),
            winner=winner,
            double=double,
            by_seat=by_seat,
            contract=self.contract,
            contract_made=contract_made,
        )
        self.phase = Phase.FINISHED
        self.finished = True
        self.window_side = -1
        self.capote_open = False
        self._pm = -1
