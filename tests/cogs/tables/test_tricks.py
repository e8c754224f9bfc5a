"""What a table tells of the deal's past, through SimCord: the swap of the turned card in its
log, where arrastrado's turned card went, and the Tricks button: every trick so far, who
led, who played which card, who took it, the cantes and the swap where they came; only
what was played in the open, within Discord's limits over whole games of each variant."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor

from bot.engine import Kind, Variant
from bot.engine.cards import POINTS
from bot.i18n import t
from bot.storage.settings import update_settings
from bot.tables.events import Happened
from bot.tables.history import deal_history
from bot.tables.model import Seat, Status
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables.faces import faces_of
from cogs.tables.said import log_line
from cogs.tables.tricks import fitted, tricks_layout
from tests.cogs.tables._world import (
    add_member,
    buttons,
    card_of,
    cards_in,
    hand_buttons,
    layout_texts,
    op_button,
    open_table,
    placed,
    public_known,
    refusal,
    service_of,
    the_table,
    thread_of,
)
from tests.cogs.tables.test_layouts import SomeFaces
from tests.cogs.tables.test_views_rendered import playing_table
from tests.cogs.tables.test_whole_games import EVERY_TABLE
from tests.conftest import World
from tests.discord_limits import check_message

LONG_NAME = "Ñandú_*Gaucho*_de_la_Pampa~~||ñ|"
"""32 characters, the most Discord allows a name, half of them escaped where shown."""


def table_message(env: simcord.Env, world: World) -> discord.Message:
    table = the_table(env)
    place = placed(table)
    channel = thread_of(world, table) if place.thread_id else world.channel
    return next(m for m in channel.history() if m.id == place.play_message_id)


async def in_language(
    env: simcord.Env, world: World, set_locale: Callable[[str], None], lang: str
) -> None:
    async with env.bot.db.transaction() as conn:  # type: ignore[attr-defined]
        await update_settings(conn, world.guild.id, language=lang)
    set_locale("es-ES" if lang == "es" else "en-US")


async def tricks_shown(
    env: simcord.Env, world: World, member: MemberActor
) -> tuple[simcord.InteractionResult, str]:
    message = table_message(env, world)
    result = await member.click(message, custom_id=op_button(message, "tricks"))
    reply = result.response
    assert result.acknowledged and result.ephemeral and reply is not None
    return result, "\n".join(layout_texts(reply))


def check_tricks(env: simcord.Env, text: str, lang: str) -> int:
    """The Tricks answer as the deal stands: its tricks in order, the newest last (the
    earlier ones counted where they do not fit), each as the deal played it; the swap; no
    card of a hand but those everybody saw. Returns how many tricks it leaves out."""
    table = the_table(env)
    deal = table.deal
    assert deal is not None and table.status is Status.PLAYING
    title = t("tables.tricks.title", lang, deal=table.deal_no + 1, id=table.id)
    assert text.startswith(f"**{title}**")
    numbers = [int(n) for n in re.findall(r"^\*\*(\d+)\.\*\*", text, re.MULTILINE)]
    left_out = len(deal.tricks) - len(numbers)
    assert numbers == list(range(left_out + 1, len(deal.tricks) + 1))
    earlier = t("tables.tricks.earlier", lang, count=left_out)
    assert (earlier in text) == bool(left_out)
    assert (t("tables.tricks.none", lang) in text) == (not deal.tricks)
    played = {c for trick in deal.tricks for c in trick.cards}
    assert cards_in(text) <= played | public_known(deal)
    view = table_view(table)
    faces = faces_of(env.bot)

    def name(seat: int) -> str:
        return ui.seat_name(view.seats[seat], lang, short=True)

    lines = text.splitlines()
    for number, trick in enumerate(deal.tricks[left_out:], start=left_out + 1):
        seats = [trick.leader]
        while len(seats) < len(trick.cards):
            seats.append(deal.next_seat[seats[-1]])
        rest = " · ".join(
            f"{name(s)} {ui.card_text(c, lang, faces)}"
            for s, c in zip(seats[1:], trick.cards[1:], strict=True)
        )
        expected = t(
            "tables.tricks.trick",
            lang,
            number=number,
            leader=name(trick.leader),
            led=ui.card_text(trick.cards[0], lang, faces),
            rest=rest,
            name=name(trick.winner),
            points=sum(POINTS[c] for c in trick.cards),
        )
        assert expected in lines
    if not left_out:
        for swap in deal.exchanges:
            gave, took = (ui.card_name(c, lang, the=True) for c in (swap.gave, swap.took))
            swapped = t("tables.log.swapped", lang, name=name(swap.seat), card=gave, took=took)
            assert t("tables.tricks.between", lang, line=swapped) in lines
    return left_out


def enabled_cards(message: discord.Message) -> list[str]:
    return [b.custom_id for b in hand_buttons(message) if not b.disabled and card_of(b) is not None]


async def play_looking_at_tricks(
    env: simcord.Env, world: World, member: MemberActor, lang: str
) -> tuple[int, int]:
    """The member plays the first card it may from its DM'd hand until the game ends,
    asking for the tricks each time one more is over. Returns how many times, and the most
    tricks an answer left out."""
    dm = member.user.dm_channel
    seen = (-1, -1)
    asked = most_left_out = 0
    for _ in range(600):
        table = the_table(env)
        if table.status is not Status.PLAYING:
            return asked, most_left_out
        deal = table.deal
        assert deal is not None
        if (table.deal_no, len(deal.tricks)) != seen:
            seen = (table.deal_no, len(deal.tricks))
            _, text = await tricks_shown(env, world, member)
            most_left_out = max(most_left_out, check_tricks(env, text, lang))
            asked += 1
        cards = enabled_cards(dm.history()[-1])
        if cards:
            await member.user.click(dm.history()[-1], custom_id=cards[0])
        else:
            await env.settle()
    raise AssertionError("the game did not end")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("variant", "house"),
    EVERY_TABLE,
)
async def test_the_tricks_of_a_whole_game_of_each_variant(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
    variant: str,
    house: str | None,
    lang: str,
) -> None:
    """A member with the longest name plays a whole game against robots and asks for the
    tricks after each one: every answer is theirs alone, in order, within Discord's limits
    (the ``discord_limits`` fixture fails the test otherwise); the earlier tricks of a long
    deal are counted, not shown."""
    env = simcord_env
    table_seed(4)
    await in_language(env, world, set_locale, lang)
    member = await add_member(env, world, LONG_NAME)
    options: dict[str, Any] = {"house": house} if house else {}
    await open_table(env, world, variant, [member], **options)
    asked, left_out = await play_looking_at_tricks(env, world, member, lang)
    assert asked >= 10
    assert left_out >= 0
    assert the_table(env).status is Status.FINISHED
    message = table_message(env, world)  # the game over: its result, no Tricks
    assert not [b for b in buttons(message) if b.custom_id.endswith(":tricks")]


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("lang", ["en", "es"])
async def test_tricks_of_a_game_that_ended_meanwhile_are_refused_politely(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
    lang: str,
) -> None:
    """The game is cancelled before its table message shows it (Discord fails the edit for
    now): Tricks, clicked there, says in a line that the game is not in play."""
    env = simcord_env
    table_seed(3)
    await in_language(env, world, set_locale, lang)
    await open_table(env, world, "individual", [world.member], robots=3)
    message = table_message(env, world)
    table = the_table(env)
    edit = f"/channels/{message.channel.id}/messages/{message.id}"
    env.inject_error("PATCH", edit, status=503, times=None)  # tried again in 5 s
    await service_of(env).vote_cancel(table.id, world.member.id)  # not shown yet
    assert table.status is Status.CANCELLED
    result = await world.member.click(message, custom_id=op_button(message, "tricks"))
    assert refusal(result) in (
        t("tables.errors.not_playing", lang),
        t("tables.errors.gone", lang),
    )


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_watcher_sees_the_tricks_and_the_swap_where_it_came(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    """Arrastrado: the swap made as the deal ends is a line of the log and the first line
    of Tricks; someone who is not at the table may look too."""
    env = simcord_env
    table_seed(1)
    await open_table(env, world, "arrastrado", [world.member], robots=2)
    table = the_table(env)
    deal = table.deal
    assert deal is not None and deal.exchanges, "seed 1 swaps at the deal"
    (swap,) = deal.exchanges
    event = next(e for e in table.log if e.what is Happened.EXCHANGE)
    assert event.cards == (swap.gave, swap.took) and event.who == table.who_at(swap.seat)
    log = [line for text in layout_texts(table_message(env, world)) for line in text.splitlines()]
    assert f"-# • {log_line(event, 'en', faces_of(env.bot))}" in log
    watcher = await add_member(env, world, "watcher")
    _, text = await tricks_shown(env, world, watcher)
    check_tricks(env, text, "en")
    name = ui.seat_name(table.seats[swap.seat], "en", short=True)
    gave, took = (ui.card_name(c, "en", the=True) for c in (swap.gave, swap.took))
    swapped = t("tables.log.swapped", "en", name=name, card=gave, took=took)
    assert text.splitlines()[2] == t("tables.tricks.between", "en", line=swapped)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    ("seed", "rules", "house", "key"),
    [
        (2, "standard", None, "tables.trump.swapped"),
        (1, "standard", None, "tables.trump.out"),
        (11, "standard", "auto_exchange=false", "tables.trump.may_swap"),
        (1, "online", None, "tables.trump.dealer"),
    ],
    ids=["swapped", "no_swap", "by_hand", "deck_36"],
)
async def test_arrastrado_says_where_the_turned_card_went(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
    seed: int,
    rules: str,
    house: str | None,
    key: str,
    lang: str,
) -> None:
    """The turned card set trumps and then: went to the holder of the trump 7 (or 2), who
    left that card out of play; stays out of play; lies there until the first card for the
    7 (or 2) to take by hand; or is the dealer's last card (36 cards, all dealt)."""
    env = simcord_env
    table_seed(seed)
    await in_language(env, world, set_locale, lang)
    options: dict[str, Any] = {"house": house} if house else {}
    await open_table(env, world, "arrastrado", [world.member], robots=2, rules=rules, **options)
    view = table_view(the_table(env))
    deal = view.deal
    assert deal is not None
    faces = faces_of(env.bot)

    def shown(card: int) -> str:
        return ui.card_shown(card, lang, faces)

    expected = t(
        key,
        lang,
        suit=ui.suit_text(deal.trump, lang),
        card=shown(deal.turned),
        left="" if deal.table_card is None else shown(deal.table_card),
        rank="" if deal.swap_by is None else ui.rank_name(deal.swap_by, lang),
    )
    assert ui.turned_line(deal, lang, faces) == expected
    said = layout_texts(table_message(env, world))
    assert any(expected in text for text in said)
    assert all("out of play:" not in text and "fuera de juego:" not in text for text in said)


