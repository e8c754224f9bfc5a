"""Every kind of event has its sentence in both languages, and a sentence names who did
it: a robot by its number, a member by their name (escaped), even one who shows a robot's."""

from __future__ import annotations

import pytest

from bot.i18n import CATALOGS, LANGUAGES, Language, t
from bot.tables.events import Happened, LogEvent, Who
from cogs.tables.said import LOG_KEYS, log_line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_has_its_sentence(lang: Language) -> None:
    assert set(LOG_KEYS) == set(Happened)
    for key in LOG_KEYS.values():
        assert key in CATALOGS[lang], key


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_line_names_who_did_it(lang: str) -> None:
    robot = log_line(LogEvent(Happened.BID, Who(robot=2), points=80), lang)
    assert robot == t(
        "tables.log.bid", lang, name=t("tables.robot_short", lang, number=2), points=80
    )
    mimic = log_line(LogEvent(Happened.JOINED, Who("robot:2", 77)), lang)
    assert mimic == t("tables.log.joined", lang, name="robot:2"), "a member, not a robot"
    marked = log_line(LogEvent(Happened.JOINED, Who("**Ana**", 78)), lang)
    assert "**Ana**" not in marked, "a name's markdown takes no effect"
    lost = log_line(LogEvent(Happened.LEFT_PLAYING, Who("Luis", 11), stake=50), lang)
    assert lost == t("tables.log.left_playing_stake", lang, name="Luis", stake=50)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_log_says_what_a_game_that_ends_alone_cost(lang: str) -> None:
    """Nothing is said apart in the channel: the table's log says the stake that was lost."""
    abandoned = log_line(LogEvent(Happened.ABANDONED, Who("Ana", 1), stake=50), lang)
    assert abandoned == t("tables.log.abandoned_stake", lang, name="Ana", stake=50)
