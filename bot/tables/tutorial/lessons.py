"""The lessons of ``/tute learn``, in order: each a deal dealt from fixed hands (the default
options of its variant, RULES.md) and its script. The words of each step are the catalog's
``learn.<lesson>.<step>.*``; the tests replay every script through the engine."""

from __future__ import annotations

from typing import Final

from bot.engine import Variant

from .model import LEARNER, Lesson, Move, Step, exchange, fast_forward, fixed_deal, play, sing

HABANERO: Final = Variant.HABANERO
PAIRS: Final = Variant.PAIRS


def _cards() -> Lesson:
    """The cards: their order and points (a page with the deck), then the 3 that beats the
    king."""
    dealt = fixed_deal(HABANERO, dealer=0, hands=["3C 7C 11C 4E 6E 10E 2B 5B", "12C"], turned="5O")
    return Lesson(
        "cards",
        dealt,
        (
            Step(None),
            play(1, "12C"),
            Step(play(LEARNER, "3C"), {"7C": "wrong.low", "11C": "wrong.low"}),
        ),
    )


def _follow() -> Lesson:
    """Following suit and the duty to beat, in pairs: your partner's ace holds the trick, so
    you give it points; then you must beat even your partner's king."""
    dealt = fixed_deal(
        PAIRS,
        dealer=0,
        hands=["12C 2C 1E 4E 3O 5O 7O 10O 11O", "4C 5E", "1C 12E 3E", "5C 10E"],
        turned="6B",
    )
    return Lesson(
        "follow",
        dealt,
        (
            play(1, "4C"),
            play(2, "1C"),
            play(3, "5C"),
            Step(play(LEARNER, "12C"), {"2C": "wrong.low"}),
            play(2, "12E"),
            play(3, "10E"),
            Step(play(LEARNER, "1E")),
            play(1, "5E"),
        ),
    )


def _trumps() -> Lesson:
    """Trumps: with none of the suit led you must trump, and beat a trump on the table; then
    leading the ace of trumps draws the others' trumps (arrastrar)."""
    dealt = fixed_deal(
        PAIRS,
        dealer=0,
        hands=[
            "1O 10O 3E 4E 5B 6B 7B 12B 10B",
            "1C 4O",
            "4C 6O",
            "5O 7O 1E 2E 5E 6E 7E 10E 11E 12E",
        ],
        turned="2O",
    )
    return Lesson(
        "trumps",
        dealt,
        (
            play(1, "1C"),
            play(2, "4C"),
            play(3, "5O"),
            Step(play(LEARNER, "10O"), {"1O": "wrong.ace"}),
            Step(play(LEARNER, "1O"), {"2O": "wrong.low"}),
            play(1, "4O"),
            play(2, "6O"),
            play(3, "7O"),
        ),
    )


def _cantes() -> Lesson:
    """Cantes: sung only after winning a trick, the 40 first, one a trick won."""
    dealt = fixed_deal(
        PAIRS,
        dealer=3,
        hands=["12O 11O 12C 11C 1E 1C 2B 4B 5B 6B", "2E 2C", "4E 4C", "5E 5C"],
        turned="4O",
    )
    return Lesson(
        "cantes",
        dealt,
        (
            Step(play(LEARNER, "1E")),
            play(1, "2E"),
            play(2, "4E"),
            play(3, "5E"),
            Step(sing("O"), {"sC": "wrong.twenty"}, otherwise="wrong.play"),
            Step(play(LEARNER, "1C")),
            play(1, "2C"),
            play(2, "4C"),
            play(3, "5C"),
            Step(sing("C"), otherwise="wrong.play"),
        ),
    )


def _exchange() -> Lesson:
    """The exchange in habanero: win a trick keeping the 7 of trumps, then take the turned
    ace with it before leading."""
    dealt = fixed_deal(
        HABANERO,
        dealer=0,
        hands=["7B 1C 4E 5E 6O 2C 10O 4O", "4C"],
        turned="1B",
        stock="3E 5C",
    )
    return Lesson(
        "exchange",
        dealt,
        (
            play(1, "4C"),
            Step(play(LEARNER, "1C"), {"7B": "wrong.seven"}),
            Step(exchange(), otherwise="wrong.play"),
        ),
    )


def _stock() -> Lesson:
    """The stock in habanero: free play while it lasts, the full duty once it is empty."""
    dealt = fixed_deal(
        HABANERO,
        dealer=0,
        hands=["1E 2C 3C 11C 10B 1C 12B 10O", "4E 12C"],
        turned="6O",
    )
    free: tuple[Move, ...] = (
        play(1, "4E"),
        Step(play(LEARNER, "2C"), {"1E": "wrong.ace", "10O": "wrong.trump"}),
    )
    rest = fast_forward(dealt, free, {LEARNER: "3C 11C 10B", 1: "12C"}, until_cards=None, leader=1)
    return Lesson(
        "stock",
        dealt,
        (*free, *rest, play(1, "12C"), Step(play(LEARNER, "3C"), {"1C": "wrong.ace"})),
    )


def _last_ten() -> Lesson:
    """The last ten: two tricks left, lead the small card so that the ace of trumps takes
    the last trick; then the count of the deal."""
    dealt = fixed_deal(HABANERO, dealer=1, hands=["1O 4C", "3C 2O"], turned="6O")
    before = fast_forward(dealt, (), {LEARNER: "1O 4C", 1: "3C 2O"}, leader=LEARNER)
    return Lesson(
        "last_ten",
        dealt,
        (
            *before,
            Step(play(LEARNER, "4C"), {"1O": "wrong.ace"}),
            play(1, "3C"),
            play(1, "2O"),
            Step(play(LEARNER, "1O")),
        ),
    )


LESSONS: Final[tuple[Lesson, ...]] = (
    _cards(),
    _follow(),
    _trumps(),
    _cantes(),
    _exchange(),
    _stock(),
    _last_ten(),
)
"""The course, in the order it is taught; a button names a lesson by its place here."""
