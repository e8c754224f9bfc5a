"""What the pictures show: small frozen dataclasses filled by the caller.

The renderer never sees the game engine. An adapter builds these scenes from one seat's
view of the table. Every piece of text arrives already translated and formatted; the
renderer only adds card codes and numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One place at the table."""

    name: str
    """The player's display name (characters the font lacks are left out)."""
    is_turn: bool = False
    """True for the seat whose turn it is: its place is highlighted."""
    is_robot: bool = False
    """True when a robot plays this seat: a small robot head is drawn before the name."""
    team: int | None = None
    """0 or 1 in a game of pairs (the place gets its team's colour), None otherwise."""
    note: str = ""
    """A short word after the name (e.g. who sits out), or empty; left out where it does
    not fit."""


@dataclass(frozen=True, slots=True)
class TableScene:
    """The table in play as one seat (or a spectator) sees it."""

    seats: tuple[SeatInfo, ...]
    """Two, three or four seats, indexed as in the game (seat 0 first)."""
    trump_suit: str
    """Suit letter of trumps: ``"O"``, ``"C"``, ``"E"`` or ``"B"``."""
    trick: tuple[tuple[int, str], ...] = ()
    """The trick on the table as ``(seat, card code)`` in the order played."""
    turned: str | None = None
    """The turned card, face up (under the stock while there is one), or None."""
    stock_left: int = 0
    """Cards left in the stock (0: no stock is drawn)."""
    viewer_seat: int | None = None
    """The seat drawn at the bottom; None: seat 0 (a spectator's view, as the table message
    shows it)."""
    trick_winner: int | None = None
    """Seat whose card wins the trick on the table (a complete trick), highlighted."""


@dataclass(frozen=True, slots=True)
class SideSummary:
    """What one side (a player, or a pair) made in a deal."""

    names: str
    """The side's name(s), formatted by the caller (e.g. ``"Ana & Luis"``)."""
    cards: tuple[str, ...] = ()
    """Cards taken in tricks, in any order (they are shown as dealt out, small)."""
    cantes: tuple[tuple[str, int], ...] = ()
    """Cantes sung, as ``(suit letter, points)``: 20, or 40 in trumps."""
    card_points: int = 0
    last_ten: bool = False
    """True when the side took the last trick (10 points)."""
    total: int = 0
    won: bool = False
    team: int | None = None
    """Team index, for the side's colour."""
    carried: int | None = None
    """Points the side brought from earlier deals of the game (habanero), drawn on a line of
    their own so that the lines add up to the total; None where nothing is carried."""
    uncounted: int | None = None
    """Points of the deal that do not count (a capote or a resignation voids the card
    points; sixty-five scoring leaves the cantes out), drawn as a last line so that the
    lines add up to the total; None where every point counts."""


@dataclass(frozen=True, slots=True)
class SummaryLabels:
    """Captions of the summary, translated by the caller; empty ones are not drawn."""

    card_points: str = ""
    cantes: str = ""
    last_ten: str = ""
    carried: str = ""
    uncounted: str = ""
    total: str = ""


@dataclass(frozen=True, slots=True)
class SummaryScene:
    """The end of a deal: each side's cards, cantes and points."""

    sides: tuple[SideSummary, ...]
    title_lines: tuple[str, ...] = ()
    """Lines written above the sides (e.g. who won, the game score)."""
    trump_suit: str | None = None
    """Trumps of the deal, shown beside the title when given."""
    labels: SummaryLabels = field(default_factory=SummaryLabels)
