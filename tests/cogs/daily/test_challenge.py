"""``/tute challenge`` through SimCord: today's deal is dealt in the member's DMs and played to
its end; the member gets a line to share that shows no card; the day's board shows them;
a second try the same day is refused in words."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.i18n import t
from tests.cogs.tables._faults import FAULTS, inject
from tests.cogs.tables._world import card_of, cards_in, hand_buttons
from tests.conftest import World


def hand_message(dm: simcord.ChannelHandle) -> discord.Message | None:
    """The member's hand in their DMs (the newest message with cards to click)."""
    for message in reversed(dm.history()):
        if hand_buttons(message):
            return message
    return None


async def play_the_deal(member: simcord.MemberActor) -> None:
    """The member plays the first card they may, each turn, until the deal is over."""
    dm = member.user.dm_channel
    for _ in range(100):
        hand = hand_message(dm)
        if hand is None:
            return  # the deal is over: the hand has no cards to click
        cards = [
            b.custom_id for b in hand_buttons(hand) if not b.disabled and card_of(b) is not None
        ]
        if not cards:
            return
        await member.user.click(hand, custom_id=cards[0])


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_todays_deal_is_played_in_dms_shared_and_on_the_board(
    simcord_env: simcord.Env, world: World
) -> None:
    alice = world.member
    started = await alice.slash(world.channel, "tute challenge play")
    assert started.ephemeral and started.response is not None
    dm = alice.user.dm_channel
    assert str(dm.id) in (started.response.content or "")
    await play_the_deal(alice)
    said = [m.content or "" for m in dm.history()]
    scored = next(text for text in said if text.startswith("Your daily deal is scored"))
    line = next(part for part in scored.splitlines() if part.startswith("Tute daily "))
    assert "🔥1" in line and ("🟩" in line or "🟥" in line)
    assert cards_in(line) == set()  # no card in what is shared
    board = await alice.slash(world.channel, "tute challenge board")
    assert board.ephemeral and board.response is not None
    (embed,) = board.response.embeds
    assert f"**1.** <@{alice.id}>" in (embed.description or "")
    again = await alice.slash(world.channel, "tute challenge play")
    assert again.response is not None
    assert (again.response.content or "").startswith(
        t("daily.played_line", "en", line="", when="").split("\n")[0]
    )
    assert line in (again.response.content or "")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_closed_dms_are_said_in_words_and_nothing_is_played(
    simcord_env: simcord.Env, world: World
) -> None:
    alice = world.member
    dm = alice.user.dm_channel
    inject(simcord_env, "POST", f"/channels/{dm.id}/messages", FAULTS["closed-dm"])
    closed = await alice.slash(world.channel, "tute challenge play")
    assert closed.ephemeral and closed.response is not None
    assert closed.response.content == t("daily.dms_closed", "en")
    assert not hand_message(dm)
    # her DMs open: the deal is hers to play, once
    started = await alice.slash(world.channel, "tute challenge play")
    assert started.response is not None and str(dm.id) in (started.response.content or "")
    assert hand_message(dm) is not None
    again = await alice.slash(world.channel, "tute challenge play")
    assert again.response is not None
    assert again.response.content == t(
        "daily.in_play", "en", link=f"https://discord.com/channels/@me/{dm.id}"
    )
