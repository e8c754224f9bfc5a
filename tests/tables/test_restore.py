"""A table that cannot be restored (its state, or its log, damaged) is set aside, its
stakes back; the others come back as they were.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.engine import Action, Kind
from bot.storage import ledger
from bot.storage import tables as repo
from bot.tables.model import Status, Table
from bot.tables.service import LostTable
from tests.tables import _sim
from tests.tables._sim import (
    BET,
    CHANNEL,
    GUILD,
    START,
    Env,
    Recorder,
    act,
    check_chips,
    check_memory_is_the_log,
    member_on_turn,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


async def damage_state(path: Path, table: Table) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE tables SET state = ? WHERE id = ?", ('{"options": {', table.id))
        conn.commit()


async def damage_action(path: Path, table: Table) -> None:
    """The deal's last logged card becomes one its seat never held (another seat's)."""
    deal = table.deal
    assert deal is not None and deal.actions
    last = deal.actions[-1]
    assert last.kind is Kind.PLAY
    other = next(s for s in range(table.players) if s != last.seat and deal.hand(s))
    wrong = Action.play(last.seat, deal.hand(other)[0])
    with contextlib.closing(sqlite3.connect(path)) as conn:
        changed = conn.execute(
            "UPDATE actions SET action = ? WHERE table_id = ? AND deal_no = ? AND seq = ?",
            (json.dumps(wrong.to_json()), table.id, table.deal_no, len(deal.actions) - 1),
        ).rowcount
        conn.commit()
    assert changed == 1


DAMAGES: dict[str, Callable[[Path, Table], Awaitable[None]]] = {
    "state is not JSON": damage_state,
    "a logged card that does not replay": damage_action,
}


@pytest.mark.parametrize("damage", list(DAMAGES))
async def test_a_table_that_cannot_be_restored_is_set_aside_with_its_stakes_back(
    env: Env, damage: str
) -> None:
    service = env.service
    broken = await env.open(10, members=(11,), bet=BET)
    playing = await env.open(12, members=(13,), bet=BET, start=True)
    lobby = await env.open(14)
    await service.start(broken.id, 10)
    await env.time.quiet(service)
    user, card = member_on_turn(broken)
    await act(service, broken, user, card)
    await env.time.quiet(service)  # the robots answered: a few cards in the log
    assert (await ledger.table_state(env.db, broken.id)).stakes == {10: BET, 11: BET}
    assert playing.deal is not None
    kept = list(playing.deal.actions)

    await service.suspend()
    await env.stop_clocks(service)
    await DAMAGES[damage](env.path, broken)

    presenter = Recorder()
    restarted = env.new_service(presenter)
    env.service = restarted
    restored = await restarted.restore()
    assert sorted(t.id for t in restored) == [playing.id, lobby.id]
    assert broken.id not in restarted.tables
    row = await repo.load_table(env.db, broken.id)
    assert row is not None and row.status == Status.CANCELLED.value
    # its stakes are back; the other table in play still holds its own
    for user in (10, 11):
        assert await ledger.balance(env.db, GUILD, user) == START
    for user in (12, 13):
        assert await ledger.balance(env.db, GUILD, user) == START - BET
    assert (await ledger.table_state(env.db, broken.id)).held == 0
    assert (await ledger.table_state(env.db, playing.id)).held == 2 * BET
    await check_chips(env.db)
    assert presenter.lost == [LostTable(broken.id, GUILD, CHANNEL, {10: BET, 11: BET})]
    again = restarted.get(playing.id)
    assert again.deal is not None
    assert list(again.deal.actions) == kept
    await check_memory_is_the_log(env.db, again)

    # a second start finds the broken table set aside already: nothing twice
    another = env.new_service(presenter)
    env.service = another
    assert sorted(t.id for t in await another.restore()) == [playing.id, lobby.id]
    assert len(presenter.lost) == 1
    await check_chips(env.db)
