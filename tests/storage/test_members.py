"""Members' records, on a real SQLite file: who has been seen, their counters, the
leaderboards and a member's standing."""

import pytest

from bot.storage import Database, ledger, members
from bot.storage import tables as table_repo

from .helpers import ANA, BEA, GUILD, NOW, OTHER_GUILD, assert_balanced, join


async def test_the_starting_chips_are_given_once(db: Database) -> None:
    async with db.transaction() as conn:
        assert await members.ensure_member(conn, GUILD, ANA, 1000, NOW)
        assert not await members.ensure_member(conn, GUILD, ANA, 1000, NOW)
    async with db.transaction() as conn:
        assert not await members.ensure_member(conn, GUILD, ANA, 5000, NOW)

    assert await ledger.balance(db, GUILD, ANA) == 1000
    assert await ledger.total_granted(db, GUILD) == 1000
    await assert_balanced(db)


async def test_no_starting_chips_writes_no_grant(db: Database) -> None:
    await join(db, ANA, chips=0)

    assert await members.member_stats(db, GUILD, ANA) is not None
    assert await ledger.balance(db, GUILD, ANA) == 0
    assert await ledger.total_granted(db, GUILD) == 0


async def test_stats_add_up_and_need_a_known_member(db: Database) -> None:
    await join(db, ANA)
    async with db.transaction() as conn:
        await members.add_stats(conn, GUILD, ANA, xp=30, rounds_won=2, rounds_played=3)
        await members.add_stats(
            conn, GUILD, ANA, xp=5, games_won=1, games_played=2, cantes=3, tutes=1
        )

    stats = await members.member_stats(db, GUILD, ANA)
    assert stats == members.MemberStats(
        user_id=ANA,
        balance=1000,
        rank=1,
        members=1,
        xp=35,
        rounds_won=2,
        rounds_played=3,
        games_won=1,
        games_played=2,
        cantes=3,
        tutes=1,
        last_daily=None,
    )
    assert await members.member_stats(db, GUILD, BEA) is None
    with pytest.raises(ledger.UnknownMember):
        async with db.transaction() as conn:
            await members.add_stats(conn, GUILD, BEA, xp=1)
    with pytest.raises(ledger.LedgerError):
        async with db.transaction() as conn:
            await members.add_stats(conn, GUILD, ANA, xp=-1)


async def test_the_leaderboards_rank_ties_together_and_page(db: Database) -> None:
    users = list(range(200, 225))
    await join(db, *users)
    async with db.transaction() as conn:
        for n, user in enumerate(users):
            # chips: 1000 + 10 * (n // 2): pairs of equal balances
            if n // 2:
                await ledger.grant(conn, GUILD, user, 10 * (n // 2), "admin", NOW)
            if n % 3 == 0:
                await members.add_stats(conn, GUILD, user, xp=n, games_won=n // 6, rounds_won=n)
    await join(db, 999, guild=OTHER_GUILD)  # another server's member never shows

    assert await members.leaderboard_size(db, GUILD, "chips") == 25
    first = await members.leaderboard(db, GUILD, "chips", 0, 10)
    assert [(e.rank, e.user_id, e.value) for e in first[:4]] == [
        (1, 224, 1120),
        (2, 222, 1110),
        (2, 223, 1110),
        (4, 220, 1100),
    ]
    third = await members.leaderboard(db, GUILD, "chips", 20, 10)
    assert [(e.rank, e.user_id, e.value) for e in third] == [
        (20, 205, 1020),
        (22, 202, 1010),
        (22, 203, 1010),
        (24, 200, 1000),
        (24, 201, 1000),
    ]
    everyone = [e.user_id for e in await members.leaderboard(db, GUILD, "chips", 0, 100)]
    assert sorted(everyone) == users

    # Counters list the members who scored any: users 203, 206, ... (n % 3 == 0, n > 0)
    assert await members.leaderboard_size(db, GUILD, "xp") == 8
    xp = await members.leaderboard(db, GUILD, "xp", 0, 3)
    assert [(e.rank, e.user_id, e.value) for e in xp] == [(1, 224, 24), (2, 221, 21), (3, 218, 18)]
    games = await members.leaderboard(db, GUILD, "games", 0, 10)
    assert [(e.rank, e.value) for e in games][:3] == [(1, 4), (2, 3), (2, 3)]
    assert await members.leaderboard_size(db, GUILD, "rounds") == 8

    stats = await members.member_stats(db, GUILD, 222)
    assert stats is not None
    assert (stats.rank, stats.members) == (2, 25)
    with pytest.raises(ValueError, match="unknown leaderboard"):
        await members.leaderboard(db, GUILD, "cantes", 0, 10)  # type: ignore[arg-type]


async def test_a_games_finished_records_in_order(db: Database) -> None:
    async with db.transaction() as conn:
        table_id = await table_repo.create_table(
            conn,
            guild_id=GUILD,
            channel_id=1,
            host_id=ANA,
            variant="individual",
            status="playing",
            state="{}",
            now=NOW,
        )
        for deal_no, finished in ((3, True), (1, True), (2, False), (4, True)):
            await table_repo.save_deal(
                conn,
                table_id=table_id,
                deal_no=deal_no,
                guild_id=GUILD,
                record=f'{{"deal": {deal_no}}}',
                players=[(0, ANA)],
                finished_at=NOW if finished else None,
            )

    # The deal in play (4) and an unfinished one are not counted.
    records = await members.finished_records(db, table_id, 4)
    assert records == ['{"deal": 1}', '{"deal": 3}']
    assert await members.finished_records(db, table_id + 1, 4) == []


async def test_a_member_is_told_of_their_turn_unless_they_said_no(db: Database) -> None:
    assert await members.notify_turn(db, GUILD, 5) is True  # nobody asked: the default
    async with db.transaction() as conn:
        await members.set_notify_turn(conn, GUILD, 5, False)
    assert await members.notify_turn(db, GUILD, 5) is False
    assert await members.notify_turn(db, GUILD + 1, 5) is True  # per server
    async with db.transaction() as conn:
        await members.set_notify_turn(conn, GUILD, 5, True)
    assert await members.notify_turn(db, GUILD, 5) is True


async def test_places_on_the_chips_board_now_and_before_a_change(db: Database) -> None:
    for user, chips in ((1, 500), (2, 300), (3, 300), (4, 100)):
        await join(db, user, chips=chips)
    assert await members.chip_ranks(db, GUILD) == {1: 1, 2: 2, 3: 2, 4: 4}  # ties share
    # 1 has just won 300 of them and 4 lost 300: before that, 4 led and 1 was last
    before = await members.chip_ranks(db, GUILD, {1: 300, 4: -300})
    assert before == {4: 1, 2: 2, 3: 2, 1: 4}
