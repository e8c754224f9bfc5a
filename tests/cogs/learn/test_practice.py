"""The course's end deals a practice game: a friendly pairs deal in the member's DMs, of no
server (no server's ``/tute tables`` lists it), with the 💡 Hint on their turn, played to its
end and dealt again with Rematch; one at a time; with DMs closed, nothing is dealt and the
member is told why (pressed in those DMs, that it could not be sent)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from bot.tables.clock import DECLARE_GRACE
from bot.tables.codes import encode_action
from bot.tables.lobby import NO_SERVER
from bot.tables.model import Status, Table
from bot.tables.tutorial import LESSONS, NEXT
from cogs.learn.buttons import PRACTICE
from cogs.tables.common import service_of
from tests.cogs.tables._faults import FAULTS, inject
from tests.cogs.tables._world import buttons, dm_hand, play_in_dm
from tests.conftest import World, fast_bot

pytestmark = [pytest.mark.e2e, pytest.mark.simcord(settle_timeout=3)]

HINT_BUDGET = 0.02
"""The hint's budget in its counted clock's seconds: a few sampled deals."""
LAST = len(LESSONS) - 1


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


async def course_end(user: Any, lang: str) -> Any:
    """The last lesson, opened in the DM with the bot and walked right to its end."""
    shown = (await user.slash("tute learn", lesson=LAST)).response
    for step, taught in enumerate(LESSONS[LAST].steps):
        move = NEXT if taught.expected is None else encode_action(taught.expected)
        shown = (
            await user.click(shown, custom_id=f"tute:learn:{lang}:{LAST}:{step}:{move}:{user.id}")
        ).response
    assert shown is not None
    return shown


def practice_id(message: Any) -> str:
    (found,) = [b.custom_id for b in buttons(message) if b.custom_id.split(":")[5] == PRACTICE]
    return found


def practice_table(env: simcord.Env, user_id: int) -> Table:
    (table,) = [
        t
        for t in service_of(env.bot).tables.values()
        if t.host_id == user_id and t.status is not Status.FINISHED
    ]
    return table


def rematch_message(dm: simcord.ChannelHandle) -> Any:
    for message in reversed(dm.history()):
        if any(b.custom_id.endswith(":rematch") for b in buttons(message)):
            return message
    return None


async def test_the_course_ends_with_a_practice_deal_in_dms_with_hints(
    simcord_env: simcord.Env, world: World
) -> None:
    env, alice = simcord_env, world.member
    dm = alice.user.dm_channel
    service_of(env.bot).hints.budget = HINT_BUDGET
    end = await course_end(alice.user, "en")
    assert t("learn.course_done", "en").split("!")[0] in str(end.components)

    dealt = await alice.user.click(end, custom_id=practice_id(end))
    assert dealt.ephemeral and dealt.response is not None
    link = f"https://discord.com/channels/@me/{dm.id}"
    assert dealt.response.content == t("learn.practice.started", "en", link=link)
    assert t("learn.practice.intro", "en") in [m.content for m in dm.history()]
    table = practice_table(env, alice.id)
    assert (table.guild_id, table.channel_id) == (NO_SERVER, dm.id)
    assert not table.options.competitive and table.options.bet == 0
    assert sum(s is not None and s.user_id is None for s in table.seats) == 3  # robots
    listed = (await alice.slash(world.channel, "tute tables")).response
    assert listed is not None and str(dm.id) not in str(listed.embeds[0].to_dict())

    # one practice deal at a time
    again = await alice.user.click(end, custom_id=practice_id(end))
    assert again.response is not None
    assert again.response.content == t("tables.errors.already_hosting", "en", table=table.id)
    intro = t("learn.practice.intro", "en")
    assert [m.content for m in dm.history()].count(intro) == 1, "nothing more in her DMs"

    # the hint is offered on her turn
    for _ in range(10):
        hand = dm_hand(dm)
        hints = [
            b.custom_id for b in (buttons(hand) if hand else []) if b.custom_id.endswith(":hint")
        ]
        if hints:
            asked = await alice.user.click(hand, custom_id=hints[0])
            assert asked.response is not None and asked.response.content.startswith("💡")
            break
        await env.advance_time(DECLARE_GRACE + 1)
    else:
        raise AssertionError("no hint was offered")

    ended = await play_in_dm(env, alice, rematch_message)
    rematch = next(b.custom_id for b in buttons(ended) if b.custom_id.endswith(":rematch"))
    opened = await alice.user.click(ended, custom_id=rematch)
    assert opened.response is not None
    assert opened.response.content == t("tables.rematch.opened", "en", link=link)
    assert practice_table(env, alice.id).guild_id == NO_SERVER


@pytest.mark.parametrize("fault", ["closed-dm", "no-permission"])
async def test_pressed_in_dms_a_deal_not_sent_says_to_try_again(
    simcord_env: simcord.Env, world: World, fault: str
) -> None:
    """Pressed in her DMs with the bot, whatever Discord refused, she is not told to open
    DMs she is in: the deal could not be sent, nothing was dealt, and she may try again."""
    alice = world.member
    dm = alice.user.dm_channel
    end = await course_end(alice.user, "en")
    inject(simcord_env, "POST", f"/channels/{dm.id}/messages", FAULTS[fault])
    refused = await alice.user.click(end, custom_id=practice_id(end))
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == t("learn.practice.not_sent", "en")
    assert not [t for t in service_of(simcord_env.bot).tables.values() if t.host_id == alice.id]


async def test_pressed_in_a_server_with_dms_closed_nothing_is_dealt_and_she_is_told(
    simcord_env: simcord.Env, world: World
) -> None:
    """The course's end shown in a server (her DMs closed): the practice button there says
    how to open her DMs."""
    alice = world.member
    dm = alice.user.dm_channel
    steps = len(LESSONS[LAST].steps)
    custom_id = f"tute:learn:en:{LAST}:{steps}:{PRACTICE}"
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Practice", custom_id=custom_id))
    channel = simcord_env.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    shown = await channel.send(view=view)
    inject(simcord_env, "POST", f"/channels/{dm.id}/messages", FAULTS["closed-dm"])
    refused = await alice.click(shown, custom_id=custom_id)
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == t("learn.practice.dms_closed", "en")
    assert not [t for t in service_of(simcord_env.bot).tables.values() if t.host_id == alice.id]
