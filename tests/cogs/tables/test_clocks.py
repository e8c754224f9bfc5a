"""Turn clocks, absent players and restarts, end to end through SimCord."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.client import TuteBot
from bot.config import Config
from bot.i18n import t
from bot.tables.model import Status, Table
from tests.cogs.tables._settings import set_options, split
from tests.cogs.tables._world import layout_texts, placed, walk
from tests.conftest import fast_bot
from tests.tables._play import tables_of

pytestmark = pytest.mark.e2e


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    return fast_bot(test_config)


def custom_ids(message: discord.Message) -> list[tuple[str, bool]]:
    return [
        (child.custom_id, child.disabled)
        for child in walk(message.components)
        if isinstance(child, discord.Button) and child.custom_id
    ]


def enabled_cards(message: discord.Message) -> list[str]:
    return [
        cid
        for cid, disabled in custom_ids(message)
        if cid.startswith("tute:h:") and not disabled and cid.rsplit(":", 1)[1][0].isdigit()
    ]


def the_table(env: simcord.Env) -> Table:
    return next(iter(tables_of(env.bot.tables).values()))  # type: ignore[attr-defined]


async def open_habanero(env: simcord.Env, world: Any, bob: Any = None, **options: Any) -> Any:
    """alice opens a habanero table; bob sits down, or else a robot; alice starts."""
    alice = world.member
    opening, form = split(options)
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero", **opening)).response
    await set_options(alice, lobby, **form)
    ops = {cid.rsplit(":", 1)[1]: cid for cid, _ in custom_ids(lobby.message)}
    if bob is not None:
        await bob.click(lobby, custom_id=ops["join"])
    else:
        await alice.click(lobby, custom_id=ops["robot"])
    await alice.click(lobby, custom_id=ops["start"])
    return lobby


@pytest.mark.simcord(settle_timeout=3)
async def test_time_runs_out_then_a_robot_takes_the_seat_until_im_back(
    simcord_env: simcord.Env, world: Any
) -> None:
    env = simcord_env
    bob = world.guild.add_member(env.create_user("bob"))
    await open_habanero(env, world, bob=bob, turn_time=30)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
    alice_seat = table.seat_of(world.member.id)
    bob_seat = table.seat_of(bob.id)
    assert alice_seat is not None and bob_seat is not None
    seat = table.seats[alice_seat]
    assert seat is not None

    async def bob_plays() -> None:
        hand = bob.user.dm_channel.history()[-1]
        await bob.user.click(hand, custom_id=enabled_cards(hand)[0])

    for missed in (1, 2):
        while deal.turn == bob_seat:  # bob may win the trick and lead again
            await bob_plays()
        assert deal.turn == alice_seat and table.turn_deadline is not None
        plays_before = len(deal.actions)
        await env.advance_time(29)
        assert len(deal.actions) == plays_before, "the clock has not run out yet"
        await env.advance_time(2)
        assert len(deal.actions) > plays_before, "the game played for the absent player"
        assert seat.missed == missed
    # two turns in a row ran out: a robot takes the seat until alice is back
    assert seat.away and seat.robot_plays
    thread = next(t for t in world.channel.threads)
    table_message = next(
        m for m in thread.history() if any(cid.startswith("tute:t:") for cid, _ in custom_ids(m))
    )
    back = next(cid for cid, _ in custom_ids(table_message) if cid.endswith(":back"))
    reply = await world.member.click(table_message, custom_id=back)
    assert reply.response is not None and reply.response.ephemeral
    assert not seat.away and seat.missed == 0


def table_message(world: Any) -> discord.Message:
    """The table's message in its thread, with the table's buttons."""
    thread = next(t for t in world.channel.threads)
    return next(
        m for m in thread.history() if any(cid.startswith("tute:t:") for cid, _ in custom_ids(m))
    )


@pytest.mark.simcord(settle_timeout=3)
async def test_a_restart_mid_trick_keeps_the_game_its_buttons_and_the_time_left(
    simcord_env: simcord.Env, world: Any, test_config: Config
) -> None:
    env = simcord_env
    alice = world.member
    await open_habanero(env, world, turn_time=60)
    dm = alice.user.dm_channel
    before = the_table(env)
    deal = before.deal
    seat = before.seat_of(alice.id)
    assert deal is not None and seat is not None
    # alice plays until the robot wins a trick and leads the next: its card is on the table
    for _ in range(20):
        if deal.turn == seat and deal.trick:
            break
        hand = dm.history()[-1]
        await alice.user.click(hand, custom_id=enabled_cards(hand)[0])
    assert deal.turn == seat and len(deal.trick) == 1, "mid-trick, alice to answer"
    trick = list(deal.trick)
    actions_before = list(deal.actions)
    old_hand = dm.history()[-1]
    old_cards = enabled_cards(old_hand)
    old_table = table_message(world)
    my_hand = next(cid for cid, _ in custom_ids(old_table) if cid.endswith(":hand"))
    assert old_cards and before.turn_deadline is not None

    await env.advance_time(25)  # alice thinks for 25 of her 60 seconds
    assert list(deal.actions) == actions_before
    await env.bot.close()  # the bot stops: each turn's clock keeps the time left
    await env.restart_bot(fast_bot(test_config))

    after = the_table(env)
    assert after is not before and after.deal is not None
    assert list(after.deal.actions) == actions_before, "the deal is rebuilt from its log"
    assert list(after.deal.trick) == trick, "the robot's card is still on the table"
    assert after.deal.turn == seat
    assert after.turn_deadline is not None
    with env.time_context():
        left = after.turn_deadline - discord.utils.utcnow().timestamp()
    assert left == pytest.approx(35, abs=1), "the clock resumed with the time left, not 60"
    await env.advance_time(33)
    assert list(after.deal.actions) == actions_before, "the time has not run out yet"

    # the buttons posted before the restart work: the table's in the thread...
    reply = await alice.click(old_table, custom_id=my_hand)
    assert reply.response is not None and reply.response.ephemeral
    assert set(enabled_cards(reply.response.message)) == set(old_cards)
    # ... and the hand's in the DMs, which plays the card and finishes the game
    await alice.user.click(old_hand, custom_id=old_cards[0])
    assert len(after.deal.actions) > len(actions_before)
    for _ in range(200):
        hands = [m for m in dm.history() if enabled_cards(m) or m.id == old_hand.id]
        assert len(hands) <= 1, "a hand told of a new turn replaces the old one"
        hand = dm.history()[-1]
        cards = enabled_cards(hand)
        if not cards:
            break
        await alice.user.click(hand, custom_id=cards[0])
    assert the_table(env).status is Status.FINISHED


@pytest.mark.simcord(settle_timeout=3)
async def test_a_table_near_an_hour_old_moves_to_a_fresh_message(
    simcord_env: simcord.Env, world: Any
) -> None:
    """Discord stops the bot editing a message after an hour: before that, the table moves to
    a new message, right under the old one, which goes."""
    env = simcord_env
    bob = world.guild.add_member(env.create_user("bob"))
    await open_habanero(env, world, bob=bob, turn_time=3600)
    table = the_table(env)
    deal = table.deal
    assert deal is not None and placed(table).thread_id is not None
    first = placed(table).play_message_id
    thread = next(t for t in world.channel.threads)
    players = {table.seat_of(world.member.id): world.member, table.seat_of(bob.id): bob}

    async def play_one() -> None:
        member = players[deal.turn]
        hand = member.user.dm_channel.history()[-1]
        await member.user.click(hand, custom_id=enabled_cards(hand)[0])

    await play_one()
    await env.advance_time(40 * 60)
    await play_one()
    assert placed(table).play_message_id == first, "40 minutes old: still edited in place"
    await env.advance_time(11 * 60)
    await play_one()
    assert placed(table).play_message_id != first, "51 minutes old: a fresh message"
    history = thread.history()
    assert first not in {m.id for m in history}, "the old message went"
    new = next(m for m in history if m.id == placed(table).play_message_id)
    assert any(cid.endswith(":hand") for cid, _ in custom_ids(new))
    assert len(deal.actions) == 3


@pytest.mark.simcord(settle_timeout=3)
async def test_an_edit_refused_as_too_old_moves_the_table_on(
    simcord_env: simcord.Env, world: Any
) -> None:
    """Discord's own word (30046) moves the table too, whatever its age."""
    env = simcord_env
    bob = world.guild.add_member(env.create_user("bob"))
    await open_habanero(env, world, bob=bob)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
    first = placed(table).play_message_id
    members = {table.seat_of(world.member.id): world.member, table.seat_of(bob.id): bob}
    env.inject_error(
        "PATCH",
        f"/channels/{placed(table).where_id}/messages/{first}",
        status=400,
        code=30046,
        message="Maximum number of edits to messages older than 1 hour reached.",
    )
    member = members[deal.turn]
    hand = member.user.dm_channel.history()[-1]
    await member.user.click(hand, custom_id=enabled_cards(hand)[0])
    assert placed(table).play_message_id != first
    assert len(deal.actions) == 1


