"""Plain data about the Spanish deck: suit letters, ranks, and the symbols used on buttons.

Nothing here draws; it is shared by the renderer and by whoever builds button labels.
"""

from __future__ import annotations

from typing import Final

SUITS: Final[tuple[str, ...]] = ("O", "C", "E", "B")
"""Suit letters in deck order: oros, copas, espadas, bastos."""

RANKS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
"""Ranks of the 40-card deck, lowest number first (10 sota, 11 caballo, 12 rey)."""

ALL_CARDS: Final[tuple[str, ...]] = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
"""All 40 card codes, suit by suit."""

SUIT_SYMBOLS: Final[dict[str, str]] = {
    "O": "\U0001fa99",  # coin
    "C": "\U0001f377",  # wine glass
    "E": "\u2694\ufe0f",  # crossed swords
    "B": "\U0001fab5",  # wood
}
"""One emoji per suit letter, for button labels and text lines (all render in Discord)."""

SUIT_COLOURS: Final[dict[str, tuple[int, int, int]]] = {
    "O": (196, 138, 12),
    "C": (196, 30, 45),
    "E": (31, 78, 156),
    "B": (46, 125, 50),
}
"""The traditional colour of each suit (gold, red, blue, green) as RGB."""


def split_code(code: str) -> tuple[int, str]:
    """Split a card code such as ``"12b"`` into ``(12, "B")``.

    Case-insensitive; surrounding blanks are ignored. Raises ``ValueError`` for anything
    that is not one of the 40 cards.
    """
    text = code.strip().upper()
    if len(text) < 2 or text[-1] not in SUITS or not text[:-1].isdigit():
        raise ValueError(f"not a card code: {code!r}")
    rank = int(text[:-1])
    if rank not in RANKS or text[:-1] != str(rank):
        raise ValueError(f"not a card code: {code!r}")
    return rank, text[-1]


def normalize_code(code: str) -> str:
    """Return the canonical upper-case form of a card code (``"1o"`` -> ``"1O"``)."""
    rank, suit = split_code(code)
    return f"{rank}{suit}"


def card_label(code: str) -> str:
    """A short label for a card: its rank followed by its suit symbol, e.g. ``"1🪙"``."""
    rank, suit = split_code(code)
    return f"{rank}{SUIT_SYMBOLS[suit]}"
