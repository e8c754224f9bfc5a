"""The commands around a table: ``/tute rules``, ``/tute tables`` and ``/tute history``."""

from __future__ import annotations

import json
from collections.abc import Callable

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.engine.referee import judge
from bot.i18n import t
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    add_member,
    layout_texts,
    op_button,
    placed,
    the_table,
    thread_of,
)
from tests.conftest import World


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_rules_tables_and_history(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(5)
    alice = world.member
    bob = await add_member(env, world, "bob")
    channel = world.channel

    # the rules: a guide, page by page (tests/cogs/tables/test_guide.py)
    rules = (await alice.slash(channel, "tute rules")).response
    assert rules is not None and rules.ephemeral
    assert layout_texts(rules)[0].startswith(f"### {t('guide.title', 'en')}")
    one = (await alice.slash(channel, "tute rules", variant="pairs")).response
    assert one is not None and one.ephemeral
    assert layout_texts(one)[0].startswith(f"### {t('variants.pairs', 'en')}")

    async def listed(member: MemberActor) -> discord.Embed:
        reply = (await member.slash(channel, "tute tables")).response
        assert reply is not None and reply.ephemeral
        return reply.embeds[0]

    assert (await listed(bob)).description == t("tables.list.none", "en")
    none = (await alice.slash(channel, "tute history")).response
    assert none is not None and none.ephemeral and none.content == t("history.none", "en")

    lobby = (await alice.slash(channel, "tute new", variant="arrastrado")).response
    assert lobby is not None
    table = the_table(env)
    guild = world.guild.id
    field_ = (await listed(bob)).fields[0]
    assert field_.name == ui.variant_title(table_view(table), "en")
    assert field_.value == t(
        "tables.list.lobby",
        "en",
        seated=1,
        seats=3,
        link=f"https://discord.com/channels/{guild}/{channel.id}/{lobby.id}",
    )
    for _ in range(2):
        await alice.click(lobby, custom_id=op_button(lobby, "robot"))
    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    field_ = (await listed(bob)).fields[0]
    link = f"https://discord.com/channels/{guild}/{placed(table).thread_id}/{placed(table).play_message_id}"
    assert field_.value == t("tables.list.playing", "en", link=link)
    assert placed(table).play_message_id in {m.id for m in thread_of(world, table).history()}

    driver = Driver(env, world, [Player(alice)])
    await driver.play()
    driver.check_end()
    assert (await listed(bob)).description == t("tables.list.none", "en")

    reply = (await alice.slash(channel, "tute history")).response
    assert reply is not None and reply.ephemeral
    assert t("replays.record", "en") in "\n".join(layout_texts(reply))
    (attachment,) = [a for a in reply.attachments if a.filename == "tute-record.json"]
    answer = judge(json.loads(await attachment.read()))
    assert answer["error"] is None and answer["finished"] is True
    assert answer["result"]["winner"] is not None
    none = (await bob.slash(channel, "tute history")).response
    assert none is not None and none.content == t("history.none", "en")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_member_invited_twice_is_invited_and_pinged_once(
    simcord_env: simcord.Env, world: World
) -> None:
    """Discord refuses a mention list that names a member twice: the lobby would never show.
    Named twice, a member is invited once and pinged once."""
    env = simcord_env
    bob = await add_member(env, world, "bob")
    result = await world.member.slash(
        world.channel, "tute new", variant="habanero", private=True, invite=bob, invite2=bob
    )
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    assert lobby.content == t("tables.invited", "en", mentions=f"<@{bob.id}>")
    sent = [c for c in env.http_requests if c.method == "POST" and "/callback" in c.path]
    body = sent[-1].json
    assert body is not None
    users = body["data"]["allowed_mentions"]["users"]
    assert [int(u) for u in users] == [bob.id], "each member once"
    table = the_table(env)
    assert table.status.is_open and table.invited == [bob.id]
    joined = await bob.click(lobby, custom_id=op_button(lobby, "join"))
    assert joined.acknowledged and not joined.ephemeral
