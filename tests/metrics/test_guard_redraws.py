"""The guard on Discord's limit of refused requests, in the real bot on SimCord: a table whose
channel refuses the bot its edits (a permission taken away) costs one refused request per
change, so past the limit (3 here; TUTE_REFUSED_LIMIT, 2,000 by default, of Discord's
10,000 in ten minutes) the bot stops redrawing it while the game goes on at the card table;
ten minutes later it redraws it again."""

from __future__ import annotations

import dataclasses
import fnmatch

import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from bot.tables.model import Status
from tests.cogs.tables._closed import Page, Socket, session, web_bot
from tests.cogs.tables._world import placed
from tests.conftest import World

pytestmark = [pytest.mark.e2e, pytest.mark.simcord(settle_timeout=10)]

LIMIT = 3
MISSING_PERMISSIONS = 50013


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return web_bot(dataclasses.replace(test_config, refused_limit=LIMIT))


def refused_edits(env: simcord.Env, channels: set[int]) -> int:
    patterns = [f"/channels/{channel}/messages/*" for channel in channels]
    return sum(
        1
        for call in env.http_requests
        if call.method == "PATCH" and any(fnmatch.fnmatch(call.path, p) for p in patterns)
    )


async def test_past_the_limit_a_refusing_channel_is_not_redrawn_until_ten_minutes_pass(
    simcord_env: simcord.Env, world: World
) -> None:
    env = simcord_env
    luis = world.guild.add_member(env.create_user("luis"))
    await env.settle()
    page = Page(
        env,
        [
            Socket(session(u.id, u.name, world.channel.id, world.guild.id))
            for u in (world.member.user, luis.user)
        ],
    )
    table_id = await page.open_and_start()
    place = placed(page.table(table_id))
    channels = {world.channel.id, place.where_id}
    for channel in channels:
        env.inject_error(
            "PATCH",
            f"/channels/{channel}/messages/*",
            status=403,
            code=MISSING_PERMISSIONS,
            message="Missing Permissions",
            times=None,
        )
    before = refused_edits(env, channels)

    moves = 0
    while refused_edits(env, channels) - before < LIMIT:
        await page.play_out(table_id, moves=1)
        moves += 1
        assert moves < 20, "each change is an edit the channel refuses"
    held = refused_edits(env, channels)
    for _ in range(6):
        await page.play_out(table_id, moves=1)
    assert page.table(table_id).status is Status.PLAYING
    assert refused_edits(env, channels) == held, "no redraw past the limit"
    for socket in page.sockets:
        assert socket.sent[-1]["type"] == "state", "the card table shows every move"

    # the game goes on, a move every 50 s (within each turn's minute): no redraw until
    # the refusals that crossed the limit are ten minutes old
    clock = env.bot.runtime.clock  # type: ignore[attr-defined]
    crossed = clock()
    while refused_edits(env, channels) == held:
        await env.advance_time(50)
        await page.play_out(table_id, moves=1)
        assert clock() - crossed < 700, "redrawn once the refusals are ten minutes old"
    assert clock() - crossed >= 600, "not redrawn before"
