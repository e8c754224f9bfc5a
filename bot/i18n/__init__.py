"""The message catalog: every text a Discord user reads, in English and Spanish (Spain).

Messages are looked up by id (``errors.generic``) and filled with ``str.format`` parameters.
This package imports only the standard library, so any layer may use it; the app-command
translator that feeds it to Discord lives in ``bot.client``.
"""

from typing import Final, Literal, get_args

from bot.i18n import (
    daily_en,
    daily_es,
    en,
    es,
    guide_en,
    guide_es,
    hints_en,
    hints_es,
    learn_en,
    learn_es,
    privacy_en,
    privacy_es,
    replays_en,
    replays_es,
    review_en,
    review_es,
    rules_en,
    rules_es,
    sandbox_en,
    sandbox_es,
    settings_en,
    settings_es,
    tables_en,
    tables_es,
    tournaments_en,
    tournaments_es,
    web_en,
    web_es,
)

Language = Literal["en", "es"]

LANGUAGES: Final[tuple[Language, ...]] = get_args(Language)
DEFAULT_LANGUAGE: Final[Language] = "en"

CATALOGS: Final[dict[Language, dict[str, str]]] = {
    "en": {
        **en.MESSAGES,
        **tables_en.MESSAGES,
        **rules_en.MESSAGES,
        **guide_en.MESSAGES,
        **tournaments_en.MESSAGES,
        **sandbox_en.MESSAGES,
        **settings_en.MESSAGES,
        **web_en.MESSAGES,
        **hints_en.MESSAGES,
        **replays_en.MESSAGES,
        **review_en.MESSAGES,
        **daily_en.MESSAGES,
        **learn_en.MESSAGES,
        **privacy_en.MESSAGES,
    },
    "es": {
        **es.MESSAGES,
        **tables_es.MESSAGES,
        **rules_es.MESSAGES,
        **guide_es.MESSAGES,
        **tournaments_es.MESSAGES,
        **sandbox_es.MESSAGES,
        **settings_es.MESSAGES,
        **web_es.MESSAGES,
        **hints_es.MESSAGES,
        **replays_es.MESSAGES,
        **review_es.MESSAGES,
        **daily_es.MESSAGES,
        **learn_es.MESSAGES,
        **privacy_es.MESSAGES,
    },
}


def language_of(locale: str | None) -> Language:
    """The catalog language for a Discord locale (``es-ES``, ``es-419``, ``en-US``...) or a
    language code (``es``, ``en``): Spanish for any Spanish locale, English otherwise."""
    if locale is not None and locale.split("-", 1)[0].strip().lower() == "es":
        return "es"
    return DEFAULT_LANGUAGE


def t(key: str, locale: str | None = None, /, **params: object) -> str:
    """The message ``key`` in the language of ``locale``, filled with ``params``.

    A message missing from the Spanish catalog falls back to English; a key missing from
    both raises ``KeyError``, since it is a bug in the caller.
    """
    template = CATALOGS[language_of(locale)].get(key)
    if template is None:
        template = CATALOGS[DEFAULT_LANGUAGE][key]
    return template.format(**params)


def number(value: int, locale: str | None = None) -> str:
    """A number as the language groups it, the one way every count of chips, points or a
    rating is written: 1234567 as ``1,234,567`` in English and ``1.234.567`` in Spanish."""
    return f"{value:,}".replace(",", t("standings.thousands_separator", locale))


def signed(value: int, locale: str | None = None) -> str:
    """A change with its sign: ``+35``, ``-1,200`` (``-1.200`` in Spanish), ``±0``."""
    if value == 0:
        return "±0"
    return ("+" if value > 0 else "-") + number(abs(value), locale)
