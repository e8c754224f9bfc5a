"""The chips ledger, on a real SQLite file: grants, stakes, the plato pot, payments, and every
chip accounted for."""

import pytest

from bot.engine import split_bet
from bot.storage import Database, ledger, members

from .helpers import ANA, BEA, CAR, GUILD, NOW, OTHER_GUILD, TABLE, assert_balanced, balances, join

# ---------------------------------------------------------------------------- grants


async def test_chips_are_per_server(db: Database) -> None:
    await join(db, ANA, chips=1000)
    await join(db, ANA, chips=300, guild=OTHER_GUILD)

    assert await ledger.balance(db, GUILD, ANA) == 1000
    assert await ledger.balance(db, OTHER_GUILD, ANA) == 300
    assert await ledger.balance(db, GUILD, BEA) == 0
    assert await members.member_stats(db, GUILD, BEA) is None


async def test_the_daily_grant_once_per_utc_day(db: Database) -> None:
    await join(db, ANA)

    async with db.transaction() as conn:
        assert await ledger.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)
        assert not await ledger.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW + 60)
    async with db.transaction() as conn:
        assert not await ledger.claim_daily(conn, GUILD, ANA, 100, "2025-12-31", NOW + 120)
        assert await ledger.claim_daily(conn, GUILD, ANA, 100, "2026-01-02", NOW + 86_400)

    assert await ledger.balance(db, GUILD, ANA) == 1200
    stats = await members.member_stats(db, GUILD, ANA)
    assert stats is not None and stats.last_daily == "2026-01-02"
    await assert_balanced(db)


async def test_a_daily_needs_a_known_member_and_a_date(db: Database) -> None:
    with pytest.raises(ledger.UnknownMember):
        async with db.transaction() as conn:
            await ledger.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)
    await join(db, ANA)
    with pytest.raises(ValueError, match="isoformat"):
        async with db.transaction() as conn:
            await ledger.claim_daily(conn, GUILD, ANA, 100, "yesterday", NOW)


async def test_admin_grants_add_and_take_back_but_never_below_zero(db: Database) -> None:
    await join(db, ANA)

    async with db.transaction() as conn:
        assert await ledger.grant(conn, GUILD, ANA, 500, "admin", NOW) == 1500
        assert await ledger.grant(conn, GUILD, ANA, -1500, "admin", NOW) == 0
    with pytest.raises(ledger.InsufficientChips):
        async with db.transaction() as conn:
            await ledger.grant(conn, GUILD, ANA, -1, "admin", NOW)
    with pytest.raises(ledger.UnknownMember):
        async with db.transaction() as conn:
            await ledger.grant(conn, GUILD, BEA, 10, "admin", NOW)
    with pytest.raises(ledger.LedgerError):
        async with db.transaction() as conn:
            await ledger.grant(conn, GUILD, ANA, -10, "daily", NOW)

    assert await ledger.balance(db, GUILD, ANA) == 0
    assert await ledger.total_granted(db, GUILD) == 0
    await assert_balanced(db)


# ---------------------------------------------------------------------------- stakes


async def test_stakes_are_held_then_paid_out_with_the_banks_rake(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100, CAR: 100}, NOW)

    assert await balances(db, ANA, BEA, CAR) == [900, 900, 900]
    assert await ledger.table_held(db, TABLE) == 300
    assert (await ledger.table_state(db, TABLE)).stakes == {ANA: 100, BEA: 100, CAR: 100}
    await assert_balanced(db)

    # Ana wins alone; the engine's split says who gets what.
    split = split_bet(300, 1)
    async with db.transaction() as conn:
        await ledger.release_table(conn, GUILD, TABLE, {ANA: split.share}, split.bank, NOW)

    assert await balances(db, ANA, BEA, CAR) == [900 + 225, 900, 900]
    assert await ledger.bank_balance(db, GUILD) == 75
    assert await ledger.table_held(db, TABLE) == 0
    audit = await assert_balanced(db)
    assert (audit.members, audit.bank, audit.tables, audit.granted) == (2925, 75, 0, 3000)


async def test_a_settlement_must_pay_out_exactly_what_the_table_holds(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)

    for payouts, rake in (({ANA: 200}, 1), ({ANA: 100}, 50), ({ANA: 250, BEA: -50}, 0)):
        with pytest.raises(ledger.LedgerError):
            async with db.transaction() as conn:
                await ledger.release_table(conn, GUILD, TABLE, payouts, rake, NOW)

    assert await ledger.table_held(db, TABLE) == 200
    async with db.transaction() as conn:
        await ledger.release_table(conn, GUILD, TABLE, {ANA: 150}, 50, NOW)
        await ledger.release_table(conn, GUILD, TABLE, {}, 0, NOW)  # nothing left: no-op
    await assert_balanced(db)


