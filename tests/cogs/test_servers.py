"""The bot leaving a server: what the server keeps stays for the retention (a day here:
``TUTE_RETENTION_DAYS=1``), then all of it is erased; another server keeps everything.

The tournaments' and seasons' clocks tick every minute, so a month of SimCord's time would
take long: the storage tests (``tests/storage/test_servers.py``) erase after 31 days."""

from __future__ import annotations

import dataclasses

import pytest
import simcord

from bot.app import TuteApp
from bot.client import TuteBot
from bot.config import Config
from bot.storage import ledger, members, servers
from tests.conftest import World, sim_bot

pytestmark = pytest.mark.e2e

DAY = 86_400
HOUR = 3600


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return sim_bot(dataclasses.replace(test_config, retention_days=1))


def bot_of(env: simcord.Env) -> TuteApp:
    bot = env.bot
    assert isinstance(bot, TuteApp)
    return bot


async def test_a_server_the_bot_left_is_erased_after_the_retention_and_no_sooner(
    simcord_env: simcord.Env, world: World
) -> None:
    env, bot = simcord_env, bot_of(simcord_env)
    db = bot.db
    other = env.create_guild("Club")
    other_channel = other.create_text_channel("tute")
    bea = other.add_member(env.create_user("bea"))
    await env.settle()
    await world.member.slash(world.channel, "tute daily")  # alice's chips here
    await bea.slash(other_channel, "tute daily")  # bea's in the other server
    assert {world.guild.id, other.id} <= set(await servers.present(db))
    leaving = bot.get_guild(world.guild.id)
    assert leaving is not None
    await leaving.leave()
    await env.settle()
    assert await servers.left_at(db, world.guild.id) is not None

    await env.advance_time(DAY - HOUR)
    assert await members.member_stats(db, world.guild.id, world.member.id) is not None
    assert await ledger.balance(db, world.guild.id, world.member.id) > 0

    await env.advance_time(2 * HOUR)
    assert await members.member_stats(db, world.guild.id, world.member.id) is None
    assert await ledger.balance(db, world.guild.id, world.member.id) == 0
    assert await servers.left_at(db, world.guild.id) is None
    # the other server keeps everything
    assert await members.member_stats(db, other.id, bea.id) is not None
    assert await ledger.balance(db, other.id, bea.id) > 0
    assert other.id in await servers.present(db)
