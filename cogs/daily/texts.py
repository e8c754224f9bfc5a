"""The daily deal in words: the line a member shares (a grid of the tricks, like a word
game's, that names no card) and the server's board of the day."""

from __future__ import annotations

import discord

from bot.i18n import number, signed, t
from bot.storage.daily import Attempt
from bot.tables.daily import Board, date_of

WON = "🟩"
LOST = "🟥"
CANTE = "👑"
HINT = "💡"
NOT_PLAYED = "⬛"
BOARD_LINES = 20
"""The members listed by name on a board; the others are counted."""


def grid(attempt: Attempt) -> str:
    """One square per trick, in order: won by the member's side, or lost; a crown for each
    cante their side sang; the hints they asked for, if any. Which cards fell, who held
    what, is nowhere in it."""
    if attempt.status != "finished":
        return NOT_PLAYED
    squares = "".join(WON if trick == "W" else LOST for trick in attempt.tricks)
    crowns = CANTE * attempt.cantes
    hints = f"{HINT}{attempt.hints}" if attempt.hints else ""
    return " ".join(part for part in (squares, crowns, hints) if part)


def share_line(attempt: Attempt, streak: int, lang: str) -> str:
    """ "Tute daily 2026-11-27 · 🏆 78 pts (+26) · 🟩🟩🟥🟩🟥🟩🟩🟥🟩🟩 👑 · 🔥3"."""
    if attempt.status == "finished":
        key = "daily.share.won" if attempt.won else "daily.share.lost"
        result = t(
            key,
            lang,
            points=number(attempt.points, lang),
            margin=signed(attempt.margin, lang),
        )
    else:
        result = t("daily.share.unfinished", lang)
    return t(
        "daily.share",
        lang,
        date=date_of(attempt.day),
        result=result,
        grid=grid(attempt),
        streak=streak,
    )


def board_embed(board: Board, lang: str, *, play_command: str) -> discord.Embed:
    """The server's board of the day: the finished by points and margin, then those still
    playing and those who left it unfinished; each member's streak of days."""
    lines: list[str] = []
    for entry in board.entries[:BOARD_LINES]:
        attempt = entry.attempt
        member = f"<@{attempt.user_id}>"
        if attempt.status == "finished":
            lines.append(
                t(
                    "daily.board.line",
                    lang,
                    place=entry.place,
                    member=member,
                    points=number(attempt.points, lang),
                    margin=signed(attempt.margin, lang),
                    grid=grid(attempt),
                    streak=entry.streak,
                )
            )
        else:
            key = "daily.board.playing" if attempt.status == "playing" else "daily.board.unfinished"
            lines.append(t(key, lang, member=member, streak=entry.streak))
    more = len(board.entries) - BOARD_LINES
    if more > 0:
        lines.append(t("daily.board.more", lang, count=number(more, lang)))
    description = "\n".join(lines) or t("daily.board.empty", lang, command=play_command)
    embed = discord.Embed(
        title=t("daily.board.title", lang, date=date_of(board.day)),
        description=description,
        colour=discord.Colour.gold(),
    )
    footer = t("daily.board.footer", lang)
    if board.commitment:
        footer += " " + t("tables.shuffle", lang, code=board.commitment)
    embed.set_footer(text=footer)
    return embed