def test_a_long_deal_shows_its_newest_tricks_and_counts_the_rest() -> None:
    lines = [("swap", False)]
    for number in range(1, 21):
        lines.append((f"trick {number} " + "x" * 300, True))
        if number % 4 == 0:
            lines.append((f"cante after {number}", False))
    shown, left_out = fitted(lines, room=2000)
    assert shown[-1] == "cante after 20" and shown[0].startswith("trick ")
    assert sum(len(line) + 1 for line in shown) <= 2000
    assert left_out + sum(line.startswith("trick ") for line in shown) == 20
    everything, none = fitted(lines, room=100_000)
    assert none == 0 and everything == [text for text, _ in lines]


@pytest.mark.parametrize("variant", list(Variant))
def test_every_trick_of_a_deal_keeps_within_discords_limits(variant: Variant) -> None:
    """Members of the longest names at every seat, every card a face (an emoji's markup):
    after each trick of a whole deal, the answer keeps within Discord's limits, the newest
    trick last."""
    table = playing_table(variant, seed=2)
    for i, seat in enumerate(table.seats):
        assert seat is not None
        table.seats[i] = Seat(LONG_NAME[: 32 - i] + str(i), user_id=100 + i)
    deal = table.deal
    assert deal is not None
    rng = random.Random(2)
    faces = SomeFaces()
    left_out = 0
    while not deal.finished:
        legal = deal.legal_actions()
        sing = [a for a in legal if a.kind in (Kind.SING, Kind.EXCHANGE)]
        moves = [a for a in legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
        deal.apply(sing[0] if sing else rng.choice(moves))
        if deal.trick or deal.finished:
            continue
        history = deal_history(table)
        for lang in ("en", "es"):
            layout = tricks_layout(table_view(table), history, lang, faces)
            body = {"components": layout.to_components(), "flags": 1 << 15}
            assert list(check_message(body)) == []
            text = "\n".join(
                c.content for c in layout.walk_children() if isinstance(c, discord.ui.TextDisplay)
            )
            assert f"**{history.tricks[-1].number}.**" in text  # the newest, always
            left_out += t("tables.tricks.earlier", lang, count="")[:8] in text
    assert left_out or variant is not Variant.HABANERO, "a long deal leaves the earliest out"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_last_trick_says_who_played_which_card_and_who_took_it(lang: str) -> None:
    table = playing_table(Variant.ARRASTRADO, seed=5)
    table.seats[0] = Seat("*Ana*", user_id=100)
    assert ui.last_trick_line(table_view(table), lang) == ""  # before the first trick
    deal = table.deal
    assert deal is not None
    rng = random.Random(5)
    while not deal.tricks or deal.trick:
        deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind is Kind.PLAY]))
    trick = deal.tricks[-1]
    view = table_view(table)
    seats = [trick.leader]
    while len(seats) < len(trick.cards):
        seats.append(deal.next_seat[seats[-1]])
    names = {0: "\\*Ana\\*", 1: "🤖 " + t("tables.robot_short", lang, number=1)}
    names[2] = "🤖 " + t("tables.robot_short", lang, number=2)
    cards = " · ".join(
        f"{names[s]} {ui.card_text(c, lang)}" for s, c in zip(seats, trick.cards, strict=True)
    )
    points = sum(POINTS[c] for c in trick.cards)
    expected = t(
        "tables.last_trick_line", lang, cards=cards, name=names[trick.winner], points=points
    )
    assert ui.last_trick_line(view, lang) == expected
