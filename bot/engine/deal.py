"""One deal of Tute being played: legal actions, apply, tricks, cantes and the result.

Hands are 40-bit ints (see ``cards``); the hot path of a playout (``legal_actions`` then
``apply`` of a play) is a handful of bit operations and allocates only the trick record.
What happens and how a deal ends are the value types of ``events``; why an action is
refused, in words, and the rules of the declarations are ``refusals``.
"""

from __future__ import annotations

from typing import Final

from .actions import PLAY_TABLE, Action, IllegalActionError, Kind, auction_actions, play_chunk
from .cards import PAIR_MASK, POINTS, cards_of, display_order, mask_of
from .dealing import DealtCards, check_deal, dealing_of
from .declarations import DeclarationRules, declares_anytime
from .duty import duty_of, playable
from .events import (
    Cante,
    Contract,
    End,
    Exchange,
    Phase,
    Result,
    Trick,
    deal_winner,
)
from .options import FortyFirst, Scoring, SingUntil
from .variants import VARIANTS, TurnedCard, Variant

LAST_TRICK_BONUS: Final = 10

_PLAY_PHASE: Final = Phase.PLAY
_PLAY: Final = Kind.PLAY
_HABANERO: Final = Variant.HABANERO
_SIXTY_FIVE: Final = Scoring.SIXTY_FIVE
_NEXT_CARD: Final = SingUntil.NEXT_CARD


