"""A tournament as it is kept: its settings, entrants, draw, the tables of its matches, its
prizes (JSON in its row), and who takes a match from how its table's game ended. Its life is
:mod:`bot.tables.competition.tournaments`; its draw, :mod:`bot.tables.competition.tournament`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bot.engine import Options, Variant, parse_options
from bot.engine.variants import sides_of
from bot.storage import tournaments as repo

from ..model import Status, Table
from .tournament import Draw, Format, Match

MAX_ENTRANTS = 64


class TournamentStatus(str, Enum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: Variant
    options: Options
    """The options of its tables (competitive, bet 0)."""
    format: Format
    swiss_rounds: int
    deadline: float
    """When sign-up ends and it starts (the host may start it earlier)."""
    created_at: float
    language: str = "en"
    max_entrants: int = MAX_ENTRANTS
    entry: int = 0
    """The entry fee in chips (0: free): paid at sign-up into the tournament, given back on
    leaving or when it is called off, and paid out as prizes at its end."""
    prizes: dict[int, int] = field(default_factory=dict[int, int])
    """What each entrant won, once it is over (entry fee tournaments)."""
    status: TournamentStatus = TournamentStatus.SIGNUP
    entrants: list[tuple[int, str]] = field(default_factory=list[tuple[int, str]])
    """(user id, name) in sign-up order."""
    draw: Draw | None = None
    tables: dict[int, int] = field(default_factory=dict[int, int])
    """The table of each match played (its index in ``draw.matches`` -> table id)."""

    @property
    def table_size(self) -> int:
        return self.options.seats_at(self.variant)

    def entrant_ids(self) -> list[int]:
        return [user_id for user_id, _ in self.entrants]

    def name_of(self, user_id: int) -> str:
        return next((name for uid, name in self.entrants if uid == user_id), str(user_id))

    @property
    def winner(self) -> int | None:
        return None if self.draw is None else self.draw.winner

    def tables_in_play(self) -> list[int]:
        """The tables of the round in play whose match is not decided, in draw order."""
        draw = self.draw
        if draw is None:
            return []
        return [
            table_id
            for index, table_id in sorted(self.tables.items())
            if draw.matches[index].round == draw.current_round
            and draw.matches[index].winner is None
        ]

    def match_of_table(self, table_id: int) -> int | None:
        return next((i for i, t in self.tables.items() if t == table_id), None)

    # ------------------------------------------------------------ persistence

    def state_json(self) -> str:
        return json.dumps(
            {
                "variant": self.variant.value,
                "options": self.options.to_dict(variant=self.variant),
                "format": self.format.value,
                "swiss_rounds": self.swiss_rounds,
                "deadline": self.deadline,
                "language": self.language,
                "max_entrants": self.max_entrants,
                "entry": self.entry,
                "prizes": {str(u): n for u, n in self.prizes.items()},
                "entrants": [[uid, name] for uid, name in self.entrants],
                "draw": None if self.draw is None else self.draw.to_json(),
                "tables": {str(i): t for i, t in self.tables.items()},
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_row(cls, row: repo.TournamentRow) -> Tournament:
        """The tournament its row keeps. A state written before migration 14 also holds its
        sign-up message and the tables its channel was told: the Discord side keeps those
        now, and they are not read here."""
        data: dict[str, Any] = json.loads(row.state)
        variant = Variant(data["variant"])
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            variant=variant,
            options=parse_options(variant, data["options"], named=False),
            format=Format(data["format"]),
            swiss_rounds=int(data["swiss_rounds"]),
            deadline=float(data["deadline"]),
            created_at=row.created_at,
            language=str(data.get("language", "en")),
            max_entrants=int(data.get("max_entrants", MAX_ENTRANTS)),
            entry=int(data.get("entry", 0)),
            prizes={int(u): int(n) for u, n in data.get("prizes", {}).items()},
            status=TournamentStatus(row.status),
            entrants=[(int(uid), str(name)) for uid, name in data["entrants"]],
            draw=None if data["draw"] is None else Draw.from_json(data["draw"]),
            tables={int(i): int(t) for i, t in data["tables"].items()},
        )


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """What a restart's catch-up did to a running tournament: the matches it decided (their
    indexes in the draw), and the round that was in play before (a later one was drawn when
    the draw's current round is past it)."""

    tournament: Tournament
    decided: tuple[int, ...]
    round_before: int

    @property
    def moved(self) -> bool:
        """Something happened that its channel has not been told: a match decided, a round
        drawn, or the end."""
        draw = self.tournament.draw
        return (
            bool(self.decided)
            or self.tournament.status is TournamentStatus.FINISHED
            or (draw is not None and draw.current_round > self.round_before)
        )


def leavers(match: Match, table: Table) -> set[int]:
    """The match's entrants who left its table (a robot played on for them): they are out
    of the tournament."""
    return {
        s.user_id for s in table.seats if s is not None and s.left and s.user_id in match.players
    }


def match_winner(match: Match, table: Table, seeds: tuple[int, ...]) -> int | None:
    """Who takes a match: the entrant of the side that won the table's game (the best seed
    where two sat on it); where a robot's side won, or the game did not finish (cancelled,
    say, after a pause nobody came back from), the entrant of the side with most rounds
    won, ties by seed. An entrant who left the table never takes it, whatever their
    stand-in did: the match goes to one who stayed, and to nobody (None) when every player
    left. An entrant who never played a card or sang themself (a no-show, stood in for by
    a robot) never takes it over one who did; where nobody who stayed played, the game
    decides among them."""
    seed = {e: i for i, e in enumerate(seeds)}
    left = leavers(match, table)
    seat_of: dict[int, int] = {}
    showed: list[int] = []
    for i, s in enumerate(table.seats):
        if s is not None and s.user_id in match.players:
            seat_of[s.user_id] = i
            if s.acted and not s.left:
                showed.append(s.user_id)
    stayed = [u for u in match.players if u not in left]
    if not stayed:
        return None
    players = [u for u in stayed if u in showed] or stayed
    sides = sides_of(table.variant, table.players)

    def side(user_id: int) -> int | None:
        seat = seat_of.get(user_id)
        return next((n for n, seats in enumerate(sides) if seat in seats), None)

    if table.status is Status.FINISHED and table.winner is not None:
        on_side = [u for u in players if side(u) == table.winner]
        if on_side:
            return min(on_side, key=seed.__getitem__)
    rounds = table.game.rounds_won if table.game is not None else []

    def won(user_id: int) -> int:
        n = side(user_id)
        return rounds[n] if n is not None and n < len(rounds) else 0

    return min(players, key=lambda u: (-won(u), seed[u]))
