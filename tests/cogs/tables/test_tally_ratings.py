"""The game's result says each rated member's new skill rating and how it moved, in both
languages (built from a hand-made tally, without Discord)."""

from __future__ import annotations

import pytest

from bot.engine import Options, Variant
from bot.tables.model import GameTally, Status, Table
from bot.tables.ratings import Rating, RatingChange
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from tests.cogs.tables.test_views_rendered import playing_table, table_text


def finished(change: RatingChange | None) -> Table:
    table = playing_table(Variant.HABANERO, options=Options(bet=100))
    table.status = Status.FINISHED
    table.winner = 0
    ratings = {} if change is None else {100: change}
    table.tally = GameTally(chips={100: 100}, xp={100: 20}, ratings=ratings)
    return table


def tally_of(table: Table, lang: str) -> str:
    """The lines under the result's "chips, experience and rating"."""
    table.language = lang
    return "\n".join(ui.tally_lines(table_view(table), lang))


@pytest.mark.parametrize(
    ("lang", "moved", "first"),
    [
        ("en", "ana: **+100** chips · +20 XP · rating 1,240 (+40)", "rating 1,040 (new)"),
        (
            "es",
            "ana: **+100** fichas · +20 de experiencia · nivel 1.240 (+40)",
            "nivel 1.040 (nuevo)",
        ),
    ],
)
def test_a_rated_members_line_says_their_rating_and_its_change(
    lang: str, moved: str, first: str
) -> None:
    change = RatingChange(Rating(30.0, 3.0, 6), Rating(31.0, 2.9, 7))
    assert tally_of(finished(change), lang) == moved

    newcomer = RatingChange(None, Rating(26.0, 7.5, 1))
    assert tally_of(finished(newcomer), lang).endswith(" · " + first)


def test_a_rating_that_fell_or_stayed_reads_so() -> None:
    table = finished(RatingChange(Rating(30.0, 3.0, 6), Rating(28.5, 2.9, 7)))
    view = table_view(table)
    assert ui.tally_line(view, view.seats[0], "en").endswith(" · rating 1,140 (-60)")
    table = finished(RatingChange(Rating(30.0, 3.0, 6), Rating(30.001, 2.9, 7)))
    view = table_view(table)
    assert ui.tally_line(view, view.seats[0], "en").endswith(" · rating 1,200 (±0)")


def test_an_unrated_game_says_no_rating() -> None:
    line = tally_of(finished(None), "en")
    assert line == "ana: **+100** chips · +20 XP"


@pytest.mark.parametrize(
    ("lang", "rated", "unrated"),
    [
        ("en", "Chips, experience and rating", "Chips and experience"),
        ("es", "Fichas, experiencia y nivel", "Fichas y experiencia"),
    ],
)
def test_the_results_heading_names_a_rating_only_over_one(
    lang: str, rated: str, unrated: str
) -> None:
    change = RatingChange(Rating(30.0, 3.0, 6), Rating(31.0, 2.9, 7))
    table = finished(change)
    table.language = lang
    assert f"**{rated}**" in table_text(table_view(table), lang).splitlines()
    table = finished(None)
    table.language = lang
    text = table_text(table_view(table), lang)
    assert f"**{unrated}**" in text.splitlines()
    assert rated not in text
