"""What a tournament posts when every player of a match left: nobody goes through, and a
final everyone left has no winner; the others are paid by the round they reached."""

from __future__ import annotations

from bot.engine import Variant, parse_options
from bot.i18n import t
from bot.tables.competition.tournament import Draw, Format
from bot.tables.competition.tournaments import Tournament, TournamentStatus
from cogs.tournaments import posts


def test_a_final_everyone_left_is_told_without_a_winner() -> None:
    draw = Draw((1, 2, 3, 4), 2, Format.KNOCKOUT)
    for match in draw.next_round():
        draw.decide(match, min(match.players))
    (final,) = draw.next_round()
    final = draw.decide(final, None, out=final.players)
    tour = Tournament(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=1,
        variant=Variant.HABANERO,
        options=parse_options(Variant.HABANERO, {}),
        format=Format.KNOCKOUT,
        swiss_rounds=0,
        deadline=0.0,
        created_at=0.0,
        entrants=[(e, f"user_{e}") for e in draw.entrants],
        status=TournamentStatus.FINISHED,
        draw=draw,
        prizes={3: 50, 4: 50},
    )

    result = posts.result_text(tour, final)
    assert result == t(
        "tournaments.result_nobody", "en", id=7, round=2, players=r"user\_1, user\_2"
    )
    won = posts.winner_text(tour)
    assert won.startswith(t("tournaments.no_winner", "en", id=7))
    assert "<@3>: **50**" in won and "<@4>: **50**" in won
    assert posts.status_text(tour) == t("tournaments.status.finished_nobody", "en")
    (last,) = posts.bracket_scene(tour).rounds[-1].matches
    assert last.winner is None
