"""The exchange of the trump 7 (or 2) for the turned card, in each of its windows
(RULES.md "Habanero: drawing, exchange, capote" and the house rules ``exchange_window`` and
``auto_exchange``): who may make it now, what it takes, and the swap itself.

A part of ``Deal`` (its base class), kept apart from the play of the cards: it reads and
changes the deal's own state, declared here for the type checker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import Action, Kind
from .dealing import DealtCards, dealing_of
from .events import Exchange, Phase, Trick, exchange_card, table_exchange
from .options import ExchangeWindow, Options
from .variants import Variant

_HABANERO: Final = Variant.HABANERO
_PLAY: Final = Kind.PLAY


class ExchangeRules:
    """The exchange's part of a deal (see the module)."""

    __slots__ = ()

    variant: Variant
    options: Options
    dealt: DealtCards
    n: int
    phase: Phase
    hands: list[int]
    trump: int
    turned: int
    table_card: int
    exchanges: list[Exchange]
    tricks: list[Trick]
    trick: list[int]
    actions: list[Action]
    turn: int
    window_side: int
    window_seat: int
    last_drawn: list[int]
    turned_drawn: int
    pending: int
    pending_seat: int

    def _may_exchange(self) -> Sequence[int]:
        """The seats that might exchange now, in seat order (``exchange_open`` says which
        may): none where no turned card can be taken, so that a window does not ask every
        seat at every trick."""
        if self.variant is _HABANERO:
            if self.exchanges or (self.turned < 0 and self.turned_drawn < 0):
                return ()  # one swap a deal
            seats = {self.window_seat} if self.window_side >= 0 else set[int]()
            if self.options.exchange_window is ExchangeWindow.ANNOUNCE:
                seats.add(self.turn)
            return sorted(seats)
        if self.table_card < 0 or self.exchanges or self.options.auto_exchange:
            return ()
        return range(self.n) if self.before_first_lead() else ()

    def before_first_lead(self) -> bool:
        """No card has been played yet."""
        return not self.tricks and not self.trick

    def exchange_card_of(self, seat: int) -> int:
        """The trump 7 or 2 this seat holds that may take the turned card's place (where
        that card still lies face up), or -1."""
        turned = self.turned if self.variant is _HABANERO else self._table_turned()
        mine = exchange_card(turned, self.trump)
        return mine if mine >= 0 and self.hands[seat] >> mine & 1 else -1

    def _table_turned(self) -> int:
        """Arrastrado without the automatic exchange: the turned card on the table until
        somebody takes it, before the first lead; else -1."""
        if self.exchanges or not self.before_first_lead() or self.options.auto_exchange:
            return -1
        return self.table_card

    def turned_before_draw(self) -> int:
        """Habanero: the turned card as it lay before the draws of the last trick (drawn
        by its loser if that trick emptied the stock), or -1."""
        if self.turned >= 0:
            return self.turned
        dealing = dealing_of(self.variant, self.options)
        draw_tricks = (dealing.deck.bit_count() - 2 * dealing.hand_size) // 2
        if self.turned_drawn >= 0 and len(self.tricks) == draw_tricks:
            return self.exchanges[-1].gave if self.exchanges else self.dealt.turned
        return -1

    def _exchange(self, seat: int, mine: int) -> None:
        if self.variant is not _HABANERO:  # arrastrado: the card on the table
            took = self.table_card
            self.hands[seat] ^= (1 << mine) | (1 << took)
            self.exchanges.append(Exchange(seat, mine, took))
            self.table_card = mine
        elif self.turned < 0:
            # before the draws of the trick that emptied the stock: its loser drew the
            # turned card, and draws the 7 (or 2) instead
            took = self.turned_before_draw()
            drawer = self.turned_drawn
            self.hands[drawer] ^= (1 << took) | (1 << mine)
            self.hands[seat] ^= (1 << mine) | (1 << took)
            self.last_drawn[drawer] = mine
            self.exchanges.append(Exchange(seat, mine, took))
        elif self.options.exchange_window is ExchangeWindow.ANNOUNCE and not (
            self.window_side >= 0 and seat == self.window_seat
        ):
            # announced out of its window: the 7 (or 2) waits under the turned card for
            # its holder's next win
            self.hands[seat] ^= 1 << mine
            self.pending = mine
            self.pending_seat = seat
        else:
            self.hands[seat] ^= 1 << mine
            self._take_turned(seat, mine)

    def _take_turned(self, seat: int, mine: int) -> None:
        """``seat`` takes the turned card under the stock and ``mine`` lies there instead."""
        took = self.turned
        self.hands[seat] |= 1 << took
        self.exchanges.append(Exchange(seat, mine, took))
        self.turned = mine

    def _table_exchange(self) -> None:
        """The turned card lies on the table (arrastrado, 40 cards): the table card, unless
        the exchange (``table_exchange``) leaves the trump 7 (or 2) there instead."""
        turned = self.table_card = self.turned
        self.turned = -1
        automatic = self.options.exchange and self.options.auto_exchange
        found = table_exchange(self.hands, turned, self.trump) if automatic else None
        if found is not None:
            self.hands[found.seat] ^= (1 << found.gave) | (1 << turned)
            self.exchanges.append(found)
            self.table_card = found.gave
