"""Pictures of a table, a hand and a deal's summary: the render scenes filled from the
service's views, as Discord files with alt text for screen readers."""

from __future__ import annotations

import io

import discord

from bot.engine import CODES, SUITS
from bot.i18n import t
from bot.render import (
    SeatInfo,
    SideSummary,
    SummaryLabels,
    SummaryScene,
    TableScene,
    render_summary,
    render_table,
)
from bot.tables.summary import DealSummary
from bot.tables.views import TableView
from bot.words import suit_text

from . import embeds as ui

TABLE_FILE = "table.png"
TRICK_FILE = "trick.png"
"""The table from a player's seat, in their hand."""
SUMMARY_FILE = "summary.png"


def as_file(png: bytes, name: str, description: str) -> discord.File:
    """A picture as a file to attach, with its alt text (Discord keeps 1024 characters)."""
    return discord.File(io.BytesIO(png), filename=name, description=description[:1000])


def _plain_name(table: TableView, seat: int, lang: str) -> str:
    occupant = table.seats[seat]
    if occupant is not None and occupant.is_robot:
        return t("tables.robot_short", lang, number=occupant.robot_no)
    return occupant.name if occupant is not None else "?"


def table_picture(
    table: TableView, lang: str, viewer: int | None = None, name: str = TABLE_FILE
) -> discord.File | None:
    """The trick in play seen from above, each card beside the name of who played it, the
    player to play lit; from ``viewer``'s seat (at the bottom) in their hand, else from seat
    0's. Only what everybody sees is drawn."""
    deal = table.deal
    if deal is None:
        return None
    seats = tuple(
        SeatInfo(
            name=_plain_name(table, i, lang),
            is_turn=i == deal.turn,
            is_robot=bool(s is not None and s.robot_plays),
            team=table.team_of(i),
            note=t("tables.picture.sits_out", lang) if deal.side_of[i] < 0 else "",
        )
        for i, s in enumerate(table.seats)
    )
    scene = TableScene(
        seats=seats,
        trump_suit=SUITS[deal.trump],
        trick=tuple((seat, CODES[card]) for seat, card in deal.trick),
        turned=CODES[deal.face_up] if deal.face_up is not None else None,
        stock_left=deal.stock_left or 0,
        viewer_seat=viewer,
    )
    alt = t(
        "pictures.table_alt",
        lang,
        trick=ui.trick_line(table, deal.trick, lang, plain=True),
        trump=suit_text(deal.trump, lang),
    )
    return as_file(render_table(scene), name, alt)


def _uncounted(summary: DealSummary) -> str:
    """Why points of a deal may not count: a capote or a resignation voids its card points;
    sixty-five scoring leaves the cantes out of the score."""
    end = summary.result.end.value
    return end if end in ("capote", "resign") else "sixty_five"


def summary_png(table: TableView, summary: DealSummary, lang: str) -> tuple[bytes, str]:
    """A finished deal: the cards each side took, the cantes shown, the points; and its alt
    text, which says the points in words."""
    result = summary.result
    why = t(f"pictures.uncounted.{_uncounted(summary)}", lang)
    sides: list[SideSummary] = []
    said: list[str] = []
    for i, side in enumerate(result.sides):
        names = ui.names_joined([_plain_name(table, s, lang) for s in side], lang)
        last_ten = result.last_trick == i
        carried = summary.carried[i] if summary.carried else None
        cantes = [(suit, points) for seat, suit, points in summary.cantes if seat in side]
        counted = (carried or 0) + result.card_points[i] + 10 * last_ten
        counted += sum(points for _, points in cantes)
        uncounted = result.scores[i] - counted or None
        sides.append(
            SideSummary(
                names=names,
                cards=tuple(CODES[c] for c in summary.taken[i]),
                cantes=tuple((SUITS[suit], points) for suit, points in cantes),
                card_points=result.card_points[i],
                last_ten=last_ten,
                carried=carried,
                uncounted=uncounted,
                total=result.scores[i],
                won=result.winner == i,
                team=i if len(side) > 1 else None,
            )
        )
        said.append(
            t(
                "pictures.summary_side_alt" if carried is None else "pictures.summary_carried_alt",
                lang,
                names=names,
                total=result.scores[i],
                cards=result.card_points[i],
                cantes=result.cantes[i],
                last=10 if last_ten else 0,
                carried=carried,
            )
        )
        if uncounted is not None:
            said[-1] += t("pictures.uncounted_alt", lang, why=why, points=uncounted)
    scene = SummaryScene(
        sides=tuple(sides),
        title_lines=(t("summary.title", lang, deal=summary.deal_no + 1, id=table.id),),
        trump_suit=SUITS[summary.trump],
        labels=SummaryLabels(
            card_points=t("pictures.card_points", lang),
            cantes=t("tables.cantes", lang),
            last_ten=t("pictures.last_ten", lang),
            carried=t("pictures.carried", lang),
            uncounted=why,
            total=t("pictures.total", lang),
        ),
    )
    alt = t("pictures.summary_alt", lang, deal=summary.deal_no + 1, sides="; ".join(said))
    return render_summary(scene), alt
