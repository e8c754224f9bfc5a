"""Fair play at the table: the bot keeps when each member's Discord account was made and
when they joined the server, as they sit down, so that rated play can ask both to be old
enough (``min_account_days``, ``min_member_days``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import simcord
from discord.utils import snowflake_time

from tests.cogs.tables._world import op_button, the_table
from tests.conftest import World


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_host_and_a_member_who_joins_are_seated_with_their_ages(
    simcord_env: simcord.Env, world: World
) -> None:
    alice = world.member
    bob = world.guild.add_member(simcord_env.create_user("bob"))
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    table = the_table(env=simcord_env)
    joined = datetime(2026, 1, 1, tzinfo=UTC).timestamp()  # SimCord's members join then
    for seat, actor in zip(table.seats, (alice, bob), strict=True):
        assert seat is not None and seat.user_id == actor.id
        # an account is as old as its id says
        assert seat.account_created == pytest.approx(snowflake_time(actor.id).timestamp())
        assert seat.joined_server == pytest.approx(joined)
