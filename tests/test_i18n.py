"""The message catalog: both languages complete and consistent."""

import re
import string

import pytest

from bot.i18n import CATALOGS, LANGUAGES, Language, es, language_of, t

# Discord's rules for a slash command's name (lower case) and description.
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_both_languages_have_the_same_messages() -> None:
    assert set(CATALOGS) == set(LANGUAGES) == {"en", "es"}
    assert CATALOGS["en"].keys() == CATALOGS["es"].keys()


@pytest.mark.parametrize("key", sorted(CATALOGS["en"]))
def test_placeholders_match_between_languages(key: str) -> None:
    assert placeholders(CATALOGS["en"][key]) == placeholders(CATALOGS["es"][key])


@pytest.mark.parametrize("language", LANGUAGES)
def test_command_names_and_descriptions_follow_discords_rules(language: Language) -> None:
    for key, text in CATALOGS[language].items():
        if key.startswith("commands.") and key.endswith(".name"):
            assert COMMAND_NAME.match(text), key
            assert text == text.lower(), key
        if key.startswith("commands.") and key.endswith(".description"):
            assert 1 <= len(text) <= 100, key


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("es-ES", "es"),
        ("es-419", "es"),
        ("es", "es"),
        ("ES", "es"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("pt-BR", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_language_of_a_discord_locale(locale: str | None, language: str) -> None:
    assert language_of(locale) == language


def test_messages_are_filled_in() -> None:
    filled = t("about.command_line", "es-ES", command="tute x", description="y")
    assert filled == "**/tute x**: y"
    assert t("errors.generic", "es-419") == es.MESSAGES["errors.generic"]


def test_a_message_missing_in_spanish_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(CATALOGS["es"], "errors.generic")

    assert t("errors.generic", "es-ES") == CATALOGS["en"]["errors.generic"]


def test_an_unknown_message_is_a_bug() -> None:
    with pytest.raises(KeyError):
        t("no.such.message", "en")
