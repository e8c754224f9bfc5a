"""Leaving a game and voting to cancel it: each asks first, then tells one outcome. In the
lobby, what closes the table (the host's Close, or their Leave with nobody else seated)
asks first too; anybody else's Leave only gets them up, at once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import simcord

from bot.i18n import t
from bot.storage.members import member_stats
from bot.storage.settings import update_settings
from bot.tables.model import Status
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import (
    add_member,
    buttons,
    hand_buttons,
    layout_texts,
    op_button,
    open_table,
    placed,
    refusal,
    service_of,
    texts,
    the_table,
    thread_of,
)
from tests.conftest import World


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_last_member_leaving_asks_first_and_tells_one_outcome(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Leave asks first, saying what happens to the stake; once confirmed, one outcome is
    told, the ledger agrees with it, and the leaver's hand has nothing left to click."""
    env = simcord_env
    table_seed(3)
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=500)
    await open_table(env, world, "habanero", [alice], robots=1, bet=100)
    table = the_table(env)
    thread = thread_of(world, table)
    table_message = next(m for m in thread.history() if m.id == placed(table).play_message_id)
    before = {m.id for m in thread.history()}

    question = await alice.click(table_message, custom_id=op_button(table_message, "leave"))
    reply = question.response
    assert reply is not None and question.ephemeral
    assert reply.content == t("tables.confirm.leave.end_stake", "en", stake=100)
    assert table.status is Status.PLAYING, "nothing happens before the answer"
    confirm, keep = buttons(reply)
    assert confirm.custom_id == f"tute:t:{table.id}:leaveok"
    assert keep.custom_id == f"tute:t:{table.id}:keep"

    done = await alice.click(reply, custom_id=confirm.custom_id)
    assert done.response is not None
    assert done.response.content == t("tables.done.leave_end", "en")
    assert table.status is Status.CANCELLED
    said = [m for m in thread.history() if m.id not in before]
    assert not said, "the table's message tells the outcome: nothing is said apart"
    shown = next(m for m in thread.history() if m.id == placed(table).play_message_id)
    assert t("tables.play.status.cancelled", "en") in texts(shown, skip_past=False)
    lost = t("tables.log.abandoned_stake", "en", name="alice", stake=100)
    assert lost in texts(shown, skip_past=False)
    assert not any(b.custom_id.startswith("tute:t:") for b in buttons(shown))
    (hand,) = alice.user.dm_channel.history()
    assert not hand_buttons(hand), "the leaver's hand has nothing left to click"
    assert layout_texts(hand) == [t("tables.hand.left", "en")]
    stats = await member_stats(service_of(env).db, world.guild.id, alice.id)
    assert stats is not None and stats.balance == 400, "the stake went to the bank"
    assert not buttons(done.response), "the question's button is gone with its answer"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_vote_to_cancel_asks_first_then_counts(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(3)
    alice = world.member
    bob = await add_member(env, world, "bob")
    await open_table(env, world, "habanero", [alice, bob])
    table = the_table(env)
    table_message = next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )
    first = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert first.response is not None
    assert first.response.content == t("tables.confirm.cancel", "en", missing=1)
    assert not table.cancel_votes, "no vote before the answer"
    yes, no = buttons(first.response)
    kept = await alice.click(first.response, custom_id=no.custom_id)
    assert kept.response is not None
    assert kept.response.content == t("tables.done.kept", "en") and not buttons(kept.response)
    assert not table.cancel_votes, "No: nothing happened"
    first = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert first.response is not None
    yes, _ = buttons(first.response)
    voted = await alice.click(first.response, custom_id=yes.custom_id)
    assert voted.response is not None
    assert voted.response.content == t("tables.done.cancel", "en")
    assert table.cancel_votes == [alice.id]
    second = await bob.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert second.response is not None
    assert second.response.content == t("tables.confirm.cancel_last", "en", missing=0)
    yes, _ = buttons(second.response)
    ended = await bob.click(second.response, custom_id=yes.custom_id)
    assert ended.response is not None
    assert ended.response.content == t("tables.done.cancelled", "en")
    assert table.status is Status.CANCELLED


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_alone_with_robots_a_vote_after_the_first_trick_says_the_stake_is_lost(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Alone against robots, the first trick over: the question says that cancelling now is
    leaving and the stake goes to the bank, and so it does."""
    env = simcord_env
    table_seed(3)
    alice = world.member
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, starting_chips=500)
    await open_table(env, world, "habanero", [alice], robots=1, bet=100)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
    await Driver(env, world, [Player(alice)]).play(until=lambda: bool(deal.tricks))
    table_message = next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )
    question = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert question.response is not None and question.ephemeral
    assert question.response.content == t("tables.confirm.cancel_leave", "en", stake=100)
    yes, _ = buttons(question.response)
    done = await alice.click(question.response, custom_id=yes.custom_id)
    assert done.response is not None
    assert done.response.content == t("tables.done.leave_end", "en")
    assert table.status is Status.CANCELLED
    stats = await member_stats(service_of(env).db, world.guild.id, alice.id)
    assert stats is not None and stats.balance == 400, "the stake went to the bank"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_in_spanish_cancelling_reads_as_a_player_says_it(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    set_locale: Callable[[str], None],
) -> None:
    """A Spanish table proposes to cancel ("Proponer anular"), and its question and answers
    read as a player would say them."""
    env = simcord_env
    table_seed(3)
    alice = world.member
    bob = await add_member(env, world, "bob")
    async with service_of(env).db.transaction() as conn:
        await update_settings(conn, world.guild.id, language="es")
    set_locale("es-ES")
    await open_table(env, world, "habanero", [alice, bob])
    table = the_table(env)
    table_message = next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )
    labels = [b.label for b in buttons(table_message)]
    assert "Proponer anular" in labels and "Dejar la partida" in labels

    asked = await alice.click(table_message, custom_id=op_button(table_message, "cancel"))
    assert asked.response is not None
    assert asked.response.content == (
        "¿Quieres anular la partida? Se anula si todos están de acuerdo, y entonces no "
        "cuenta. Votos que faltan tras el tuyo: 1."
    )
    assert [b.label for b in buttons(asked.response)] == ["Sí, que se anule", "No, sigo jugando"]
    voted = await alice.click(asked.response, custom_id=op_button(asked.response, "cancelok"))
    assert voted.response is not None
    assert voted.response.content == "Tu voto para anular la partida queda registrado."

    asked = await bob.click(table_message, custom_id=op_button(table_message, "leave"))
    assert asked.response is not None
    assert asked.response.content.startswith("¿Quieres dejar la partida? Un robot jugará")
    assert [b.label for b in buttons(asked.response)] == ["Sí, la dejo", "No, sigo jugando"]


# ---------------------------------------------------------------------------- the lobby


def lobby_buttons(env: simcord.Env, world: World) -> list[str]:
    """The custom ids of the buttons the lobby message shows now."""
    lobby_id = placed(the_table(env)).message_id
    return [
        b.custom_id for b in buttons(next(m for m in world.channel.history() if m.id == lobby_id))
    ]


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_hosts_close_asks_first_and_no_keeps_the_table_open(
    simcord_env: simcord.Env, world: World, set_locale: Callable[[str], None]
) -> None:
    """Close asks the host alone, saying the seated players leave with the table: No keeps
    everyone seated, Yes closes it for all."""
    env = simcord_env
    alice = world.member
    bob = await add_member(env, world, "bob")
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    table = the_table(env)

    question = await alice.click(lobby, custom_id=op_button(lobby, "close"))
    asked = question.response
    assert asked is not None and question.ephemeral
    assert asked.content == "Close this table? The players seated leave with it."
    assert [b.label for b in buttons(asked)] == ["Yes, close it", "No, keep it open"]
    assert table.status is Status.LOBBY, "nothing happens before the answer"

    kept = await alice.click(asked, custom_id=op_button(asked, "open"))
    assert kept.response is not None
    assert kept.response.content == "Nothing changed: the table stays open."
    assert not buttons(kept.response), "the question's buttons are gone with its answer"
    assert table.status is Status.LOBBY
    assert [s.user_id if s else None for s in table.seats] == [alice.id, bob.id]
    assert lobby_buttons(env, world), "the lobby still offers its buttons"

    said = refusal(await bob.click(lobby, custom_id=op_button(lobby, "close")))
    assert said == t("tables.errors.host_only", "en"), "only the host is asked"

    set_locale("es-ES")
    question = await alice.click(lobby, custom_id=op_button(lobby, "close"))
    asked = question.response
    assert asked is not None
    assert asked.content == (
        "¿Quieres cerrar la mesa? Todos los que están sentados tendrán que levantarse."
    )
    assert [b.label for b in buttons(asked)] == ["Sí, ciérrala", "No, que siga abierta"]
    closed = await alice.click(asked, custom_id=op_button(asked, "closeok"))
    assert closed.response is not None and closed.response.content == "Mesa cerrada."
    assert table.status is Status.CLOSED
    assert not lobby_buttons(env, world), "a closed lobby offers nothing to click"
    # the lobby says so, and stays the channel's last message: nothing is said apart
    (last,) = world.channel.history()[-1:]
    assert last.id == lobby.message.id
    assert t("tables.lobby.status.closed", "en") in texts(last, skip_past=False)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_hosts_leave_asks_first_only_when_it_would_close_the_table(
    simcord_env: simcord.Env, world: World
) -> None:
    """Anybody but the host gets up at once; so does the host while another member sits
    (the table is theirs then). Alone with robots, the host's Leave would close the table:
    it asks first, and a member who sat down meanwhile keeps the table open."""
    env = simcord_env
    alice = world.member
    bob = await add_member(env, world, "bob")
    lobby = (await alice.slash(world.channel, "tute new", variant="arrastrado")).response
    assert lobby is not None
    table = the_table(env)
    await alice.click(lobby, custom_id=op_button(lobby, "robot"))

    # bob sits and gets up: no question
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    up = await bob.click(lobby, custom_id=op_button(lobby, "leave"))
    assert not up.ephemeral, "no question: the lobby itself shows him gone"
    assert table.seat_of(bob.id) is None and table.status is Status.LOBBY

    # alice alone with a robot: her Leave would close the table, so it asks
    question = await alice.click(lobby, custom_id=op_button(lobby, "leave"))
    asked = question.response
    assert asked is not None and question.ephemeral
    assert asked.content == (
        "Close this table? You are the only player seated, so it closes when you leave."
    )
    kept = await alice.click(asked, custom_id=op_button(asked, "open"))
    assert kept.response is not None
    assert kept.response.content == t("tables.done.kept_open", "en")
    assert table.seat_of(alice.id) == 0 and table.status is Status.LOBBY

    # asked again, and bob sits down before her Yes: she only gets up, bob hosts
    question = await alice.click(lobby, custom_id=op_button(lobby, "leave"))
    asked = question.response
    assert asked is not None
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    done = await alice.click(asked, custom_id=op_button(asked, "leaveok"))
    assert done.response is not None
    assert done.response.content == "You got up from the table."
    assert table.status is Status.LOBBY and table.host_id == bob.id

    # bob, now the host, gets up while nobody else sits: Yes closes the table
    question = await bob.click(lobby, custom_id=op_button(lobby, "leave"))
    asked = question.response
    assert asked is not None
    assert asked.content == t("tables.confirm.close_alone", "en")
    done = await bob.click(asked, custom_id=op_button(asked, "leaveok"))
    assert done.response is not None and done.response.content == "The table is closed."
    assert table.status is Status.CLOSED
    assert not lobby_buttons(env, world)
    (last,) = world.channel.history()[-1:]
    assert last.id == lobby.message.id, "the lobby says it closed: nothing is said apart"
    assert t("tables.lobby.status.closed", "en") in texts(last, skip_past=False)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_host_gets_up_at_once_while_another_member_sits(
    simcord_env: simcord.Env, world: World
) -> None:
    """With another member seated, the host's Leave closes nothing: no question, and the
    table passes to that member."""
    env = simcord_env
    alice = world.member
    bob = await add_member(env, world, "bob")
    lobby = (await alice.slash(world.channel, "tute new", variant="habanero")).response
    assert lobby is not None
    await bob.click(lobby, custom_id=op_button(lobby, "join"))
    table = the_table(env)

    up = await alice.click(lobby, custom_id=op_button(lobby, "leave"))

    assert not up.ephemeral
    assert table.status is Status.LOBBY and table.host_id == bob.id
    assert table.seat_of(alice.id) is None
