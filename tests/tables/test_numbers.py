"""A number from outside is ASCII digits (or a JSON int) within what the database holds;
anything else is None, for the caller to refuse in words."""

from __future__ import annotations

import pytest

from bot.tables.numbers import MAX_NUMBER, parse_number


@pytest.mark.parametrize(
    ("value", "number"),
    [("0", 0), ("42", 42), (7, 7), (str(MAX_NUMBER), MAX_NUMBER), (MAX_NUMBER, MAX_NUMBER)],
)
def test_ascii_digits_and_ints_within_the_database_are_numbers(value: object, number: int) -> None:
    assert parse_number(value) == number


@pytest.mark.parametrize(
    "value",
    [
        "",
        "²",
        "1²",
        "٣",
        "\uff11",  # a fullwidth one
        "-1",
        "+1",
        " 1",
        "1_000",
        str(MAX_NUMBER + 1),
        "9" * 5000,
        MAX_NUMBER + 1,
        -1,
        True,
        1.0,
        float("inf"),
        None,
        [1],
    ],
)
def test_anything_else_is_none(value: object) -> None:
    assert parse_number(value) is None


def test_a_smaller_bound_is_kept() -> None:
    assert parse_number("10", maximum=10) == 10
    assert parse_number("11", maximum=10) is None
