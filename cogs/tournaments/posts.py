"""What a tournament shows: the sign-up message, each round's pairings, a match's result,
the bracket (knockout) or the standings (Swiss) as a picture, and the winner. Names members
typed are escaped in text (``shown_name``) and raw in pictures and alt texts."""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass

import discord

from bot.i18n import number, t
from bot.render.bracket import bracket_alt_text, render_bracket
from bot.render.bracket_scenes import (
    BracketLabels,
    BracketMatch,
    BracketRound,
    BracketScene,
    StandingsLabels,
    StandingsRow,
    StandingsScene,
)
from bot.render.standings import render_standings, standings_alt_text
from bot.tables.competition.tournament import BYE, Draw, Format, Match
from bot.tables.competition.tournaments import Tournament, TournamentStatus
from cogs._base import MAX_PINGS, shown_name

log = logging.getLogger(__name__)

GREEN = discord.Colour.dark_green()


MAX_CONTENT = 2000
"""Discord's limit on a message's content."""


@dataclass(frozen=True)
class Part:
    """One message of a post too long for one: its text, whom it pings, the tables it links."""

    text: str
    players: tuple[int, ...] = ()
    tables: tuple[int, ...] = ()


def split_lines(title: str, lines: list[Part]) -> list[Part]:
    """``lines`` under ``title`` in as few messages as Discord's 2,000 characters allow, each
    message starting with the title; each pings the players of its own lines (at most 100
    members, a line never pings more than four)."""
    parts: list[Part] = []
    text, players, tables = title, list[int](), list[int]()
    for line in lines:
        crowded = len(set(players) | set(line.players)) > MAX_PINGS
        if len(text) + 1 + len(line.text) > MAX_CONTENT or crowded:
            parts.append(Part(text, tuple(players), tuple(tables)))
            text, players, tables = title, [], []
        text += "\n" + line.text[: MAX_CONTENT - len(title) - 1]
        players += line.players
        tables += line.tables
    parts.append(Part(text, tuple(players), tuple(tables)))
    return parts


def format_text(tour: Tournament, lang: str) -> str:
    if tour.format is Format.SWISS:
        return t("tournaments.format.swiss", lang, rounds=tour.swiss_rounds)
    return t("tournaments.format.knockout", lang)


# ------------------------------------------------------------------ pictures


def _names(tour: Tournament, match: Match) -> tuple[str | None, ...]:
    return tuple(None if e == BYE else tour.name_of(e) for e in match.entrants)


def _round_label(number: int, rounds: int, lang: str) -> str:
    if number == rounds:
        return t("tournaments.picture.final", lang)
    if number == rounds - 1:
        return t("tournaments.picture.semi", lang)
    return t("tournaments.picture.round", lang, round=number)


def bracket_scene(tour: Tournament) -> BracketScene:
    lang = tour.language
    draw = tour.draw
    assert draw is not None
    rounds: list[BracketRound] = []
    for round_no in range(1, draw.rounds + 1):
        matches = tuple(
            BracketMatch(
                entrants=_names(tour, m),
                winner=None if m.through is None else m.entrants.index(m.through),
                ids=tuple(None if e == BYE else e for e in m.entrants),
            )
            for m in draw.round_matches(round_no)
        )
        rounds.append(BracketRound(_round_label(round_no, draw.rounds, lang), matches))
    labels = BracketLabels(
        bye=t("tournaments.picture.bye", lang),
        to_play=t("tournaments.picture.to_play", lang),
        winner=t("tournaments.picture.winner", lang),
        champion=t("tournaments.picture.champion", lang),
    )
    return BracketScene(t("tournaments.picture.title", lang, id=tour.id), tuple(rounds), labels)


def standings_scene(tour: Tournament) -> StandingsScene:
    lang = tour.language
    draw = tour.draw
    assert draw is not None
    rows: list[StandingsRow] = []
    previous: tuple[int, int] | None = None
    place = 0
    for i, (entrant, wins, tie_break) in enumerate(draw.standings(), start=1):
        if (wins, tie_break) != previous:
            place, previous = i, (wins, tie_break)
        rows.append(StandingsRow(place, tour.name_of(entrant), wins, tie_break))
    labels = StandingsLabels(
        wins=t("tournaments.picture.wins", lang),
        tie_break=t("tournaments.picture.tie_break", lang),
    )
    done = draw.current_round if draw.round_over(draw.current_round) else draw.current_round - 1
    return StandingsScene(
        t("tournaments.picture.title", lang, id=tour.id),
        tuple(rows),
        labels,
        subtitle=t("tournaments.picture.after_round", lang, round=max(0, done), rounds=draw.rounds)
        if done > 0
        else "",
    )


