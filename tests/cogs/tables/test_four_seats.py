"""Arrastrado with four at the table (``/tute new variant:arrastrado house:seats=4``), as its
host sees it: four seats in the lobby, robots in the three empty ones at the start, a hand of
cards while the host is dealt in; and in the deal the host deals, a hand that says they sit it
out with nothing to click, while the table shows the other three playing, trick by trick."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import discord
import pytest
import simcord

from bot.ai import Level
from bot.client import TuteBot
from bot.config import Config
from bot.engine import Deal, Kind
from bot.i18n import t
from bot.render import TableScene
from bot.storage.settings import update_settings
from bot.tables.model import Status, Table
from cogs.tables import embeds as ui
from cogs.tables import pictures
from tests.cogs.tables._settings import set_options
from tests.cogs.tables._world import (
    buttons,
    card_of,
    cards_in,
    dm_place,
    gone,
    hand_buttons,
    hand_cards,
    layout_texts,
    op_button,
    placed,
    the_table,
    thread_of,
)
from tests.conftest import World, sim_bot

pytestmark = pytest.mark.e2e

ROBOT_DELAY = 2.0
"""Seconds of SimCord's clock the robots wait before a run of their plays (up to a member's
turn or the end of a trick): each ``advance_time`` of it lets one run play."""
SEED = 4
"""The shuffle of every table here. Its robots play at the normal level, which draws no
chance: each run of a test plays the same game."""
HOST = 0
"""The host's seat. The last seat deals the first deal and sits it out; the host deals the
second."""
ROBOTS = (1, 2, 3)
PLAYED_OUT_SEED = 1
"""A shuffle whose first deal goes on after the host's last card (a robot plays the last
one); the host deals the second."""


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    """The real bot, whose robots wait ``ROBOT_DELAY`` (on SimCord's clock) before they play."""
    return sim_bot(dataclasses.replace(test_config, robot_delay=ROBOT_DELAY, think_budget=0.02))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[TableScene]:
    """What the table pictures the bot draws show (the PNG does not say it in words), the
    latest last."""
    scenes: list[TableScene] = []
    render = pictures.render_table

    def spy(scene: TableScene) -> bytes:
        scenes.append(scene)
        return render(scene)

    monkeypatch.setattr(pictures, "render_table", spy)
    return scenes


# ------------------------------------------------------------------------- helpers


def lobby_fields(world: World, message_id: int) -> dict[str, str]:
    message = next(m for m in world.channel.history() if m.id == message_id)
    (embed,) = message.embeds
    return {f.name or "": f.value or "" for f in embed.fields}


def table_message(world: World, table: Table) -> discord.Message:
    return next(
        m for m in thread_of(world, table).history() if m.id == placed(table).play_message_id
    )


def hand_dm(world: World, table: Table) -> discord.Message:
    """The host's hand in their DMs, as the table last sent or edited it."""
    occupant = table.seats[HOST]
    assert occupant is not None and dm_place(table, HOST).dm_message_id is not None
    history = world.member.user.dm_channel.history()
    return next(m for m in history if m.id == dm_place(table, HOST).dm_message_id)


def played_by(deal: Deal, leader: int) -> list[int]:
    """The seats that play a trick led by ``leader``, in order."""
    seats = [leader]
    while len(seats) < sum(side >= 0 for side in deal.side_of):
        seats.append(deal.next_seat[seats[-1]])
    return seats


def check_sitting_out(world: World, table: Table, lang: str) -> None:
    """The host's hand in their DMs says they sit this deal out; no card, nothing to click."""
    dm = hand_dm(world, table)
    text = "\n".join(layout_texts(dm))
    assert t("hand.sitting_out", lang) in text
    assert t("hand.title", lang, id=table.id, deal=table.deal_no + 1) in text
    assert not buttons(dm), "nothing to click in a deal they sit out"
    assert not dm.attachments, "no picture of an empty hand"


def check_table(world: World, table: Table, scene: TableScene) -> list[str]:
    """The table message shows the deal in play without the host: the deal's number, whose
    turn it is (a robot's), the scores of the three who play; its picture has the four seats,
    the host's marked as sitting out. What it says, line by line."""
    deal = table.deal
    assert deal is not None
    lang = table.language
    said = layout_texts(table_message(world, table))
    shuffle = t("tables.shuffle", lang, code=table.short_commitment)
    footer = t("tables.play.footer.dm", lang, deal=table.deal_no + 1)
    assert said[-1] == f"-# {footer} · {shuffle}"
    state = said[1].splitlines()
    assert ui.seat_name(table.seats[deal.turn], lang) in state[1]
    label = t("tables.scores_line", lang, scores="")
    (scores,) = [line for line in state if line.startswith(label)]
    game = table.game
    assert game is not None
    for seat in ROBOTS:  # each robot's points in the deal and rounds won in the game
        name = ui.seat_name(table.seats[seat], lang, short=True)
        points = deal.side_score(deal.side_of[seat])
        rounds = game.rounds_won[seat]  # at a table of four each seat is a side of the game
        item = t("tables.score_item_rounds", lang, names=name, points=points, rounds=rounds)
        assert item in scores
    assert ui.seat_name(table.seats[HOST], lang, short=True) not in scores
    assert len(scene.seats) == 4
    assert scene.seats[HOST].note == t("tables.picture.sits_out", lang)
    assert not scene.seats[HOST].is_turn
    assert scene.seats[deal.turn].is_turn
    return said


async def open_four(env: simcord.Env, world: World) -> tuple[simcord.ResponseMessage, Table]:
    """The host opens an arrastrado table of four for two rounds and starts it alone."""
    result = await world.member.slash(
        world.channel,
        "tute new",
        variant="arrastrado",
        house="seats=4",
        rounds=2,
        robots="normal",
    )
    lobby = result.response
    assert lobby is not None and not result.ephemeral
    await set_options(world.member, lobby, turn_time=3600)
    table = the_table(env)
    await world.member.click(lobby, custom_id=op_button(lobby, "start"))
    assert table.status is Status.PLAYING
    return lobby, table


async def play_the_first_deal(env: simcord.Env, world: World, table: Table) -> None:
    """On each of their turns the host clicks a playable card of the hand in their DMs; the
    robots play as SimCord's clock moves on. Until the second deal is dealt."""
    for _ in range(100):
        if table.deal_no == 1:
            return
        assert table.status is Status.PLAYING
        deal = table.deal
        assert deal is not None
        if any(a.seat == HOST and a.kind is Kind.PLAY for a in deal.legal_actions()):
            dm = hand_dm(world, table)
            card = next(b for b in hand_buttons(dm) if not b.disabled and card_of(b) is not None)
            clicked = await world.member.user.click(dm, custom_id=card.custom_id)
            assert clicked.acknowledged
        else:
            await env.advance_time(ROBOT_DELAY)
    raise AssertionError("the first deal did not end")


# --------------------------------------------------------------------------- tests


@pytest.mark.simcord(settle_timeout=3)
async def test_the_lobby_has_four_seats_and_robots_fill_three_at_the_start(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    table_seed(SEED)
    alice = world.member
    lobby = (
        await alice.slash(world.channel, "tute new", variant="arrastrado", house="seats=4")
    ).response
    assert lobby is not None
    fields = lobby_fields(world, lobby.id)
    seats = fields[t("tables.seats", "en")].splitlines()
    assert seats == ["`1` alice ⭐", *(f"`{n}` {t('tables.empty_seat', 'en')}" for n in (2, 3, 4))]
    assert (
        "House rules: four at the table, the dealer sits out" in fields[t("tables.options", "en")]
    )

    await alice.click(lobby, custom_id=op_button(lobby, "start"))
    table = the_table(simcord_env)
    assert table.status is Status.PLAYING
    assert [s.robot if s else None for s in table.seats] == [None, *[Level.HARD] * 3]
    seats = lobby_fields(world, lobby.id)[t("tables.seats", "en")].splitlines()
    assert seats == ["`1` alice ⭐", *(f"`{n}` 🤖 Robot {n - 1} (hard)" for n in (2, 3, 4))]
    # the game is on in its thread; the host, dealt in, has 13 cards in their DMs
    said = "\n".join(layout_texts(table_message(world, table)))
    assert "Turn: **alice**" in said
    assert hand_cards(hand_dm(world, table)) and len(hand_cards(hand_dm(world, table))) == 13


@pytest.mark.simcord(settle_timeout=5)
@pytest.mark.parametrize(
    ("lang", "sits_out"),
    [("en", "You sit out this deal (you dealt)."), ("es", "En esta mano descansas (te tocó dar).")],
)
async def test_the_host_deals_and_sits_that_deal_out_while_the_others_play(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    set_locale: Callable[[str], None],
    drawn: list[TableScene],
    lang: str,
    sits_out: str,
) -> None:
    env = simcord_env
    assert t("hand.sitting_out", lang) == sits_out
    if lang == "es":  # a Spanish server, and a host whose Discord speaks Spanish
        async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
            await update_settings(conn, world.guild.id, language="es")
        set_locale("es-ES")
    table_seed(SEED)
    _, table = await open_four(env, world)
    assert table.language == lang
    deal = table.deal
    assert deal is not None

    # the first deal: the last seat deals and sits it out; the host has 13 cards
    dm = hand_dm(world, table)
    assert sits_out not in "\n".join(layout_texts(dm))
    assert sorted(hand_cards(dm)) == sorted(deal.hand(HOST)) and len(deal.hand(HOST)) == 13
    if deal.turn == HOST:  # on their turn, the table from their seat
        (trick_png,) = dm.attachments
        assert trick_png.filename == "trick.png"
    scene = drawn[-1]
    sits_out_note = t("tables.picture.sits_out", lang)
    assert [s.note for s in scene.seats] == ["", "", "", sits_out_note]  # four seats

    await play_the_first_deal(env, world, table)

    # the second deal: the host deals and sits it out; the table shows it at once
    deal = table.deal
    assert deal is not None and table.status is Status.PLAYING
    assert deal.side_of[HOST] == -1 and not deal.hand(HOST)
    check_sitting_out(world, table, lang)
    check_table(world, table, drawn[-1])
    assert deal.turn == 1  # the seat after the host leads

    # the other three play, a trick at a time (a run of robots' plays is one change): the
    # table shows each trick as it is taken, the host's seat empty-handed
    for number in (1, 2):
        await env.advance_time(ROBOT_DELAY)
        assert len(deal.tricks) == number and not deal.trick
        trick = deal.tricks[-1]
        seats = played_by(deal, trick.leader)
        assert sorted(seats) == list(ROBOTS)  # three cards to a trick: the host plays none
        scene = drawn[-1]
        said = check_table(world, table, scene)
        took = said[2].splitlines()[-1]  # the log's last line: who took which cards
        assert t("tables.robot_short", lang, number=trick.winner) in took  # Robot n took
        assert cards_in(took) == set(trick.cards)
        assert not scene.trick  # the picture: a new trick, nothing on the table yet
        check_sitting_out(world, table, lang)
    # the first deal's message became its summary, above the table
    title = t("summary.title", lang, deal=1, id=table.id)
    thread = thread_of(world, table).history()
    assert any(layout_texts(m)[0].startswith(f"### {title}") for m in thread)


@pytest.mark.simcord(settle_timeout=5)
async def test_nothing_the_host_clicks_plays_in_a_deal_they_sit_out(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    alice = world.member
    table_seed(SEED)
    _, table = await open_four(env, world)
    # in the first deal the host opens My hand (they lead: every card is enabled) and keeps it
    shown = table_message(world, table)
    kept = (await alice.click(shown, custom_id=op_button(shown, "hand"))).response
    assert kept is not None and kept.ephemeral
    old_cards = [b for b in hand_buttons(kept) if not b.disabled and card_of(b) is not None]
    assert len(old_cards) == 13
    await play_the_first_deal(env, world, table)
    deal = table.deal
    assert deal is not None and deal.side_of[HOST] == -1
    before = (len(deal.actions), deal.turn, deal.hand(HOST))
    lang = "en"
    sits_out = t("hand.sitting_out", lang)

    # their DMs hold nothing to click (a button no message shows cannot be clicked)
    check_sitting_out(world, table, lang)
    # My hand, at the table, says the same: no card, nothing to play or declare
    shown = table_message(world, table)
    opened = await alice.click(shown, custom_id=op_button(shown, "hand"))
    reply = opened.response
    assert opened.ephemeral and reply is not None
    assert sits_out in "\n".join(layout_texts(reply))
    assert not hand_buttons(reply) and not reply.attachments
    (refresh,) = buttons(reply)
    assert refresh.custom_id == f"tute:t:{table.id}:refresh"
    again = (await alice.click(reply, custom_id=refresh.custom_id)).response
    assert again is not None and sits_out in "\n".join(layout_texts(again))
    assert not hand_buttons(again)

    # the hand they kept from the first deal went: no card of it is left to click
    assert gone(env, kept)
    assert (len(deal.actions), deal.turn, deal.hand(HOST)) == before, "nothing was played"
    check_sitting_out(world, table, lang)

    # the robots play on without them
    await env.advance_time(ROBOT_DELAY)
    (trick,) = deal.tricks
    assert HOST not in played_by(deal, trick.leader) and len(trick.cards) == 3
    check_sitting_out(world, table, lang)


@pytest.mark.simcord(settle_timeout=5)
async def test_a_hand_played_out_turns_to_the_deal_the_host_sits_out(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """The host's hand has no card left and nothing to click, and neither has the hand of the
    deal they sit out: when a robot's card ends the first deal, their DM says all the same
    that they sit the second one out, and stays so while the others play."""
    env = simcord_env
    table_seed(PLAYED_OUT_SEED)
    _, table = await open_four(env, world)
    lang = "en"
    # the host plays every card of theirs; the deal goes on after the last one
    for _ in range(100):
        deal = table.deal
        assert deal is not None and table.deal_no == 0
        if not deal.hand(HOST):
            break
        if any(a.seat == HOST and a.kind is Kind.PLAY for a in deal.legal_actions()):
            dm = hand_dm(world, table)
            card = next(b for b in hand_buttons(dm) if not b.disabled and card_of(b) is not None)
            assert (await world.member.user.click(dm, custom_id=card.custom_id)).acknowledged
        else:
            await env.advance_time(ROBOT_DELAY)
    assert table.deal_no == 0, "a robot plays the first deal's last card"
    dm = hand_dm(world, table)
    assert t("hand.no_cards", lang) in "\n".join(layout_texts(dm)) and not buttons(dm)

    # the robots end the deal; the host deals the next one and sits it out
    while table.deal_no == 0:
        await env.advance_time(ROBOT_DELAY)
    deal = table.deal
    assert deal is not None and deal.side_of[HOST] == -1
    check_sitting_out(world, table, lang)
    await env.advance_time(ROBOT_DELAY)
    assert deal.tricks, "the others play on"
    check_sitting_out(world, table, lang)
