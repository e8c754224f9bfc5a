"""``/tute challenge`` through SimCord: today's deal is dealt in the member's DMs (the
server's ``/tute tables`` does not list it) and played to its end, which offers no rematch;
the member gets a line to share that shows no card; the day's board shows them; a second
try the same day is refused in words."""

from __future__ import annotations

import pytest
import simcord

from bot.config import Config
from bot.i18n import t
from tests.cogs.tables._faults import FAULTS, inject
from tests.cogs.tables._world import (
    add_member,
    buttons,
    cards_in,
    dm_hand,
    layout_texts,
    play_in_dm,
)
from tests.conftest import World, fast_bot

SCORED = t("daily.scored", "en", line="", command="").split("\n")[0]
"""How the message with the member's result begins."""


def scored_line(dm: simcord.ChannelHandle) -> str | None:
    """What the member is told once their deal is scored, if it is."""
    scored = [m.content for m in dm.history() if (m.content or "").startswith(SCORED)]
    return (scored[0] or "") if scored else None


async def play_the_deal(env: simcord.Env, member: simcord.MemberActor) -> str:
    """The member plays the deal in their DMs until it is scored; what they are told then."""
    return await play_in_dm(env, member, scored_line)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_todays_deal_is_played_in_dms_shared_and_on_the_board(
    simcord_env: simcord.Env, world: World
) -> None:
    alice = world.member
    bob = await add_member(simcord_env, world, "bob")
    await bob.slash(world.channel, "tute new", variant="habanero")
    started = await alice.slash(world.channel, "tute challenge play")
    assert started.ephemeral and started.response is not None
    dm = alice.user.dm_channel
    assert str(dm.id) in (started.response.content or "")
    # her deal is hers alone: the server's list of tables shows bob's lobby only
    listed = (await bob.slash(world.channel, "tute tables")).response
    assert listed is not None
    (only,) = listed.embeds[0].fields
    assert str(world.channel.id) in (only.value or "") and str(dm.id) not in (only.value or "")
    scored = await play_the_deal(simcord_env, alice)
    line = next(part for part in scored.splitlines() if part.startswith("Tute daily "))
    assert "🔥1" in line and ("🟩" in line or "🟥" in line)
    assert cards_in(line) == set()  # no card in what is shared
    # played once: the game over offers its replay, its review and the board, no rematch
    next_step = t("daily.ended", "en", command="/tute challenge board")
    (ended,) = [m for m in dm.history() if next_step in layout_texts(m)]
    ops = [b.custom_id.split(":")[1] for b in buttons(ended)]
    assert ops == ["rp", "rv"], ops
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
async def test_closed_dms_are_said_in_words_and_a_restart_resumes_the_deal(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    alice = world.member
    dm = alice.user.dm_channel
    inject(simcord_env, "POST", f"/channels/{dm.id}/messages", FAULTS["closed-dm"])
    closed = await alice.slash(world.channel, "tute challenge play")
    assert closed.ephemeral and closed.response is not None
    assert closed.response.content == t("daily.dms_closed", "en")
    assert not dm_hand(dm)
    # her DMs open: the deal is hers to play, once
    started = await alice.slash(world.channel, "tute challenge play")
    assert started.response is not None and str(dm.id) in (started.response.content or "")
    assert dm_hand(dm) is not None
    still_on = t("daily.in_play", "en", link=f"https://discord.com/channels/@me/{dm.id}")
    again = await alice.slash(world.channel, "tute challenge play")
    assert again.response is not None and again.response.content == still_on
    # the bot restarts in the middle: the same table goes on, still played once
    await simcord_env.bot.close()
    await simcord_env.restart_bot(fast_bot(test_config))
    after = await alice.slash(world.channel, "tute challenge play")
    assert after.response is not None and after.response.content == still_on
    assert (await play_the_deal(simcord_env, alice)).startswith(SCORED)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_her_daily_deal_on_she_still_opens_a_table_in_the_server(
    simcord_env: simcord.Env, world: World
) -> None:
    """Her deal in her DMs is hers alone: it does not make her the host of a table in the
    server, which nothing could close."""
    alice = world.member
    started = await alice.slash(world.channel, "tute challenge play")
    assert started.response is not None
    assert str(alice.user.dm_channel.id) in (started.response.content or "")
    opened = await alice.slash(world.channel, "tute new", variant="habanero")
    assert not opened.ephemeral and opened.response is not None, "the lobby, for all to see"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_days_commitment_is_on_the_board_before_anyone_plays_and_in_the_deal(
    simcord_env: simcord.Env, world: World
) -> None:
    """Before anyone plays, the board shows the day's commitment; the member's
    introduction to the deal, and her table, show the same one."""
    alice = world.member
    board = await alice.slash(world.channel, "tute challenge board")
    assert board.response is not None
    (embed,) = board.response.embeds
    footer = embed.footer.text or ""
    code = footer.rsplit(" ", 1)[-1]
    assert footer.endswith(t("tables.shuffle", "en", code=code)) and len(code) == 12
    await alice.slash(world.channel, "tute challenge play")
    dm = alice.user.dm_channel
    intro = next(m for m in dm.history() if (m.content or "").startswith("**Daily deal"))
    assert (intro.content or "").endswith("-# " + t("tables.shuffle", "en", code=code))
    table = next(iter(simcord_env.bot.tables.tables.values()))  # type: ignore[attr-defined]
    assert table.short_commitment == code
