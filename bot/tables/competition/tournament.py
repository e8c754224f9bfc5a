"""A tournament's draw, pure: who meets whom in each round, in knockout or Swiss, seeded
by rating, with byes, and the standings and winner that follow from the results.

A match is one table of the variant's players (two in habanero, three in arrastrado, four
in individual): each table's winner takes the match. An entrant who left one of their
tables is out (``Draw.out``): they never take a match, are drawn no more, and take no
place; a match whose players all left goes to nobody (its winner is ``BYE``). In knockout only match winners go on
(the draw is filled to whole tables with byes for the best seeds); in Swiss every entrant
plays every round against entrants on the same score, nobody meets the same opponent twice
where it can be helped, and the best score after the rounds wins (ties broken by the
opponents' scores, then by seed). Entrants are user ids; seeds are their places by rating.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Final

BYE: Final = 0
"""A free place at a match: the entrants at it go through without playing."""


class Format(str, Enum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"


@dataclass(frozen=True, slots=True)
class Match:
    """One table of a round: its entrants (``BYE`` for a free place), and once decided its
    winner: an entrant, or ``BYE`` when every player left and nobody goes through."""

    round: int
    entrants: tuple[int, ...]
    winner: int | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(e for e in self.entrants if e != BYE)

    @property
    def is_bye(self) -> bool:
        """One entrant alone at the table: they go through without playing."""
        return len(self.players) == 1

    @property
    def through(self) -> int | None:
        """Who goes through: the winner, None while undecided or when nobody does."""
        return None if self.winner in (None, BYE) else self.winner

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "entrants": list(self.entrants), "winner": self.winner}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        return cls(int(data["round"]), tuple(int(e) for e in data["entrants"]), data["winner"])


@dataclass(slots=True)
class Draw:
    """The state of a tournament's draw: the entrants in seed order (best first), the
    table size, the format and, for Swiss, the number of rounds; the matches so far."""

    entrants: tuple[int, ...]
    table: int
    format: Format
    swiss_rounds: int = 0
    matches: list[Match] = field(default_factory=list[Match])
    out: set[int] = field(default_factory=set[int])
    """Entrants who left one of their tables: drawn no more, and placed nowhere."""

    # ------------------------------------------------------------------ reading

    @property
    def rounds(self) -> int:
        """How many rounds the tournament has."""
        if self.format is Format.SWISS:
            return self.swiss_rounds
        return max(1, math.ceil(math.log(max(2, len(self.entrants)), self.table)))

    @property
    def current_round(self) -> int:
        """The latest round drawn (0 before the first)."""
        return max((m.round for m in self.matches), default=0)

    def round_matches(self, number: int) -> list[Match]:
        return [m for m in self.matches if m.round == number]

    def round_over(self, number: int) -> bool:
        matches = self.round_matches(number)
        return bool(matches) and all(m.winner is not None for m in matches)

    @property
    def finished(self) -> bool:
        """The last round is over, or nobody is left to draw a next one for."""
        number = self.current_round
        if not self.round_over(number):
            return False
        return number == self.rounds or not self._still_in(number + 1)

    def _still_in(self, number: int) -> list[int]:
        """Who may be drawn in round ``number``: in knockout the previous round's winners,
        in Swiss every entrant who is not out."""
        if self.format is Format.KNOCKOUT and number > 1:
            return [w for m in self.round_matches(number - 1) if (w := m.through) is not None]
        return [e for e in self.entrants if e not in self.out]

    def wins(self) -> dict[int, int]:
        """Matches won by each entrant (a bye counts as a win)."""
        won = dict.fromkeys(self.entrants, 0)
        for m in self.matches:
            if m.winner is not None and m.winner != BYE:
                won[m.winner] += 1
        return won

    def opponents(self) -> dict[int, set[int]]:
        met: dict[int, set[int]] = {e: set() for e in self.entrants}
        for m in self.matches:
            for e in m.players:
                met[e] |= set(m.players) - {e}
        return met

    def standings(self) -> list[tuple[int, int, int]]:
        """(entrant, wins, opponents' wins) best first: in knockout who went furthest, in
        Swiss the most wins; ties by the opponents' wins (Buchholz), then by seed."""
        wins = self.wins()
        met = self.opponents()
        seed = {e: i for i, e in enumerate(self.entrants)}
        key = self._reached() if self.format is Format.KNOCKOUT else wins
        rows = [(e, wins[e], sum(wins[o] for o in met[e])) for e in self.entrants]
        return sorted(rows, key=lambda row: (-key[row[0]], -row[2], seed[row[0]]))

    def _reached(self) -> dict[int, int]:
        """Knockout: the round each entrant reached (one past the last for the winner)."""
        reached = dict.fromkeys(self.entrants, 0)
        for m in self.matches:
            for e in m.players:
                reached[e] = max(reached[e], m.round + (m.winner == e))
        return reached

    def places(self) -> list[tuple[int, ...]]:
        """The entrants by place, best first, those who tie together (in standings order):
        in knockout those out in the same round share a place (the final's losers second);
        in Swiss, the same wins and opponents' wins. Who left (``out``) takes no place: the
        others move up, placed by what they reached."""
        rows = [row for row in self.standings() if row[0] not in self.out]
        if self.format is Format.KNOCKOUT:
            reached = self._reached()
            groups = itertools.groupby(rows, key=lambda row: reached[row[0]])
        else:
            groups = itertools.groupby(rows, key=lambda row: (row[1], row[2]))
        return [tuple(row[0] for row in group) for _, group in groups]

    @property
    def winner(self) -> int | None:
        """The tournament's winner, once it is over."""
        if not self.finished:
            return None
        if self.format is Format.KNOCKOUT:
            final = self.round_matches(self.rounds)
            return final[0].through if len(final) == 1 else None
        return next((e for e, _, _ in self.standings() if e not in self.out), None)

    # ------------------------------------------------------------------ changing

    def decide(self, match: Match, winner: int | None, out: Iterable[int] = ()) -> Match:
        """Record a match's winner (one of its players; None: nobody goes through) and who
        left it (``out``); returns the match as decided."""
        left = set(out)
        if not left | {winner} - {None} <= set(match.players):
            raise ValueError(f"{winner} or {left} did not play that match")
        if winner in left:
            raise ValueError(f"{winner} left that match")
        index = self.matches.index(match)
        self.out |= left
        decided = replace(match, winner=BYE if winner is None else winner)
        self.matches[index] = decided
        return decided

    def next_round(self) -> list[Match]:
        """Draw the next round (the previous one must be over); byes are decided at once.
        Returns the matches to play."""
        number = self.current_round + 1
        if number > self.rounds or (number > 1 and not self.round_over(number - 1)):
            raise ValueError("no round to draw now")
        if self.format is Format.KNOCKOUT:
            tables = self._knockout_tables(number)
        else:
            tables = self._swiss_tables()
        drawn = [Match(number, tuple(t)) for t in tables]
        for match in drawn:
            if match.is_bye:
                match = replace(match, winner=match.players[0])
            elif not match.players:
                match = replace(match, winner=BYE)  # nobody came through to it
            self.matches.append(match)
        return [m for m in self.matches if m.round == number and m.winner is None]

    def _knockout_tables(self, number: int) -> list[list[int]]:
        alive = self._still_in(number)
        size = self.table ** math.ceil(math.log(max(2, len(alive)), self.table))
        tables = size // self.table
        # byes go to the best seeds: seat the seeds in snake order, the byes last
        slots: list[list[int]] = [[] for _ in range(tables)]
        for i, entrant in enumerate([*alive, *[BYE] * (size - len(alive))]):
            lap, pos = divmod(i, tables)
            slots[pos if lap % 2 == 0 else tables - 1 - pos].append(entrant)
        return slots

    def _swiss_tables(self) -> list[list[int]]:
        wins = self.wins()
        met = self.opponents()
        seed = {e: i for i, e in enumerate(self.entrants)}
        # who had a bye already gets none again where it can be helped
        byes = {m.players[0] for m in self.matches if m.is_bye}
        order = sorted(self._still_in(0), key=lambda e: (-wins[e], seed[e]))
        spare = (-len(order)) % self.table
        if spare:
            # the lowest placed without a bye yet sit at the short table
            low = [e for e in reversed(order) if e not in byes] or list(reversed(order))
            short = low[: self.table - spare]
            order = [e for e in order if e not in short] + short
        return _tables_without_rematch(order, self.table, met)

    # ------------------------------------------------------------------ storage

    def to_json(self) -> dict[str, Any]:
        return {
            "entrants": list(self.entrants),
            "table": self.table,
            "format": self.format.value,
            "swiss_rounds": self.swiss_rounds,
            "matches": [m.to_json() for m in self.matches],
            "out": sorted(self.out),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Draw:
        return cls(
            tuple(int(e) for e in data["entrants"]),
            int(data["table"]),
            Format(data["format"]),
            int(data["swiss_rounds"]),
            [Match.from_json(m) for m in data["matches"]],
            {int(e) for e in data.get("out", [])},
        )


def _tables_without_rematch(
    order: list[int], size: int, met: dict[int, set[int]]
) -> list[list[int]]:
    """``order`` seated at tables of ``size`` in that order, each table's players new to
    one another where any seating allows it (a search that goes back on a dead end), else
    in order; the last table is filled with byes."""
    budget = [20_000]  # steps of the search: a small field with many rounds may have none

    def seat(pool: list[int]) -> list[list[int]] | None:
        if not pool:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        first, rest = pool[0], pool[1:]
        need = min(size, len(pool)) - 1
        for others in itertools.combinations(rest, need):
            table = [first, *others]
            if any(b in met[a] for a, b in itertools.combinations(table, 2)):
                continue
            left = [e for e in rest if e not in others]
            found = seat(left)
            if found is not None:
                return [table, *found]
        return None

    tables = seat(order) or _fewest_rematches(order, size, met)
    return [t + [BYE] * (size - len(t)) for t in tables]


def _fewest_rematches(order: list[int], size: int, met: dict[int, set[int]]) -> list[list[int]]:
    """Where no seating keeps everybody apart from those they met: each table in turn takes
    the next entrant and those who met fewest of the table already (ties in order)."""
    pool = list(order)
    tables: list[list[int]] = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < size and pool:
            best = min(pool, key=lambda e: sum(e in met[t] for t in table))
            pool.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def seeded(entrants: Sequence[int], ratings: dict[int, float]) -> tuple[int, ...]:
    """Entrants in seed order: the best rated first (``ratings``: a sort key, higher is
    better; the unrated last), ties by who signed up first."""
    order = {e: i for i, e in enumerate(entrants)}
    return tuple(sorted(entrants, key=lambda e: (e not in ratings, -ratings.get(e, 0.0), order[e])))


PRIZE_SHARES: Final = ((8, (50, 30, 20)), (4, (70, 30)), (0, (100,)))
"""The pot's split by place (percent), by the number of entrants: 8 or more pay three
places, 4 to 7 pay two, fewer pay the winner alone."""


def prize_shares(entrants: int) -> tuple[int, ...]:
    return next(shares for least, shares in PRIZE_SHARES if entrants >= least)


def prizes(
    pot: int, places: Sequence[Sequence[int]], entrants: int | None = None
) -> dict[int, int]:
    """The pot paid out by place (``places``: best first, ties together): entrants who tie
    share the prizes of the places they take between them, the odd chips to the first
    listed; what rounding leaves, and the shares of places nobody takes (their entrants
    left), go to the first place. How many places pay follows from ``entrants`` (all who
    entered; by default those placed). Adds up to ``pot`` exactly; entrants who win
    nothing are left out."""
    if pot <= 0 or not places:
        return {}
    shares = prize_shares(entrants or sum(len(group) for group in places))
    paid: dict[int, int] = {}
    position = 0
    for group in places:
        percent = sum(shares[position : position + len(group)])
        position += len(group)
        each, odd = divmod(pot * percent // 100, len(group))
        for i, entrant in enumerate(group):
            paid[entrant] = each + (i < odd)
    paid[places[0][0]] += pot - sum(paid.values())
    return {entrant: amount for entrant, amount in paid.items() if amount}
