"""The chips ledger and the standings, on a real SQLite file."""

import pytest

from bot.engine.game import settle_bet
from bot.storage import Database
from bot.storage import standings as st

GUILD, OTHER_GUILD = 1, 2
ANA, BEA, CAR = 101, 102, 103
TABLE = 7
NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z


async def join(db: Database, *users: int, chips: int = 1000, guild: int = GUILD) -> None:
    async with db.transaction() as conn:
        for user in users:
            await st.ensure_member(conn, guild, user, chips, NOW)


async def balances(db: Database, *users: int) -> list[int]:
    return [await st.balance(db, GUILD, user) for user in users]


async def assert_balanced(db: Database, guild: int = GUILD) -> st.Audit:
    audit = await st.audit(db, guild)
    assert audit.balanced, audit
    return audit


# ---------------------------------------------------------------------------- grants


async def test_the_starting_chips_are_given_once(db: Database) -> None:
    async with db.transaction() as conn:
        assert await st.ensure_member(conn, GUILD, ANA, 1000, NOW)
        assert not await st.ensure_member(conn, GUILD, ANA, 1000, NOW)
    async with db.transaction() as conn:
        assert not await st.ensure_member(conn, GUILD, ANA, 5000, NOW)

    assert await st.balance(db, GUILD, ANA) == 1000
    assert await st.total_granted(db, GUILD) == 1000
    await assert_balanced(db)


async def test_chips_are_per_server(db: Database) -> None:
    await join(db, ANA, chips=1000)
    await join(db, ANA, chips=300, guild=OTHER_GUILD)

    assert await st.balance(db, GUILD, ANA) == 1000
    assert await st.balance(db, OTHER_GUILD, ANA) == 300
    assert await st.balance(db, GUILD, BEA) == 0
    assert not await st.is_member(db, GUILD, BEA)


async def test_no_starting_chips_writes_no_grant(db: Database) -> None:
    await join(db, ANA, chips=0)

    assert await st.is_member(db, GUILD, ANA)
    assert await st.balance(db, GUILD, ANA) == 0
    assert await st.total_granted(db, GUILD) == 0


async def test_the_daily_grant_once_per_utc_day(db: Database) -> None:
    await join(db, ANA)

    async with db.transaction() as conn:
        assert await st.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)
        assert not await st.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW + 60)
    async with db.transaction() as conn:
        assert not await st.claim_daily(conn, GUILD, ANA, 100, "2025-12-31", NOW + 120)
        assert await st.claim_daily(conn, GUILD, ANA, 100, "2026-01-02", NOW + 86_400)

    assert await st.balance(db, GUILD, ANA) == 1200
    assert await st.last_daily(db, GUILD, ANA) == "2026-01-02"
    await assert_balanced(db)


async def test_a_daily_needs_a_known_member_and_a_date(db: Database) -> None:
    with pytest.raises(st.UnknownMember):
        async with db.transaction() as conn:
            await st.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)
    await join(db, ANA)
    with pytest.raises(ValueError, match="isoformat"):
        async with db.transaction() as conn:
            await st.claim_daily(conn, GUILD, ANA, 100, "yesterday", NOW)


async def test_admin_grants_add_and_take_back_but_never_below_zero(db: Database) -> None:
    await join(db, ANA)

    async with db.transaction() as conn:
        assert await st.grant(conn, GUILD, ANA, 500, "admin", NOW) == 1500
        assert await st.grant(conn, GUILD, ANA, -1500, "admin", NOW) == 0
    with pytest.raises(st.InsufficientChips):
        async with db.transaction() as conn:
            await st.grant(conn, GUILD, ANA, -1, "admin", NOW)
    with pytest.raises(st.UnknownMember):
        async with db.transaction() as conn:
            await st.grant(conn, GUILD, BEA, 10, "admin", NOW)
    with pytest.raises(st.LedgerError):
        async with db.transaction() as conn:
            await st.grant(conn, GUILD, ANA, -10, "daily", NOW)

    assert await st.balance(db, GUILD, ANA) == 0
    assert await st.total_granted(db, GUILD) == 0
    await assert_balanced(db)


