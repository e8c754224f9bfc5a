"""Numbers that come from outside: a page's message, a button's custom_id, a command's option,
a form a member typed in. Only ASCII digits count (``str.isdigit`` also takes ``²`` and
other digits ``int`` refuses), and nothing past what the database holds (a 64-bit signed
integer: SQLite and PostgreSQL refuse more with an error, not an answer)."""

from __future__ import annotations

from typing import Final

MAX_NUMBER: Final = 2**63 - 1
"""The largest number the database holds (SQLite's INTEGER, PostgreSQL's bigint)."""
_MAX_DIGITS: Final = len(str(MAX_NUMBER))


def parse_number(value: object, *, maximum: int = MAX_NUMBER) -> int | None:
    """``value`` as a number from 0 to ``maximum``: an int (a JSON number), or a string of
    ASCII digits; None for anything else (a float, a sign, a space, a Unicode digit, too
    many digits)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif (
        isinstance(value, str)
        and 0 < len(value) <= _MAX_DIGITS
        and value.isascii()
        and value.isdigit()
    ):
        number = int(value)
    else:
        return None
    return number if 0 <= number <= min(maximum, MAX_NUMBER) else None
