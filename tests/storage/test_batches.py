"""The group commit on both engines: saves queued together share one batch; a save that
fails is left out alone, and its caller alone gets the error."""

import asyncio

import pytest

from bot.storage import Database
from bot.storage import tables as repo

NOW = 1_767_225_600.0


async def new_tables(db: Database, count: int) -> list[int]:
    async with db.transaction() as conn:
        return [
            await repo.create_table(
                conn,
                guild_id=1,
                channel_id=10 + n,
                host_id=100 + n,
                variant="two",
                status="playing",
                state="{}",
                now=NOW,
            )
            for n in range(count)
        ]


def save(db: Database, table_id: int, seq: int, state: str) -> asyncio.Task[None]:
    return asyncio.ensure_future(
        repo.save_progress(
            db,
            table_id,
            deal_no=0,
            actions=[(seq, f'{{"seq": {seq}}}')],
            host_id=100,
            status="playing",
            state=state,
            now=NOW + seq,
        )
    )


async def test_saves_queued_together_share_a_batch_and_a_failing_one_is_left_out(
    db: Database,
) -> None:
    first, second, third = await new_tables(db, 3)
    await save(db, second, 0, '{"at": 0}')
    batches = db.counts.batches

    saves = [
        save(db, first, 0, '{"at": 1}'),
        save(db, second, 0, '{"at": 2}'),  # action 0 of this table is in the log already
        save(db, third, 0, '{"at": 3}'),
    ]
    outcomes = await asyncio.gather(*saves, return_exceptions=True)

    assert db.counts.batches == batches + 1 and db.counts.largest == 3
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], Exception)  # the engine's unique-key error
    assert await repo.deal_actions(db, first, 0) == ['{"seq": 0}']
    assert await repo.deal_actions(db, third, 0) == ['{"seq": 0}']
    failed = await repo.load_table(db, second)
    assert failed is not None and failed.state == '{"at": 0}'  # nothing of it was written


@pytest.mark.parametrize("count", [1, 50])
async def test_every_save_of_a_batch_is_in(db: Database, count: int) -> None:
    tables = await new_tables(db, count)
    await asyncio.gather(*(save(db, t, 0, f'{{"t": {t}}}') for t in tables))
    for t in tables:
        row = await repo.load_table(db, t)
        assert row is not None and row.state == f'{{"t": {t}}}'
        assert await repo.deal_actions(db, t, 0) == ['{"seq": 0}']
