"""The daily deal's storage (migration 12), on both engines: an attempt is written once a day
per member and server, scored once, ranked on its own server's board of its own day; the
install's key is made once."""

from bot.storage import Database
from bot.storage import daily as repo
from bot.storage.daily import Score
from bot.storage.members import member_stats
from bot.storage.settings import get_settings, update_settings

DAY = 20_000


async def test_a_member_begins_a_days_deal_once(db: Database) -> None:
    assert await repo.begin(db, 1, 10, DAY, now=100.0)
    assert not await repo.begin(db, 1, 10, DAY, now=200.0)
    attempt = await repo.get(db, 1, 10, DAY)
    assert attempt is not None and attempt.status == "playing" and attempt.started_at == 100.0
    # another day, another server: a deal of its own
    assert await repo.begin(db, 1, 10, DAY + 1, now=300.0)
    assert await repo.begin(db, 2, 10, DAY, now=300.0)


async def test_an_attempt_is_scored_once_and_ranked_on_its_servers_board(db: Database) -> None:
    for user in (10, 11, 12, 13, 15):
        await repo.begin(db, 1, user, DAY, now=100.0 + user)
        await repo.seat(db, 1, user, DAY, table_id=user)
    await repo.begin(db, 2, 14, DAY, now=100.0)  # another server's
    await repo.seat(db, 2, 14, DAY, table_id=14)
    scores = {
        10: Score(points=70, margin=10, won=True, tricks="WWLW", cantes=1),
        11: Score(points=90, margin=50, won=True, tricks="WWWW", cantes=0),
        13: Score(points=70, margin=20, won=True, tricks="WLWW", cantes=0),
        15: Score(points=120, margin=110, won=True, tricks="WWWW", cantes=0, hints=3),
        14: Score(points=130, margin=130, won=True, tricks="WWWW", cantes=2),
    }
    for user, score in scores.items():
        attempt = await repo.at_table(db, user)
        assert attempt is not None
        done = await repo.finish(db, attempt, score, now=500.0)
        assert done is not None and done.points == score.points and done.tricks == score.tricks
        # scored once: a second score (a better one) changes nothing
        assert await repo.finish(db, attempt, Score(200, 200, True, "W", 0), now=600.0) is None
    left = await repo.at_table(db, 12)
    assert left is not None
    await repo.finish(db, left, None, now=550.0)
    board = await repo.board(db, 1, DAY)
    assert [(a.user_id, a.status) for a in board] == [
        (11, "finished"),
        (13, "finished"),  # same points as 10, a wider margin
        (10, "finished"),
        (15, "finished"),  # the most points, but with hints
        (12, "unfinished"),
    ]
    hinted = await repo.get(db, 1, 15, DAY)
    assert hinted is not None and hinted.hints == 3
    assert await repo.in_play(db) == []
    assert [a.user_id for a in await repo.board(db, 2, DAY)] == [14]


async def test_an_attempt_whose_table_never_opened_can_be_withdrawn(db: Database) -> None:
    await repo.begin(db, 1, 10, DAY, now=100.0)
    await repo.withdraw(db, 1, 10, DAY)
    assert await repo.get(db, 1, 10, DAY) is None
    await repo.begin(db, 1, 10, DAY, now=100.0)
    await repo.seat(db, 1, 10, DAY, table_id=5)
    await repo.withdraw(db, 1, 10, DAY)  # its table opened: it stays played
    assert await repo.get(db, 1, 10, DAY) is not None


async def test_days_played_are_per_server_newest_first(db: Database) -> None:
    for day in (DAY - 3, DAY - 1, DAY, DAY + 1):
        await repo.begin(db, 1, 10, day, now=float(day))
    await repo.begin(db, 2, 10, DAY - 2, now=0.0)
    played = await repo.days_played(db, 1, [10, 11], until=DAY)
    assert played == {10: [DAY, DAY - 1, DAY - 3], 11: []}


async def test_the_key_is_made_once(db: Database) -> None:
    first = await repo.key(db, "a" * 64)
    assert first == "a" * 64
    assert await repo.key(db, "b" * 64) == first


async def test_daily_experience_is_a_setting_off_by_default(db: Database) -> None:
    assert not (await get_settings(db, 1)).daily_experience
    async with db.transaction() as conn:
        changed = await update_settings(conn, 1, daily_experience=True)
    assert changed.daily_experience is True
    assert (await get_settings(db, 1)).daily_experience is True


async def test_experience_comes_with_the_score(db: Database) -> None:
    await repo.begin(db, 1, 10, DAY, now=100.0)
    await repo.seat(db, 1, 10, DAY, table_id=3)
    attempt = await repo.at_table(db, 3)
    assert attempt is not None
    await repo.finish(db, attempt, Score(80, 40, True, "WW", 0), now=200.0, xp=20)
    member = await member_stats(db, 1, 10)
    assert member is not None and member.xp == 20
