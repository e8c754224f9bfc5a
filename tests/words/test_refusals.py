"""One sentence builder for a refusal (:func:`bot.words.refusal_text`): the chat, the card
table and the lessons say it alike, but for a suit's symbol (the page draws its suits) and a
name a member typed (the chat escapes it; the page inserts text as text)."""

from __future__ import annotations

import pytest

from bot.engine import parse_card
from bot.i18n import Language, t
from bot.web import wire
from cogs.tables import embeds

SAID_ALIKE = [
    ("option_not_here", {"option": "beat_partner", "variant": "arrastrado", "variants": ["pairs"]}),
    ("option_40", {"option": "seats"}),
    ("preset_not_here", {"preset": "havanian", "variants": ["habanero", "pairs"]}),
    ("illegal.must_beat", {"beat": parse_card("10O")}),
    ("house_pair", {"typed": "forty first"}),
]


@pytest.mark.parametrize(("key", "params"), SAID_ALIKE, ids=[key for key, _ in SAID_ALIKE])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_card_table_says_a_refusal_in_the_chats_words(
    key: str, params: dict[str, object], lang: Language
) -> None:
    on_the_page = wire.refused(key, params, lang)["text"]
    assert on_the_page == embeds.refusal_text(key, params, lang)
    assert "{" not in on_the_page and "[" not in on_the_page


@pytest.mark.parametrize(
    ("key", "params"), [("no_such_thing", {}), ("illegal.must_follow", {"card": 3})]
)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refusal_the_chat_does_not_know_is_still_said_in_words(
    key: str, params: dict[str, object], lang: Language
) -> None:
    """A key or a parameter of a newer process (a click forwarded between two of them) is
    answered with the table's "did not understand", as the card table does, not an error."""
    assert embeds.refusal_text(key, params, lang) == t("tables.errors.malformed", lang)
