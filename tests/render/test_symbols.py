"""Card codes, suit symbols and button labels."""

import pytest

from bot.render.symbols import (
    ALL_CARDS,
    RANKS,
    SUIT_COLOURS,
    SUIT_SYMBOLS,
    SUITS,
    card_label,
    normalize_code,
    split_code,
)


def test_the_deck_has_forty_distinct_cards() -> None:
    assert len(ALL_CARDS) == 40
    assert len(set(ALL_CARDS)) == 40
    assert {split_code(c)[1] for c in ALL_CARDS} == set(SUITS)
    assert {split_code(c)[0] for c in ALL_CARDS} == set(RANKS)


@pytest.mark.parametrize(
    ("code", "expected"),
    [("1O", (1, "O")), ("12b", (12, "B")), (" 7e ", (7, "E")), ("10C", (10, "C"))],
)
def test_split_code(code: str, expected: tuple[int, str]) -> None:
    assert split_code(code) == expected


@pytest.mark.parametrize(
    "code", ["", "O", "8O", "9C", "13B", "0E", "1X", "01O", "1 O", "+1O", "\uff11O"]
)
def test_split_code_refuses_what_is_not_a_card(code: str) -> None:
    with pytest.raises(ValueError, match="not a card code"):
        split_code(code)


def test_normalize_code_upper_cases() -> None:
    assert normalize_code("11c") == "11C"


def test_every_suit_has_a_symbol_and_a_colour() -> None:
    assert set(SUIT_SYMBOLS) == set(SUITS)
    assert set(SUIT_COLOURS) == set(SUITS)
    assert len(set(SUIT_SYMBOLS.values())) == 4


def test_card_label_is_rank_and_symbol() -> None:
    assert card_label("1o") == "1" + SUIT_SYMBOLS["O"]
    assert card_label("12E") == "12" + SUIT_SYMBOLS["E"]
