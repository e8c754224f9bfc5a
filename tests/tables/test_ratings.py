"""Skill ratings: each family rated as openskill rates it, robots fixed, games against
robots at the server's weight, and the stored ratings rebuilt from history to the same."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.ai import Level
from bot.storage import Database
from bot.storage import ratings as stored
from bot.tables.ratings import (
    NEWCOMER,
    ROBOT_RATINGS,
    Family,
    GameResult,
    Player,
    Rating,
    RatingRules,
    places_of,
    rate,
    rebuild,
    record_game,
    replay,
)
from tests.migrated import open_migrated

GUILD = 1
NO_RULES = RatingRules()
MEMBER = [Player(user_id=u) for u in range(100, 108)]
HARD = Player(robot=Level.HARD)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "tute.db")
    yield database
    await database.close()


# the games of each family, the sides as openskill's teams and each side's place
GAMES = [
    GameResult(Family.TWO, ((MEMBER[0],), (MEMBER[1],)), (0, 1)),
    GameResult(Family.THREE, ((MEMBER[0],), (MEMBER[1],), (MEMBER[2],)), (1, 0, 2)),
    GameResult(Family.THREE, ((MEMBER[0],), (MEMBER[1],), (HARD,), (MEMBER[3],)), (2, 1, 0, 2)),
    GameResult(Family.FOUR, tuple((m,) for m in MEMBER[:4]), (1, 0, 1, 1)),
    GameResult(Family.PAIRS, ((MEMBER[0], MEMBER[2]), (MEMBER[1], MEMBER[3])), (0, 1)),
    GameResult(Family.PAIRS, ((MEMBER[0], HARD), (MEMBER[1], MEMBER[3])), (1, 0)),
]


@pytest.mark.parametrize("game", GAMES, ids=[f"{g.family.value}-{len(g.sides)}" for g in GAMES])
def test_each_family_is_rated_as_openskill_rates_it(game: GameResult) -> None:
    before = {100: Rating(30.0, 5.0, 4), 101: Rating(20.0, 6.0, 2)}
    model = PlackettLuce()
    teams = [
        [
            model.rating(*ROBOT_RATINGS[p.robot])
            if p.robot is not None
            else model.rating(
                before.get(p.user_id or 0, NEWCOMER).mu, before.get(p.user_id or 0, NEWCOMER).sigma
            )
            for p in side
        ]
        for side in game.sides
    ]
    expected = model.rate(teams, ranks=[float(x) for x in game.places])
    after = rate(game, before)
    for side, new_side in zip(game.sides, expected, strict=True):
        for player, new in zip(side, new_side, strict=True):
            if player.user_id is None:
                assert player.user_id not in after  # robots are never rated
                continue
            got = after[player.user_id]
            assert got.mu == pytest.approx(new.mu) and got.sigma == pytest.approx(new.sigma)
            assert got.games == before.get(player.user_id, NEWCOMER).games + 1


def test_the_winner_gains_and_the_loser_loses() -> None:
    after = rate(GAMES[0], {})
    assert after[100].mu > NEWCOMER.mu > after[101].mu
    assert after[100].sigma < NEWCOMER.sigma


@pytest.mark.parametrize(("weight", "share"), [(0, None), (50, 0.5), (100, 1.0)])
def test_a_member_alone_against_robots_counts_at_the_servers_weight(
    weight: int, share: float | None
) -> None:
    game = GameResult(Family.PAIRS, ((MEMBER[0], HARD), (HARD, HARD)), (0, 1))
    after = rate(game, {}, robot_weight=weight)
    if share is None:
        assert after == {}
        return
    full = rate(game, {}, robot_weight=100)[100]
    assert after[100].mu - NEWCOMER.mu == pytest.approx(share * (full.mu - NEWCOMER.mu))
    assert after[100].games == 1


def test_two_members_count_in_full_whatever_the_weight() -> None:
    game = GameResult(Family.PAIRS, ((MEMBER[0], HARD), (MEMBER[1], HARD)), (0, 1))
    assert rate(game, {}, robot_weight=0) == rate(game, {}, robot_weight=100)
    assert rate(game, {}, robot_weight=0)


@pytest.mark.parametrize(
    ("rounds", "winner", "places"),
    [
        ((2, 1), 0, (0, 1)),
        ((1, 3), 1, (1, 0)),
        ((1, 3, 1), 1, (1, 0, 1)),
        ((0, 1, 3, 2), 2, (3, 2, 0, 1)),
        ((0, 0, 1, 0), 2, (1, 1, 0, 1)),
    ],
)
def test_places(rounds: tuple[int, ...], winner: int, places: tuple[int, ...]) -> None:
    assert places_of(rounds, winner) == places


def test_a_result_reads_back_the_same() -> None:
    for game in GAMES:
        assert GameResult.from_json(game.family.value, game.to_json()) == game


async def test_a_kept_game_is_rated_once_and_rebuilt_to_the_same(db: Database) -> None:
    async with db.transaction() as conn:
        for table_id, game in enumerate(GAMES, start=1):
            changes = await record_game(conn, GUILD, table_id, game, float(table_id), NO_RULES)
            assert set(changes) == set(game.members)
        # the same table's game again (a settlement run twice) changes nothing
        assert await record_game(conn, GUILD, 1, GAMES[0], 9.0, NO_RULES) == {}
    incremental = await _all(db)
    timed = [(game, float(i)) for i, game in enumerate(GAMES, start=1)]
    replayed = {(u, f.value): (r.mu, r.sigma, r.games) for (u, f), r in replay(timed).items()}
    assert set(replayed) == set(incremental)
    for key, value in replayed.items():
        assert incremental[key] == pytest.approx(value)
    async with db.transaction() as conn:
        assert await rebuild(conn, GUILD, NO_RULES) == len(GAMES)
    rebuilt = await _all(db)
    assert set(rebuilt) == set(incremental)
    for key, value in incremental.items():
        assert rebuilt[key] == pytest.approx(value)


async def test_a_rebuild_applies_a_new_weight_to_past_games(db: Database) -> None:
    alone = GameResult(Family.TWO, ((MEMBER[5],), (HARD,)), (0, 1))
    async with db.transaction() as conn:
        assert await record_game(conn, GUILD, 1, alone, 1.0, NO_RULES) == {}  # kept, not rated
    assert await _all(db) == {}
    async with db.transaction() as conn:
        assert await rebuild(conn, GUILD, RatingRules(robot_weight=100)) == 1
    rated = await _all(db)
    assert rated[(105, "two")][0] > NEWCOMER.mu and rated[(105, "two")][2] == 1


async def test_the_board_lists_members_over_the_minimum_surest_first(db: Database) -> None:
    async with db.transaction() as conn:
        for user_id, (mu, sigma, games) in {
            200: (30.0, 2.0, 10),  # 24 for sure
            201: (35.0, 5.0, 10),  # 20 for sure, though a higher mu
            202: (40.0, 1.0, 2),  # too few games
        }.items():
            await stored.put_rating(
                conn, GUILD, "pairs", user_id, stored.StoredRating(mu, sigma, games)
            )
    board = await stored.rating_board(db, GUILD, "pairs", min_games=5, limit=10)
    assert [user_id for user_id, _ in board] == [200, 201]
    assert await stored.rating_board_size(db, GUILD, "pairs", 5) == 2


async def _all(db: Database) -> dict[tuple[int, str], tuple[float, float, int]]:
    rows = await db.fetchall("SELECT user_id, family, mu, sigma, games FROM ratings")
    return {(int(r[0]), str(r[1])): (float(r[2]), float(r[3]), int(r[4])) for r in rows}


async def test_two_members_over_their_daily_cap_are_not_rated_until_the_next_day(
    db: Database,
) -> None:
    rules = RatingRules(pair_cap=2)
    duel = GAMES[0]  # members 100 and 101
    day = 1_800_000_000.0 - 1_800_000_000.0 % 86_400
    async with db.transaction() as conn:
        rated = [
            bool(await record_game(conn, GUILD, i, duel, day + 60 * i, rules)) for i in range(1, 4)
        ]
        assert rated == [True, True, False]  # the third game of the day together
        # with a third member, the pair is still over its cap: the game is not rated
        trio = GAMES[1]
        assert await record_game(conn, GUILD, 4, trio, day + 600, rules) == {}
        # the next day they are rated again
        assert await record_game(conn, GUILD, 5, duel, day + 86_400 + 60, rules)
    incremental = await _all(db)
    assert incremental[(100, "two")][2] == 3
    async with db.transaction() as conn:
        await rebuild(conn, GUILD, rules)
    rebuilt = await _all(db)
    assert set(rebuilt) == set(incremental)
    for key, value in incremental.items():
        assert rebuilt[key] == pytest.approx(value)
    async with db.transaction() as conn:
        await rebuild(conn, GUILD, NO_RULES)  # without the cap every game counts
    assert (await _all(db))[(100, "two")][2] == 4


def test_a_member_under_the_fair_play_minimums_plays_unrated() -> None:
    """A new account (or new in the server) plays at a newcomer's rating that the game does
    not change, and does not make a game of members: alone with it, a member is rated as
    against robots (not at all by default)."""
    fresh = Player(user_id=999, rated=False)
    game = GameResult(Family.TWO, ((MEMBER[0],), (fresh,)), (0, 1))
    assert game.members == [100]
    assert rate(game, {}) == {}  # one member: a game against robots, weight 0
    half = rate(game, {}, robot_weight=50)
    assert set(half) == {100}
    assert GameResult.from_json("two", game.to_json()) == game
    pairs = GameResult(Family.PAIRS, ((MEMBER[0], fresh), (MEMBER[1], MEMBER[2])), (0, 1))
    after = rate(pairs, {})
    assert set(after) == {100, 101, 102}  # three members rated, the new account not


def test_game_result_marks_who_is_old_enough() -> None:
    from bot.engine import Game, Options, Variant
    from bot.tables.model import Seat, Status, Table
    from bot.tables.settlement import game_result

    seats: list[Seat | None] = [
        Seat("ana", user_id=1, account_created=0.0),
        Seat("new", user_id=2, account_created=None),
    ]
    table = Table(
        id=1,
        guild_id=GUILD,
        channel_id=2,
        host_id=1,
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
        created_at=0.0,
        seats=seats,
        status=Status.FINISHED,
    )
    table.game = Game(Variant.HABANERO, Options(), rounds_won=[0, 1])
    table.winner = 1
    result = game_result(table, lambda seat: seat.account_created is not None)
    assert result.sides == ((Player(user_id=1),), (Player(user_id=2, rated=False),))
    assert result.places == (1, 0) and result.members == [1]