async def test_a_cancelled_game_gives_every_stake_back(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100}, NOW)
        await ledger.hold_stakes(conn, GUILD, TABLE, {BEA: 250}, NOW)
    async with db.transaction() as conn:
        back = await ledger.refund_table(conn, GUILD, TABLE, NOW)

    assert back == {ANA: 100, BEA: 250}
    assert await balances(db, ANA, BEA) == [1000, 1000]
    assert await ledger.table_held(db, TABLE) == 0
    async with db.transaction() as conn:
        assert await ledger.refund_table(conn, GUILD, TABLE, NOW) == {}
    await assert_balanced(db)


async def test_a_table_reused_for_another_game_refunds_only_that_game(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)
        await ledger.release_table(conn, GUILD, TABLE, {BEA: 150}, 50, NOW)
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 40, BEA: 40}, NOW)
        back = await ledger.refund_table(conn, GUILD, TABLE, NOW)

    assert back == {ANA: 40, BEA: 40}
    assert await balances(db, ANA, BEA) == [900, 1050]


async def test_a_leavers_stake_goes_to_the_winners(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)
        assert await ledger.forfeit_stake(conn, GUILD, TABLE, BEA, NOW) == 100
        assert await ledger.forfeit_stake(conn, GUILD, TABLE, BEA, NOW) == 0

    state = await ledger.table_state(db, TABLE)
    assert (state.held, state.stakes, state.forfeited) == (200, {ANA: 100}, 100)
    # A robot took Bea's seat; Ana wins the stakes less the rake, Bea's stake included.
    split = split_bet(state.held, 1)
    async with db.transaction() as conn:
        await ledger.release_table(conn, GUILD, TABLE, {ANA: split.share}, split.bank, NOW)

    assert await balances(db, ANA, BEA) == [1050, 900]
    assert await ledger.bank_balance(db, GUILD) == 50
    await assert_balanced(db)


async def test_a_leavers_stake_goes_to_the_bank_when_the_rest_cancel(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100, CAR: 100}, NOW)
        await ledger.forfeit_stake(conn, GUILD, TABLE, CAR, NOW)
        back = await ledger.refund_table(conn, GUILD, TABLE, NOW)

    assert back == {ANA: 100, BEA: 100}
    assert await balances(db, ANA, BEA, CAR) == [1000, 1000, 900]
    assert await ledger.bank_balance(db, GUILD) == 100
    await assert_balanced(db)


async def test_a_stake_beyond_the_balance_raises_and_writes_nothing(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await ledger.grant(conn, GUILD, BEA, -950, "admin", NOW)

    with pytest.raises(ledger.InsufficientChips) as raised:
        async with db.transaction() as conn:
            await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)

    assert (raised.value.user_id, raised.value.needed, raised.value.available) == (BEA, 100, 50)
    assert await balances(db, ANA, BEA) == [1000, 50]
    assert await ledger.table_held(db, TABLE) == 0
    # Nothing was written even inside a transaction that goes on after catching the error.
    async with db.transaction() as conn:
        with pytest.raises(ledger.InsufficientChips):
            await ledger.hold_stakes(conn, GUILD, TABLE, {BEA: 51}, NOW)
        await ledger.hold_stakes(conn, GUILD, TABLE, {BEA: 50}, NOW)
    assert await balances(db, ANA, BEA) == [1000, 0]
    await assert_balanced(db)


@pytest.mark.parametrize("amount", [0, -5])
async def test_a_stake_must_be_positive(db: Database, amount: int) -> None:
    await join(db, ANA)
    with pytest.raises(ledger.LedgerError):
        async with db.transaction() as conn:
            await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: amount}, NOW)


# ---------------------------------------------------------------------------- plato


