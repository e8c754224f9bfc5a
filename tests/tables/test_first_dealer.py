"""The first dealer of a table is drawn from its seed (RULES.md, seeds/000)."""

from __future__ import annotations

from bot.engine import Options, Variant
from bot.engine.game import first_dealer
from bot.tables.model import Seat, Table
from bot.tables.play import start


def _table(seed: int) -> Table:
    return Table(
        id=1,
        guild_id=1,
        channel_id=2,
        host_id=10,
        variant=Variant.INDIVIDUAL,
        options=Options(),
        language="en",
        created_at=0.0,
        seats=[Seat(name="Ana", user_id=10), None, None, None],
        seed=seed,
    )


def test_a_table_starts_with_the_dealer_its_seed_draws() -> None:
    leaders: set[int] = set()
    for seed in range(40):
        table = _table(seed)
        start(table, lambda: 0.0)
        assert table.deal is not None and table.game is not None
        assert table.deal.dealt.dealer == first_dealer(seed, 4)
        leaders.add(table.deal.leader)
    assert leaders == {0, 1, 2, 3}, "every seat leads some table"