# ---------------------------------------------------------------------------- stakes


async def test_stakes_are_held_then_paid_out_with_the_banks_rake(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100, CAR: 100}, NOW)

    assert await balances(db, ANA, BEA, CAR) == [900, 900, 900]
    assert await st.table_held(db, TABLE) == 300
    assert (await st.table_state(db, TABLE)).stakes == {ANA: 100, BEA: 100, CAR: 100}
    await assert_balanced(db)

    # Ana (seat 0) wins; the engine's settlement says who gets what.
    payout = settle_bet(100, ((0,), (1,), (2,)), 0, frozenset({0, 1, 2}))
    prize = payout.seats[0] + 100
    async with db.transaction() as conn:
        await st.release_table(conn, GUILD, TABLE, {ANA: prize}, payout.bank, NOW)

    assert await balances(db, ANA, BEA, CAR) == [900 + 225, 900, 900]
    assert await st.bank_balance(db, GUILD) == 75
    assert await st.table_held(db, TABLE) == 0
    audit = await assert_balanced(db)
    assert (audit.members, audit.bank, audit.tables, audit.granted) == (2925, 75, 0, 3000)


async def test_a_settlement_must_pay_out_exactly_what_the_table_holds(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)

    for payouts, rake in (({ANA: 200}, 1), ({ANA: 100}, 50), ({ANA: 250, BEA: -50}, 0)):
        with pytest.raises(st.LedgerError):
            async with db.transaction() as conn:
                await st.release_table(conn, GUILD, TABLE, payouts, rake, NOW)

    assert await st.table_held(db, TABLE) == 200
    async with db.transaction() as conn:
        await st.release_table(conn, GUILD, TABLE, {ANA: 150}, 50, NOW)
        await st.release_table(conn, GUILD, TABLE, {}, 0, NOW)  # nothing left: no-op
    await assert_balanced(db)


async def test_a_cancelled_game_gives_every_stake_back(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await st.hold_stake(conn, GUILD, TABLE, ANA, 100, NOW)
        await st.hold_stake(conn, GUILD, TABLE, BEA, 250, NOW)
    async with db.transaction() as conn:
        back = await st.refund_table(conn, GUILD, TABLE, NOW)

    assert back == {ANA: 100, BEA: 250}
    assert await balances(db, ANA, BEA) == [1000, 1000]
    assert await st.table_held(db, TABLE) == 0
    async with db.transaction() as conn:
        assert await st.refund_table(conn, GUILD, TABLE, NOW) == {}
    await assert_balanced(db)


async def test_a_table_reused_for_another_game_refunds_only_that_game(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)
        await st.release_table(conn, GUILD, TABLE, {BEA: 150}, 50, NOW)
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 40, BEA: 40}, NOW)
        back = await st.refund_table(conn, GUILD, TABLE, NOW)

    assert back == {ANA: 40, BEA: 40}
    assert await balances(db, ANA, BEA) == [900, 1050]


async def test_a_leavers_stake_goes_to_the_winners(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)
        assert await st.forfeit_stake(conn, GUILD, TABLE, BEA, NOW) == 100
        assert await st.forfeit_stake(conn, GUILD, TABLE, BEA, NOW) == 0

    state = await st.table_state(db, TABLE)
    assert (state.held, state.stakes, state.forfeited) == (200, {ANA: 100}, 100)
    # A robot took Bea's seat; Ana wins the pot less the rake, Bea's stake included.
    payout = settle_bet(100, ((0,), (1,)), 0, frozenset({0, 1}))
    async with db.transaction() as conn:
        await st.release_table(conn, GUILD, TABLE, {ANA: 100 + payout.seats[0]}, payout.bank, NOW)

    assert await balances(db, ANA, BEA) == [1050, 900]
    assert await st.bank_balance(db, GUILD) == 50
    await assert_balanced(db)