def _draw_picture(tour: Tournament) -> tuple[bytes, str]:
    if tour.format is Format.KNOCKOUT:
        scene = bracket_scene(tour)
        return render_bracket(scene), bracket_alt_text(scene)
    standings = standings_scene(tour)
    return render_standings(standings), standings_alt_text(standings)


async def picture_file(tour: Tournament) -> discord.File:
    """The bracket or the standings as a PNG (drawn off the event loop)."""
    data, alt = await asyncio.to_thread(_draw_picture, tour)
    return discord.File(io.BytesIO(data), filename=f"tournament-{tour.id}.png", description=alt)


# ------------------------------------------------------------------ posts


def round_parts(tour: Tournament, links: dict[int, str]) -> list[Part]:
    """The round in play: each match's players (mentioned) and where its table is, over as
    many messages as it takes."""
    lang = tour.language
    draw = tour.draw
    assert draw is not None
    number = draw.current_round
    title = t("tournaments.round.title", lang, id=tour.id, round=number, rounds=draw.rounds)
    lines: list[Part] = []
    for match in draw.round_matches(number):
        index = draw.matches.index(match)
        players = " - ".join(f"<@{u}>" for u in match.players)
        if match.is_bye:
            text = t("tournaments.round.bye", lang, player=players)
            lines.append(Part(text, match.players))
            continue
        table_id = tour.tables.get(index)
        if table_id is None:
            where = t("tournaments.round.no_table", lang)
        elif table_id in links:
            where = t("tournaments.round.table", lang, table=table_id, link=links[table_id])
        else:
            where = t("tournaments.round.table_pending", lang, table=table_id)
        text = t("tournaments.round.match", lang, players=players, where=where)
        linked: tuple[int, ...] = (table_id,) if table_id in links else ()
        lines.append(Part(text, match.players, linked))
    return split_lines(title, lines)


def match_round(draw: Draw, match: Match) -> int:
    """The round a match is of."""
    return next(n for n in range(1, draw.current_round + 1) if match in draw.round_matches(n))


def result_text(tour: Tournament, match: Match) -> str:
    lang = tour.language
    assert match.winner is not None
    if match.through is None:  # every player left: nobody goes through
        return t(
            "tournaments.result_nobody",
            lang,
            id=tour.id,
            round=match_round(tour.draw, match) if tour.draw is not None else 0,
            players=", ".join(shown_name(tour.name_of(u)) for u in match.players),
        )
    others = ", ".join(shown_name(tour.name_of(u)) for u in match.players if u != match.winner)
    return t(
        "tournaments.result",
        lang,
        id=tour.id,
        round=match_round(tour.draw, match) if tour.draw is not None else 0,
        winner=shown_name(tour.name_of(match.winner)),
        others=others,
    )


def winner_parts(tour: Tournament) -> list[Part]:
    """The winner (mentioned) and, with an entry fee, who won what, by place."""
    winner = tour.winner
    if winner is None:  # every finalist left
        text = t("tournaments.no_winner", tour.language, id=tour.id)
    else:
        text = t("tournaments.winner", tour.language, id=tour.id, winner=f"<@{winner}>")
    first = () if winner is None else (winner,)
    if not tour.prizes or tour.draw is None:
        return [Part(text, first)]
    lines = [Part(t("tournaments.prizes.title", tour.language))]
    place = 1
    for group in tour.draw.places():
        for entrant in group:
            if tour.prizes.get(entrant):
                line = t(
                    "tournaments.prizes.line",
                    tour.language,
                    place=place,
                    who=f"<@{entrant}>",
                    chips=number(tour.prizes[entrant], tour.language),
                )
                lines.append(Part(line, (entrant,)))
        place += len(group)
    parts = split_lines(text, lines)
    return [Part(parts[0].text, (*first, *parts[0].players)), *parts[1:]]


def winner_text(tour: Tournament) -> str:
    """The winner and the prizes, as one text (what a single message says)."""
    return "\n".join(part.text for part in winner_parts(tour))


def status_text(tour: Tournament) -> str:
    lang = tour.language
    draw = tour.draw
    if tour.status is TournamentStatus.RUNNING and draw is not None:
        return t("tournaments.status.running", lang, round=draw.current_round, rounds=draw.rounds)
    if tour.status is TournamentStatus.FINISHED and tour.winner is not None:
        return t("tournaments.status.finished", lang, winner=shown_name(tour.name_of(tour.winner)))
    if tour.status is TournamentStatus.FINISHED:
        return t("tournaments.status.finished_nobody", lang)  # every finalist left
    return t(f"tournaments.status.{tour.status.value}", lang)
