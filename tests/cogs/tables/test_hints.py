"""The Hint button: in a hand at a table that is not competitive, on its player's turn, in
the DM and in the hand opened with My hand, within Discord's limits; clicked, one line only
its player sees, and asked again, the same line, counted once. None at a competitive table
(the service refuses a forged click: ``tests/tables/test_hints.py``); the count of hints
beside each player in the result."""

from __future__ import annotations

import random
from collections.abc import Callable

import discord
import pytest
import simcord

from bot.engine import Kind, Options, Variant
from bot.i18n import LANGUAGES, t
from bot.tables.model import Status
from bot.tables.views import hand_view, table_view
from bot.web.words import card_name
from cogs.tables import embeds as ui
from cogs.tables import messages
from cogs.tables.hints import hints_line
from cogs.tables.places import Place
from tests.cogs.tables._world import (
    add_member,
    buttons,
    dm_place,
    open_table,
    service_of,
    the_table,
)
from tests.cogs.tables.test_views_rendered import buttons_of, play_on, playing_table
from tests.conftest import World
from tests.discord_limits import IS_COMPONENTS_V2, check_message
from tests.tables.test_state_json import in_play


def hint_ids(view: discord.ui.LayoutView) -> list[str]:
    ids = [str(getattr(b, "custom_id", "")) for b in buttons_of(view)]
    return [i for i in ids if i.endswith(":hint")]


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
@pytest.mark.parametrize("competitive", [False, True])
def test_the_hint_button_only_at_a_friendly_table_on_its_turn(
    variant: Variant, competitive: bool
) -> None:
    """Through a deal played at random, the hand of seat 0 in each language, in the DMs and
    opened with My hand: a Hint button exactly on its turn at a friendly table, and the
    message within the limits of layout components."""
    table = playing_table(variant, seed=3, options=Options(competitive=competitive))
    rng = random.Random(5)
    deal = table.deal
    assert deal is not None
    offered = 0
    while not deal.finished:
        hand = hand_view(table, 0)
        for lang in LANGUAGES:
            for ephemeral in (False, True):
                view = messages.hand_payload(table_view(table), hand, lang, ephemeral=ephemeral)
                body = {"components": view["view"].to_components(), "flags": IS_COMPONENTS_V2}
                assert not list(check_message(body))
                ids = hint_ids(view["view"])
                assert ids == (["tute:t:7:hint"] if hand.hint else [])
        assert hand.hint == (hand.your_turn and not competitive)
        offered += hand.hint
        play_on(table, 1, rng)
    assert offered or competitive


def test_the_result_names_the_hints_each_player_asked_for() -> None:
    table = playing_table(Variant.HABANERO, options=Options(competitive=False))
    table.status = Status.FINISHED
    occupant = table.seats[0]
    assert occupant is not None
    for lang in LANGUAGES:
        assert hints_line(table_view(table), lang) == ""
    occupant.hints = 2
    for lang in LANGUAGES:
        table.language = lang
        line = hints_line(table_view(table), lang)
        assert line == t(
            "hints.result", lang, items=t("hints.result_item", lang, name="ana", count=2)
        )
        view = messages.table_payload(table_view(table), Place(7, 2))["view"]
        assert line in [getattr(item, "content", "") for item in view.walk_children()]


async def dm_hand(env: simcord.Env, member: simcord.MemberActor) -> discord.Message:
    table = the_table(env)
    seat = table.seat_of(member.id)
    assert seat is not None
    place = dm_place(table, seat)
    return next(m for m in member.user.dm_channel.history() if m.id == place.dm_message_id)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_hint_clicked_in_the_dm_answers_one_line_and_counts_it(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
) -> None:
    env = simcord_env
    table_seed(4)
    set_locale("en-US")
    member = await add_member(env, world, "Ana")
    service_of(env).hints.budget = 0.02
    await open_table(env, world, "habanero", [member], competitive=False)
    table = the_table(env)
    assert not table.options.competitive
    deal = table.deal
    assert deal is not None and deal.turn == table.seat_of(member.id)
    message = await dm_hand(env, member)
    (hint_id,) = [b.custom_id for b in buttons(message) if b.custom_id.endswith(":hint")]
    result = await member.user.click(message, custom_id=hint_id)
    reply = result.response
    assert result.acknowledged and result.ephemeral and reply is not None
    line = reply.content
    assert line.startswith("💡") and "\n" not in line
    legal = [a for a in deal.legal_actions() if a.seat == deal.turn]
    plays = {a.arg for a in legal if a.kind is Kind.PLAY}
    assert any(
        t("hints.do.play", "en", card=card_name(c, "en", the=True)) in line for c in plays
    ) or any(a.kind is not Kind.PLAY for a in legal)
    occupant = table.seats[deal.turn]
    assert occupant is not None and occupant.hints == 1
    again = await member.user.click(message, custom_id=hint_id)
    assert again.response is not None
    assert again.response.content == line + t("hints.again", "en")
    assert occupant.hints == 1


def test_a_deal_summary_marks_the_hints_beside_the_player() -> None:
    table = in_play()
    summary = table.summary
    assert summary is not None
    occupant = table.seats[0]
    assert occupant is not None
    occupant.hints = 3
    for lang in LANGUAGES:
        lines = ui.summary_lines(table_view(table), summary, lang)
        mark = t("hints.mark", lang, count=3)
        assert any(f"Alicia {mark}" in line for line in lines)
        assert not any(f"Bernardo {mark}" in line for line in lines)
