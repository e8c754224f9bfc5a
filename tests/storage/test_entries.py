"""Tournament entry fees in the ledger, on a real SQLite file: paid in, given back, paid out
as prizes, and every chip accounted for by the audit."""

import pytest

from bot.storage import Database, entries, ledger

from .helpers import ANA, BEA, CAR, GUILD, NOW, assert_balanced, balances, join

TOURNAMENT = 5


async def pay(db: Database, user: int, fee: int = 100, tournament: int = TOURNAMENT) -> None:
    async with db.transaction() as conn:
        await entries.pay_entry(conn, GUILD, tournament, user, fee, NOW)


async def test_entries_are_held_by_the_tournament_and_counted_by_the_audit(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    for user in (ANA, BEA, CAR):
        await pay(db, user)

    assert await balances(db, ANA, BEA, CAR) == [900, 900, 900]
    assert await entries.held(db, TOURNAMENT) == 300
    assert await entries.paid_in(db, TOURNAMENT) == {ANA: 100, BEA: 100, CAR: 100}
    audit = await assert_balanced(db)
    assert (audit.members, audit.tournaments, audit.granted) == (2700, 300, 3000)


async def test_a_member_short_of_the_fee_pays_nothing(db: Database) -> None:
    await join(db, ANA, chips=40)
    with pytest.raises(ledger.InsufficientChips) as short:
        await pay(db, ANA)
    assert short.value.available == 40
    assert await balances(db, ANA) == [40]
    assert await entries.held(db, TOURNAMENT) == 0
    await assert_balanced(db)


async def test_who_withdraws_gets_their_entry_back_and_a_call_off_gives_back_the_rest(
    db: Database,
) -> None:
    await join(db, ANA, BEA, CAR)
    for user in (ANA, BEA, CAR):
        await pay(db, user)
    await pay(db, ANA, fee=50, tournament=TOURNAMENT + 1)  # another tournament's entry

    async with db.transaction() as conn:
        assert await entries.refund_entries(conn, GUILD, TOURNAMENT, NOW, user_id=BEA) == {BEA: 100}
        assert await entries.refund_entries(conn, GUILD, TOURNAMENT, NOW, user_id=BEA) == {}
    assert await balances(db, ANA, BEA, CAR) == [850, 1000, 900]
    await pay(db, BEA)  # signs up again
    async with db.transaction() as conn:
        back = await entries.refund_entries(conn, GUILD, TOURNAMENT, NOW)
    assert back == {ANA: 100, BEA: 100, CAR: 100}
    assert await balances(db, ANA, BEA, CAR) == [950, 1000, 1000]
    assert await entries.held(db, TOURNAMENT) == 0
    assert await entries.held(db, TOURNAMENT + 1) == 50
    await assert_balanced(db)


async def test_prizes_pay_out_exactly_what_is_held(db: Database) -> None:
    await join(db, ANA, BEA, CAR)
    for user in (ANA, BEA, CAR):
        await pay(db, user)

    with pytest.raises(ledger.LedgerError, match="holds 300"):
        async with db.transaction() as conn:
            await entries.pay_prizes(conn, GUILD, TOURNAMENT, {ANA: 200, BEA: 50}, NOW)
    assert await entries.held(db, TOURNAMENT) == 300, "nothing was paid"
    async with db.transaction() as conn:
        await entries.pay_prizes(conn, GUILD, TOURNAMENT, {ANA: 210, BEA: 90}, NOW)

    assert await balances(db, ANA, BEA, CAR) == [1110, 990, 900]
    assert await entries.held(db, TOURNAMENT) == 0
    # what was paid out is not there to give back
    with pytest.raises(ledger.LedgerError, match="no longer holds"):
        async with db.transaction() as conn:
            await entries.refund_entries(conn, GUILD, TOURNAMENT, NOW)
    audit = await assert_balanced(db)
    assert audit.tournaments == 0
