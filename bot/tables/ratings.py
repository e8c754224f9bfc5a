"""Skill ratings: who plays best in a server, per family of variants (openskill's
Plackett-Luce model: it rates teams, so pairs, and free-for-all games, so arrastrado and
individual).

Pure: a finished game's result in, the players' new ratings out. A game counts in full when
at least two members played it; a member alone against robots counts at the server's
``robot_rating_weight`` (percent; 0, the default, leaves it out). Robots sit at fixed
ratings by level and are never updated. The storage keeps every competitive game's result
(``GameResult``), so ratings can be recomputed from history in the same order.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from openskill.models import PlackettLuce

from bot.ai import Level
from bot.engine import Variant
from bot.storage import Conn
from bot.storage import ratings as stored
from bot.storage.privacy import is_pseudonym
from bot.storage.ratings import StoredRating
from bot.storage.settings import GuildSettings


class Family(str, Enum):
    """The families of variants a member is rated in, one rating each."""

    TWO = "two"  # habanero
    THREE = "three"  # arrastrado (also with four at the table, the dealer sitting out)
    FOUR = "four"  # individual
    PAIRS = "pairs"


FAMILY_OF: Final = {
    Variant.HABANERO: Family.TWO,
    Variant.ARRASTRADO: Family.THREE,
    Variant.INDIVIDUAL: Family.FOUR,
    Variant.PAIRS: Family.PAIRS,
}

MODEL: Final = PlackettLuce()
"""The model, with openskill's defaults: a newcomer at mu 25, sigma 25/3."""

SCALE: Final = 40
"""Shown ratings are openskill's numbers times this: a newcomer is 1000 ± 1000 (3 sigma)."""

SETTLED_SPREAD: Final = 600
"""The spread (three sigma, shown scale) a rating must come down to to count as settled:
six tenths of a newcomer's 1000. That takes some ten rated games against settled players
(or robots), and up to three or four times as many among newcomers, whose results say less;
until then the standings say the rating is "still settling" instead of showing a spread."""

ROBOT_RATINGS: Final = {Level.EASY: (18.0, 1.0), Level.NORMAL: (23.0, 1.0), Level.HARD: (27.0, 1.0)}
"""(mu, sigma) a robot of each level plays at: fixed, never updated."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> int:
        """The rating as shown: mu on the scale of the leaderboard."""
        return round(self.mu * SCALE)

    @property
    def spread(self) -> int:
        """The uncertainty as shown: three sigma on the same scale (the rating is within
        ``shown ± spread`` with near certainty)."""
        return round(3 * self.sigma * SCALE)

    @property
    def settling(self) -> bool:
        """Whether the rating is still settling: its spread is over ``SETTLED_SPREAD``, so
        a game still moves it a lot (and the boards, sorting by ``conservative``, rank it
        low). Shown in words ("still settling"), never as the spread itself."""
        return self.spread > SETTLED_SPREAD

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the leaderboard sorts by (who surely plays well first)."""
        return self.mu - 3 * self.sigma


NEWCOMER: Final = Rating(MODEL.mu, MODEL.sigma, 0)


