"""A practice deal (``bot.tables.practice``): a friendly pairs table of no server in the
member's DMs, started at once with three robots that play by rule; no server's limit of
tables counts it, and a member practises one deal at a time."""

from __future__ import annotations

import asyncio

import pytest

from bot.ai.robot import Level
from bot.engine import Variant
from bot.tables.errors import TableError
from bot.tables.lobby import NO_SERVER
from bot.tables.model import Status
from bot.tables.practice import PRACTICE_TURN_TIME, open_practice, practice_of
from tests.tables import _sim
from tests.tables._sim import Env

env = _sim.env
same_deals = _sim.same_deals


async def test_practice_deals_start_at_once_and_count_against_no_limit(env: Env) -> None:
    hosts = range(20, 32)  # more than any server's limit of tables
    opened = await asyncio.gather(
        *(
            open_practice(env.service, user_id=h, name=f"m{h}", language="es", channel_id=h * 10)
            for h in hosts
        )
    )
    assert len(opened) == len(hosts)
    for host in hosts:
        (table,) = [t for t in env.service.tables.values() if t.host_id == host]
        assert table.guild_id == NO_SERVER and table.channel_id == host * 10
        assert table.status is Status.PLAYING and table.variant is Variant.PAIRS
        assert not table.options.competitive and table.options.bet == 0
        assert table.options.turn_time == PRACTICE_TURN_TIME  # time to read a hint
        assert table.offers_hints() and table.language == "es"
        robots = [s for s in table.seats if s is not None and s.user_id is None]
        assert len(robots) == 3 and table.robot_level is Level.NORMAL


async def test_a_member_practises_one_deal_at_a_time(env: Env) -> None:
    assert practice_of(env.service, 20) is None
    first = await open_practice(env.service, user_id=20, name="ana", language="en", channel_id=5)
    assert practice_of(env.service, 20) == first.table.id
    assert practice_of(env.service, 21) is None
    with pytest.raises(TableError) as refused:
        await open_practice(env.service, user_id=20, name="ana", language="en", channel_id=5)
    assert refused.value.key == "already_hosting"
    assert refused.value.params == {"table": first.table.id}
    assert len(env.service.tables) == 1
