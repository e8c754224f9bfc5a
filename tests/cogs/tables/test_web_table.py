"""The web table in the bot's own process, on the same tables as Discord: with a web port
the bot starts it beside its Discord presenter, and a card played from Discord's button
reaches the web table's sockets (here a socket standing in, to keep SimCord's clock in
charge); the Discord side still finds its own presenter. Stopping the bot stops it."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from bot.engine import CODES
from bot.tables.views import Show
from bot.web.lobby import open_lobby
from bot.web.sessions import Session
from cogs.tables.presenter import DiscordPresenter, presenter_of
from tests.cogs.tables._world import buttons, card_of, hand_buttons, open_table, the_table
from tests.conftest import World, sim_bot

SEED = 4


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    """The bot with its web table, on a port the system gives."""
    return sim_bot(dataclasses.replace(test_config, web_port=0, client_secret="oauth-secret"))


class Socket:
    def __init__(self, user_id: int, place: int, language: str = "en") -> None:
        self.user_id = user_id
        self.place = place
        self.language = language
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_card_played_on_discord_reaches_the_web_table(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, TuteBot) and bot.web.serving
    assert bot.web.port, "it listens, on the port the system gave"
    assert bot.sockets in bot.tables.presenters, "the service publishes to its sockets"
    assert isinstance(presenter_of(bot), DiscordPresenter), "Discord finds its own"
    table_seed(SEED)
    alice = world.member
    await open_table(env, world, "habanero", [alice], robots=1)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
    seat = table.seat_of(alice.id)
    socket = Socket(alice.id, world.guild.id)
    await bot.web.hub.join(table.id, socket)
    assert socket.sent[-1]["hand"]["seat"] == seat
    while deal.turn != seat:
        await env.advance_time(5)
    (dm,) = alice.user.dm_channel.history()
    button = next(b for b in hand_buttons(dm) if not b.disabled and card_of(b) is not None)
    card = card_of(button)
    assert card is not None
    shown = len(socket.sent)
    await alice.user.click(dm, custom_id=button.custom_id)
    assert len(socket.sent) > shown, "the web table saw the click"
    assert CODES[card] not in socket.sent[-1]["hand"]["cards"]
    await bot.close()
    assert not bot.web.serving


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_lobby_opened_from_the_web_table_is_posted_in_its_channel(
    simcord_env: simcord.Env, world: World
) -> None:
    env = simcord_env
    bot = env.bot
    assert isinstance(bot, TuteBot)
    alice = world.member
    session = Session(
        user_id=alice.id,
        name="alice",
        instance_id="i-1",
        channel_id=world.channel.id,
        guild_id=world.guild.id,
        expires=2e9,
    )
    service = bot.tables

    async def from_the_page() -> Show:
        table = await open_lobby(service, session, "habanero", "en")  # published as it opens
        shown = service.redraw(table.id)
        assert shown is not None
        return shown

    # the page's socket runs in the bot's process: SimCord's internals make it bot work
    with env._bot_scope():  # pyright: ignore[reportPrivateUsage]
        opening = asyncio.get_running_loop().create_task(from_the_page())
    await env.settle()
    show = opening.result()
    (lobby,) = [m for m in world.channel.history() if m.author.id == env.backend.bot_user.id]
    ids = [b.custom_id or "" for b in buttons(lobby)]
    assert any(i.endswith(":join") for i in ids) and any(i.endswith(":start") for i in ids)
    # the lobby's own buttons work on it, as on one /tute new posted
    await alice.click(lobby, custom_id=next(i for i in ids if i.endswith(":robot")))
    table = the_table(env)
    assert sum(seat is not None for seat in table.seats) == 2
    # shown again: posted once, edited after
    with env._bot_scope():  # pyright: ignore[reportPrivateUsage]
        again = asyncio.get_running_loop().create_task(presenter_of(bot).refresh(show))
    await env.settle()
    again.result()
    assert len([m for m in world.channel.history() if m.author.id == env.backend.bot_user.id]) == 1
