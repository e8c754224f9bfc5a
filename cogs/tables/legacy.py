"""The table, a hand and a deal's summary as embeds, as the bot drew them before Discord's
layout components: a message sent with embeds cannot take layout components, so the table
messages and hands sent then are drawn this way until their next fresh message."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.tables.model import DealSummary, Status
from bot.tables.views import HandView, TableView

from .embeds import (
    GOLD,
    GREEN,
    GREY,
    clock_text,
    hand_lines,
    log_text,
    scores_line,
    seat_name,
    side_names,
    suit_text,
    summary_lines,
    tally_lines,
    trick_line,
    turned_line,
    variant_name,
    variant_title,
    winner_line,
)


def table_embed(table: TableView, lang: str) -> discord.Embed:
    """The public table: trump, trick, turn and clock, last trick, cantes, scores, log."""
    deal = table.deal
    status = table.status
    colour = GOLD if status is Status.PLAYING else GREY
    embed = discord.Embed(title=variant_title(table, lang), colour=colour)
    if deal is None:
        return _ended_embed(table, embed, lang)
    lines = [turned_line(deal, lang)]
    if deal.auction:
        lines.append(
            t(
                "tables.auction",
                lang,
                name=seat_name(table.seats[deal.turn], lang),
                bid=deal.high_bid or "-",
            )
        )
    else:
        turn_name = seat_name(table.seats[deal.turn], lang)
        lines.append(t("tables.turn", lang, name=turn_name, clock=clock_text(table.turn_deadline)))
    if table.paused_until is not None:
        lines.append(t("tables.play.paused", lang, until=int(table.paused_until)))
    if deal.contract is not None:
        lines.append(
            t(
                "tables.contract",
                lang,
                name=seat_name(table.seats[deal.contract.seat], lang),
                points=deal.contract.points,
            )
        )
    if deal.capote_seat is not None:
        lines.append(t("tables.capote", lang, name=seat_name(table.seats[deal.capote_seat], lang)))
    embed.description = "\n".join(lines)
    embed.add_field(
        name=t("tables.trick", lang, number=deal.trick_no + 1),
        value=trick_line(table, deal.trick, lang),
        inline=False,
    )
    # the last trick is the log's (and the picture's): no field of its own
    if deal.cantes:
        cantes = [
            t(
                "tables.cante_line",
                lang,
                name=seat_name(table.seats[c.seat], lang),
                points=c.points,
                suit=suit_text(c.suit, lang),
            )
            for c in deal.cantes
        ]
        embed.add_field(name=t("tables.cantes", lang), value="\n".join(cantes), inline=False)
    embed.add_field(
        name=t("tables.scores", lang), value=scores_line(table, deal, lang), inline=False
    )
    closed = [seat_name(s, lang) for s in table.seats if s is not None and s.human and s.dm_closed]
    if closed:
        embed.add_field(
            name=t("tables.dms_closed_title", lang),
            value=t("tables.dms_closed", lang, names=", ".join(closed)),
            inline=False,
        )
    logs = log_text(table, lang)
    if logs:
        embed.add_field(name=t("tables.log", lang), value=logs, inline=False)
    delivery = "dm" if table.hand_delivery == "dm" else "ephemeral"
    embed.set_footer(text=t(f"tables.play.footer.{delivery}", lang, deal=table.deal_no + 1))
    return embed


def _ended_embed(table: TableView, embed: discord.Embed, lang: str) -> discord.Embed:
    """The table once it no longer plays: the result of a finished game (the winner, the
    rounds each side won), or why it stopped; then what happened last."""
    status = table.status
    embed.description = t(f"tables.play.status.{status.value}", lang)
    rounds_won = table.rounds_won
    if status is Status.FINISHED:
        embed.title = t("summary.game_over", lang, id=table.id)
        embed.colour = GOLD
    if table.winner is not None and rounds_won is not None:
        embed.description += "\n" + winner_line(table, table.winner, lang)
    if status is Status.FINISHED and rounds_won is not None:
        lines = [
            t("summary.rounds_line", lang, names=side_names(table, seats, lang), rounds=rounds)
            for seats, rounds in zip(table.sides, rounds_won, strict=False)
        ]
        embed.add_field(name=t("summary.rounds", lang), value="\n".join(lines), inline=False)
        tally = tally_lines(table, lang)
        if tally:
            embed.add_field(name=t("summary.tally", lang), value="\n".join(tally), inline=False)
    embed.add_field(name=t("tables.log", lang), value=log_text(table, lang) or "-", inline=False)
    return embed


def hand_embed(table: TableView, hand: HandView, lang: str) -> discord.Embed:
    """The words around one player's hand (the picture shows the cards, the buttons play
    them): trumps, and only what stays true until the hand is edited again: the trick and the
    clock when it is their turn (the hand is edited when the turn comes to them), a
    declaration they may make, or that a robot plays for them."""
    embed = discord.Embed(
        title=t("hand.title", lang, variant=variant_name(table, lang), id=table.id),
        colour=GREEN,
    )
    embed.description = "\n".join(hand_lines(table, hand, lang))
    if not hand.playing:
        embed.colour = GREY
        return embed
    embed.set_footer(text=t("hand.footer", lang, deal=table.deal_no + 1))
    return embed


def summary_embed(table: TableView, summary: DealSummary, lang: str) -> discord.Embed:
    """A finished deal in a few short lines: how it ended, then each side's points (the
    rounds won are on the table above it). The picture shows the cards each side took, the
    cantes and the sums; its alt text says them in words."""
    embed = discord.Embed(
        title=t("summary.title", lang, deal=summary.deal_no + 1, id=table.id), colour=GOLD
    )
    embed.description = "\n".join(summary_lines(table, summary, lang))
    return embed
