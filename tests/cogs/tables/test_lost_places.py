"""A restart that lost where a DM hand was (places are written a little behind): the bot
sends the hand again, while the one from before the restart is still on its player's
screen. Whichever they play from is the hand the bot keeps from then on: one live hand in
their DMs, never one whose cards are refused on their turn."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.config import Config
from cogs.tables.drawing import Files
from cogs.tables.messages import Payload
from cogs.tables.presenter import presenter_of
from tests.cogs.tables import _faults
from tests.cogs.tables._game import SEED, Game, Human, new_game
from tests.cogs.tables._world import dm_place, hand_buttons, placed
from tests.conftest import World

quick_games = _faults.quick_games


async def _her_hand(
    env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> tuple[Game, Human, int, discord.Message]:
    """Alice's game started, her seat and the hand in her DMs, her turn first."""
    table_seed(SEED)  # alice plays first
    game = await new_game(env, world, notify=False)
    await game.start()
    (alice,) = game.humans
    seat = game.seat(alice)
    before = game.dm_message(alice)
    assert before is not None and game.usable(before, seat)
    return game, alice, seat, before


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_hand_played_from_after_a_restart_is_the_one_kept(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    test_config: Config,
) -> None:
    env = simcord_env
    game, alice, seat, before = await _her_hand(env, world, table_seed)
    dm = alice.member.user.dm_channel
    # a crash before the place was written: the next start knows no DM hand of hers
    place = placed(game.table)
    del place.hands[seat]
    presenter_of(env.bot).places.changed(place)
    await game.restart(test_config)

    fresh = game.dm_message(alice)
    assert fresh is not None and fresh.id != before.id, "the hand came again"
    assert {before.id, fresh.id} <= {m.id for m in dm.history()}
    # she plays from the hand still on her screen, the one from before the restart
    button = game.usable(before, seat)[0]
    played = len(game.deal.actions)
    await alice.member.user.click(before, custom_id=button.custom_id)
    assert len(game.deal.actions) > played, "the card was played"
    assert game.deal.turn == seat, "she took the trick: she leads the next"
    live = [m for m in dm.history() if any(not b.disabled for b in hand_buttons(m))]
    assert [m.id for m in live] == [before.id], "one hand offers cards: the one she played from"
    assert game.usable(live[0], seat), "and they play"
    assert fresh.id not in {m.id for m in dm.history()}, "the other one went"
    assert dm_place(game.table, seat).dm_message_id == before.id, "the bot keeps it"
    kept = game.dm_message(alice)
    assert kept is not None and kept.id == before.id and game.shows_hand(kept, alice)
    await game.play()
    await game.check_end()
    assert [m.id for m in dm.history()] == [before.id], "one hand, to the end"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_hand_sent_again_as_she_plays_from_the_old_one_goes(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hand is on its way again (the first show after a restart that lost where it was)
    when she plays from the one on her screen: the one that arrives goes, the one she played
    from stays."""
    env = simcord_env
    game, alice, seat, before = await _her_hand(env, world, table_seed)
    dm = alice.member.user.dm_channel
    button = game.usable(before, seat)[0]
    del placed(game.table).hands[seat]
    presenter = presenter_of(env.bot)
    presenter.forget_hand(game.table.id, seat)
    view = game.service.view(game.table.id)
    hand = game.service.hand_view(game.table.id, seat)
    place = await presenter.places.of(view)

    # the hand's picture is drawn on the way out: held there until her click is answered
    answering = asyncio.Event()
    draw, answer = presenter.outlet.draw, presenter.hands.answer
    drawn: list[object] = []

    async def held(payload: Payload, files: Callable[[], Files]) -> None:
        drawn.append(payload)
        if len(drawn) == 1:
            await answering.wait()
        await draw(payload, files)

    async def answered(*args: Any, **kwargs: Any) -> Payload:
        answering.set()
        return await answer(*args, **kwargs)

    monkeypatch.setattr(presenter.outlet, "draw", held)
    monkeypatch.setattr(presenter.hands, "answer", answered)
    played = len(game.deal.actions)
    await asyncio.gather(
        presenter.hands.deliver(view, place, hand),
        alice.member.user.click(before, custom_id=button.custom_id),
    )
    await env.settle()
    assert len(game.deal.actions) > played, "the card was played"
    assert [m.id for m in dm.history()] == [before.id], "one hand: the one she played from"
    assert dm_place(game.table, seat).dm_message_id == before.id
    assert game.shows_hand(game.dm_message(alice), alice)
