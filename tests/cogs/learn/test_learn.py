"""``/tute learn`` on Discord: the first lesson goes to the member's DMs (here, for them
alone, where DMs are closed; as the answer in a DM with the bot, never for all to see in a
DM between members); every step of every lesson can be walked by clicking, in English and
in Spanish, a wrong move answered with why and the right one moving on; the buttons work
after a restart; and every step keeps Discord's limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions

from bot.config import Config
from bot.i18n import LANGUAGES, t
from bot.tables.codes import encode_action
from bot.tables.tutorial import LESSONS, NEXT, answer, lesson_view, wrong_moves
from cogs.learn import commands
from cogs.learn.buttons import OPEN
from cogs.learn.layout import PICTURE_FILE, lesson_layout, picture_file, said_text
from tests.cogs._said import components
from tests.cogs.tables._faults import FAULTS, inject
from tests.cogs.tables._world import buttons, layout_texts
from tests.conftest import World, fast_bot
from tests.discord_limits import ALT_TEXT, BUTTON_LABEL, CUSTOM_ID, IS_COMPONENTS_V2, check_message

OWNER = 1456074443980800048
"""A member's id as Discord makes them (the longest a custom_id carries)."""
TEXT_LIMIT = 4000
"""Characters Discord allows in all the text displays of a message."""
COMPONENT_LIMIT = 40
"""Components Discord allows in a message, nested ones counted."""

Message = Any


def _checked(view: Any) -> None:
    rows = view.to_components()
    assert not list(check_message({"components": rows, "flags": IS_COMPONENTS_V2}))
    found = components(rows)
    assert sum(len(c.get("content") or "") for c in found if c.get("type") == 10) <= TEXT_LIMIT
    assert len(found) <= COMPONENT_LIMIT
    for c in found:
        assert len(c.get("custom_id") or "") <= CUSTOM_ID
        assert len(c.get("label") or "") <= BUTTON_LABEL


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_and_answer_keeps_discords_limits(lang: str) -> None:
    for number, lesson in enumerate(LESSONS):
        for step in range(len(lesson.steps) + 1):
            views = [lesson_view(number, step)]
            if step < len(lesson.steps):
                views += [answer(number, step, code) for code, _ in wrong_moves(number, step)]
            for view in views:
                _checked(lesson_layout(view, lang, t("learn.dms_closed", lang), owner=OWNER))
                file = picture_file(view, lang)
                assert file.filename == PICTURE_FILE
                assert file.description is not None and len(file.description) <= ALT_TEXT


def _text(message: Message) -> str:
    return "\n".join(layout_texts(message))


def _button(message: Message, end: str) -> str:
    """The button whose custom_id, less its owner, ends so."""
    (found,) = [
        b.custom_id for b in buttons(message) if b.custom_id.rpartition(":")[0].endswith(end)
    ]
    return found


async def _click(user: Any, message: Message, custom_id: str) -> Message:
    result = await user.click(message, custom_id=custom_id)
    assert result.acknowledged
    shown = result.response
    assert shown is not None and shown.id == message.id
    assert [a.filename for a in shown.attachments] == [PICTURE_FILE]
    return shown


