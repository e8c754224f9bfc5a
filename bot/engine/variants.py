"""The variants and what sets each apart: one record per variant (RULES.md "Variants").

A fact that differs by variant is a field here, so the dealt cards, the deal, the view and the
robots read it instead of asking ``variant is ...``; a new reading of a seed is a new
record, not a hunt for every check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .cards import DECK36, FULL_DECK


class Variant(str, Enum):
    HABANERO = "habanero"
    ARRASTRADO = "arrastrado"
    INDIVIDUAL = "individual"
    PAIRS = "pairs"

    @property
    def players(self) -> int:
        return VARIANTS[self].players

    @property
    def has_stock(self) -> bool:
        return VARIANTS[self].has_stock


class TurnedCard(Enum):
    """Where the turned card (the one that names trumps) lies once the cards are dealt."""

    UNDER_STOCK = "under_stock"
    """Face up under the stock, drawn last (habanero)."""
    ON_TABLE = "on_table"
    """On the table, where the holder of the trump 7 (or 2) takes it (arrastrado, 40 cards);
    the card left there is the table card, out of play."""
    IN_HAND = "in_hand"
    """The dealer's last card, which stays in the dealer's hand."""


@dataclass(frozen=True, slots=True)
class Dealing:
    """How a variant deals one deck (the table option ``deck``)."""

    deck: int
    """The cards in play, as a mask."""
    hand_size: int
    turned: TurnedCard


@dataclass(frozen=True, slots=True)
class VariantRules:
    """What sets a variant apart. ``sides`` lists the seats of each side (a side is one seat
    except in pairs); ``side_of[seat]`` is the index of that seat's side."""

    players: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    has_stock: bool
    """Cards are drawn from a stock after each trick (habanero)."""
    tute_by_default: bool
    """Whether tute may be declared when the table leaves ``allow_tute`` unset."""
    dealings: Mapping[int, Dealing]
    """By the option ``deck``; the first is the default."""

    def dealing(self, deck: int) -> Dealing:
        """How ``deck`` cards are dealt. Where the option does not apply (check_options
        refuses it) the variant's own deck is dealt, as a table without the option."""
        found = self.dealings.get(deck)
        return found if found is not None else next(iter(self.dealings.values()))


def _record(
    players: int,
    sides: tuple[tuple[int, ...], ...],
    *,
    has_stock: bool,
    tute_by_default: bool,
    dealings: Mapping[int, Dealing],
) -> VariantRules:
    side_of = tuple(next(i for i, side in enumerate(sides) if s in side) for s in range(players))
    return VariantRules(players, sides, side_of, has_stock, tute_by_default, dealings)


def _alone(players: int) -> tuple[tuple[int, ...], ...]:
    return tuple((s,) for s in range(players))


VARIANTS: Final[Mapping[Variant, VariantRules]] = {
    Variant.HABANERO: _record(
        2,
        _alone(2),
        has_stock=True,
        tute_by_default=False,
        dealings={40: Dealing(FULL_DECK, 8, TurnedCard.UNDER_STOCK)},
    ),
    Variant.ARRASTRADO: _record(
        3,
        _alone(3),
        has_stock=False,
        tute_by_default=True,
        dealings={
            40: Dealing(FULL_DECK, 13, TurnedCard.ON_TABLE),
            36: Dealing(DECK36, 12, TurnedCard.IN_HAND),
        },
    ),
    Variant.INDIVIDUAL: _record(
        4,
        _alone(4),
        has_stock=False,
        tute_by_default=True,
        dealings={40: Dealing(FULL_DECK, 10, TurnedCard.IN_HAND)},
    ),
    Variant.PAIRS: _record(
        4,
        ((0, 2), (1, 3)),
        has_stock=False,
        tute_by_default=True,
        dealings={40: Dealing(FULL_DECK, 10, TurnedCard.IN_HAND)},
    ),
}


def sides_of(variant: Variant, seats: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The seats of each side of ``variant`` across a game, at a table of ``seats`` (by
    default the variant's players; with more, each seat is a side of its own)."""
    rules = VARIANTS[variant]
    if seats is None or seats == rules.players:
        return rules.sides
    return _alone(seats)


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays one deal: ``seats`` at the table, the ``sides`` of the players (seats of
    each side), ``side_of`` each seat's side (-1 for a seat that sits the deal out),
    ``next_seat`` the turn order and ``out`` the seat sitting out (-1 when everyone plays).
    Arrastrado with four at the table: the dealer sits out and the other three play alone."""

    seats: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    next_seat: tuple[int, ...]
    out: int

    @property
    def players(self) -> int:
        """The seats that play the deal (a trick has this many cards)."""
        return self.seats - (self.out >= 0)


_SEATINGS: dict[tuple[Variant, int, int], Seating] = {}


def seating(variant: Variant, seats: int, dealer: int) -> Seating:
    """The seating of a deal of ``variant`` dealt by ``dealer`` at a table of ``seats``
    (more seats than the variant's players: the dealer sits out)."""
    key = (variant, seats, dealer)
    found = _SEATINGS.get(key)
    if found is not None:
        return found
    rules = VARIANTS[variant]
    if seats == rules.players:
        out = -1
        sides = rules.sides
        side_of = rules.side_of
    else:
        out = dealer
        sides = tuple((s,) for s in range(seats) if s != out)
        side_of = tuple(-1 if s == out else s - (out >= 0 and s > out) for s in range(seats))
    next_seat = tuple(
        (s + 2) % seats if (s + 1) % seats == out else (s + 1) % seats for s in range(seats)
    )
    found = _SEATINGS[key] = Seating(seats, sides, side_of, next_seat, out)
    return found