@pytest.mark.simcord(settle_timeout=3)
async def test_a_thread_archived_for_inactivity_is_opened_again_and_the_table_edited(
    simcord_env: simcord.Env, world: Any
) -> None:
    """A thread Discord archived (a long pause) takes no edits (50083): the bot opens it
    again and edits the table in place."""
    env = simcord_env
    bob = world.guild.add_member(env.create_user("bob"))
    await open_habanero(env, world, bob=bob)
    table = the_table(env)
    deal = table.deal
    assert deal is not None and placed(table).thread_id is not None
    first, thread_id = placed(table).play_message_id, placed(table).thread_id
    members = {table.seat_of(world.member.id): world.member, table.seat_of(bob.id): bob}
    edit = f"/channels/{thread_id}/messages/{first}"
    env.inject_error("PATCH", edit, status=400, code=50083, message="Thread is archived")
    before = len(env.http_requests)
    member = members[deal.turn]
    hand = member.user.dm_channel.history()[-1]
    await member.user.click(hand, custom_id=enabled_cards(hand)[0])
    calls = env.http_requests[before:]
    reopened = [c for c in calls if c.method == "PATCH" and c.path == f"/channels/{thread_id}"]
    assert [(c.json or {}).get("archived") for c in reopened] == [False], "the thread opened again"
    assert len([c for c in calls if c.method == "PATCH" and c.path == edit]) == 2
    assert placed(table).play_message_id == first, "edited in place"
    assert len(deal.actions) == 1