async def _walk(user: Any, shown: Message, lang: str) -> Message:
    """Every step of every lesson: a wrong move first (its word shown, the step the same),
    then the right one (why, and the next step); then on to the next lesson."""
    for number, lesson in enumerate(LESSONS):
        title = t(f"learn.{lesson.name}.title", lang)
        assert title in _text(shown)
        for step, taught in enumerate(lesson.steps):
            here = f"tute:learn:{lang}:{number}:{step}:"
            mine = f":{user.id}"
            if taught.expected is None:
                shown = await _click(user, shown, here + NEXT + mine)
                continue
            wrong = wrong_moves(number, step)
            if wrong:
                code, said = wrong[0]
                shown = await _click(user, shown, here + code + mine)
                assert said_text(said, lang) in _text(shown)
                assert any(b.custom_id.startswith(here) for b in buttons(shown))
            shown = await _click(user, shown, here + encode_action(taught.expected) + mine)
            assert t(f"learn.{lesson.name}.{step}.right", lang) in _text(shown)
        assert t(f"learn.{lesson.name}.done", lang) in _text(shown)
        if number + 1 < len(LESSONS):
            shown = await _click(user, shown, _button(shown, f":{number + 1}:0:{OPEN}"))
    return shown


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("es-ES", "es")])
async def test_a_newcomer_walks_the_whole_course_in_their_dms(
    world: World, set_locale: Callable[[str], None], locale: str, lang: str
) -> None:
    set_locale(locale)
    alice = world.member
    asked = await alice.slash(world.channel, "tute learn")
    assert asked.ephemeral and asked.response is not None
    assert asked.response.content.startswith(t("learn.sent", lang, link="").strip())
    (first,) = alice.user.dm_channel.history()
    assert t("learn.cards.intro", lang) in _text(first)
    assert [a.filename for a in first.attachments] == [PICTURE_FILE]
    last = await _walk(alice.user, first, lang)
    assert t("learn.course_done", lang) in _text(last)
    again = await _click(alice.user, last, _button(last, f":0:0:{OPEN}"))
    assert t("learn.cards.intro", lang) in _text(again)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_with_dms_closed_the_lesson_comes_here_for_the_member_alone(
    simcord_env: simcord.Env, world: World
) -> None:
    alice = world.member
    dm = alice.user.dm_channel
    inject(simcord_env, "POST", f"/channels/{dm.id}/messages", FAULTS["closed-dm"])
    asked = await alice.slash(world.channel, "tute learn")
    shown = asked.response
    assert asked.ephemeral and shown is not None
    assert t("learn.dms_closed", "en") in _text(shown)
    assert not dm.history()
    moved = await _click(alice, shown, f"tute:learn:en:0:0:{NEXT}:{alice.id}")
    assert t("learn.cards.1.task", "en") in _text(moved)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_in_a_dm_the_lesson_is_the_answer_its_buttons_outlive_a_restart(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    user = world.member.user
    asked = await user.slash("tute learn")
    shown = asked.response
    assert shown is not None and not asked.ephemeral
    assert t("learn.cards.intro", "en") in _text(shown)
    await simcord_env.restart_bot(fast_bot(test_config))
    moved = await _click(user, shown, f"tute:learn:en:0:0:{NEXT}:{user.id}")
    assert t("learn.cards.1.task", "en") in _text(moved)
    # straight to a lesson chosen
    last = len(LESSONS) - 1
    chosen = (await user.slash("tute learn", lesson=last)).response
    assert chosen is not None
    assert t(f"learn.{LESSONS[last].name}.0.task", "en") in _text(chosen)


class AnswerFirst:
    """The lessons' drawer, swapped for one that notes, as each picture starts, whether
    Discord already had the interaction's answer (its callback). A cold picture takes most of
    a second (``benchmarks/lessons.py``); drawn before the answer, a slow machine would miss
    Discord's 3 seconds and the member would read "This interaction failed"."""

    def __init__(self, env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
        self.env = env
        self.cursor = len(env.http_requests)
        self.answered_first: list[bool] = []
        draw = commands.picture_file

        def drawer(view: Any, lang: str) -> Any:
            self.answered_first.append(
                any(r.path.endswith("/callback") for r in env.http_requests[self.cursor :])
            )
            return draw(view, lang)

        monkeypatch.setattr(commands, "picture_file", drawer)

    def next(self) -> None:
        """The next interaction: its answer is looked for from here on."""
        self.cursor = len(self.env.http_requests)


def _between_members(monkeypatch: pytest.MonkeyPatch) -> None:
    """What Discord says of a command in a DM between two members (a user-installed app):
    its context is a private channel (2), not the DM with the bot (1), though discord.py
    gives a ``DMChannel`` for both (SimCord has no such DM: the member's own stands in)."""
    build = sim_interactions.base_payload

    def private_channel(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(*args, **kwargs)
        if record.guild_id is None:
            payload["context"] = 2
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", private_channel)


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_lesson_is_answered_before_its_picture_is_drawn(
    simcord_env: simcord.Env, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = AnswerFirst(simcord_env, monkeypatch)
    user = world.member.user
    asked = await user.slash("tute learn")
    shown = asked.response
    assert shown is not None and t("learn.cards.intro", "en") in _text(shown)
    assert [a.filename for a in shown.attachments] == [PICTURE_FILE]
    first.next()
    moved = await _click(user, shown, f"tute:learn:en:0:0:{NEXT}:{user.id}")
    assert t("learn.cards.1.task", "en") in _text(moved)
    assert first.answered_first == [True, True], "the command, then the click"


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_in_a_dm_between_members_the_lesson_is_for_the_member_alone(
    simcord_env: simcord.Env, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked in a DM with a friend, the lesson is not answered there for both to see: it
    goes to the member's DMs with the bot, the answer (for them alone) linking to it; where
    Discord refuses that DM, it comes for them alone, saying why."""
    _between_members(monkeypatch)
    alice = world.member
    dm = alice.user.dm_channel
    asked = await alice.user.slash("tute learn")
    assert asked.ephemeral and asked.response is not None, "nothing the friend sees"
    assert asked.response.content.startswith(t("learn.sent", "en", link="").strip())
    assert t("learn.cards.intro", "en") in _text(dm.history()[-1])

    inject(simcord_env, "POST", f"/channels/{dm.id}/messages", FAULTS["closed-dm"])
    again = await alice.user.slash("tute learn")
    shown = again.response
    assert again.ephemeral and shown is not None
    assert t("learn.here_alone", "en") in _text(shown)
    assert t("learn.cards.intro", "en") in _text(shown)
