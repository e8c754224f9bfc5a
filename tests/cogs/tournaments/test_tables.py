"""A tournament's tables as its members meet them: the hands dealt as the server deals them
at any table (``/tute config hand_delivery``)."""

from __future__ import annotations

import pytest
import simcord

from bot.i18n import t
from bot.storage.settings import update_settings
from tests.cogs.tables._world import layout_texts, op_button, thread_of
from tests.cogs.tournaments.test_tournaments import sign_up, tournaments_of
from tests.conftest import World

pytestmark = pytest.mark.e2e


async def test_a_server_that_deals_hands_in_the_channel_gets_no_dm(
    simcord_env: simcord.Env, world: World
) -> None:
    env = simcord_env
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, hand_delivery="ephemeral")
    signup, members, tid = await sign_up(env, world, ("bob",))
    started = await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    assert started.acknowledged
    await env.settle()

    (table_id,) = tournaments_of(env).get(tid).tables.values()
    table = env.bot.tables.tables[table_id]  # type: ignore[attr-defined]
    thread = thread_of(world, table)
    message = next(m for m in thread.history() if m.id == table.play_message_id)
    footer = layout_texts(message)[-1]
    assert footer == "-# " + t("tables.play.footer.ephemeral", "en", deal=1)
    for member in members:
        assert not member.user.dm_channel.history(), "no hand sent by DM"
    opened = await members[1].click(message, custom_id=op_button(message, "hand"))
    assert opened.response is not None and opened.response.ephemeral
