"""Seasons: an admin starts one (with an end date the bot keeps, if they like) and ends it;
ratings and boards can be read for a season, replayed from the games kept while it ran,
and its end gives a podium per family of variants (the three best rated, over the server's
minimum of rated games).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.storage import Database
from bot.storage import seasons as stored
from bot.storage.privacy import is_pseudonym
from bot.storage.seasons import Season, SeasonRunning
from bot.storage.settings import GuildSettings, get_settings

from ..errors import TableError
from ..ratings import Family, GameResult, Rating, RatingRules, replay
from ..service import everywhere

PODIUM = 3


@dataclass(frozen=True, slots=True)
class Podium:
    """The best rated of one family in a season, first place first: (user id, rating)."""

    family: Family
    places: tuple[tuple[int, Rating], ...]


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """A season that ended, and its podiums (families nobody qualified in are left out)."""

    season: Season
    podiums: tuple[Podium, ...]


async def start(
    db: Database, guild_id: int, now: float, ends_at: float | None, channel_id: int | None
) -> Season:
    """Start the server's next season; refused while one runs, or with an end not ahead."""
    if ends_at is not None and ends_at <= now:
        raise TableError("season_end_past")
    try:
        async with db.transaction() as conn:
            return await stored.start_season(conn, guild_id, now, ends_at, channel_id)
    except SeasonRunning:
        running = await stored.running_season(db, guild_id)
        raise TableError("season_running", number=running.number if running else 0) from None


async def end(db: Database, guild_id: int, now: float) -> SeasonEnd | None:
    """End the running season (None when none runs) and give its podiums."""
    async with db.transaction() as conn:
        season = await stored.end_season(conn, guild_id, now)
    if season is None:
        return None
    return SeasonEnd(season, await podiums(db, season))


async def end_due(
    db: Database, now: float, owns: Callable[[int], bool] = everywhere
) -> list[SeasonEnd]:
    """End every season whose planned end has come, in every server this process runs
    (``owns``: the others are their own processes' to end)."""
    ended: list[SeasonEnd] = []
    for season in await stored.due_seasons(db, now):
        if not owns(season.guild_id):
            continue
        done = await end(db, season.guild_id, now)
        if done is not None:
            ended.append(done)
    return ended


SeasonRatings = dict[tuple[int, Family], Rating]

_replayed: weakref.WeakKeyDictionary[Database, dict[int, tuple[object, SeasonRatings]]] = (
    weakref.WeakKeyDictionary()
)
"""The last replay of each season, per database: (what it was made from, the ratings)."""


def replay_rows(rows: Sequence[tuple[str, str, float]], rules: RatingRules) -> SeasonRatings:
    """The ratings the season's kept games (as the storage gives them) make under ``rules``:
    the heavy part (about 3 s for 20,000 games), run off the event loop."""
    games = [(GameResult.from_json(family, text), at) for family, text, at in rows]
    return replay(games, rules)


async def season_ratings(
    db: Database, season: Season, settings: GuildSettings | None = None
) -> SeasonRatings:
    """Every member's rating per family from the season's games alone (newcomers at its
    start), under the server's rules (its ``settings``, read when not given).

    The replay runs in a thread, so the bot keeps answering meanwhile, and is kept until a
    game of the season is kept or the rules change: the pages of a board read it again."""
    settings = settings or await get_settings(db, season.guild_id)
    rules = RatingRules.of(settings)
    made_from = (await stored.season_games_mark(db, season.id), rules)
    kept = _replayed.setdefault(db, {})
    found = kept.get(season.id)
    if found is not None and found[0] == made_from:
        return found[1]
    rows = await stored.season_games(db, season.id)
    ratings = await asyncio.to_thread(replay_rows, rows, rules)
    kept[season.id] = (made_from, ratings)
    return ratings


def board(ratings: SeasonRatings, family: Family, min_games: int) -> list[tuple[int, Rating]]:
    """The members with ``min_games`` rated games or more in ``family``, best first (as the
    all-time board sorts: mu - 3 sigma, then mu)."""
    rows = [
        (u, r)
        for (u, f), r in ratings.items()
        if f is family and r.games >= min_games and not is_pseudonym(u)  # erased members
    ]
    return sorted(rows, key=lambda row: (-row[1].conservative, -row[1].mu, row[0]))


async def podiums(
    db: Database, season: Season, settings: GuildSettings | None = None
) -> tuple[Podium, ...]:
    """The podium of each family of the season (families nobody qualified in left out),
    under the server's ``settings`` (read when not given)."""
    settings = settings or await get_settings(db, season.guild_id)
    ratings = await season_ratings(db, season, settings)
    out: list[Podium] = []
    for family in Family:
        best = board(ratings, family, settings.min_rated_games)[:PODIUM]
        if best:
            out.append(Podium(family, tuple(best)))
    return tuple(out)
