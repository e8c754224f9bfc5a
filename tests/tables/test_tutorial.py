"""The lessons of ``/tute learn``: each deal is the engine's and each robot's play legal;
each step's move is legal by the engine; every other move offered is either refused by the
engine (with its reason) or explained by the lesson; and every word exists in both
languages."""

from __future__ import annotations

import pytest

from bot.engine import CODES, Kind, Variant
from bot.engine.deal import Deal
from bot.engine.dealing import check_deal
from bot.i18n import CATALOGS, LANGUAGES, Language
from bot.tables.codes import encode_action
from bot.tables.errors import TableError
from bot.tables.tutorial import LESSONS, NEXT, Tone, answer, lesson_view, wrong_moves
from bot.tables.tutorial.model import LEARNER, Step, fast_forward, fixed_deal

STEPS = [(n, i) for n, lesson in enumerate(LESSONS) for i in range(len(lesson.steps))]


def _key(n: int, i: int, suffix: str) -> str:
    return f"learn.{LESSONS[n].name}.{i}.{suffix}"


def test_the_course_is_in_the_order_it_is_taught() -> None:
    assert [lesson.name for lesson in LESSONS] == [
        "cards",
        "follow",
        "trumps",
        "cantes",
        "exchange",
        "stock",
        "last_ten",
    ]


@pytest.mark.parametrize("number", range(len(LESSONS)), ids=[x.name for x in LESSONS])
def test_each_lessons_deal_and_script_are_legal(number: int) -> None:
    lesson = LESSONS[number]
    check_deal(lesson.dealt)
    deal = Deal(lesson.dealt)
    for move in lesson.script:
        action = move.expected if isinstance(move, Step) else move
        if action is None:
            continue
        assert deal.refusal(action) is None, (lesson.name, str(action))
        deal.apply(action)


@pytest.mark.parametrize(("number", "step"), STEPS)
def test_each_steps_move_is_legal_and_moves_on(number: int, step: int) -> None:
    lesson = LESSONS[number]
    expected = lesson.steps[step].expected
    view = lesson_view(number, step)
    assert not view.over and view.seat.seat == LEARNER
    if expected is None:
        assert view.reading
        moved = answer(number, step, NEXT)
    else:
        assert expected in view.choices, "the move taught is one of the buttons"
        assert expected.kind is not Kind.PLAY or view.seat.turn == LEARNER
        assert expected in view.seat.legal or expected.kind is not Kind.PLAY
        moved = answer(number, step, encode_action(expected))
        assert moved.said is not None and moved.said.tone is Tone.RIGHT
        assert moved.said.key == _key(number, step, "right")
    assert moved.step == step + 1


@pytest.mark.parametrize(("number", "step"), STEPS)
def test_every_other_move_is_refused_or_explained(number: int, step: int) -> None:
    if LESSONS[number].steps[step].expected is None:
        return
    wrong = wrong_moves(number, step)
    assert wrong or len(lesson_view(number, step).choices) == 1, "something to get wrong"
    for code, said in wrong:
        again = answer(number, step, code)
        assert again.step == step, "a wrong move does not move on"
        if said.tone is Tone.REFUSED:
            assert said.key.startswith("tables.errors.illegal.")
        else:
            assert said.key.startswith(_key(number, step, "wrong"))
        for lang in LANGUAGES:
            assert said.key in CATALOGS[lang], (lang, said.key)


def test_the_engine_says_why_in_the_lessons_on_the_duty() -> None:
    """Not the lesson: the rules refuse these, in the engine's words."""
    follow = dict(wrong_moves(1, 1))
    assert follow["4E"].key == "tables.errors.illegal.must_beat"
    assert follow["2C"].key == "tables.errors.illegal.must_follow"
    trumps = dict(wrong_moves(2, 0))
    assert trumps["2O"].key == "tables.errors.illegal.must_overtrump"
    assert trumps["1O"].tone is Tone.WRONG  # legal: the lesson explains
    cantes = dict(wrong_moves(3, 0))
    assert cantes["sO"].key == "tables.errors.illegal.sing_window"
    assert dict(wrong_moves(3, 2))["sC"].key == "tables.errors.illegal.one_cante"
    assert dict(wrong_moves(3, 1))["sC"].key == _key(3, 1, "wrong.twenty")
    assert dict(wrong_moves(4, 0))["x"].key == "tables.errors.illegal.exchange_before_lead"


def test_the_stock_lesson_is_free_then_full_duty() -> None:
    free = lesson_view(5, 0)
    assert free.seat.stock_left > 0
    assert all(a.kind is not Kind.PLAY or a in free.seat.legal for a in free.choices)
    duty = lesson_view(5, 1)
    assert duty.seat.stock_left == 0
    assert [CODES[c] for _, c in duty.seat.trick] == ["12C"]
    refused = dict(wrong_moves(5, 1))
    assert refused["11C"].key == "tables.errors.illegal.must_beat"


def test_the_last_lesson_ends_with_the_last_ten_and_the_count() -> None:
    over = answer(6, 1, "1O")
    assert over.over and over.last
    result = over.seat.result
    assert result is not None and result.last_trick == 0
    assert result.scores[0] == result.card_points[0] + 10
    assert sum(result.card_points) == 120
    missed = answer(6, 0, "1O")
    assert missed.said is not None and missed.said.key == _key(6, 0, "wrong.ace")


def test_a_step_or_lesson_gone_is_refused_in_words() -> None:
    for number, step in ((len(LESSONS), 0), (0, 99)):
        with pytest.raises(TableError) as refused:
            lesson_view(number, step)
        assert refused.value.key == "learn_gone"
    with pytest.raises(TableError):
        answer(0, len(LESSONS[0].steps), NEXT)
    assert "tables.errors.learn_gone" in CATALOGS["es"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lessons_words_exist(lang: Language) -> None:
    catalog = CATALOGS[lang]
    for number, lesson in enumerate(LESSONS):
        for suffix in ("title", "intro", "done"):
            assert f"learn.{lesson.name}.{suffix}" in catalog
        for step, taught in enumerate(lesson.steps):
            assert _key(number, step, "task") in catalog
            if taught.expected is not None:
                assert _key(number, step, "right") in catalog


def test_a_deal_from_fixed_hands_is_filled_and_checked() -> None:
    dealt = fixed_deal(Variant.HABANERO, dealer=0, hands=["1O", ""], turned="7O", stock="3O")
    check_deal(dealt)
    assert CODES[dealt.stock[0]] == "3O" and len(dealt.hands[1]) == 8
    with pytest.raises(ValueError, match="no plays reach"):
        # the learner cannot keep nine cards while the stock runs out
        fast_forward(dealt, (), {LEARNER: " ".join(CODES[c] for c in dealt.hands[0]) + " 3O"})
