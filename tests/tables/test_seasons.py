"""Seasons: one at a time, numbered; the games kept while one runs are its own; its
ratings are replayed from them alone; its end gives a podium per family; a planned end
comes by itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai import Level
from bot.storage import Database
from bot.storage import seasons as stored
from bot.storage.settings import update_settings
from bot.tables.competition import seasons
from bot.tables.errors import TableError
from bot.tables.ratings import Family, GameResult, Player, RatingRules, record_game
from tests.migrated import open_migrated

GUILD = 1
DAY = 86_400.0
T0 = 1_800_000_000.0
M = [Player(user_id=u) for u in range(300, 306)]
HARD = Player(robot=Level.HARD)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "tute.db")
    async with database.transaction() as conn:
        await update_settings(conn, GUILD, min_rated_games=2)
    yield database
    await database.close()


def duel(winner: Player, loser: Player) -> GameResult:
    return GameResult(Family.TWO, ((winner,), (loser,)), (0, 1))


async def play(db: Database, games: list[GameResult], start_id: int, at: float) -> None:
    async with db.transaction() as conn:
        for i, game in enumerate(games):
            await record_game(conn, GUILD, start_id + i, game, at + i * DAY, RatingRules())


async def test_one_season_at_a_time_numbered_from_one(db: Database) -> None:
    first = await seasons.start(db, GUILD, T0, None, 5)
    assert first.number == 1 and first.running
    with pytest.raises(TableError) as refused:
        await seasons.start(db, GUILD, T0 + 1, None, 5)
    assert refused.value.key == "season_running" and refused.value.params["number"] == 1
    ended = await seasons.end(db, GUILD, T0 + DAY)
    assert ended is not None and ended.season.number == 1 and not ended.season.running
    assert await seasons.end(db, GUILD, T0 + DAY) is None  # nothing runs now
    second = await seasons.start(db, GUILD, T0 + 2 * DAY, T0 + 9 * DAY, 5)
    assert second.number == 2
    with pytest.raises(TableError) as past:
        await seasons.start(db, 2, T0, T0 - 1, None)
    assert past.value.key == "season_end_past"


async def test_a_seasons_ratings_and_podium_come_from_its_own_games(db: Database) -> None:
    # before the season: member 300 beats everybody; it does not count in the season
    await play(db, [duel(M[0], M[1]), duel(M[0], M[2]), duel(M[0], M[3])], 1, T0 - 10 * DAY)
    season = await seasons.start(db, GUILD, T0, None, 7)
    await play(
        db,
        [
            duel(M[1], M[0]),
            duel(M[1], M[2]),
            duel(M[2], M[3]),
            duel(M[2], M[0]),
            duel(M[3], M[4]),  # 304 plays once: under the minimum of 2
            duel(M[1], M[3]),
        ],
        10,
        T0 + 1,
    )
    ratings = await seasons.season_ratings(db, season)
    assert ratings[(301, Family.TWO)].games == 3  # its season games only
    assert ratings[(300, Family.TWO)].games == 2
    ended = await seasons.end(db, GUILD, T0 + 30 * DAY)
    assert ended is not None
    (podium,) = ended.podiums  # only the two-player family was played
    assert podium.family is Family.TWO
    places = [user_id for user_id, _ in podium.places]
    assert places[0] == 301 and len(places) == 3 and 304 not in places
    # games after the season belong to no season
    await play(db, [duel(M[5], M[4])], 50, T0 + 40 * DAY)
    assert len(await stored.season_games(db, season.id)) == 6


async def test_a_planned_end_comes_by_itself(db: Database) -> None:
    await seasons.start(db, GUILD, T0, T0 + 7 * DAY, 7)
    assert await seasons.end_due(db, T0 + 7 * DAY - 1) == []
    ended = await seasons.end_due(db, T0 + 7 * DAY)
    assert [e.season.number for e in ended] == [1]
    assert ended[0].season.channel_id == 7
    assert await stored.running_season(db, GUILD) is None
    assert await seasons.end_due(db, T0 + 8 * DAY) == []


async def test_a_game_against_robots_alone_is_kept_but_rated_only_at_weight(db: Database) -> None:
    season = await seasons.start(db, GUILD, T0, None, None)
    await play(db, [duel(M[0], HARD)], 1, T0 + 1)
    assert await seasons.season_ratings(db, season) == {}
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, robot_rating_weight=50)
    assert (await seasons.season_ratings(db, season))[(300, Family.TWO)].games == 1
