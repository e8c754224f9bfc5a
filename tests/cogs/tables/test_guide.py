"""``/tute rules``: a short guide of each variant, a page at a time. It opens on a variant
(or on a menu of them), its pages turn forward and back with ◀ and ▶, the first shows the
picture of the cards, it speaks the user's language, its buttons still turn pages after a
restart (and an unknown one says it has expired), and every page keeps Discord's limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from simcord.components import COMPONENTS_V2_FLAG, validate_message_state

from bot.engine import Options, Variant
from bot.engine.cards import RANK_POINTS
from bot.engine.deal import LAST_TRICK_BONUS
from bot.i18n import t
from cogs.tables.guide import (
    GUIDE_FILE,
    NEXT,
    PICK_ID,
    PREVIOUS,
    GuidePage,
    page_layout,
    pick_layout,
)
from cogs.tables.guide_pages import deck_total, guide_pages, points_text
from tests.cogs._said import components
from tests.cogs.tables._world import buttons, layout_texts
from tests.conftest import World, fast_bot

TEXT_LIMIT = 4000
"""Characters Discord allows in all the text displays of a message."""
COMPONENT_LIMIT = 40
"""Components Discord allows in a message, nested ones counted."""
CUSTOM_ID_LIMIT = 100

Reply = simcord.ResponseMessage


def _count(rows: list[dict[str, Any]]) -> int:
    return len(components(rows))


def _checked(rows: list[dict[str, Any]]) -> None:
    """A message Discord takes: SimCord's validator, then the limits on texts, components
    and custom ids."""
    validate_message_state(
        rows, flags=COMPONENTS_V2_FLAG, content=None, embeds=[], require_nonempty=True
    )
    found = components(rows)
    texts = sum(len(c.get("content") or "") for c in found if c.get("type") == 10)
    assert texts <= TEXT_LIMIT
    assert len(found) <= COMPONENT_LIMIT
    assert all(len(c.get("custom_id") or "") <= CUSTOM_ID_LIMIT for c in found)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("variant", list(Variant))
def test_every_page_keeps_discords_limits(variant: Variant, lang: str) -> None:
    pages = guide_pages(variant, lang)
    assert 5 <= len(pages) <= 9
    for number, page in enumerate(pages):
        view, files = page_layout(variant, number, lang)
        _checked(view.to_components())
        assert [f.filename for f in files] == ([GUIDE_FILE] if page.picture else [])
        assert page.picture == (number == 0)
        # a phone reads a page without scrolling far
        assert sum(len(p) for p in page.paragraphs) <= 1800, (variant, number)
    _checked(pick_layout(lang).to_components())


@pytest.mark.parametrize(("lang", "command"), [("en", "/tute learn"), ("es", "/tute aprender")])
def test_the_first_page_points_a_newcomer_to_the_course(lang: str, command: str) -> None:
    texts = [str(getattr(c, "content", "")) for c in pick_layout(lang).walk_children()]
    assert f"-# {t('guide.learn', lang, command=command)}" in "\n".join(texts)


def test_the_guide_says_what_the_engine_plays() -> None:
    """The points, the deck's total, the last trick and the target come from the engine."""
    points = points_text("en")
    assert points.startswith(f"Ace {RANK_POINTS[1]}, 3 {RANK_POINTS[3]}, King {RANK_POINTS[12]}")
    assert f"Jack {RANK_POINTS[10]}" in points and "Knave" not in points
    (goal, *_) = guide_pages(Variant.HABANERO, "en")
    said = "\n".join(goal.paragraphs)
    assert f"{deck_total()} in the deck" in said and deck_total() == 120
    assert f"{LAST_TRICK_BONUS} more for the last trick" in said
    assert str(Options().target) in said
    arrastrado = "\n".join(
        p for page in guide_pages(Variant.ARRASTRADO, "en") for p in page.paragraphs
    )
    assert "13 cards each (12 with the 36-card deck)" in arrastrado
    assert "101 to 230 points" in arrastrado


def _page_text(reply: Reply) -> str:
    return "\n".join(layout_texts(reply))


def _button(reply: Reply, label: str) -> str:
    (found,) = [b.custom_id for b in buttons(reply) if b.label == label]
    return found


def _counter(reply: Reply) -> str:
    (counter,) = [b.label for b in buttons(reply) if b.custom_id.endswith(":at")]
    return counter


