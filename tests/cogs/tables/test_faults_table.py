"""Discord fails on the table's own calls, mid-game or at its start: the table message's
edit, and the game's thread. Whatever fails, the game finishes for everyone.

The faults, and what keeps these games quick, are in ``_faults``; the games in ``_game``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.config import Config
from bot.i18n import t
from bot.storage import places as stored_places
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables.presenter import RETRY_AFTER, presenter_of
from tests.cogs.tables import _faults
from tests.cogs.tables._faults import FOR_GOOD, Fault, faults_for, inject
from tests.cogs.tables._game import SEED, db_of, new_game
from tests.cogs.tables._world import placed
from tests.conftest import World

quick_games = _faults.quick_games
"""Tiny pictures, easy robots, a SimCord that checks a settling bot often (every test here)."""


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("table_edit"))
@pytest.mark.simcord(settle_timeout=3)
async def test_a_table_message_edit_fails(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """Mid-game, the edit of the table message fails: shown again after a while (an
    outage), posted again (deleted, or its thread deleted), or left as it is while the host
    is told (no permission)."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    await game.start()
    await game.play_until(lambda: len(game.deal.actions) >= 2)
    table = game.table
    old, thread = placed(table).play_message_id, placed(table).thread_id
    assert old is not None and thread is not None
    # a missing permission lasts: three edits in a row fail; a deleted message (or thread)
    # stays deleted
    path, times = f"/channels/{thread}/messages/{old}", fault.times
    if fault.code == 50013:
        times = 3
    elif fault.code == 10008:
        times = FOR_GOOD
    elif fault.code == 10003:
        path, times = f"/channels/{thread}/*", FOR_GOOD
    injected = inject(env, "PATCH", path, fault, times=times)
    await game.play_until(lambda: injected.failed >= 1)

    if fault.retried:
        # the table is behind until the presenter tries again (5 s later, then 30 s...)
        assert not game.table_is_current()
        await env.advance_time(RETRY_AFTER[0] + 1)
        if fault.times == 1:
            assert injected.over and game.table_is_current(), "the retry shows the table"
        await game.retries_until(injected)
        assert game.table_is_current()
    elif fault.code == 10003:
        # the thread is gone: the game goes on in the channel, in a new table message
        assert placed(table).thread_id is None and placed(table).play_message_id not in (None, old)
        assert placed(table).play_message_id in {m.id for m in world.channel.history()}
        assert await presenter_of(env.bot).places.flush()  # as it is written
        row = await stored_places.load(db_of(env), table.id)
        assert (
            row is not None
            and row.thread_id is None
            and row.play_id == placed(table).play_message_id
        )
        # the lobby's link follows at the next change
        await game.step()
        assert game.lobby is not None
        links = [b.get("url") for row in game.lobby.components for b in row["components"]]
        link = ui.game_link(table_view(table), placed(table))
        assert link in links and str(world.channel.id) in link
    elif fault.code == 10008:
        # the message is gone: the table is posted again where it plays
        assert placed(table).thread_id == thread and placed(table).play_message_id not in (
            None,
            old,
        )
        assert placed(table).play_message_id in {m.id for m in game.messages(thread)}
    else:
        # the bot may not edit there: the host is told, once, and the game goes on
        await game.play_until(lambda: injected.over)
        assert placed(table).play_message_id == old and game.table_is_current()

    await game.play()
    await game.check_end()
    if fault.code == 50013:
        told = t(
            "tables.missing_permissions",
            table.language,
            host=f"<@{table.host_id}>",
            channel=f"<#{thread}>",
        )
        said = [m for m in world.channel.history() if m.content == told]
        assert len(said) == 1, "the host is told once"
        assert f"<@{world.member.id}>" in said[0].content
    await game.check_after_restart(test_config)


@pytest.mark.e2e
@pytest.mark.parametrize("fault", faults_for("thread_create"))
@pytest.mark.simcord(settle_timeout=3)
async def test_the_thread_cannot_be_made(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    fault: Fault,
) -> None:
    """The game's thread cannot be made: it plays in the channel."""
    env = simcord_env
    table_seed(SEED)
    game = await new_game(env, world)
    injected = inject(env, "POST", f"/channels/{world.channel.id}/*threads", fault)
    await game.start()
    assert injected.failed == 1
    table = game.table
    assert placed(table).thread_id is None and not world.channel.threads
    assert placed(table).play_message_id in {m.id for m in world.channel.history()}
    await game.play()
    await game.check_end()
    await game.check_after_restart(test_config)