async def test_a_leavers_stake_goes_to_the_bank_when_the_rest_cancel(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100, CAR: 100}, NOW)
        await st.forfeit_stake(conn, GUILD, TABLE, CAR, NOW)
        back = await st.refund_table(conn, GUILD, TABLE, NOW)

    assert back == {ANA: 100, BEA: 100}
    assert await balances(db, ANA, BEA, CAR) == [1000, 1000, 900]
    assert await st.bank_balance(db, GUILD) == 100
    await assert_balanced(db)


async def test_a_stake_beyond_the_balance_raises_and_writes_nothing(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await st.grant(conn, GUILD, BEA, -950, "admin", NOW)

    with pytest.raises(st.InsufficientChips) as raised:
        async with db.transaction() as conn:
            await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)

    assert (raised.value.user_id, raised.value.needed, raised.value.available) == (BEA, 100, 50)
    assert await balances(db, ANA, BEA) == [1000, 50]
    assert await st.table_held(db, TABLE) == 0
    # Nothing was written even inside a transaction that goes on after catching the error.
    async with db.transaction() as conn:
        with pytest.raises(st.InsufficientChips):
            await st.hold_stake(conn, GUILD, TABLE, BEA, 51, NOW)
        await st.hold_stake(conn, GUILD, TABLE, BEA, 50, NOW)
    assert await balances(db, ANA, BEA) == [1000, 0]
    await assert_balanced(db)


@pytest.mark.parametrize("amount", [0, -5])
async def test_a_stake_must_be_positive(db: Database, amount: int) -> None:
    await join(db, ANA)
    with pytest.raises(st.LedgerError):
        async with db.transaction() as conn:
            await st.hold_stake(conn, GUILD, TABLE, ANA, amount, NOW)


# ---------------------------------------------------------------------------- plato