async def test_the_plato_pot_is_filled_taken_and_refunded(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        # Two members and a robot (the bank) put 100 each into the pot.
        for payer in (ANA, BEA, None):
            assert await ledger.pot_deposit(conn, GUILD, TABLE, payer, 100, NOW) == 100
    assert await ledger.table_pot(db, TABLE) == 300

    async with db.transaction() as conn:
        assert await ledger.pot_take(conn, GUILD, TABLE, ANA, NOW) == 300
        assert await ledger.pot_take(conn, GUILD, TABLE, ANA, NOW) == 0
    assert await balances(db, ANA, BEA) == [1200, 900]
    assert await ledger.bank_balance(db, GUILD) == -100

    # The pot is refilled; Bea fails a contract and pays as much again, capped at her chips.
    async with db.transaction() as conn:
        for payer in (ANA, BEA, None):
            await ledger.pot_deposit(conn, GUILD, TABLE, payer, 100, NOW)
        assert await ledger.pot_deposit(conn, GUILD, TABLE, BEA, 300, NOW, cap=True) == 300
        with pytest.raises(ledger.InsufficientChips):
            await ledger.pot_deposit(conn, GUILD, TABLE, BEA, 600, NOW)
        assert await ledger.pot_deposit(conn, GUILD, TABLE, BEA, 600, NOW, cap=True) == 500
    state = await ledger.table_state(db, TABLE)
    assert state.pot == {ANA: 100, BEA: 900, None: 100}

    async with db.transaction() as conn:
        back = await ledger.refund_table(conn, GUILD, TABLE, NOW)
    assert back == {ANA: 100, BEA: 900, None: 100}
    assert await balances(db, ANA, BEA) == [1200, 900]
    await assert_balanced(db)


async def test_stakes_and_the_pot_are_held_together(db: Database) -> None:
    await join(db, ANA, BEA)
    async with db.transaction() as conn:
        await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 50, BEA: 50}, NOW)
        await ledger.pot_deposit(conn, GUILD, TABLE, ANA, 100, NOW)
        await ledger.pot_deposit(conn, GUILD, TABLE, BEA, 100, NOW)
        await ledger.pot_take(conn, GUILD, TABLE, BEA, NOW)
        await ledger.pot_deposit(conn, GUILD, TABLE, ANA, 100, NOW)
    state = await ledger.table_state(db, TABLE)
    assert (state.held, dict(state.stakes), state.pot_total) == (200, {ANA: 50, BEA: 50}, 100)

    async with db.transaction() as conn:
        await ledger.release_table(conn, GUILD, TABLE, {ANA: 150, BEA: 25}, 25, NOW)
    assert await balances(db, ANA, BEA) == [900, 1075]
    assert await ledger.table_pot(db, TABLE) == 0
    await assert_balanced(db)


# ---------------------------------------------------------------------------- payments


async def test_arrastrado_payments_are_capped_at_what_the_payer_has(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    async with db.transaction() as conn:
        await ledger.grant(conn, GUILD, CAR, -900, "admin", NOW)  # Car has 100
        # Round to Ana with 101+: 200 from each; Car also owes a 40 to Bea.
        applied = await ledger.settle_payments(
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
        await ledger.grant(conn, GUILD, CAR, -999, "admin", NOW)  # Car has 1
        applied = await ledger.settle_payments(
            conn, GUILD, None, {ANA: 50, BEA: 50, CAR: -100}, NOW
        )

    assert sum(applied.values()) == 0
    assert applied[CAR] == -1
    assert sorted((applied.get(ANA, 0), applied.get(BEA, 0))) == [0, 1]
    await assert_balanced(db)


async def test_robots_payments_go_through_the_bank_in_full(db: Database) -> None:
    await join(db, ANA)
    async with db.transaction() as conn:
        applied = await ledger.settle_payments(conn, GUILD, TABLE, {ANA: 200, None: -200}, NOW)
        applied_back = await ledger.settle_payments(conn, GUILD, TABLE, {ANA: -40, None: 40}, NOW)

    assert applied == {None: -200, ANA: 200}
    assert applied_back == {ANA: -40, None: 40}
    assert await ledger.bank_balance(db, GUILD) == -160
    with pytest.raises(ledger.LedgerError):
        async with db.transaction() as conn:
            await ledger.settle_payments(conn, GUILD, TABLE, {ANA: 10}, NOW)
    await assert_balanced(db)


# ---------------------------------------------------------------------------- atomicity


async def test_a_transaction_that_fails_midway_leaves_nothing(db: Database) -> None:
    await join(db, ANA)

    class Crash(Exception):
        pass

    async def settle_then_crash() -> None:
        async with db.transaction() as conn:
            await members.ensure_member(conn, GUILD, BEA, 1000, NOW)
            await ledger.hold_stakes(conn, GUILD, TABLE, {ANA: 100, BEA: 100}, NOW)
            await members.add_stats(conn, GUILD, ANA, xp=10, games_played=1)
            await ledger.claim_daily(conn, GUILD, ANA, 100, "2026-01-01", NOW)
            raise Crash

    with pytest.raises(Crash):
        await settle_then_crash()

    assert await members.member_stats(db, GUILD, BEA) is None
    assert await balances(db, ANA, BEA) == [1000, 0]
    assert await ledger.table_held(db, TABLE) == 0
    stats = await members.member_stats(db, GUILD, ANA)
    assert stats is not None
    assert (stats.xp, stats.games_played, stats.last_daily) == (0, 0, None)
    audit = await assert_balanced(db)
    assert audit.granted == 1000