@dataclass(frozen=True, slots=True)
class Player:
    """One place at a rated game: a member (``user_id``) or a robot of a level."""

    user_id: int | None = None
    robot: Level | None = None
    rated: bool = True
    """False for a member under the server's fair-play minimums (a new account, or new in
    the server): they play at a newcomer's rating, which the game does not change, and do
    not count among the members that make a game rated."""

    def to_json(self) -> dict[str, Any]:
        if self.user_id is not None:
            if not self.rated:
                return {"user": self.user_id, "unrated": True}
            return {"user": self.user_id}
        assert self.robot is not None
        return {"robot": self.robot.value}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as the ratings read it: the players of each side and each side's
    place (0 first; sides that tie share a place)."""

    family: Family
    sides: tuple[tuple[Player, ...], ...]
    places: tuple[int, ...]

    @property
    def members(self) -> list[int]:
        """The members the game rates."""
        return [p.user_id for side in self.sides for p in side if p.user_id is not None and p.rated]

    def to_json(self) -> str:
        sides = [[p.to_json() for p in side] for side in self.sides]
        return json.dumps({"sides": sides, "places": list(self.places)})

    @classmethod
    def from_json(cls, family: str, text: str) -> GameResult:
        data = json.loads(text)
        sides = tuple(
            tuple(
                Player(user_id=int(p["user"]), rated=not p.get("unrated", False))
                if "user" in p
                else Player(robot=Level(p["robot"]))
                for p in side
            )
            for side in data["sides"]
        )
        return cls(Family(family), sides, tuple(int(x) for x in data["places"]))


def places_of(rounds_won: Sequence[int], winner: int) -> tuple[int, ...]:
    """Each side's place in a finished game: the winner first, the others by the rounds
    they won (sides with as many share a place)."""
    rest = sorted({won for side, won in enumerate(rounds_won) if side != winner}, reverse=True)
    return tuple(
        0 if side == winner else 1 + rest.index(won) for side, won in enumerate(rounds_won)
    )


def forfeit_places(places: Sequence[int], forfeited: Sequence[bool]) -> tuple[int, ...]:
    """``places`` with every side that ``forfeited`` (a member of it left the game, and a
    robot played on) after every side that did not: a member who leaves has lost the game,
    whatever the robot that finished it for them did; the order is kept otherwise."""
    keys = [(gone, place) for gone, place in zip(forfeited, places, strict=True)]
    ranks = sorted(set(keys))
    return tuple(ranks.index(key) for key in keys)


@dataclass(frozen=True, slots=True)
class RatingRules:
    """A server's choices (its settings): the weight of a game of one member against
    robots (percent) and the games a day two members may play together and be rated."""

    robot_weight: int = 0
    pair_cap: int = 0

    @classmethod
    def of(cls, settings: GuildSettings) -> RatingRules:
        """The rules a server's settings choose."""
        return cls(settings.robot_rating_weight, settings.pair_daily_cap)


DAY: Final = 86_400.0


def day_start(at: float) -> float:
    """The start (UTC midnight) of the day of ``at`` (seconds since the epoch)."""
    return at - at % DAY


def pairs_of(result: GameResult) -> list[tuple[int, int]]:
    """Every pair of the game's members, each once."""
    members = sorted(set(result.members))
    return [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]


def pair_counts(games: Iterable[GameResult]) -> Counter[tuple[int, int]]:
    """How many of ``games`` each pair of members played together."""
    counts = Counter[tuple[int, int]]()
    for game in games:
        counts.update(pairs_of(game))
    return counts


def over_pair_cap(result: GameResult, together: Mapping[tuple[int, int], int], cap: int) -> bool:
    """Whether two members of this game already played ``cap`` games together that day
    (``together``: the pairs' counts over the server's games kept earlier that day): then
    it is not rated."""
    return cap > 0 and any(together.get(pair, 0) >= cap for pair in pairs_of(result))


def weight_of(result: GameResult, robot_weight: int) -> float:
    """How much the game moves its members' ratings: 1 with two members or more, else the
    server's weight for a game against robots (0: not rated)."""
    members = len(set(result.members))
    if members >= 2:
        return 1.0
    if members == 1:
        return robot_weight / 100
    return 0.0


def rate(
    result: GameResult, ratings: Mapping[int, Rating], robot_weight: int = 0
) -> dict[int, Rating]:
    """The members' ratings after ``result`` (those not in ``ratings`` start as newcomers);
    empty when the game is not rated."""
    weight = weight_of(result, robot_weight)
    if weight <= 0:
        return {}
    teams = [
        [
            MODEL.rating(*ROBOT_RATINGS[p.robot])
            if p.user_id is None and p.robot is not None
            else MODEL.rating(
                *_pair(ratings.get(p.user_id, NEWCOMER) if p.user_id and p.rated else NEWCOMER)
            )
            for p in side
        ]
        for side in result.sides
    ]
    rated = MODEL.rate(teams, ranks=[float(x) for x in result.places])
    out: dict[int, Rating] = {}
    for side, new_side in zip(result.sides, rated, strict=True):
        for player, new in zip(side, new_side, strict=True):
            if player.user_id is None or not player.rated:
                continue  # robots keep their fixed ratings, unrated members theirs
            old = ratings.get(player.user_id, NEWCOMER)
            out[player.user_id] = Rating(
                old.mu + weight * (new.mu - old.mu),
                old.sigma + weight * (new.sigma - old.sigma),
                old.games + 1,
            )
    return out


