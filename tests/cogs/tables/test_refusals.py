"""Clicks the bot refuses, each with a short ephemeral reason that changes nothing: not your
turn, an earlier trick, a card the rules forbid, a member who does not play, a private
table, a host-only button.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.engine import CODES, Action, Deal, IllegalActionError, Kind
from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.model import Status
from cogs.tables import embeds as ui
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    Btn,
    add_member,
    buttons,
    card_of,
    close_lobby,
    crafted_click,
    deal_and_trick,
    hand_buttons,
    op_button,
    open_table,
    refusal,
    service_of,
    the_table,
)
from tests.conftest import World


def illegal_text(deal: Deal, seat: int, card: int, lang: str = "en") -> str:
    """What the bot should say about this card, from the engine's own reason."""
    probe = deal.copy()
    with pytest.raises(IllegalActionError) as info:
        probe.apply(Action.play(seat, card))
    params: dict[str, Any] = {k: v for k, v in info.value.params.items() if isinstance(v, int)}
    for key in ("card", "beat"):
        if key in params:
            params[key] = ui.card_name(params[key], lang, the=True)
    if "suit" in params:
        params["suit"] = ui.suit_text(params["suit"], lang)
    return t(f"tables.errors.illegal.{info.value.reason}", lang, **params)


def snapshot(message: discord.Message) -> tuple[Any, ...]:
    return (message.content, [e.to_dict() for e in message.embeds], buttons(message))


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_refusals_while_playing(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Not your turn, a button of an earlier trick, a card the rules forbid, and a member who
    does not play: each click gets a short ephemeral reason and changes nothing."""
    env = simcord_env
    table_seed(11)
    alice = world.member
    bob = await add_member(env, world, "bob")
    carol = await add_member(env, world, "carol")
    await open_table(env, world, "arrastrado", [alice, bob], robots=1)
    driver = Driver(env, world, [Player(alice), Player(bob)])
    table = driver.table
    deal = table.deal
    assert deal is not None and deal.turn == 0 and table.seat_of(alice.id) == 0
    a_dm, b_dm = alice.user.dm_channel, bob.user.dm_channel

    # alice is on turn: her "My hand" reply offers every card; she keeps two of them
    spare = driver.players[0]
    spare.dm_open = False
    first = await driver.hand_message(spare, fresh=True)
    second = await driver.hand_message(spare, fresh=True)
    spare.dm_open = True

    # bob's cards are disabled in his DM: a click sent anyway is not his turn
    (b_hand,) = b_dm.history()
    before = (len(deal.actions), snapshot(b_hand))
    card = deal.hand(1)[0]
    custom_id = f"tute:h:{table.id}:0:0:{CODES[card]}"
    assert Btn(custom_id, ui.card_name(card, "en"), True) in buttons(b_hand)
    said = refusal(await crafted_click(env, bob.user, b_hand, custom_id))
    assert said == t("tables.errors.illegal.not_your_turn", "en")
    (b_hand,) = b_dm.history()
    assert (len(deal.actions), snapshot(b_hand)) == before

    # alice plays from one reply; the other still offers cards (a copy left behind goes,
    # but this one's token ran out: the bot can no longer edit or delete it), but it is
    # bob's turn now
    for method in ("PATCH", "DELETE"):
        env.inject_error(
            method,
            "/webhooks/*/messages/@original",
            status=401,
            code=50027,
            message="Invalid Webhook Token",
            times=None,
        )
    await driver.click(spare, first, next(b for b in hand_buttons(first) if not b.disabled))
    assert deal.turn == 1 and len(deal.tricks) == 0
    left = [b for b in hand_buttons(second) if not b.disabled and card_of(b) in deal.hand(0)]
    before = (len(deal.actions), snapshot(a_dm.history()[0]))
    said = refusal(await alice.click(second, custom_id=left[0].custom_id))
    assert said == t("tables.errors.illegal.not_your_turn", "en")
    assert (len(deal.actions), snapshot(a_dm.history()[0])) == before

    # a card the rules forbid (its button is disabled): the reason is the engine's
    for _ in range(40):
        legal = {a.arg for a in deal.legal_actions() if a.kind is Kind.PLAY}
        forbidden = [c for c in deal.hand(1) if c not in legal]
        if deal.turn == 1 and forbidden:
            break
        player = driver.player_at(deal.turn)
        assert player is not None, "the robot played already"
        message = await driver.hand_message(player)
        await driver.click(
            player, message, next(b for b in hand_buttons(message) if not b.disabled)
        )
    else:
        raise AssertionError("bob never held a card he could not play")
    (b_hand,) = b_dm.history()
    deal_no, trick = deal_and_trick(b_hand) or (-1, -1)
    custom_id = f"tute:h:{table.id}:{deal_no}:{trick}:{CODES[forbidden[0]]}"
    assert Btn(custom_id, ui.card_name(forbidden[0], "en"), True) in buttons(b_hand)
    before = (len(deal.actions), snapshot(b_hand))
    said = refusal(await crafted_click(env, bob.user, b_hand, custom_id))
    assert said == illegal_text(deal, 1, forbidden[0])
    assert said.startswith(("You must", "A trump was led", "You have none"))
    (b_hand,) = b_dm.history()
    assert (len(deal.actions), snapshot(b_hand)) == before

    # bob plays a card he may, the robot follows: alice's old reply is from an earlier trick
    while not deal.tricks:
        player = driver.player_at(deal.turn)
        assert player is not None
        message = await driver.hand_message(player)
        await driver.click(
            player, message, next(b for b in hand_buttons(message) if not b.disabled)
        )
    stale = [b for b in hand_buttons(second) if not b.disabled]
    said = refusal(await alice.click(second, custom_id=stale[-1].custom_id))
    assert said == t("tables.errors.stale", "en") and "earlier trick" in said

    # carol does not play here: no hand for her, no vote
    table_message = driver.table_message()
    for op in ("hand", "cancel"):
        said = refusal(await carol.click(table_message, custom_id=op_button(table_message, op)))
        assert said == t("tables.errors.not_seated", "en")
    driver.audit.check()


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_private_table_and_host_only_buttons(simcord_env: simcord.Env, world: World) -> None:
    env = simcord_env
    alice = world.member
    bob = await add_member(env, world, "bob")
    carol = await add_member(env, world, "carol")
    result = await alice.slash(
        world.channel, "tute new", variant="arrastrado", private=True, invite=bob
    )
    lobby = result.response
    assert lobby is not None and f"<@{bob.id}>" in lobby.content
    table = the_table(env)
    assert table.options.private and table.invited == [bob.id]

    said = refusal(await carol.click(lobby, custom_id=op_button(lobby, "join")))
    assert said == t("tables.errors.not_invited", "en")
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    assert table.seat_of(bob.id) == 1 and table.seat_of(carol.id) is None

    shown = snapshot(lobby.message)
    for member, op in ((carol, "robot"), (bob, "robot"), (bob, "start"), (carol, "start")):
        said = refusal(await member.click(lobby, custom_id=op_button(lobby, op)))
        assert said == t("tables.errors.host_only", "en"), (member, op)
    for member in (bob, carol):
        said = refusal(await member.click(lobby, custom_id=op_button(lobby, "close")))
        assert said == t("tables.errors.host_only", "en")
    assert table.status is Status.LOBBY and snapshot(lobby.message) == shown
    assert [s.user_id if s else None for s in table.seats] == [alice.id, bob.id, None]

    await close_lobby(alice, lobby)
    assert table.status is Status.CLOSED
    assert not hand_buttons(lobby.message) and not buttons(lobby.message)
    assert world.channel.history()[-1].id == lobby.message.id, "nothing is said apart"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_bet_above_your_chips_is_refused_with_how_many_you_have(
    simcord_env: simcord.Env, world: World
) -> None:
    """``/tute new`` with a bet its host cannot pay opens no lobby (it could never start);
    a member who cannot pay a lobby's bet cannot sit. Each is told the chips they have."""
    env = simcord_env
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=300)
    result = await alice.slash(world.channel, "tute new", variant="habanero", bet=500)
    assert refusal(result) == t("tables.errors.no_chips", "en", bet=500, chips=300)
    assert not service_of(env).tables, "no lobby was opened"
    assert not [m for m in world.channel.history() if m.author.bot], "nothing was posted"

    lobby = (await alice.slash(world.channel, "tute new", variant="habanero", bet=300)).response
    assert lobby is not None
    bob = await add_member(env, world, "bob")
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=200)
    joined = await bob.click(lobby, custom_id=op_button(lobby, "join"))
    assert refusal(joined) == t("tables.errors.no_chips", "en", bet=300, chips=200)
    assert the_table(env).humans() == [alice.id]
