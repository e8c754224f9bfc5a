"""The duty: which cards a seat may play to a trick (RULES.md "Playing a card: the duty").

This is the one statement of the rule. ``Deal`` asks ``playable`` for the seat on turn;
the robots ask it for hands they know, and ``duty_tiers`` for hands they do not: what a
card played says its seat lacked, the chance that a seat can beat a card. Both are pure
functions over bit masks (see ``cards``) so that the robots can call them in their
playouts; a test holds them to each other and to ``Deal.legal_actions()``.
"""

from __future__ import annotations

from typing import Final

from .cards import FULL_DECK, HIGHER, SUIT_MASK
from .options import Options, StockDuty
from .variants import VARIANTS, Variant

_FREE: Final = StockDuty.FREE
_TRUMP: Final = StockDuty.TRUMP


def duty_of(variant: Variant, options: Options, stock_left: int) -> StockDuty:
    """The duty in force: the table's ``stock_duty`` while the stock still has cards (the
    turned card included), full duty once it is empty and in a variant without one."""
    if stock_left > 0 and VARIANTS[variant].has_stock:
        return options.stock_duty
    return StockDuty.FULL


def playable(
    hand: int,
    led: int,
    best: int,
    trump: int,
    duty: StockDuty,
    undertrump: bool = False,
    spare_partner: bool = False,
    overtrump: bool = True,
) -> int:
    """The cards of ``hand`` the duty lets its seat play. ``led``: the suit led, -1 when
    the seat leads; ``best``: the card holding the trick (of the suit led, or a trump);
    ``spare_partner``: the seat's partner holds the trick and the table's ``beat_partner``
    is off; ``overtrump``: the table's option (off, any trump answers a trump on the
    table). The same as the hand's cards in the first of ``duty_tiers`` it meets, without
    building the tiers: ``Deal`` asks this for every card played."""
    if led < 0 or duty is _FREE:
        return hand
    if duty is _TRUMP:
        if led != trump:
            return hand
        return hand & SUIT_MASK[trump] or hand
    follow = hand & SUIT_MASK[led]
    best_is_trump = best // 10 == trump
    if follow:
        if (led == trump or not best_is_trump) and not spare_partner:
            return follow & HIGHER[best] or follow
        return follow
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if not best_is_trump or not overtrump:
        return trumps
    return trumps & HIGHER[best] or (trumps if undertrump else hand)


def duty_tiers(
    led: int,
    best: int,
    trump: int,
    duty: StockDuty,
    undertrump: bool = False,
    spare_partner: bool = False,
    overtrump: bool = True,
) -> tuple[int, ...]:
    """The duty as card sets in order (arguments as for ``playable``): a seat must play
    from the first one it holds a card of; the last is every card. So a card played from
    a later set says the seat held none of the sets before it."""
    if led < 0 or duty is _FREE or (duty is _TRUMP and led != trump):
        return (FULL_DECK,)
    trumps = SUIT_MASK[trump]
    if duty is _TRUMP:
        return (trumps, FULL_DECK)
    best_is_trump = best // 10 == trump
    tiers: list[int] = []
    if (led == trump or not best_is_trump) and not spare_partner:
        tiers.append(HIGHER[best])  # beat the highest card of the suit led
    tiers.append(SUIT_MASK[led])  # else follow suit
    if led != trump:
        if not best_is_trump or not overtrump:
            tiers.append(trumps)  # void of the suit led: trump (any, without overtrump)
        else:
            tiers.append(HIGHER[best])  # someone trumped: overtrump
            if undertrump:
                tiers.append(trumps)
    tiers.append(FULL_DECK)
    return tuple(tiers)