def _pair(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma


def replay(
    games: Sequence[tuple[GameResult, float]], rules: RatingRules | None = None
) -> dict[tuple[int, Family], Rating]:
    """Every member's rating per family after these games (each with when it finished), in
    order, from newcomers, under ``rules`` (by default: none)."""
    rules = rules or RatingRules()
    ratings: dict[tuple[int, Family], Rating] = {}
    day = -1.0
    today = Counter[tuple[int, int]]()
    for result, finished_at in games:
        if day_start(finished_at) != day:
            day, today = day_start(finished_at), Counter[tuple[int, int]]()
        capped = over_pair_cap(result, today, rules.pair_cap)
        today.update(pairs_of(result))
        if capped:
            continue
        family = result.family
        current = {u: ratings[(u, family)] for u in result.members if (u, family) in ratings}
        for user_id, rating in rate(result, current, rules.robot_weight).items():
            ratings[(user_id, family)] = rating
    return ratings


# ----------------------------------------------------------------------- stored


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A member's rating before and after one game (``before`` None: their first)."""

    before: Rating | None
    after: Rating


def _from_stored(rating: StoredRating) -> Rating:
    return Rating(rating.mu, rating.sigma, rating.games)


def last_change(rating: StoredRating) -> RatingChange:
    """A stored rating with the change of its last game (none known: ``before`` None)."""
    after = _from_stored(rating)
    if rating.last_mu is None or rating.last_sigma is None:
        return RatingChange(None, after)
    return RatingChange(Rating(rating.last_mu, rating.last_sigma, rating.games - 1), after)


async def record_game(
    conn: Conn,
    guild_id: int,
    table_id: int,
    result: GameResult,
    finished_at: float,
    rules: RatingRules,
) -> dict[int, RatingChange]:
    """Keep a finished competitive game's result and rate it (in the settlement's
    transaction): the members' changes, empty when the game is not rated (kept before, a
    member alone against robots at weight 0, or two members over their daily cap)."""
    family = result.family.value
    # one game of the server rated at a time, in the order kept (that a rebuild replays):
    # a game ending at once in another process waits here, then reads this one's ratings
    await conn.lock(guild_id)
    start = day_start(finished_at)
    same_day = pair_counts(
        GameResult.from_json(f, text)
        for f, text, _ in await stored.game_results(conn, guild_id, start, start + DAY)
    )
    if not await stored.keep_game(conn, guild_id, table_id, family, finished_at, result.to_json()):
        return {}  # kept (and rated) before
    if over_pair_cap(result, same_day, rules.pair_cap):
        return {}
    found = await stored.ratings_of(conn, guild_id, family, result.members)
    before = {user_id: _from_stored(r) for user_id, r in found.items()}
    changes: dict[int, RatingChange] = {}
    for user_id, after in rate(result, before, rules.robot_weight).items():
        old = before.get(user_id)
        await stored.put_rating(
            conn,
            guild_id,
            family,
            user_id,
            StoredRating(
                after.mu,
                after.sigma,
                after.games,
                None if old is None else old.mu,
                None if old is None else old.sigma,
            ),
        )
        changes[user_id] = RatingChange(old, after)
    return changes


async def rebuild(conn: Conn, guild_id: int, rules: RatingRules) -> int:
    """Recompute every rating of the server from its kept games, in the order they were
    rated, under ``rules`` (after a change of the server's choices); returns how many
    games were read."""
    await conn.lock(guild_id)  # no game is rated meanwhile (``record_game``)
    games = [
        (GameResult.from_json(family, text), finished_at)
        for family, text, finished_at in await stored.game_results(conn, guild_id)
    ]
    replayed = await asyncio.to_thread(replay, games, rules)  # seconds for a long history
    await stored.clear_ratings(conn, guild_id)
    for (user_id, family), rating in replayed.items():
        if is_pseudonym(user_id):
            continue  # a former player's games still count for the others; they are rated no more
        await stored.put_rating(
            conn,
            guild_id,
            family.value,
            user_id,
            StoredRating(rating.mu, rating.sigma, rating.games),
        )
    return len(games)