async def test_the_plato_pot_is_filled_taken_and_refunded(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        # Two members and a robot (the bank) put 100 each into the pot.
        for payer in (ANA, BEA, None):
            assert await st.pot_deposit(conn, GUILD, TABLE, payer, 100, NOW) == 100
    assert await st.table_pot(db, TABLE) == 300

    async with db.transaction() as conn:
        assert await st.pot_take(conn, GUILD, TABLE, ANA, NOW) == 300
        assert await st.pot_take(conn, GUILD, TABLE, ANA, NOW) == 0
    assert await balances(db, ANA, BEA) == [1200, 900]
    assert await st.bank_balance(db, GUILD) == -100

    # The pot is refilled; Bea fails a contract and pays as much again, capped at her chips.
    async with db.transaction() as conn:
        for payer in (ANA, BEA, None):
            await st.pot_deposit(conn, GUILD, TABLE, payer, 100, NOW)
        assert await st.pot_deposit(conn, GUILD, TABLE, BEA, 300, NOW, cap=True) == 300
        with pytest.raises(st.InsufficientChips):
            await st.pot_deposit(conn, GUILD, TABLE, BEA, 600, NOW)
        assert await st.pot_deposit(conn, GUILD, TABLE, BEA, 600, NOW, cap=True) == 500
    state = await st.table_state(db, TABLE)
    assert state.pot == {ANA: 100, BEA: 900, None: 100}

    async with db.transaction() as conn:
        back = await st.refund_table(conn, GUILD, TABLE, NOW)
    assert back == {ANA: 100, BEA: 900, None: 100}
    assert await balances(db, ANA, BEA) == [1200, 900]
    await assert_balanced(db)


async def test_stakes_and_the_pot_are_held_together(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await st.hold_stakes(conn, GUILD, TABLE, {ANA: 50, BEA: 50}, NOW)
        await st.pot_deposit(conn, GUILD, TABLE, ANA, 100, NOW)
        await st.pot_deposit(conn, GUILD, TABLE, BEA, 100, NOW)
        await st.pot_take(conn, GUILD, TABLE, BEA, NOW)
        await st.pot_deposit(conn, GUILD, TABLE, ANA, 100, NOW)
    state = await st.table_state(db, TABLE)
    assert (state.held, dict(state.stakes), state.pot_total) == (200, {ANA: 50, BEA: 50}, 100)

    async with db.transaction() as conn:
        await st.release_table(conn, GUILD, TABLE, {ANA: 150, BEA: 25}, 25, NOW)
    assert await balances(db, ANA, BEA) == [900, 1075]
    assert await st.table_pot(db, TABLE) == 0
    await assert_balanced(db)


# ---------------------------------------------------------------------------- payments


async def test_a_transfer_checks_or_caps_the_payers_chips(db: Database) -> None:
    await join(db, ANA, BEA)

    async with db.transaction() as conn:
        assert await st.transfer(conn, GUILD, ANA, BEA, 300, "transfer", TABLE, NOW) == 300
        assert await st.transfer(conn, GUILD, None, ANA, 50, "transfer", TABLE, NOW) == 50
        assert await st.transfer(conn, GUILD, ANA, None, 20, "transfer", None, NOW) == 20
    with pytest.raises(st.InsufficientChips):
        async with db.transaction() as conn:
            await st.transfer(conn, GUILD, ANA, BEA, 731, "transfer", TABLE, NOW)
    async with db.transaction() as conn:
        assert (
            await st.transfer(conn, GUILD, ANA, BEA, 5000, "transfer", TABLE, NOW, cap=True) == 730
        )
        assert await st.transfer(conn, GUILD, ANA, BEA, 10, "transfer", TABLE, NOW, cap=True) == 0

    assert await balances(db, ANA, BEA) == [0, 2030]
    assert await st.bank_balance(db, GUILD) == -30
    await assert_balanced(db)


@pytest.mark.parametrize("kind", ["stake", "plato", "start", "daily", "admin", "payout"])
async def test_a_transfer_cannot_pose_as_another_movement(db: Database, kind: str) -> None:
    await join(db, ANA, BEA)
    with pytest.raises(st.LedgerError):
        async with db.transaction() as conn:
            await st.transfer(conn, GUILD, ANA, BEA, 10, kind, TABLE, NOW)


async def test_arrastrado_payments_are_capped_at_what_the_payer_has(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await st.grant(conn, GUILD, CAR, -900, "admin", NOW)  # Car has 100
        # Round to Ana with 101+: 200 from each; Car also owes a 40 to Bea.
        applied = await st.settle_payments(
            conn, GUILD, TABLE, {ANA: 400, BEA: -200 + 40, CAR: -240}, NOW
        )

    # Car pays the 100 she has; Ana and Bea share 260 collected of 440 owed, in proportion.
    assert applied[BEA] == -160
    assert applied[CAR] == -100
    assert applied[ANA] == 260
    assert await balances(db, ANA, BEA, CAR) == [1260, 840, 0]
    await assert_balanced(db)


async def test_payments_shared_in_proportion_lose_no_chip(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await st.grant(conn, GUILD, CAR, -999, "admin", NOW)  # Car has 1
        applied = await st.settle_payments(conn, GUILD, None, {ANA: 50, BEA: 50, CAR: -100}, NOW)

    assert sum(applied.values()) == 0
    assert applied[CAR] == -1
    assert sorted((applied.get(ANA, 0), applied.get(BEA, 0))) == [0, 1]
    await assert_balanced(db)


async def test_robots_payments_go_through_the_bank_in_full(db: Database) -> None:
    await join(db, ANA)
    async with db.transaction() as conn:
        applied = await st.settle_payments(conn, GUILD, TABLE, {ANA: 200, None: -200}, NOW)
        applied_back = await st.settle_payments(conn, GUILD, TABLE, {ANA: -40, None: 40}, NOW)

    assert applied == {None: -200, ANA: 200}
    assert applied_back == {ANA: -40, None: 40}
    assert await st.bank_balance(db, GUILD) == -160
    with pytest.raises(st.LedgerError):
        async with db.transaction() as conn:
            await st.settle_payments(conn, GUILD, TABLE, {ANA: 10}, NOW)
    await assert_balanced(db)


# ---------------------------------------------------------------------------- atomicity


async def test_a_transaction_that_fails_midway_leaves_nothing(db: Database) -> None:
    await join(db, ANA)

    class Crash(Exception):
        pass

    async def settle_then_crash() -> None:
        async with db.transaction() as conn:
            await st.ensure_member(conn, GUILD, BEA, 1000, NOW)
            await st.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)
            await st.add_stats(conn, GUILD, ANA, xp=10, games_played=1)
            await st.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)
            raise Crash

    with pytest.raises(Crash):
        await settle_then_crash()

    assert not await st.is_member(db, GUILD, BEA)
    assert await balances(db, ANA, BEA) == [1000, 0]
    assert await st.table_held(db, TABLE) == 0
    stats = await st.member_stats(db, GUILD, ANA)
    assert stats is not None
    assert (stats.xp, stats.games_played, stats.last_daily) == (0, 0, None)
    audit = await assert_balanced(db)
    assert audit.granted == 1000


# ---------------------------------------------------------------------------- standings


async def test_stats_add_up_and_need_a_known_member(db: Database) -> None:
    await join(db, ANA)
    async with db.transaction() as conn:
        await st.add_stats(conn, GUILD, ANA, xp=30, rounds_won=2, rounds_played=3)
        await st.add_stats(conn, GUILD, ANA, xp=5, games_won=1, games_played=2, cantes=3, tutes=1)

    stats = await st.member_stats(db, GUILD, ANA)
    assert stats == st.MemberStats(
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
    assert await st.member_stats(db, GUILD, BEA) is None
    with pytest.raises(st.UnknownMember):
        async with db.transaction() as conn:
            await st.add_stats(conn, GUILD, BEA, xp=1)
    with pytest.raises(st.LedgerError):
        async with db.transaction() as conn:
            await st.add_stats(conn, GUILD, ANA, xp=-1)


async def test_the_leaderboards_rank_ties_together_and_page(db: Database) -> None:
    users = list(range(200, 225))
    await join(db, *users)
    async with db.transaction() as conn:
        for n, user in enumerate(users):
            # chips: 1000 + 10 * (n // 2): pairs of equal balances
            if n // 2:
                await st.grant(conn, GUILD, user, 10 * (n // 2), "admin", NOW)
            if n % 3 == 0:
                await st.add_stats(conn, GUILD, user, xp=n, games_won=n // 6, rounds_won=n)
    await join(db, 999, guild=OTHER_GUILD)  # another server's member never shows

    assert await st.leaderboard_size(db, GUILD, "chips") == 25
    first = await st.leaderboard(db, GUILD, "chips", 0, 10)
    assert [(e.rank, e.user_id, e.value) for e in first[:4]] == [
        (1, 224, 1120),
        (2, 222, 1110),
        (2, 223, 1110),
        (4, 220, 1100),
    ]
    third = await st.leaderboard(db, GUILD, "chips", 20, 10)
    assert [(e.rank, e.user_id, e.value) for e in third] == [
        (20, 205, 1020),
        (22, 202, 1010),
        (22, 203, 1010),
        (24, 200, 1000),
        (24, 201, 1000),
    ]
    everyone = [e.user_id for e in await st.leaderboard(db, GUILD, "chips", 0, 100)]
    assert sorted(everyone) == users

    # Counters list the members who scored any: users 203, 206, ... (n % 3 == 0, n > 0)
    assert await st.leaderboard_size(db, GUILD, "xp") == 8
    xp = await st.leaderboard(db, GUILD, "xp", 0, 3)
    assert [(e.rank, e.user_id, e.value) for e in xp] == [(1, 224, 24), (2, 221, 21), (3, 218, 18)]
    games = await st.leaderboard(db, GUILD, "games", 0, 10)
    assert [(e.rank, e.value) for e in games][:3] == [(1, 4), (2, 3), (2, 3)]
    assert await st.leaderboard_size(db, GUILD, "rounds") == 8

    stats = await st.member_stats(db, GUILD, 222)
    assert stats is not None
    assert (stats.rank, stats.members) == (2, 25)
    with pytest.raises(ValueError, match="unknown leaderboard"):
        await st.leaderboard(db, GUILD, "cantes", 0, 10)  # type: ignore[arg-type]
