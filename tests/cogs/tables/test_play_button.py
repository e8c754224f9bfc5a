"""Play at the table: with the web table on, the lobby (while it fills and once the game
plays) and the table message offer it, and a click answers with Discord's Activity
(LAUNCH_ACTIVITY, which SimCord learns from ``tests/cogs/_activity.py``) for whoever clicked,
in that channel. A launch Discord refuses touches that click alone, in words; a table that
has ended offers it no more."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import discord
import pytest
import simcord
from simcord.results import to_discord_message

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from cogs.tables.presenter import presenter_of
from tests.cogs._activity import answer_launches
from tests.cogs.tables._world import (
    buttons,
    close_lobby,
    op_button,
    open_table,
    refusal,
    service_of,
)
from tests.conftest import World, fast_bot
from tests.logged import errors_logged

pytestmark = pytest.mark.e2e

SEED = 4


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    """A quick bot with its web table, on a port the system gives."""
    return fast_bot(dataclasses.replace(test_config, web_port=0, client_secret="oauth-secret"))


def _current(env: simcord.Env, channel_id: int, message_id: int) -> discord.Message:
    """The message as it is now (a lobby edited since it was posted)."""
    return to_discord_message(env, env.backend.get_message(channel_id, message_id))


def _has_web(message: discord.Message | simcord.ResponseMessage) -> bool:
    return any(b.custom_id.endswith(":web") for b in buttons(message))


async def test_the_lobby_and_the_table_offer_it_and_a_click_opens_the_web_table(
    simcord_env: simcord.Env,
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    table_seed: Callable[[int], None],
) -> None:
    env = simcord_env
    launches = answer_launches(monkeypatch)
    table_seed(SEED)
    alice = world.member
    opened = await alice.slash(world.channel, "tute new", variant="habanero")
    lobby = opened.response
    assert lobby is not None
    web = next(b for b in buttons(lobby) if b.custom_id.endswith(":web"))
    assert web.label == t("tables.btn.web", "en")
    clicked = await alice.click(lobby, custom_id=web.custom_id)
    assert clicked.acknowledged and clicked.response is None, "the answer is the Activity"
    assert [(a.channel_id, a.user_id) for a in launches] == [(world.channel.id, alice.id)]

    await alice.click(lobby, custom_id=op_button(lobby, "robot"))
    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    (table,) = service_of(env).open_tables(world.guild.id)
    place = presenter_of(env.bot).places.known(table.id)
    assert place is not None and place.play_message_id is not None
    table_message = _current(env, place.where_id, place.play_message_id)
    assert _has_web(table_message), "the table message offers it"
    assert _has_web(_current(env, world.channel.id, lobby.id)), "so does the lobby, in play"
    assert len([b for b in buttons(table_message) if b.custom_id.endswith(":web")]) == 1

    bob = world.guild.add_member(env.create_user("bob"))  # a spectator: the page shows all
    await env.settle()
    clicked = await bob.click(table_message, custom_id=op_button(table_message, "web"))
    assert clicked.acknowledged and clicked.response is None
    assert launches[-1].channel_id == place.where_id and launches[-1].user_id == bob.id


async def test_a_launch_discord_refuses_is_said_to_that_click_alone(
    simcord_env: simcord.Env, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Without the Activity set up on Discord's side the launch is refused (SimCord, which
    does not know it, refuses it too): the click is told in words, nothing else changes."""
    alice = world.member
    opened = await alice.slash(world.channel, "tute new", variant="habanero")
    lobby = opened.response
    assert lobby is not None
    clicked = await alice.click(lobby, custom_id=op_button(lobby, "web"))
    assert refusal(clicked) == t("tables.web.failed", "en")
    assert service_of(simcord_env).open_tables(world.guild.id), "the table is still open"
    assert "Could not open the web table" in caplog.text
    assert not errors_logged(caplog)


async def test_a_closed_table_offers_it_no_more(simcord_env: simcord.Env, world: World) -> None:
    alice = world.member
    opened = await alice.slash(world.channel, "tute new", variant="habanero")
    lobby = opened.response
    assert lobby is not None and _has_web(lobby)
    await close_lobby(alice, lobby)
    assert not _has_web(_current(simcord_env, world.channel.id, lobby.id))


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_game_without_spectators_opens_no_card_table_for_others(
    simcord_env: simcord.Env,
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
    lang: str,
) -> None:
    """Spectators off: the lobby's Play at the table, clicked once the game plays by a member
    who is not at it, is refused in a line (no Activity opens on the game); its player
    still opens it."""
    env = simcord_env
    launches = answer_launches(monkeypatch)
    table_seed(SEED)
    set_locale("es-ES" if lang == "es" else "en-US")
    alice = world.member
    lobby = await open_table(env, world, "habanero", [alice], robots=1, spectators=False)
    bob = world.guild.add_member(env.create_user("bob"))
    await env.settle()
    web = next(b for b in buttons(lobby) if b.custom_id.endswith(":web")).custom_id
    refused = await bob.click(lobby, custom_id=web)
    assert refusal(refused) == t("tables.errors.watch_private", lang)
    assert launches == []
    clicked = await alice.click(lobby, custom_id=web)
    assert clicked.acknowledged and clicked.response is None
    assert [a.user_id for a in launches] == [alice.id]
