"""What the tournament pictures show: small frozen dataclasses filled by the caller.

The renderer never sees the tournament's draw. An adapter turns the draw into these
scenes: display names instead of user ids, each round's caption and every other word
already translated.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One table of a knockout round."""

    entrants: tuple[str | None, ...]
    """The entrants' display names, two, three or four (the variant's table); ``None`` (or an
    empty string) for a free place (a bye). A match with a single entrant is a bye: drawn
    softly, on one line."""
    winner: int | None = None
    """Index in ``entrants`` of who won the match (highlighted), or None while it is to
    play."""
    next: int | None = None
    """Index, in the next round's matches, of the match the winner goes on to; None: found
    by who the winner is there (or, while the next round is not drawn yet, by order)."""
    ids: tuple[int | None, ...] = ()
    """Who each entrant is (a member's id), to follow a winner into the next round and to
    know the champion: two entrants may show the same name. Empty: by their names."""


@dataclass(frozen=True, slots=True)
class BracketRound:
    """A column of the bracket."""

    label: str
    """Its caption, e.g. ``"Round 1"``, ``"Semi-finals"``, ``"Final"``."""
    matches: tuple[BracketMatch, ...] = ()
    """The round's matches, top to bottom; empty for a round not drawn yet, which is shown
    as empty plates (as many as the previous round's winners fill)."""


@dataclass(frozen=True, slots=True)
class BracketLabels:
    """Words on the bracket picture and in its description, translated by the caller."""

    bye: str = "Bye"
    """Beside an entrant who goes through without playing."""
    to_play: str = "to play"
    """In the description, for a match not decided yet."""
    winner: str = "winner"
    """In the description, before a match's winner."""
    champion: str = "Champion"
    """In the description, before the tournament's winner."""


@dataclass(frozen=True, slots=True)
class BracketScene:
    """A knockout tournament: its rounds as columns, left to right."""

    title: str
    rounds: tuple[BracketRound, ...]
    labels: BracketLabels = field(default_factory=BracketLabels)


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One line of a Swiss table."""

    place: int
    """1 for the leader (several rows may share a place)."""
    name: str
    wins: int | str
    tie_break: int | str = ""
    """The tie-break score (e.g. opponents' wins), formatted as the caller likes."""
    highlight: bool = False
    """Mark this line (e.g. the player who asked); the leader's is marked anyway."""


@dataclass(frozen=True, slots=True)
class StandingsLabels:
    """Column headings of the standings, translated by the caller; empty ones are not
    drawn."""

    place: str = "#"
    name: str = ""
    wins: str = "Wins"
    tie_break: str = "Tie-break"


@dataclass(frozen=True, slots=True)
class StandingsScene:
    """A Swiss tournament's standings, best first."""

    title: str
    rows: tuple[StandingsRow, ...]
    labels: StandingsLabels = field(default_factory=StandingsLabels)
    subtitle: str = ""
    """A second line under the title (e.g. ``"After round 3 of 5"``), or empty."""
