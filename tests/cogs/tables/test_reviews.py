"""Reviews in Discord: Review beside Replay (under a deal's summary, and in the replay
itself) answers whoever presses with the judge's review of their own decisions, in their
language, for them alone, with buttons that step to the costliest decisions in the replay;
a second look reads the review kept; a member who did not play the deal is refused in
words; every review keeps Discord's limits."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from bot.engine import Variant, record_of
from bot.i18n import t
from bot.tables.review import review_record
from cogs.tables.replay_buttons import GOES
from cogs.tables.reviews import review_view
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import add_member, buttons, layout_texts, service_of, the_table
from tests.cogs.tables.test_replays import _at, _checked
from tests.conftest import World
from tests.tables.test_review import played

WORLDS = 2
"""Sampled deals a decision is judged on here: a review's work is counted, so a tiny count
is the same review on any machine, only cheaper."""


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("variant", list(Variant))
def test_every_review_keeps_discords_limits(variant: Variant, lang: str) -> None:
    r, seat = played(variant, 6)
    review = review_record(json.dumps(record_of(r)), seat, 123456789, 8, worlds=WORLDS)
    _checked(review_view(review, lang).to_components())


def _text(reply: Any) -> str:
    return "\n".join(layout_texts(reply))


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("es-ES", "es")])
async def test_review_from_a_summary_steps_to_the_costliest_decision_and_is_kept(
    simcord_env: simcord.Env,
    world: World,
    table_seed: Callable[[int], None],
    set_locale: Callable[[str], None],
    locale: str,
    lang: str,
) -> None:
    env = simcord_env
    table_seed(1)
    set_locale(locale)
    service = service_of(env)
    service.reviews.worlds = WORLDS
    alice = world.member
    channel = world.channel
    lobby = (await alice.slash(channel, "tute new", variant="arrastrado", robots="normal")).response
    assert lobby is not None
    robot = next(b.custom_id for b in buttons(lobby) if b.custom_id.endswith(":robot"))
    for _ in range(2):
        await alice.click(lobby, custom_id=robot)
    start = next(b.custom_id for b in buttons(lobby) if b.custom_id.endswith(":start"))
    await alice.click(lobby, custom_id=start)
    table = the_table(env)
    driver = Driver(env, world, [Player(alice)])
    await driver.play()
    message = driver.table_message()
    deal_no = table.deal_no

    (review_id,) = [b.custom_id for b in buttons(message) if b.custom_id.startswith("tute:rv:")]
    assert review_id == f"tute:rv:{table.id}:{deal_no}"
    pressed = await alice.click(message, custom_id=review_id)
    reply = pressed.response
    assert pressed.acknowledged and pressed.ephemeral and reply is not None
    text = _text(reply)
    assert t("review.title", lang, deal=deal_no + 1, id=table.id) in text
    _checked(reply.components)

    # the same review as the judge gives the deal's record, worded in the member's language
    row = await service.db.fetchone(
        "SELECT record FROM deals WHERE table_id = ? AND deal_no = ?", (table.id, deal_no)
    )
    assert row is not None
    seat = table.seat_of(alice.id)
    assert seat is not None
    expected = review_record(str(row[0]), seat, table.id, deal_no, worlds=WORLDS)
    assert f"{round(expected.accuracy)}" in text
    costliest = expected.costliest()
    steps = [b for b in buttons(reply) if b.label.startswith(t("review.btn.step", lang, step=""))]
    assert costliest, "the driver makes at least one costly choice"
    first = costliest[0]
    assert t(f"review.mark.{first.mark.value}", lang) in text
    assert steps[0].label == t("review.btn.step", lang, step=first.step + 1)
    # its button steps to that decision in the replay, in the same message
    stepped = await alice.click(reply, custom_id=steps[0].custom_id)
    shown = stepped.response
    assert stepped.acknowledged and shown is not None and shown.id == reply.id
    assert _at(shown) == first.step + 1
    assert set(GOES.values()) <= {b.label for b in buttons(shown)}
    assert service.reviews.computed == 1

    # a second look reads the review kept: nothing judged again
    again = (await alice.click(message, custom_id=review_id)).response
    assert again is not None and _text(again) == text
    assert service.reviews.computed == 1

    # another member of the server did not play it: refused in words
    bob = await add_member(env, world, "Bob")
    refused = (await bob.click(message, custom_id=review_id)).response
    assert refused is not None and refused.ephemeral
    assert refused.content == t("tables.errors.review_not_played", lang)
