"""The Hint button: in a hand at a table that is not competitive, on its player's turn, in
the DM and in the hand opened with My hand, within Discord's limits; clicked, one line only
its player sees, and asked again, the same line, counted once; clicked in a DM that reached
a process without the table, asked of the one holding it (``Cluster.forward_hint``; the
holder's side is tested in tests/tables/test_cluster.py). None at a competitive table (the
service refuses a forged click: ``tests/tables/test_hints.py``); the count of hints beside
each player in the result."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import discord
import pytest
import simcord

from bot.engine import Kind, Options, Variant, seat_view
from bot.i18n import LANGUAGES, t
from bot.tables.errors import SaveFailed, TableError
from bot.tables.hints import Hint, hint_action, reason
from bot.tables.model import Status
from bot.tables.views import hand_view, table_view
from bot.words import card_name, hint_line
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


HINT_BUDGET = 0.02
"""The hint's budget in its counted clock's seconds: a few sampled deals."""


async def dm_hint(
    env: simcord.Env, world: World
) -> tuple[simcord.MemberActor, discord.Message, str]:
    """Ana's friendly table, on her turn: Ana, her DM hand and its Hint button's id."""
    member = await add_member(env, world, "Ana")
    service_of(env).hints.budget = HINT_BUDGET
    await open_table(env, world, "habanero", [member], competitive=False)
    table = the_table(env)
    assert not table.options.competitive
    deal = table.deal
    assert deal is not None and deal.turn == table.seat_of(member.id)
    message = await dm_hand(env, member)
    (hint_id,) = [b.custom_id for b in buttons(message) if b.custom_id.endswith(":hint")]
    return member, message, hint_id


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
    member, message, hint_id = await dm_hint(env, world)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
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


def test_a_deal_summary_says_the_hints_apart_from_the_points() -> None:
    table = in_play()
    summary = table.summary
    assert summary is not None
    occupant = table.seats[0]
    assert occupant is not None
    occupant.hints = 3
    for lang in LANGUAGES:
        lines = ui.summary_lines(table_view(table), summary, lang)
        assert not any("💡" in line for line in lines)
        item = t("hints.result_item", lang, name="Alicia", count=3)
        assert item in hints_line(table_view(table), lang)


def held_elsewhere(env: simcord.Env) -> Hint:
    """The table is another process's now (this one plays shard 0 of 2): the hint its
    holder would answer to the member on turn."""
    cluster = env.bot.cluster  # type: ignore[attr-defined]
    cluster.shard_count, cluster.shards = 2, frozenset({0})
    table = service_of(env).tables.pop(the_table(env).id)
    deal = table.deal
    assert deal is not None
    view = seat_view(deal, deal.turn)
    return replace(reason(view, hint_action(view, HINT_BUDGET)), counted=True)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_dm_hint_for_a_table_held_elsewhere_is_asked_of_its_holder(
    simcord_env: simcord.Env,
    world: World,
    set_locale: Callable[[str], None],
    table_seed: Callable[[int], None],
) -> None:
    env = simcord_env
    table_seed(4)
    set_locale("es-ES")
    member, message, hint_id = await dm_hint(env, world)
    table_id = the_table(env).id
    answer = held_elsewhere(env)
    asked: list[tuple[int, int]] = []

    async def forward_hint(table_id: int, user_id: int) -> Hint:
        asked.append((table_id, user_id))
        return answer

    env.bot.cluster.forward_hint = forward_hint  # type: ignore[attr-defined]
    result = await member.user.click(message, custom_id=hint_id)

    assert asked == [(table_id, member.id)]
    assert result.acknowledged and result.ephemeral and result.response is not None
    assert result.response.content == hint_line(answer, "es")  # worded here, for the clicker


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize(
    ("refusal", "key"),
    [
        (TableError("hint_not_your_turn"), "tables.errors.hint_not_your_turn"),
        (SaveFailed(), "tables.errors.hint_late"),  # no answer in time: ask again
    ],
)
async def test_the_holders_refusal_of_a_hint_reaches_the_member(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    refusal: TableError,
    key: str,
) -> None:
    env = simcord_env
    table_seed(4)
    member, message, hint_id = await dm_hint(env, world)
    held_elsewhere(env)

    async def refuse(table_id: int, user_id: int) -> Hint:
        raise refusal

    env.bot.cluster.forward_hint = refuse  # type: ignore[attr-defined]
    result = await member.user.click(message, custom_id=hint_id)

    assert result.acknowledged and result.ephemeral and result.response is not None
    assert result.response.content == t(key, "en")  # the "thinking" answer, in words
