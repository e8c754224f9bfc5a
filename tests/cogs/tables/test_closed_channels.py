"""A table in a channel the bot may not post in (a group DM, a DM between two members, a
server without the bot, a channel it may no longer see) plays on the web table alone: the
game goes to its end there, its players are answered, and the channel costs at most one
refused request per table per game (none where the bot can tell beforehand), after a
restart too. Discord bans an IP at 10,000 refused requests in 10 minutes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from bot.storage import places as stored_places
from bot.tables.model import Status
from cogs.tables.presenter import presenter_of
from tests.cogs._activity import answer_launches
from tests.cogs.tables._closed import (
    GROUP_DM,
    MEMBERS_DM,
    NO_BOT_CHANNEL,
    NO_BOT_SERVER,
    Closed,
    Page,
    Socket,
    between_members,
    closed_channel,
    session,
    web_bot,
)
from tests.cogs.tables._game import db_of
from tests.conftest import World

pytestmark = [pytest.mark.e2e, pytest.mark.simcord(settle_timeout=3)]

SEED = 4


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return web_bot(test_config)


def page_of(
    env: simcord.Env, users: list[simcord.UserHandle], channel: int, guild: int | None
) -> Page:
    sockets = [Socket(session(u.id, u.name, channel, guild)) for u in users]
    return Page(env, sockets)


async def play_a_game(
    page: Page, closed: Closed, *, refused: int, restart: Config | None = None
) -> None:
    """A whole game of two from the page, which costs ``refused`` refused requests;
    ``restart``: the bot restarts (with this configuration) half-way."""
    table_id = await page.open_and_start()
    if restart is not None:
        await page.play_out(table_id, moves=5)
        await page.env.bot.close()
        await page.env.restart_bot(web_bot(restart))
        await page.rejoin(table_id)
    table = await page.play_out(table_id)
    assert table.status is Status.FINISHED and table.winner is not None
    for socket in page.sockets:
        # every player was answered on the page, to the result
        last = socket.sent[-1]
        assert last["type"] == "state" and last["table"]["status"] == "finished"
        assert not [m for m in socket.sent if m.get("type") == "refused"]
    assert closed.refused == refused, "refused requests"
    assert await presenter_of(page.env.bot).places.flush()
    row = await stored_places.load(db_of(page.env), table_id)
    assert row is not None and row.closed, "a restart knows it too"


async def test_a_group_dm_costs_no_refused_request(
    simcord_env: simcord.Env, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(SEED)
    users = [env.create_user("ana"), env.create_user("luis")]
    closed = closed_channel(env, GROUP_DM)
    await play_a_game(page_of(env, users, GROUP_DM, None), closed, refused=0)


async def test_a_dm_between_two_members_costs_no_refused_request(
    simcord_env: simcord.Env,
    table_seed: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/tute play there comes as from a ``DMChannel``, as in the bot's own DM: the
    interaction's context tells the bot it may not post."""
    env = simcord_env
    table_seed(SEED)
    ana, luis = env.create_user("ana"), env.create_user("luis")
    between_members(monkeypatch)
    launches = answer_launches(monkeypatch)
    closed = closed_channel(env, MEMBERS_DM)
    played = await ana.slash("tute play")
    assert played.acknowledged and len(launches) == 1, "the web table opens for her"
    await play_a_game(page_of(env, [ana, luis], MEMBERS_DM, None), closed, refused=0)


async def test_a_server_without_the_bot_costs_no_refused_request(
    simcord_env: simcord.Env, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(SEED)
    users = [env.create_user("ana"), env.create_user("luis")]
    closed = closed_channel(env, NO_BOT_CHANNEL)
    page = page_of(env, users, NO_BOT_CHANNEL, NO_BOT_SERVER)
    await play_a_game(page, closed, refused=0)


async def test_a_channel_the_bot_may_not_see_costs_one_refused_request(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
) -> None:
    """A channel of the bot's own server that it may no longer see: the lobby's post is
    refused, and nothing more is asked there, after a restart too."""
    env = simcord_env
    table_seed(SEED)
    luis = world.guild.add_member(env.create_user("luis"))
    await env.settle()
    closed = closed_channel(env, world.channel.id)
    page = page_of(env, [world.member.user, luis.user], world.channel.id, world.guild.id)
    await play_a_game(page, closed, refused=1, restart=test_config)
