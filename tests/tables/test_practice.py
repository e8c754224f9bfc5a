"""A practice deal (``bot.tables.practice``): a friendly pairs table of no server in the
member's DMs, started at once with three robots that play by rule; no server's limit of
tables counts it, and a member practises one deal at a time, two presses at once dealing
one."""

from __future__ import annotations

import asyncio

import pytest

from bot.ai.robot import Level
from bot.engine import Variant
from bot.i18n import t
from bot.tables.errors import TableError
from bot.tables.lobby import NO_SERVER, alone_options
from bot.tables.model import Status
from bot.tables.practice import PRACTICE_TURN_TIME, deal_practice, open_practice, practice_of
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
    with pytest.raises(TableError) as reopened:  # a rematch of an earlier one opens none
        await env.service.open_table(
            guild_id=NO_SERVER,
            channel_id=5,
            host_id=20,
            host_name="ana",
            variant=Variant.PAIRS,
            options=alone_options(PRACTICE_TURN_TIME),
            language="en",
        )
    assert reopened.value.key == "already_hosting"


async def test_two_presses_at_once_send_one_introduction_and_refuse_the_second(
    env: Env,
) -> None:
    """Two clicks of Practice at once: the second is refused in words before anything is
    sent to the member's DMs; one deal is dealt."""
    sent: list[int] = []

    async def deliver() -> int:
        sent.append(20)
        await asyncio.sleep(0)  # sending takes a while: the other press comes meanwhile
        return 5

    first, second = await asyncio.gather(
        *(
            deal_practice(env.service, user_id=20, name="ana", language="en", deliver=deliver)
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    assert not isinstance(first, BaseException) and first.table.channel_id == 5
    assert isinstance(second, TableError) and second.key == "dealing"
    assert t(f"tables.errors.{second.key}", "es") != t(f"tables.errors.{second.key}", "en")
    assert sent == [20], "one introduction"
    assert len(env.service.tables) == 1
    # once dealt, another press is refused as before: one practice deal at a time
    with pytest.raises(TableError) as refused:
        await deal_practice(env.service, user_id=20, name="ana", language="en", deliver=deliver)
    assert refused.value.key == "already_hosting" and sent == [20]


async def test_a_practice_deal_that_could_not_be_sent_deals_nothing(env: Env) -> None:
    async def refused() -> int:
        raise OSError("Discord refused the DM")

    with pytest.raises(OSError, match="refused the DM"):
        await deal_practice(env.service, user_id=20, name="ana", language="en", deliver=refused)
    assert not env.service.tables
    sent = await deal_practice(
        env.service, user_id=20, name="ana", language="en", deliver=lambda: _channel(5)
    )
    assert sent.table.status is Status.PLAYING, "the next press deals it"


async def _channel(channel_id: int) -> int:
    return channel_id
