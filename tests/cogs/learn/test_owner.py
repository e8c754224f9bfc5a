"""A lesson is its member's alone: each of its buttons names them, and another member's
click on one (a lesson seen where both are, or a click forged with its custom_id) is
refused in words, for them alone, changing nothing: no step moves, no practice deal is
dealt. Buttons drawn before they named their member are their asker's, where Discord says
who asked."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord

from bot.config import Config
from bot.i18n import t
from bot.tables.tutorial import LESSONS, NEXT, lesson_view
from cogs.learn.buttons import OPEN, PRACTICE, LearnButton
from cogs.learn.commands import drawn, owner_of
from cogs.tables.common import service_of
from tests.cogs.tables._world import add_member, layout_texts
from tests.conftest import World, fast_bot

LAST = len(LESSONS) - 1


@pytest.fixture
def simcord_bot(test_config: Config) -> Any:
    return fast_bot(test_config)


async def _alices_lesson_in_the_channel(env: simcord.Env, world: World, number: int) -> Any:
    """A step of alice's lesson where bob sees it too."""
    channel = env.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = lesson_view(number, 0 if number < LAST else len(LESSONS[LAST].steps))
    return await channel.send(**await drawn(view, "en", world.member.id))


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("move", [NEXT, OPEN, PRACTICE])
async def test_another_members_click_on_a_lesson_is_refused_in_words(
    simcord_env: simcord.Env, world: World, move: str
) -> None:
    env, alice = simcord_env, world.member
    bob = await add_member(env, world, "bob")
    number = 0 if move == NEXT else LAST
    shown = await _alices_lesson_in_the_channel(env, world, number)
    before = layout_texts(shown)
    step = 0 if move == NEXT else len(LESSONS[LAST].steps)
    custom_id = f"tute:learn:en:{number}:{step}:{move}:{alice.id}"
    if move == OPEN:
        custom_id = f"tute:learn:en:{number}:0:{OPEN}:{alice.id}"

    refused = await bob.click(shown, custom_id=custom_id)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == t("tables.errors.learn_not_yours", "en")
    (now,) = [m for m in world.channel.history() if m.id == shown.id]
    assert layout_texts(now) == before, "her lesson as it was"
    assert not service_of(env.bot).tables, "nothing dealt"
    assert not bob.user.dm_channel.history(), "nothing sent to bob"

    if move == NEXT:  # alice's own click moves her lesson on
        moved = await alice.click(shown, custom_id=custom_id)
        assert moved.response is not None
        assert t("learn.cards.1.task", "en") in "\n".join(layout_texts(moved.response))


def _clicked(by: int, asker: int | None) -> Any:
    asked = None if asker is None else SimpleNamespace(user=SimpleNamespace(id=asker))
    message = SimpleNamespace(interaction_metadata=asked)
    return SimpleNamespace(user=SimpleNamespace(id=by), message=message)


def test_a_button_drawn_before_it_named_its_member_is_its_askers() -> None:
    old = LearnButton("en", 0, 0, NEXT, owner=None)
    assert owner_of(old, _clicked(by=2, asker=1)) == 1, "the member who asked for it"
    assert owner_of(old, _clicked(by=2, asker=None)) is None, "a DM nobody else sees"
    assert owner_of(LearnButton("en", 0, 0, NEXT, owner=3), _clicked(by=2, asker=1)) == 3
