"""A Spanish player on a phone plays a whole game of pairs from the hand in their DMs alone:
on each of their turns that one message holds the table from their seat (the trick, who
played each card, whose turn), trumps, the score, the clock and the cards, each named; they
never open the table message. And the game leaves its channel clean: the lobby, then in its
thread the table's message of each deal (become its summary) and the result; no ping, no
notice apart."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.model import Status
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from tests.cogs.tables._world import (
    card_of,
    cards_in,
    hand_buttons,
    layout_texts,
    open_table,
    the_table,
    thread_of,
)
from tests.conftest import World

ROBOT_STEP = 5
"""Seconds of SimCord's clock between looks at the table, while robots play."""


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_spanish_player_plays_a_whole_pairs_game_from_the_hand_alone(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
) -> None:
    env = simcord_env
    table_seed(11)
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language="es")
    set_locale("es-ES")
    alice = world.member
    lobby = await open_table(env, world, "pairs", [alice], robots=3)
    table = the_table(env)
    seat = table.seat_of(alice.id)
    assert seat is not None and table.language == "es"
    dm = alice.user.dm_channel
    turns = 0
    for _ in range(400):
        deal = table.deal
        if table.status is not Status.PLAYING or deal is None:
            break
        if deal.turn != seat:
            await env.advance_time(ROBOT_STEP)
            continue
        (hand,) = dm.history()  # one hand, never a stack of them
        said = "\n".join(layout_texts(hand))
        # the table from her seat: the trick and who played each card (its alt text says it)
        (picture,) = hand.attachments
        assert picture.filename == "trick.png"
        assert cards_in(picture.description or "") == {c for _, c in deal.trick_seats()}
        assert t("hand.your_turn", "es", clock="").strip() in said
        assert t("hand.trumps", "es", suit=ui.suit_text(deal.trump, "es")) in said
        assert t("tables.scores_line", "es", scores="").strip() in said
        # each card names itself, suit and all (a screen reader reads it)
        cards = [b for b in hand_buttons(hand) if card_of(b) is not None]
        assert {b.label for b in cards} == {ui.card_name(c, "es") for c in deal.hand(seat)}
        card = next(b for b in cards if not b.disabled)
        clicked = await alice.user.click(hand, custom_id=card.custom_id)
        assert clicked.acknowledged
        turns += 1
    assert table.status is Status.FINISHED
    assert turns >= 10, "she played every trick of a deal"
    # the hand says how it ended
    (hand,) = dm.history()
    assert table.winner is not None
    assert ui.winner_line(table_view(table), table.winner, "es") in "\n".join(layout_texts(hand))
    # the channel: the lobby alone (Discord's own line that a thread was started there
    # went); the thread: a message per deal and nothing else
    assert [m.id for m in world.channel.history()] == [lobby.id]
    thread = thread_of(world, table).history()
    assert len(thread) == table.deal_no + 1
    assert all(not m.content and m.flags.components_v2 for m in thread), "no ping, no notice"