async def _turn(member: simcord.MemberActor, reply: Reply, label: str) -> Reply:
    result = await member.click(reply, custom_id=_button(reply, label))
    assert result.acknowledged
    turned = result.response
    assert turned is not None and turned.id == reply.id
    return turned


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize("variant", list(Variant))
async def test_each_variants_guide_opens_and_its_pages_turn(world: World, variant: Variant) -> None:
    alice = world.member
    reply = (await alice.slash(world.channel, "tute rules", variant=variant.value)).response
    assert reply is not None and reply.ephemeral
    pages = guide_pages(variant, "en")
    title = t(f"variants.{variant.value}", "en")
    assert _page_text(reply).startswith(f"### {title}\n**{pages[0].title}**")
    assert [a.filename for a in reply.attachments] == [GUIDE_FILE]
    assert reply.attachments[0].description.startswith("The cards of coins")  # type: ignore[union-attr]
    assert _counter(reply) == f"1/{len(pages)}"
    assert next(b for b in buttons(reply) if b.label == PREVIOUS).disabled

    shown = reply
    for number in range(1, len(pages)):
        shown = await _turn(alice, shown, NEXT)
        assert _counter(shown) == f"{number + 1}/{len(pages)}"
        assert f"**{pages[number].title}**" in _page_text(shown)
        assert shown.attachments == []  # the picture is the first page's
    assert next(b for b in buttons(shown) if b.label == NEXT).disabled
    for number in reversed(range(len(pages) - 1)):
        shown = await _turn(alice, shown, PREVIOUS)
        assert _counter(shown) == f"{number + 1}/{len(pages)}"
    assert [a.filename for a in shown.attachments] == [GUIDE_FILE]
    _checked(shown.components)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_without_a_variant_a_menu_opens_the_one_chosen(world: World) -> None:
    alice = world.member
    reply = (await alice.slash(world.channel, "tute rules")).response
    assert reply is not None and reply.ephemeral and not reply.attachments
    text = _page_text(reply)
    assert text.startswith(f"### {t('guide.title', 'en')}")
    assert all(t(f"variants.{v.value}", "en") in text for v in Variant)
    assert not buttons(reply)
    chosen = await alice.select(reply, ["arrastrado"], custom_id=PICK_ID)
    shown = chosen.response
    assert shown is not None and shown.id == reply.id
    assert _page_text(shown).startswith(f"### {t('variants.arrastrado', 'en')}")
    assert [a.filename for a in shown.attachments] == [GUIDE_FILE]
    # the menu stays, to switch variant
    other = (await alice.select(shown, ["pairs"], custom_id=PICK_ID)).response
    assert other is not None
    assert _page_text(other).startswith(f"### {t('variants.pairs', 'en')}")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_guide_speaks_spanish(world: World, set_locale: Callable[[str], None]) -> None:
    set_locale("es-ES")
    alice = world.member
    reply = (await alice.slash(world.channel, "tute rules", variant="habanero")).response
    assert reply is not None
    text = _page_text(reply)
    assert t("guide.page_title.goal", "es") in text and "sota" in text and "Jack" not in text
    assert reply.attachments[0].description.startswith("Las cartas de oros")  # type: ignore[union-attr]
    shown = await _turn(alice, reply, NEXT)
    assert "**La obligación.**" in _page_text(shown)
    menu = next(c for c in components(shown.components) if c.get("custom_id") == PICK_ID)
    assert menu["placeholder"] == t("guide.pick_placeholder", "es")


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_the_pages_turn_after_a_restart_and_an_old_button_says_it_expired(
    simcord_env: simcord.Env, world: World, test_config: Any
) -> None:
    env = simcord_env
    alice = world.member
    reply = (await alice.slash(world.channel, "tute rules", variant="pairs")).response
    assert reply is not None
    await env.restart_bot(fast_bot(test_config))
    shown = await _turn(alice, reply, NEXT)
    assert _counter(shown).startswith("2/")

    # a button of a format gone by (no page in its id)
    old = discord.ui.LayoutView(timeout=None)
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(GuidePage("", "", NEXT, rest="habanero"))
    old.add_item(discord.ui.Container(discord.ui.TextDisplay("Tute"), row))
    channel = env.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send(view=old)
    stale = await alice.click(message, custom_id="tute:guide:habanero")
    answer = stale.response
    assert stale.ephemeral and answer is not None
    assert answer.content == t("guide.expired", "en")
