"""Capote and resigning bind the whole deal: their button asks first, only its player
seeing, Yes or No. No leaves everything as it was; Yes makes the declaration."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
import simcord

from bot.ai import Level, choose_action
from bot.engine import Action, SeatView
from bot.i18n import t
from bot.tables.hints import HINT_BUDGET, Ticks
from cogs.tables.layouts import ASK, SURE
from tests.cogs.tables._world import buttons, card_of, hand_buttons, open_table, the_table
from tests.conftest import World
from tests.runtime import robots_play

SEED = 2


def counted_robot(view: SeatView, level: Level, rng: random.Random, budget: float) -> Action | None:
    """The robots' own choice, their thinking counted on the hints' clock, not timed."""
    return choose_action(view, level, rng, HINT_BUDGET, clock=Ticks())


ROBOT_STEP = 5
"""Seconds of SimCord's clock between looks at the table, while the robot plays."""


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_capote_asks_first_and_only_yes_announces_it(
    simcord_env: simcord.Env, world: World, table_seed: Callable[[int], None]
) -> None:
    env = simcord_env
    table_seed(SEED)
    robots_play(counted_robot)  # the same play however busy the machine is
    alice = world.member
    await open_table(env, world, "habanero", [alice], robots=1)
    table = the_table(env)
    deal = table.deal
    assert deal is not None
    seat = table.seat_of(alice.id)
    dm = alice.user.dm_channel
    for _ in range(200):  # to the moment right after the last draw, when capote is offered
        (hand,) = dm.history()
        ask = [b for b in hand_buttons(hand) if b.custom_id.endswith(f":{ASK}k")]
        if ask:
            break
        playable = [b for b in hand_buttons(hand) if not b.disabled and card_of(b) is not None]
        if deal.turn == seat and playable:
            await alice.user.click(hand, custom_id=playable[0].custom_id)
        else:
            await env.advance_time(ROBOT_STEP)
    else:
        raise AssertionError("capote was never offered")
    (capote,) = ask
    assert capote.label == t("hand.capote", "en") and not capote.disabled

    asked = await alice.user.click(hand, custom_id=capote.custom_id)
    question = asked.response
    assert question is not None and question.ephemeral
    assert question.content == t("hand.asked.k", "en")
    yes, no = buttons(question)
    assert yes.custom_id == capote.custom_id.replace(f":{ASK}k", f":{SURE}k")
    assert (yes.label, no.label) == (t("hand.asked.yes.k", "en"), t("tables.btn.keep", "en"))
    before = len(deal.actions)
    assert deal.capote_seat < 0, "asking announces nothing"

    kept = await alice.user.click(question, custom_id=no.custom_id)
    assert kept.response is not None
    assert kept.response.content == t("tables.done.kept", "en")
    assert len(deal.actions) == before and deal.capote_seat < 0

    asked = await alice.user.click(hand, custom_id=capote.custom_id)
    question = asked.response
    assert question is not None
    (yes, _) = buttons(question)
    done = await alice.user.click(question, custom_id=yes.custom_id)
    assert done.response is not None
    assert done.response.content == t("hand.asked.done.k", "en")
    assert deal.capote_seat == seat, "Yes announces it"
    (hand,) = dm.history()
    assert not [b for b in hand_buttons(hand) if b.custom_id.endswith(f":{ASK}k")]