class Deal(DeclarationRules):
    """The state of one deal. Build it with ``Deal(dealt)``; it is rebuilt from a record
    by replaying its actions."""

    __slots__ = (
        "_pm",
        "actions",
        "anytime",
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
        "last_drawn",
        "leader",
        "lost40",
        "n",
        "next_seat",
        "options",
        "passed",
        "pending",
        "pending_seat",
        "phase",
        "players",
        "result",
        "sang",
        "side_of",
        "sides",
        "sing_side",
        "stock",
        "sung_mask",
        "table_card",
        "to_draw",
        "trick",
        "tricks",
        "trump",
        "turn",
        "turned",
        "turned_drawn",
        "variant",
        "window_sang",
        "window_seat",
        "window_side",
        "window_used",
    )

    def __init__(self, dealt: DealtCards, *, check: bool = True) -> None:
        if check:
            check_deal(dealt)
        rules = VARIANTS[dealt.variant]
        turned_lies = dealing_of(dealt.variant, dealt.options).turned
        seats = dealt.seating
        self.dealt = dealt
        self.variant = dealt.variant
        self.options = options = dealt.options.resolved(dealt.variant)
        self.n = seats.seats
        self.players = seats.players
        self.next_seat = seats.next_seat
        self.sides = seats.sides
        self.side_of = seats.side_of
        self.hands = [mask_of(h) for h in dealt.hands]
        self.trump = dealt.turned // 10  # the suit of the turned card
        # the card under the stock (habanero) or on the table (arrastrado, 40 cards);
        # -1 once drawn, taken, or where it belongs to the dealer's hand
        self.turned = -1 if turned_lies is TurnedCard.IN_HAND else dealt.turned
        self.stock = list(reversed(dealt.stock))  # pop() draws the next card
        self.to_draw = len(self.stock) + 1 if rules.has_stock else 0
        # the duty changes only when the stock runs out (see _draw)
        self.duty = duty_of(self.variant, self.options, self.to_draw)
        self.finished = False
        self.table_card = -1
        self.leader = seats.next_seat[dealt.dealer]
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
        self.sing_side = -1
        self.window_used = False
        self.window_sang = 0
        self.capote_open = False
        self.capote_seat = -1
        self.exchanges: list[Exchange] = []
        self.last_drawn = [-1] * self.n
        self.turned_drawn = -1
        self.pending = -1
        self.pending_seat = -1
        self.high_bid = 0
        self.high_bidder = -1
        self.passed = [False] * self.n
        self.contract: Contract | None = None
        self.actions: list[Action] = []
        self.result: Result | None = None
        self._pm = -1
        if turned_lies is TurnedCard.ON_TABLE:
            self._table_exchange()
        self.phase = Phase.AUCTION if options.plato else Phase.PLAY
        self.anytime = declares_anytime(self.variant, options, self.turned, self.table_card)

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
        out: list[tuple[int, int]] = []
        seat = self.leader
        for c in self.trick:
            out.append((seat, c))
            seat = self.next_seat[seat]
        return out

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
        new.last_drawn = self.last_drawn[:]
        new.passed = self.passed[:]
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
            options.overtrump,
        )

    def _partner_holds(self, seat: int) -> bool:
        return self.best_seat != seat and self.side_of[self.best_seat] == self.side_of[seat]

    def legal_actions(self) -> list[Action]:
        """Every action any seat may take now: the plays of the seat on turn first, then
        cantes, tute, exchange, capote, claim, resign for whoever may make them."""
        if self.phase is not _PLAY_PHASE:
            if self.phase is not Phase.AUCTION:
                return []
            acts = auction_actions(self.turn, self.high_bid)
            return acts + self.declarations() if self.anytime else acts
        m = self._pm
        if m < 0:
            m = self._pm = self._playable_now()
        base = self.turn << 12
        table = PLAY_TABLE
        acts: list[Action] = []
        x = m & 1023
        if x:
            acts += table[base | x] or play_chunk(base | x)
        x = m >> 10 & 1023
        if x:
            acts += table[base | 1024 | x] or play_chunk(base | 1024 | x)
        x = m >> 20 & 1023
        if x:
            acts += table[base | 2048 | x] or play_chunk(base | 2048 | x)
        x = m >> 30
        if x:
            acts += table[base | 3072 | x] or play_chunk(base | 3072 | x)
        if self.sing_side >= 0 or self.anytime:
            acts += self.declarations()
        return acts

    def refusal(self, action: Action) -> IllegalActionError | None:
        """None when ``action`` is legal now, else the IllegalActionError ``apply(action)``
        would raise, from the same checks; the deal is not changed (the play mask it reads
        is kept, as ``play_mask`` keeps it)."""
        if action.kind is _PLAY and self.phase is _PLAY_PHASE:
            seat, c = action.seat, action.arg
            if seat == self.turn and self.play_mask() >> c & 1:
                return None
            return self.refuse_card(seat, c)
        return self.refuse_other(action)

    # ---------------------------------------------------------------- apply

    def apply(self, action: Action) -> None:
        """Apply a legal action; anything else raises IllegalActionError saying why."""
        if action.kind is _PLAY and self.phase is _PLAY_PHASE:
            seat = action.seat
            c = action.arg
            m = self._pm
            if m < 0:
                m = self.play_mask()
            if seat != self.turn or not m >> c & 1:
                raise self.refuse_card(seat, c)
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
                if self.options.sing_until is _NEXT_CARD:
                    self.sing_side = -1  # else the cantes stay open until the trick ends
            trick.append(c)
            if len(trick) < self.players:
                self.turn = self.next_seat[seat]
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
        if self.pending_seat == winner:
            self._take_turned(winner, self.pending)
            self.pending = self.pending_seat = -1
        if self.to_draw:
            self._draw(winner)
        self.window_side = self.sing_side = side
        self.window_seat = winner
        self.window_used = False
        self.window_sang = 0

    def _draw(self, winner: int) -> None:
        for seat in (winner, 1 - winner):
            if self.stock:
                drawn = self.stock.pop()
            else:
                drawn = self.turned
                self.turned = -1
                self.turned_drawn = seat
                if self.pending >= 0:  # the 7 (or 2) put under it goes back to its holder
                    self.hands[self.pending_seat] |= 1 << self.pending
                    self.pending = self.pending_seat = -1
            self.hands[seat] |= 1 << drawn
            self.last_drawn[seat] = drawn
        self.to_draw -= 2
        if not self.to_draw:
            self.duty = duty_of(self.variant, self.options, 0)
            if self.options.capote:
                self.capote_open = True

    def _apply_other(self, action: Action) -> None:
        refused = self.refuse_other(action)
        if refused is not None:
            raise refused
        kind = action.kind
        seat = action.seat
        if kind is Kind.BID or kind is Kind.PASS:
            self._bid(action)
            return
        self._pm = -1
        mine = self.exchange_open(seat) if kind is Kind.EXCHANGE else -1
        self.actions.append(action)
        if kind is Kind.SING:
            self._sing(seat, action.arg)
        elif kind is Kind.TUTE:
            self.window_used = True
            self._finish(End.TUTE, winner=self.side_of[seat], by_seat=seat)
        elif kind is Kind.EXCHANGE:
            self._exchange(seat, mine)
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

    def _sing(self, seat: int, suit: int) -> None:
        side = self.side_of[seat]
        points = 40 if suit == self.trump else 20
        if points == 20 and self.options.forty_first is FortyFirst.LOSE:
            pair = PAIR_MASK[self.trump]
            if self.hands[seat] & pair == pair:
                self.lost40[seat] = True
        self.sung_mask |= 1 << suit
        self.sang[seat] = True
        self.window_used = True
        self.window_sang |= 1 << seat
        self.cante_points[side] += points
        self.cantes.append(Cante(seat, suit, points))

    def _bid(self, action: Action) -> None:
        """The plato auction: a player who passes is out of it; it goes round until every
        other player has passed after the last bid (or everyone has passed)."""
        seat = action.seat
        if action.kind is Kind.BID:
            self.high_bid = action.arg
            self.high_bidder = seat
        else:
            self.passed[seat] = True
        self.actions.append(action)
        self._pm = -1
        following = self.next_seat[seat]
        while following != seat and self.passed[following]:
            following = self.next_seat[following]
        if following == seat and self.passed[seat]:  # everyone passed: no contract
            following = -1
        if following >= 0 and following != self.high_bidder:
            self.turn = following
            return
        if self.high_bidder >= 0:
            self.contract = Contract(self.high_bidder, self.high_bid)
        self.turn = self.leader
        self.phase = Phase.PLAY

    # ----------------------------------------------------------------- result

    def _finish_cards(self) -> None:
        side_of = self.side_of
        last = side_of[self.tricks[-1].winner]
        seat = self.capote_seat
        if seat >= 0:
            self._finish(End.CAPOTE, winner=side_of[seat], by_seat=seat, last=last)
            return
        sang = [
            frozenset(c.points for c in self.cantes if side_of[c.seat] == side)
            for side in range(len(self.sides))
        ]
        trick_sides = [side_of[t.winner] for t in self.tricks]
        scores = self._scores(last)
        winner = deal_winner(self.variant, self.options, scores, last, sang, trick_sides)
        self._finish(End.CARDS, winner=winner, last=last)

    def _scores(self, last: int | None) -> list[int]:
        scores = [self.side_score(side) for side in range(len(self.sides))]
        if last is not None:
            scores[last] += LAST_TRICK_BONUS
        return scores

    def _finish(
        self, end: End, *, winner: int | None, by_seat: int | None = None, last: int | None = None
    ) -> None:
        if end is End.CAPOTE or end is End.RESIGN:
            scores = [0] * len(self.sides)  # the card points of such a deal do not count
        else:
            scores = self._scores(last)
        double = (  # a tute, claim or resignation is always one round
            self.options.scoring is Scoring.SIXTY_FIVE
            and end is End.CARDS
            and winner is not None
            and scores[winner] > 101
        )
        contract_made: bool | None = None
        if self.contract is not None and end is End.TUTE:
            contract_made = by_seat == self.contract.seat  # a tute makes or breaks it
        elif self.contract is not None:
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
            auction=self.options.plato,
        )
        self.phase = Phase.FINISHED
        self.finished = True
        self.window_side = self.sing_side = -1
        self.capote_open = False
        self._pm = -1
