"""The Spanish 40-card deck: card ids, codes, strengths, points and bit masks.

A card is a small int ``suit * 10 + strength`` where ``strength`` runs 0 (the 2, weakest)
to 9 (the ace, strongest). Ordering the ids by strength inside a suit lets a hand be a
40-bit int and "every card of this suit that beats that one" be one precomputed mask.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = "OCEB"
"""Suit letters in their canonical order: oros, copas, espadas, bastos."""

SUIT_NAMES: Final = ("oros", "copas", "espadas", "bastos")

RANKS_BY_STRENGTH: Final = (2, 4, 5, 6, 7, 10, 11, 12, 3, 1)
"""The ranks from weakest to strongest; a rank's index here is its strength."""

RANK_POINTS: Final = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}

KING: Final = 12
KNIGHT: Final = 11

N_CARDS: Final = 40

_STRENGTH_OF_RANK: Final = {rank: i for i, rank in enumerate(RANKS_BY_STRENGTH)}

SUIT_OF: Final = tuple(c // 10 for c in range(N_CARDS))
RANK_OF: Final = tuple(RANKS_BY_STRENGTH[c % 10] for c in range(N_CARDS))
POINTS: Final = tuple(RANK_POINTS.get(RANK_OF[c], 0) for c in range(N_CARDS))
SUIT_MASK: Final = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
HIGHER: Final = tuple(SUIT_MASK[c // 10] & ~((1 << (c + 1)) - 1) for c in range(N_CARDS))
"""HIGHER[c]: the cards of c's suit that beat c."""
TAKERS: Final = tuple(
    tuple(HIGHER[c] | (SUIT_MASK[trump] if c // 10 != trump else 0) for c in range(N_CARDS))
    for trump in range(4)
)
"""TAKERS[trump][c]: the cards that take a trick c holds (``beats`` as a mask): the higher
cards of its suit, and every trump when it is not one."""

FULL_DECK: Final = (1 << N_CARDS) - 1
TWOS_MASK: Final = sum(1 << (s * 10 + _STRENGTH_OF_RANK[2]) for s in range(4))
DECK36: Final = FULL_DECK & ~TWOS_MASK


def card(rank: int, suit: int) -> int:
    """The card id of a rank (1..7, 10..12) and a suit index (0..3)."""
    return suit * 10 + _STRENGTH_OF_RANK[rank]


KINGS_MASK: Final = sum(1 << card(KING, s) for s in range(4))
KNIGHTS_MASK: Final = sum(1 << card(KNIGHT, s) for s in range(4))
PAIR_MASK: Final = tuple((1 << card(KING, s)) | (1 << card(KNIGHT, s)) for s in range(4))
"""PAIR_MASK[s]: the king and the knight of suit s, the cards of a cante."""

CODES: Final = tuple(f"{RANK_OF[c]}{SUITS[SUIT_OF[c]]}" for c in range(N_CARDS))
_BY_CODE: Final = {code: c for c, code in enumerate(CODES)}


class CardError(ValueError):
    """A text that is not a card code."""


def parse_card(code: str) -> int:
    """Parse a card code such as ``1O``, ``12b`` or ``7E`` (case-insensitive)."""
    found = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None  # pyright: ignore[reportUnnecessaryIsInstance]
    if found is None:
        raise CardError(
            f"{code!r} is not a card: write the rank (1-7, 10-12) then the suit (O, C, E, B)"
        )
    return found


def parse_suit(letter: str) -> int:
    """Parse a suit letter (O, C, E, B), case-insensitive."""
    if not isinstance(letter, str) or len(letter.strip()) != 1:  # pyright: ignore[reportUnnecessaryIsInstance]
        raise CardError(f"{letter!r} is not a suit: write O, C, E or B")
    index = SUITS.find(letter.strip().upper())
    if index < 0:
        raise CardError(f"{letter!r} is not a suit: write O, C, E or B")
    return index


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The card ids in a mask, weakest first inside each suit, suits O, C, E, B."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_DISPLAY_KEY: Final = tuple(SUIT_OF[c] * 10 + 9 - c % 10 for c in range(N_CARDS))


def display_order(cards: Iterable[int]) -> list[int]:
    """Cards as a hand is shown: suits O, C, E, B, strongest first inside a suit."""
    return sorted(cards, key=_DISPLAY_KEY.__getitem__)


def mask_points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def beats(c: int, best: int, trump: int) -> bool:
    """Whether ``c``, played after ``best`` in a trick, takes it over: a higher card of the
    same suit, or a trump on a card that is not one."""
    suit = c // 10
    best_suit = best // 10
    return (suit == best_suit and c > best) or (suit == trump and best_suit != trump)


def trick_best(trick: Iterable[tuple[int, int]], trump: int) -> tuple[int, int]:
    """(seat, card) holding a trick of (seat, card) plays so far; (-1, -1) if it is empty."""
    best_seat, best = -1, -1
    for seat, c in trick:
        if best < 0 or beats(c, best, trump):
            best_seat, best = seat, c
    return best_seat, best
