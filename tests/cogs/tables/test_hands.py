"""Where a hand is: closed DMs (My hand in the thread), hands dealt as ephemeral messages in
a channel without threads, and the custom_ids a hand's buttons keep.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.engine import Kind
from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.model import Status
from bot.tables.service import DECLARE_GRACE
from cogs.tables.buttons import HandButton, LobbyButton, LobbyOp, TableButton, TableOp
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    add_member,
    card_of,
    dm_place,
    gone,
    hand_buttons,
    hand_cards,
    layout_texts,
    op_button,
    open_table,
    placed,
    service_of,
    the_table,
)
from tests.conftest import World
from tests.tables._play import tables_of


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_arrastrado_with_dms_closed(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Bob's DMs are closed: the table says so, and he plays the whole game through the
    ephemeral "My hand" reply in the thread."""
    env = simcord_env
    table_seed(3)
    bob = await add_member(env, world, "bob")
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await open_table(env, world, "arrastrado", [world.member, bob], robots=1)
    table = the_table(env)
    seat = table.seats[table.seat_of(bob.id) or 0]
    assert seat is not None and dm_place(table, table.seat_of(bob.id) or 0).dm_closed
    assert not bob.user.dm_channel.history()
    driver = Driver(env, world, [Player(world.member), Player(bob, dm_open=False)])
    (closed,) = [
        line
        for text in layout_texts(driver.table_message())
        for line in text.splitlines()
        if line == t("tables.dms_closed", "en", names="bob")
    ]
    assert "My hand" in closed
    driver.audit.check()
    await driver.play()
    driver.check_end()
    # bob opened his hand once: it followed the game, every turn, and went at its end
    (hand,) = driver.players[1].ephemerals
    assert hand.flags.ephemeral and gone(env, hand), "it goes with the game"
    assert not bob.user.dm_channel.history(), "no DM ever reached bob"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_table_in_its_channel_with_hands_as_ephemeral_messages(
    simcord_env: simcord.Env, table_seed: Callable[[int], None]
) -> None:
    """A server that deals the hands as ephemeral messages, in a channel where nobody may
    make threads: the lobby links to the table below it, the table says to click My hand
    (no word of DMs), and the one hand alice opens follows the game by itself; its refresh
    button redraws it in place."""
    env = simcord_env
    table_seed(8)
    guild = env.create_guild("Casino")
    no_threads = discord.PermissionOverwrite(
        create_public_threads=False, create_private_threads=False
    )
    channel = guild.create_text_channel("tute", overwrites={guild.default_role: no_threads})
    alice = guild.add_member(env.create_user("alice"))
    await env.settle()
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, guild.id, hand_delivery="ephemeral")
    lobby = await open_table(env, World(guild, channel, alice), "habanero", [alice], robots=1)
    table = the_table(env)
    assert placed(table).thread_id is None and placed(table).play_message_id is not None

    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{placed(table).play_message_id}"
    (status,) = lobby.embeds
    assert status.description == t("tables.lobby.status.playing_here", "en", link=link)
    (follow,) = [b for row in lobby.components for b in row["components"] if b.get("url")]
    assert follow["url"] == link

    def table_message() -> discord.Message:
        return next(m for m in channel.history() if m.id == placed(table).play_message_id)

    footer = layout_texts(table_message())[-1]
    shuffle = t("tables.shuffle", "en", code=table.short_commitment)
    assert footer == "-# " + t("tables.play.footer.ephemeral", "en", deal=1) + " · " + shuffle
    assert "DM" not in footer and "My hand" in footer

    opened = await alice.click(table_message(), custom_id=op_button(table_message(), "hand"))
    hand = opened.response
    assert hand is not None and hand.ephemeral
    seat = table.seat_of(alice.id)
    for _ in range(60):
        if table.status is not Status.PLAYING:
            break
        deal = table.deal  # the deal in play (a game may take more than one)
        assert deal is not None
        if deal.turn != seat:
            await env.advance_time(DECLARE_GRACE + 1)
            continue
        # alice's turn: the hand she opened shows it, without her asking again
        assert sorted(hand_cards(hand)) == sorted(deal.hand(seat or 0))
        legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
        cards = [b for b in hand_buttons(hand) if not b.disabled and card_of(b) is not None]
        assert {card_of(b) for b in cards} == legal
        played = await alice.click(hand, custom_id=cards[0].custom_id)
        if table.status is Status.PLAYING:
            assert played.response is not None and played.response.id == hand.id
        else:
            assert gone(env, hand), "the hand goes with the game"
    else:
        raise AssertionError("the game did not end")
    assert table.status is Status.FINISHED
    assert not alice.user.dm_channel.history(), "no DM"

    # a hand opened before another one falls behind and says so; its refresh button redraws
    # it in place
    await open_table(env, World(guild, channel, alice), "habanero", [alice], robots=1)
    tables = tables_of(service_of(env))
    table = tables[max(tables)]
    deal = table.deal
    seat = table.seat_of(alice.id)
    assert deal is not None and seat is not None

    async def open_hand() -> simcord.ResponseMessage:
        message = next(m for m in channel.history() if m.id == placed(table).play_message_id)
        reply = (await alice.click(message, custom_id=op_button(message, "hand"))).response
        assert reply is not None and reply.ephemeral
        return reply

    while deal.turn != seat:
        await env.advance_time(DECLARE_GRACE + 1)
    older, newer = await open_hand(), await open_hand()
    card = next(b for b in hand_buttons(newer) if not b.disabled)
    await alice.click(newer, custom_id=card.custom_id)
    while deal.turn != seat:
        await env.advance_time(DECLARE_GRACE + 1)
    # the older copy went as the newer one came: one hand, never a stack of them
    assert gone(env, older) and not gone(env, newer)
    assert sorted(hand_cards(newer)) == sorted(deal.hand(seat))
    legal = {a.arg for a in deal.legal_actions() if a.seat == seat and a.kind is Kind.PLAY}
    assert {card_of(b) for b in hand_buttons(newer) if not b.disabled} - {None} == legal


async def test_buttons_keep_the_custom_ids_they_were_posted_with() -> None:
    """The three kinds of table button share one base; their custom_ids are as they always
    were, so a button posted long ago still parses into the same table, op, deal and trick."""
    posted = {
        "tute:l:7:team1": (LobbyButton, (LobbyOp.TEAM1,)),
        "tute:t:7:hand": (TableButton, (TableOp.HAND,)),
        "tute:h:7:2:13:12O": (HandButton, ("2", "13", "12O")),
        "tute:h:7:0:0:sC": (HandButton, ("0", "0", "sC")),
    }
    interaction: Any = None
    for custom_id, (kind, parts) in posted.items():
        matches = [
            k
            for k in (LobbyButton, TableButton, HandButton)
            if k.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert matches == [kind], custom_id
        match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None
        button = await kind.from_custom_id(interaction, discord.ui.Button(), match)
        assert (button.table_id, button.parts, button.custom_id) == (7, parts, custom_id)
        assert kind(7, *parts).custom_id == custom_id
    hand = HandButton(7, 2, 13, "12O", label="12🪙", disabled=True)
    assert (hand.deal_no, hand.trick_no, hand.code) == (2, 13, "12O")
    assert hand.item.label == "12🪙" and hand.item.disabled
    assert LobbyButton(7, LobbyOp.START).op is LobbyOp.START
    assert TableButton(7, TableOp.BACK).op is TableOp.BACK
    with pytest.raises(TypeError):
        HandButton(7, "12O")
