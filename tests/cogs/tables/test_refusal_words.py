"""Every refusal the rules can give is said in words, in English and Spanish, naming the
rule that refuses it (not a bare "not now")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine import Action, Options, SingUntil, Variant, parse_card
from bot.engine import refusals as refusals_module
from bot.i18n import CATALOGS, Language
from bot.tables.errors import TableError
from cogs.tables.embeds import refusal_text
from tests.engine.helpers import build, play

SOURCE = Path(refusals_module.__file__).read_text()
CODES = set(re.findall(r'_why\(\s*"([a-z_]+)"', SOURCE))
CODES |= set(re.findall(r'IllegalActionError\(\s*"([a-z_]+)"', SOURCE))


def test_the_codes_are_found() -> None:
    assert {"forty_first", "one_swap", "sing_window_trick", "must_trump"} <= CODES


@pytest.mark.parametrize("code", sorted(CODES))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_refusal_has_its_words(code: str, lang: Language) -> None:
    key = f"tables.errors.illegal.{code}"
    assert key in CATALOGS[lang]
    params = {"card": parse_card("7O"), "beat": parse_card("3O"), "suit": 1, "seat": 0}
    text = refusal_text(f"illegal.{code}", params, lang)
    assert "{" not in text and text.endswith(".")


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "until the next trick is complete"), ("es", "hasta que se complete la siguiente")],
)
def test_a_cante_refused_names_the_rule(lang: str, words: str) -> None:
    """Seat 1 won the first trick, then lost the second: at a table that sings until the
    next trick ends, the refusal says so."""
    options = Options(sing_until=SingUntil.NEXT_TRICK)
    hands = {1: "1E 12C 11C 2B", 0: "2E 4E 5E 6E 7E 1B 4B 5B"}
    r = build(Variant.HABANERO, hands, "4O", dealer=0, options=options)
    play(r, "1E", "2E", "2B", "1B")
    refused = r.refusal(Action.sing(1, 1))
    assert refused is not None
    error = TableError.illegal(refused)
    assert words in refusal_text(error.key, error.params, lang)
