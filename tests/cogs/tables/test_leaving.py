"""Leaving a game and voting to cancel it: each asks first, then tells one outcome."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from bot.storage.members import member_stats
from bot.storage.settings import update_settings
from bot.tables.model import Status
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    add_member,
    buttons,
    hand_buttons,
    layout_texts,
    op_button,
    open_table,
    placed,
    service_of,
    texts,
    the_table,
    thread_of,
)
from tests.conftest import World


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_last_member_leaving_asks_first_and_tells_one_outcome(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Leave asks first, saying what happens to the stake; once confirmed, one outcome is
    told, the ledger agrees with it, and the leaver's hand has nothing left to click."""
    env = simcord_env
    table_seed(3)
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=500)
    await open_table(env, world, "habanero", [alice], robots=1, bet=100)
    table = the_table(env)
    thread = thread_of(world, table)
    table_message = next(m for m in thread.history() if m.id == placed(table).play_message_id)
    before = {m.id for m in thread.history()}

    question = await alice.click(table_message, custom_id=op_button(table_message, "leave"))
    reply = question.response
    assert reply is not None and question.ephemeral
    assert reply.content == t("tables.confirm.leave.end_stake", "en", stake=100)
    assert table.status is Status.PLAYING, "nothing happens before the answer"
    confirm, keep = buttons(reply)
    assert confirm.custom_id == f"tute:t:{table.id}:leaveok"
    assert keep.custom_id == f"tute:t:{table.id}:keep"

    done = await alice.click(reply, custom_id=confirm.custom_id)
    assert done.response is not None
    assert done.response.content == t("tables.done.leave_end", "en")
    assert table.status is Status.CANCELLED
    said = [m for m in thread.history() if m.id not in before]
    assert [m.content for m in said] == [
        t("tables.announce.abandoned_stake", "en", name="alice", stake=100)
    ], "one message tells the outcome"
    shown = next(m for m in thread.history() if m.id == placed(table).play_message_id)
    assert t("tables.play.status.cancelled", "en") in texts(shown, skip_past=False)
    assert not any(b.custom_id.startswith("tute:t:") for b in buttons(shown))
    (hand,) = alice.user.dm_channel.history()
    assert not hand_buttons(hand), "the leaver's hand has nothing left to click"
    assert layout_texts(hand) == [t("tables.hand.left", "en")]
    stats = await member_stats(service_of(env).db, world.guild.id, alice.id)
    assert stats is not None and stats.balance == 400, "the stake went to the bank"
    assert not buttons(done.response), "the question's button is gone with its answer"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_vote_to_cancel_asks_first_then_counts(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(3)
    alice = world.member
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "habanero", [alice, bob])
    table = the_table(env)
    table_message = next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )
    first = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert first.response is not None
    assert first.response.content == t("tables.confirm.cancel", "en", missing=1)
    assert not table.cancel_votes, "no vote before the answer"
    yes, no = buttons(first.response)
    kept = await alice.click(first.response, custom_id=no.custom_id)
    assert kept.response is not None
    assert kept.response.content == t("tables.done.kept", "en") and not buttons(kept.response)
    assert not table.cancel_votes, "No: nothing happened"
    first = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert first.response is not None
    yes, _ = buttons(first.response)
    voted = await alice.click(first.response, custom_id=yes.custom_id)
    assert voted.response is not None
    assert voted.response.content == t("tables.done.cancel", "en")
    assert table.cancel_votes == [alice.id]
    second = await bob.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert second.response is not None
    assert second.response.content == t("tables.confirm.cancel_last", "en", missing=0)
    yes, _ = buttons(second.response)
    ended = await bob.click(second.response, custom_id=yes.custom_id)
    assert ended.response is not None
    assert ended.response.content == t("tables.done.cancelled", "en")
    assert table.status is Status.CANCELLED


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_alone_with_robots_a_vote_after_the_first_trick_says_the_stake_is_lost(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Alone against robots, the first trick over: the question says that cancelling now is
    leaving and the stake goes to the bank, and so it does."""
    env = simcord_env
    table_seed(3)
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=500)
    await open_table(env, world, "habanero", [alice], robots=1, bet=100)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
    await Driver(env, world, [Player(alice)]).play(until=lambda: bool(deal.tricks))
    table_message = next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )
    question = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert question.response is not None and question.ephemeral
    assert question.response.content == t("tables.confirm.cancel_leave", "en", stake=100)
    yes, _ = buttons(question.response)
    done = await alice.click(question.response, custom_id=yes.custom_id)
    assert done.response is not None
    assert done.response.content == t("tables.done.leave_end", "en")
    assert table.status is Status.CANCELLED
    stats = await member_stats(service_of(env).db, world.guild.id, alice.id)
    assert stats is not None and stats.balance == 400, "the stake went to the bank"
