"""The stored deals a replay reads, on both engines: one deal with who sat where, and a
member's recent finished deals in one server, newest first."""

from bot.storage import Database
from bot.storage import replays as stored
from bot.storage import tables as repo

from .helpers import ANA, BEA, GUILD, NOW, OTHER_GUILD


async def _table(db: Database, guild: int) -> int:
    async with db.transaction() as conn:
        return await repo.create_table(
            conn,
            guild_id=guild,
            channel_id=3,
            host_id=ANA,
            variant="pairs",
            status="playing",
            state="{}",
            now=NOW,
        )


async def _deal(db: Database, table: int, deal_no: int, guild: int, finished: float | None) -> None:
    async with db.transaction() as conn:
        await repo.save_deal(
            conn,
            table_id=table,
            deal_no=deal_no,
            guild_id=guild,
            record=f'{{"deal": {deal_no}}}',
            players=[(0, ANA), (2, BEA)],
            finished_at=finished,
        )


async def test_a_deal_with_its_members_and_the_recent_deals_of_one(db: Database) -> None:
    here, there = await _table(db, GUILD), await _table(db, OTHER_GUILD)
    await _deal(db, here, 0, GUILD, NOW + 1)
    await _deal(db, here, 1, GUILD, NOW + 3)
    await _deal(db, here, 2, GUILD, None)  # still in play
    await _deal(db, there, 0, OTHER_GUILD, NOW + 2)

    deal = await stored.stored_deal(db, here, 1)
    assert deal is not None and deal.finished and deal.guild_id == GUILD
    assert deal.record == '{"deal": 1}' and deal.members == {0: ANA, 2: BEA}
    playing = await stored.stored_deal(db, here, 2)
    assert playing is not None and not playing.finished
    assert await stored.stored_deal(db, here, 9) is None

    recent = await stored.recent_deals(db, GUILD, BEA, 10)
    assert [(d.table_id, d.deal_no, d.variant) for d in recent] == [
        (here, 1, "pairs"),
        (here, 0, "pairs"),
    ]
    assert [d.deal_no for d in await stored.recent_deals(db, GUILD, BEA, 1)] == [1]
    assert await stored.recent_deals(db, GUILD, 999, 10) == []
    anywhere = await stored.recent_deals(db, None, BEA, 10)  # from the member's DMs
    assert [(d.table_id, d.deal_no) for d in anywhere] == [(here, 1), (there, 0), (here, 0)]
    row = await repo.load_table(db, there)
    assert row is not None and row.guild_id == OTHER_GUILD
