"""A tournament's tables as its members meet them: the hands dealt as the server deals them
at any table (``/tute config hand_delivery``)."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.config import Config
from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.errors import SaveFailed
from cogs.tournaments.places import places_of
from tests.cogs.tables._world import layout_texts, op_button, placed, thread_of
from tests.cogs.tournaments.test_tournaments import said, sign_up, tournaments_of
from tests.conftest import World, fast_bot

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
    message = next(m for m in thread.history() if m.id == placed(table).play_message_id)
    footer = layout_texts(message)[-1]
    shuffle = t("tables.shuffle", "en", code=table.short_commitment)
    assert footer == "-# " + t("tables.play.footer.ephemeral", "en", deal=1) + " · " + shuffle
    for member in members:
        assert not member.user.dm_channel.history(), "no hand sent by DM"
    opened = await members[1].click(message, custom_id=op_button(message, "hand"))
    assert opened.response is not None and opened.response.ephemeral


def links_to(world: World, table_id: int) -> list[str]:
    """The channel's posts that tell where the table opened, by itself (not the pairings)."""
    return [
        m.content
        for m in world.channel.history()
        if f"table #{table_id}](https://discord.com/channels/" in m.content
        and "round 1 of 1" not in m.content
    ]


async def test_a_table_the_channel_was_not_told_of_is_told_once(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    """The pairings post fails (no permission for a moment): the channel is told where the
    table opened a second later; and where the bot stops before that, after its restart.
    Either way once, however many restarts follow."""
    env = simcord_env
    for restart in (False, True):
        signup, _, tid = await sign_up(env, world, ("carol",) if restart else ("bob",))
        env.inject_error(
            "POST",
            f"/channels/{world.channel.id}/messages",
            status=403,
            code=50013,
            message="Missing Permissions",
        )
        await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
        await env.settle()
        tour = tournaments_of(env).get(tid)
        assert not [m for m in said(world) if f"#{tid}: round 1" in m.content], "refused"
        (table_id,) = tour.tables.values()
        assert links_to(world, table_id) == []
        for _ in range(2):
            if restart:
                await env.bot.close()
                await env.restart_bot(fast_bot(test_config))
            await env.advance_time(2)
            await env.settle()
            (told,) = links_to(world, table_id)
            assert all(f"<@{u}>" in told for u in tour.entrant_ids())


async def test_a_table_that_opened_late_is_told_once_and_kept_as_told(
    simcord_env: simcord.Env, world: World, test_config: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The final's table fails to open at the start: the service opens it a second later and
    says so; the Discord side tells the channel where it is, trying again the post Discord
    could not take for now (503), once, and keeps it as told: a restart tells it no more."""
    env = simcord_env
    tables = env.bot.tables  # type: ignore[attr-defined]
    real = tables.open_table
    failures = [1]

    async def open_table(**kwargs: Any) -> Any:
        if failures[0]:
            failures[0] -= 1
            raise SaveFailed
        return await real(**kwargs)

    monkeypatch.setattr(tables, "open_table", open_table)
    signup, _, tid = await sign_up(env, world, ("bob",))
    await world.member.click(signup, custom_id=f"tute:tn:{tid}:start")
    await env.settle()
    tour = tournaments_of(env).get(tid)
    assert tour.tables == {}, "not opened yet"
    env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503)
    await env.advance_time(1)  # opened; its post fails for now
    await env.settle()
    (table_id,) = tour.tables.values()
    assert links_to(world, table_id) == []
    await env.advance_time(2)
    await env.settle()
    (told,) = links_to(world, table_id)
    assert all(f"<@{u}>" in told for u in tour.entrant_ids())
    places = places_of(env.bot)
    assert places is not None and (await places.of(tid)).told == {table_id}

    await env.bot.close()
    await env.restart_bot(fast_bot(test_config))
    await env.advance_time(2)
    await env.settle()
    assert len(links_to(world, table_id)) == 1, "told once, whatever restarts follow"
