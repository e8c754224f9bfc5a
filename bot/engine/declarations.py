"""The declarations open now (sing, tute, exchange, capote, claim, resign), and when a
declaration may be open outside the window after a trick.

A part of ``Deal`` (its base class, over the rules' part): which declarations are open is
what the rules of ``refusals`` leave open (each rule stated there once); here, only which
to ask about, the cheap tests first.
"""

from __future__ import annotations

from typing import Final

from .actions import Action, Kind
from .cards import KINGS_MASK, KNIGHTS_MASK, PAIR_MASK, card
from .options import ExchangeWindow, Options, Scoring
from .refusals import RefusalRules
from .variants import Variant

_HABANERO: Final = Variant.HABANERO
_SIXTY_FIVE: Final = Scoring.SIXTY_FIVE
SWAP_CARDS: Final = tuple(1 << card(7, suit) | 1 << card(2, suit) for suit in range(4))
"""What a seat must hold, at the least, to exchange: the trump 7 or the trump 2."""


def declares_anytime(variant: Variant, options: Options, turned: int, table_card: int) -> bool:
    """Whether a declaration may be open outside the window after a trick: resigning under
    sixty-five, the exchange by announcing, arrastrado's exchange by hand at the deal."""
    if options.scoring is _SIXTY_FIVE:
        return True
    if not options.exchange:
        return False
    if variant is _HABANERO:
        return options.exchange_window is ExchangeWindow.ANNOUNCE and turned >= 0
    return table_card >= 0 and not options.auto_exchange


class DeclarationRules(RefusalRules):
    """The declarations' part of a deal (see the module)."""

    __slots__ = ()

    def declarations(self) -> list[Action]:
        """The declarations open now (sing, tute, exchange, capote, claim, resign), in that
        order: those the rules (``why_not``) leave open, asked about only where they could
        be (a pair held, a seat that could exchange...)."""
        acts: list[Action] = []
        options = self.options
        singing = self.sing_side
        if singing >= 0 and (self.variant is not _HABANERO or self.to_draw):
            tute = options.allow_tute
            sung = self.sung_mask
            for seat in self.sides[singing]:
                hand = self.hands[seat]
                pairs = hand >> 1 & hand & KNIGHTS_MASK  # a knight whose king is held too
                if pairs:
                    acts += [
                        Action.sing(seat, suit)
                        for suit in range(4)
                        if pairs & PAIR_MASK[suit]
                        and not sung >> suit & 1
                        and self._why_not_sing(seat, suit) is None
                    ]
                if (
                    tute
                    and (hand & KINGS_MASK == KINGS_MASK or hand & KNIGHTS_MASK == KNIGHTS_MASK)
                    and self._why_not_tute(seat) is None
                ):
                    acts.append(Action.simple(seat, Kind.TUTE))
        if options.exchange:
            swap = SWAP_CARDS[self.trump]  # the cheap test: most windows have none
            hands = self.hands
            acts += [
                Action.simple(seat, Kind.EXCHANGE)
                for seat in self._may_exchange()
                if hands[seat] & swap and self._why_not_exchange(seat) is None
            ]
        if self.window_side >= 0 and self.variant is _HABANERO:
            if self.capote_open and self._why_not_capote() is None:
                acts += [Action.simple(s, Kind.CAPOTE) for s in range(self.n)]
            if self.dealt.carry is not None and self._why_not_claim(self.window_seat) is None:
                acts.append(Action.simple(self.window_seat, Kind.CLAIM))
        if options.scoring is _SIXTY_FIVE and self.before_first_lead():
            acts += [
                Action.simple(seat, Kind.RESIGN)
                for seat in range(self.n)
                if self._why_not_resign(seat) is None
            ]
        return acts
