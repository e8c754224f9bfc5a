"""A bot upgraded while a game plays: Discord cannot turn a message sent with embeds into a
layout, so the table message and the hands sent before the upgrade keep being drawn with
embeds; the next deal's fresh message is a layout, and the old one stays as its deal's
summary."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.config import Config
from bot.i18n import t
from bot.tables.model import Status
from bot.tables.views import hand_view, table_view
from cogs.tables import legacy, messages
from cogs.tables.messages import Shown, as_new_message
from cogs.tables.summaries import ARCHIVE_AFTER
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, new_game
from tests.cogs.tables._world import buttons
from tests.conftest import World

quick_games = _faults.quick_games


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_table_sent_with_embeds_keeps_them_until_its_next_deal(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    test_config: Config,
) -> None:
    env = simcord_env
    table_seed(SEED)  # two deals
    game = await new_game(env, world, humans=1, notify=False)
    await game.start()
    table = game.table
    (alice,) = game.humans
    # as the version before layouts left them: the table message and alice's hand in embeds
    view = table_view(table)
    old_table = messages.table_payload(view, v2=False)
    messages.table_pictures(Shown(), view, old_table, summary_pictured=False)
    thread = env.bot.get_partial_messageable(table.where_id)
    sent = await thread.send(**as_new_message(old_table))
    seat = game.seat(alice)
    old_hand = messages.hand_payload(view, hand_view(table, seat), "en", ephemeral=False, v2=False)
    messages.hand_picture(hand_view(table, seat), "en", old_hand)
    dm = await alice.member.user.dm_channel.history()[-1].channel.send(**as_new_message(old_hand))
    occupant = table.seats[seat]
    assert occupant is not None
    occupant.dm_message_id, occupant.dm_message_v2 = dm.id, False
    table.play_message_id, table.play_message_deal, table.play_message_v2 = sent.id, None, False
    await game.restart(test_config)  # the new version takes the table from its last save

    table = game.table
    assert (table.play_message_id, table.play_message_v2) == (sent.id, False)
    first = table.deal_no
    await game.play_until(lambda: len(game.deal.tricks) >= 2)
    old = game.table_message()
    assert old.id == sent.id and old.embeds and not old.flags.components_v2
    now = legacy.table_embed(table_view(game.table), "en")
    assert (old.embeds[0].title, old.embeds[0].description) == (now.title, now.description)
    hand = game.dm_message(alice)
    assert hand is not None and hand.id == dm.id and hand.embeds, "the old hand keeps its embeds"
    assert game.shows_hand(hand, alice), "and is edited as the game goes"

    await game.play_until(lambda: game.table.deal_no > first)
    await env.advance_time(ARCHIVE_AFTER + 1)  # the old message becomes the deal's summary
    table = game.table
    summary = next(m for m in game.messages(table.where_id) if m.id == sent.id)
    assert summary.embeds[0].title == t("summary.title", "en", deal=first + 1, id=table.id)
    assert not buttons(summary), "the old message is now its deal's summary"
    fresh = game.table_message()
    assert fresh.id != sent.id and fresh.flags.components_v2
    assert (table.play_message_v2, table.play_message_deal) == (True, table.deal_no)
    await game.play()
    assert game.table.status is Status.FINISHED