@pytest.mark.simcord(settle_timeout=3)
async def test_the_last_member_away_pauses_the_game_in_sight(
    simcord_env: simcord.Env, world: Any
) -> None:
    """alice, alone with a robot, lets her clock run out twice: the table shows her away
    with I'm back at once (not after the robot's next play), says the game is paused, and
    nothing moves until she is back; no robot plays her cards unseen."""
    env = simcord_env
    alice = world.member
    await open_habanero(env, world, turn_time=30)
    table = the_table(env)
    deal = table.deal
    seat_no = table.seat_of(alice.id)
    assert deal is not None and seat_no is not None
    seat = table.seats[seat_no]
    assert seat is not None
    thread = next(t for t in world.channel.threads)
    for _ in range(40):
        if seat.away:
            break
        if deal.turn == seat_no:
            await env.advance_time(31)
        else:
            await env.advance_time(5)
    assert seat.away and table.paused_until is not None
    shown = table_message(world)
    assert any(cid.endswith(":back") for cid, _ in custom_ids(shown)), "I'm back, at once"
    paused = t("tables.play.paused", "en", until=int(table.paused_until))
    assert any(paused in text for text in layout_texts(shown))
    # the table's message says it (and its log): no message apart in the thread
    assert any(t("tables.log.paused", "en") in text for text in layout_texts(shown))
    assert [m.id for m in thread.history()][-1] == shown.id
    frozen = len(deal.actions)
    await env.advance_time(10 * 60)
    assert len(deal.actions) == frozen, "nothing moves while everyone is away"
    back = next(cid for cid, _ in custom_ids(shown) if cid.endswith(":back"))
    await alice.click(shown, custom_id=back)
    assert not seat.away and table.paused_until is None
    assert not any(cid.endswith(":back") for cid, _ in custom_ids(table_message(world)))


@pytest.mark.simcord(settle_timeout=3)
async def test_a_game_nobody_comes_back_to_is_cancelled(
    simcord_env: simcord.Env, world: Any
) -> None:
    env = simcord_env
    alice = world.member
    await open_habanero(env, world, turn_time=30)
    table = the_table(env)
    seat_no = table.seat_of(alice.id)
    assert seat_no is not None
    for _ in range(40):
        if table.paused_until is not None:
            break
        await env.advance_time(31)
    assert table.paused_until is not None
    await env.advance_time(15 * 60 + 1)
    assert table.status is Status.CANCELLED
    thread = next(t for t in world.channel.threads)
    # the table's message says why it stopped, and is the thread's last message
    (last,) = thread.history()[-1:]
    said = "\n".join(layout_texts(last))
    assert t("tables.play.status.cancelled", "en") in said
    assert t("tables.log.idle_cancelled", "en") in said
