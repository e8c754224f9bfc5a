"""The declarations open now (sing, tute, exchange, capote, claim, resign), who may make
them, and when a declaration may be open outside the window after a trick.

A part of ``Deal`` (its base class, over the exchange's part), kept apart from the play of
the cards: it reads the deal's own state, declared here for the type checker. The
``refusals`` module explains a refusal and must agree with this.
"""

from __future__ import annotations

from typing import Final

from .actions import Action, Kind
from .cards import KINGS_MASK, KNIGHTS_MASK, PAIR_MASK, POINTS
from .exchange import ExchangeRules
from .options import ExchangeWindow, FortyFirst, Options, PairsSing, Scoring
from .variants import Variant

_HABANERO: Final = Variant.HABANERO
_SIXTY_FIVE: Final = Scoring.SIXTY_FIVE


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


class DeclarationRules(ExchangeRules):
    """The declarations' part of a deal (see the module)."""

    __slots__ = ()

    sides: tuple[tuple[int, ...], ...]
    sing_side: int
    window_side: int
    window_seat: int
    window_used: bool
    window_sang: int
    to_draw: int
    sung_mask: int
    lost40: list[bool]
    sang: list[bool]
    capote_open: bool
    capote_seat: int

    def declarations(self) -> list[Action]:
        """The declarations open now (sing, tute, exchange, capote, claim, resign); the
        ``refusals`` module explains a refusal and must agree with this."""
        acts: list[Action] = []
        side = self.window_side
        singing = self.sing_side
        options = self.options
        habanero = self.variant is _HABANERO
        if singing >= 0 and (not habanero or self.to_draw):
            tute = options.allow_tute
            for seat in self.sides[singing]:
                hand = self.hands[seat]
                # the cheap test first: most windows have no pair and no tute to declare
                if (hand >> 1 & hand & KNIGHTS_MASK or tute) and self.may_sing(seat):
                    acts += self._cantes(seat)
        if options.exchange:
            for seat in self._may_exchange():
                if self.exchange_open(seat) >= 0:
                    acts.append(Action.simple(seat, Kind.EXCHANGE))
        if side >= 0 and habanero:
            if self.capote_open:
                acts += [Action.simple(s, Kind.CAPOTE) for s in range(self.n)]
            if (
                options.scoring is Scoring.MOST
                and self.dealt.carry is not None
                and self.capote_seat < 0  # nobody claims while a capote runs
            ):
                acts.append(Action.simple(self.window_seat, Kind.CLAIM))
        if options.scoring is _SIXTY_FIVE and self.before_first_lead():
            acts += [
                Action.simple(seat, Kind.RESIGN) for seat in range(self.n) if self.may_resign(seat)
            ]
        return acts

    def may_resign(self, seat: int) -> bool:
        """Sixty-five, before the first lead: the seat's dealt hand holds under 10 points."""
        return sum([POINTS[c] for c in self.dealt.hands[seat]]) < 10

    def may_sing(self, seat: int) -> bool:
        """The seat's side won the last trick and this seat may still sing in its window:
        one cante a side (``pairs_sing: side``) or one a partner (``each``)."""
        if self.options.pairs_sing is PairsSing.EACH:
            return not self.window_sang >> seat & 1
        return not self.window_used

    def _cantes(self, seat: int) -> list[Action]:
        """The cantes and the tute this seat may declare, its window being open."""
        acts: list[Action] = []
        options = self.options
        hand = self.hands[seat]
        pairs = hand >> 1 & hand & KNIGHTS_MASK  # a knight whose king is held too
        if pairs:
            trump = self.trump
            sung = self.sung_mask
            forty_held = (
                options.forty_first is FortyFirst.STRICT
                and not sung >> trump & 1
                and hand & PAIR_MASK[trump] == PAIR_MASK[trump]
            )
            drawn = -1 if options.sing_drawn else self.last_drawn[seat]
            for suit in range(4):
                pair = PAIR_MASK[suit]
                if (
                    pairs & pair
                    and not sung >> suit & 1
                    and not (suit == trump and self.lost40[seat])
                    and not (forty_held and suit != trump)
                    and not (drawn >= 0 and pair >> drawn & 1)
                ):
                    acts.append(Action.sing(seat, suit))
        if (
            options.allow_tute
            and not self.sang[seat]
            and (
                hand & KINGS_MASK == KINGS_MASK
                or (options.tute_knights and hand & KNIGHTS_MASK == KNIGHTS_MASK)
            )
        ):
            acts.append(Action.simple(seat, Kind.TUTE))
        return acts
