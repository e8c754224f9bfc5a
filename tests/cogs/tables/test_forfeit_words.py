"""A member who leaves a game has forfeited it: at a tournament's final where the robot
that played on for them won, the result never shows them as the winner and their rating
does not rise for it, the winner of the match gains instead; the Leave question at a
tournament's table says that leaving forfeits the match and the tournament; once the
tournament has started its sign-up message says the prize pool and that sign-up is over
(no "so far", nothing given back on leaving)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.ai import Level
from bot.engine import Options, Variant
from bot.i18n import LANGUAGES, t
from bot.tables import leaving
from bot.tables.competition.tournament import Draw, Format
from bot.tables.competition.tournaments import TournamentStatus
from bot.tables.model import Seat, Status, Table
from bot.tables.ratings import NEWCOMER, rate
from bot.tables.settlement import game_result
from bot.tables.views import table_view
from cogs.tables import embeds as ui
from cogs.tables import layouts
from cogs.tournaments.buttons import signup_payload
from tests.cogs.tables.test_views_rendered import layout_text, playing_table
from tests.cogs.tournaments.test_posts_at_scale import FIRST_ID, tour_of

LOLA, LEFT = 200, 300


def final(variant: Variant = Variant.HABANERO, *, winner: int = 1) -> Table:
    """A tournament's final, over: Lola stayed in seat 0; the member of seat 1 left, a
    robot played on for them, and side ``winner`` won the game."""
    table = playing_table(variant, options=Options(competitive=True))
    table.tournament_id = 5
    table.seats[0] = Seat("Lola", user_id=LOLA)
    table.seats[1] = Seat("Pepe", user_id=LEFT, robot=Level.HARD, left=True)
    table.status = Status.FINISHED
    table.winner = winner
    assert table.game is not None
    rounds = [0] * len(table.game.rounds_won)
    rounds[winner] = 1
    table.game.rounds_won = rounds
    return table


def test_the_leaver_is_rated_below_the_member_who_stayed() -> None:
    result = game_result(final(), lambda _: True)
    assert result.places == (0, 1)  # Lola first, whatever the robot won
    rated = rate(result, {})
    assert rated[LOLA].mu > NEWCOMER.mu
    assert rated[LEFT].mu < NEWCOMER.mu


def test_a_side_that_stayed_keeps_its_win() -> None:
    assert game_result(final(winner=0), lambda _: True).places == (0, 1)


def test_a_partner_who_left_loses_alone() -> None:
    """Pairs: Lola stayed, her partner left and a robot played on for him, and their side
    won: Lola wins with the robot beside her, the leaver is rated last on his own."""
    table = playing_table(Variant.PAIRS, options=Options(competitive=True))
    table.seats[0] = Seat("Lola", user_id=LOLA)
    table.seats[2] = Seat("Pepe", user_id=LEFT, robot=Level.HARD, left=True)
    table.seats[1] = Seat("Ana", user_id=400)
    table.status, table.winner = Status.FINISHED, 0
    assert table.game is not None
    table.game.rounds_won = [1, 0]
    result = game_result(table, lambda _: True)
    assert result.sides[0][1].robot is Level.HARD and result.sides[0][1].user_id is None
    assert result.sides[-1][0].user_id == LEFT
    assert result.places == (0, 1, 2)
    rated = rate(result, {})
    assert rated[LOLA].mu > NEWCOMER.mu > rated[LEFT].mu


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_result_never_shows_the_leaver_as_the_winner(lang: str) -> None:
    table = final()
    table.language = lang
    view = table_view(table)
    text = layout_text(layouts.ended_layout(view, lang))
    name = ui.seat_name(view.seats[1], lang)
    assert t("tables.winner", lang, names=name) not in text
    assert "🏆" not in text
    assert t("tables.winner_forfeit", lang, names="Pepe") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pair_that_won_names_only_the_partner_who_stayed(lang: str) -> None:
    table = playing_table(Variant.PAIRS)
    table.seats[0] = Seat("Lola", user_id=LOLA)
    table.seats[2] = Seat("Pepe", user_id=LEFT, robot=Level.HARD, left=True)
    table.status, table.winner = Status.FINISHED, 0
    view = table_view(table)
    line = ui.winner_line(view, 0, lang)
    assert line == t("tables.winner", lang, names=ui.seat_name(view.seats[0], lang))


def test_leaving_a_tournament_table_asks_about_the_match() -> None:
    table = final()
    table.status = Status.PLAYING
    table.seats[1] = Seat("Pepe", user_id=LEFT)
    assert leaving.terms(table, LEFT) == ("tournament", 0)
    for lang in LANGUAGES:
        for key in ("tables.confirm.leave.tournament", "tables.confirm.leave.tournament_stake"):
            text = t(key, lang, stake=10)
            assert text != key
            assert ("tournament" if lang == "en" else "torneo") in text
    table.tournament_id = None
    assert leaving.terms(table, LEFT) == ("robot", 0)


def entry_field(payload: dict[str, Any]) -> str:
    embed = payload["embed"]
    assert isinstance(embed, discord.Embed)
    return embed.fields[0].value or ""


OPEN_ONLY = {"en": ("so far", "given back"), "es": ("por ahora", "se devuelven")}
"""What the sign-up message says only while sign-up is open."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sign_up_message_after_the_start_says_the_prize_pool(lang: str) -> None:
    tour = tour_of(8, lang)
    signup = entry_field(signup_payload(tour))
    assert all(words in signup for words in OPEN_ONLY[lang])
    tour.draw = Draw(tuple(FIRST_ID + i for i in range(8)), 2, Format.KNOCKOUT)
    for status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        tour.status = status
        started = entry_field(signup_payload(tour))
        assert not any(words in started for words in OPEN_ONLY[lang])
        assert started.startswith(
            t("tournaments.signup.entry_over", lang, fee=1, pot=1, split="")[:20]
        )
