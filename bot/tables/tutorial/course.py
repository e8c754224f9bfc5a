"""The tutorial as a service: the position of a lesson's step, rebuilt from its script (so a
button needs only the lesson, the step and the move: nothing is kept between clicks), and
the answer to a move. The engine says whether a move is legal and why not; the lesson says
whether it is the move it teaches."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from bot.engine import Action, Kind, SeatView, seat_view
from bot.engine.cards import PAIR_MASK
from bot.engine.deal import Deal
from bot.engine.events import exchange_card

from ..codes import decode_action, encode_action
from ..errors import TableError
from .lessons import LESSONS
from .model import LEARNER, Lesson, Step

NEXT: Final = "n"
"""The code of Next on a page to read, and of the button that opens a lesson."""


class Tone(str, Enum):
    RIGHT = "right"
    WRONG = "wrong"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Said:
    """A word on the learner's last move: ``key`` is the catalog's (for a refusal the
    engine's reason, ``tables.errors.illegal.<code>``), ``params`` fill it (cards and
    suits as ids)."""

    tone: Tone
    key: str
    params: dict[str, int] = field(default_factory=dict[str, int])


@dataclass(frozen=True, slots=True)
class LessonView:
    """One step of a lesson as the learner sees it. ``step`` counts the steps done: equal
    to ``steps`` once the lesson is over. ``seat`` is the learner's view of the deal (their
    hand and what is public), ``choices`` the moves offered as buttons, legal or not: the
    engine answers each. ``reading``: the step is a page to read (the cards, their order and
    points), which Next goes on from. ``said`` answers the move just made."""

    number: int
    lessons: int
    name: str
    step: int
    steps: int
    reading: bool
    seat: SeatView
    choices: tuple[Action, ...]
    said: Said | None = None

    @property
    def over(self) -> bool:
        return self.step >= self.steps

    @property
    def last(self) -> bool:
        return self.number == self.lessons - 1


def lesson_of(number: int) -> Lesson:
    if not 0 <= number < len(LESSONS):
        raise TableError("learn_gone")
    return LESSONS[number]


def _replay(lesson: Lesson, steps_done: int) -> tuple[Deal, Step | None]:
    """The deal after ``steps_done`` of the lesson's steps (each made as it teaches) and the
    robots' plays between them, and the step it waits for (None: the lesson is over)."""
    deal = Deal(lesson.dealt)
    done = 0
    for move in lesson.script:
        if isinstance(move, Action):
            deal.apply(move)
            continue
        if done == steps_done:
            return deal, move
        if move.expected is not None:
            deal.apply(move.expected)
        done += 1
    return deal, None


def _choices(deal: Deal) -> tuple[Action, ...]:
    """Every card in the learner's hand, then the cantes of the pairs they hold unsung and
    the exchange while they hold the card that takes the turned card: offered whether or
    not the rules allow them now, for the engine to say why not."""
    if deal.finished:
        return ()
    hand = deal.hands[LEARNER]
    moves = [Action.play(LEARNER, c) for c in deal.hand(LEARNER)]
    for suit in range(4):
        if hand & PAIR_MASK[suit] == PAIR_MASK[suit] and not deal.sung_mask >> suit & 1:
            moves.append(Action.sing(LEARNER, suit))
    if deal.variant.has_stock and deal.turned >= 0 and not deal.exchanges:
        mine = exchange_card(deal.turned, deal.trump)
        if mine >= 0 and hand >> mine & 1:
            moves.append(Action.simple(LEARNER, Kind.EXCHANGE))
    return tuple(moves)


def lesson_view(number: int, step: int, said: Said | None = None) -> LessonView:
    """Lesson ``number`` at its step ``step`` (past its last: the lesson over)."""
    lesson = lesson_of(number)
    steps = len(lesson.steps)
    if not 0 <= step <= steps:
        raise TableError("learn_gone")
    deal, _ = _replay(lesson, step)
    return LessonView(
        number=number,
        lessons=len(LESSONS),
        name=lesson.name,
        step=step,
        steps=steps,
        reading=step < steps and lesson.steps[step].expected is None,
        seat=seat_view(deal, LEARNER),
        choices=_choices(deal),
        said=said,
    )


def answer(number: int, step: int, code: str) -> LessonView:
    """The learner's move ``code`` at that step: the step done and the robots' replies made,
    with why it was right; or the same step again, with why the rules refuse the move or why
    it misses the lesson's goal."""
    lesson = lesson_of(number)
    deal, waiting = _replay(lesson, step)
    if waiting is None:
        raise TableError("learn_gone")
    key = f"learn.{lesson.name}.{step}"
    if waiting.expected is None:
        return lesson_view(number, step + 1)
    move = decode_action(LEARNER, code)
    if move == waiting.expected:
        return lesson_view(number, step + 1, Said(Tone.RIGHT, f"{key}.right"))
    refused = deal.refusal(move)
    if refused is not None:
        error = TableError.illegal(refused)  # the rules' reason, as a table would say it
        said = Said(Tone.REFUSED, f"tables.errors.{error.key}", error.params)
    else:
        said = Said(Tone.WRONG, f"{key}.{waiting.wrong.get(code, waiting.otherwise)}")
    return lesson_view(number, step, said)


def wrong_moves(number: int, step: int) -> tuple[tuple[str, Said], ...]:
    """Every move offered at the step but the one it teaches, with what the learner is told
    (for the tests, and for anyone checking a lesson's words)."""
    view = lesson_view(number, step)
    found: list[tuple[str, Said]] = []
    for move in view.choices:
        code = encode_action(move)
        said = answer(number, step, code).said
        if said is not None and said.tone is not Tone.RIGHT:
            found.append((code, said))
    return tuple(found)
