"""The words and embeds of a table: lobby, the table in play, a hand, a round's summary.

Pure builders over the service's ``Table``: nothing here talks to Discord, so tests and the
presenter share them. Every text comes from the catalog.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from bot.engine import CODES, SUITS, Kind, Round, Variant
from bot.engine.actions import Action
from bot.engine.cards import SUIT_OF
from bot.i18n import t
from bot.render.symbols import SUIT_SYMBOLS, card_label
from bot.tables.model import Seat, Status, Table

GREEN = discord.Colour.from_rgb(27, 94, 32)
GOLD = discord.Colour.from_rgb(196, 138, 12)
GREY = discord.Colour.from_rgb(96, 99, 104)


def card_text(card: int) -> str:
    return card_label(CODES[card])


def suit_text(suit: int, lang: str) -> str:
    return f"{SUIT_SYMBOLS[SUITS[suit]]} {t(f'suits.{SUITS[suit]}', lang)}"


def seat_name(seat: Seat | None, lang: str) -> str:
    if seat is None:
        return t("tables.empty_seat", lang)
    if seat.is_robot:
        number = seat.name.partition(":")[2] or "1"
        return t("tables.robot_name", lang, number=number, level=t(f"robots.{seat.robot}", lang))
    name = discord.utils.escape_markdown(seat.name)
    if seat.left:
        return t("tables.left_name", lang, name=name)
    if seat.away:
        return t("tables.away_name", lang, name=name)
    return name


def options_lines(table: Table, lang: str) -> list[str]:
    """The options that differ from the defaults, plus rounds, bet and turn time."""
    o = table.options
    lines = [
        t("tables.opt.rounds", lang, rounds=o.rounds),
        t("tables.opt.turn_time", lang, seconds=o.turn_time),
    ]
    if o.bet:
        lines.append(t("tables.opt.bet", lang, bet=o.bet))
    if not o.competitive:
        lines.append(t("tables.opt.practice", lang))
    if o.private:
        lines.append(t("tables.opt.private", lang))
    if not o.spectators:
        lines.append(t("tables.opt.no_spectators", lang))
    defaults = {"allow_tute": None}
    for name, value in o.to_dict().items():
        if name in ("rounds", "turn_time", "bet", "competitive", "private", "spectators"):
            continue
        if defaults.get(name, "x") is None and value is None:
            continue
        lines.append(t(f"tables.opt.{name}", lang, value=_option_value(value, lang)))
    return lines


def _option_value(value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return t("common.yes" if value else "common.no", lang)
    return str(value)


def variant_title(table: Table, lang: str) -> str:
    return t("tables.title", lang, variant=t(f"variants.{table.variant.value}", lang), id=table.id)


def lobby_embed(table: Table, lang: str) -> discord.Embed:
    status = table.status
    colour = GREEN if status is Status.LOBBY else GREY
    embed = discord.Embed(title=variant_title(table, lang), colour=colour)
    host = (
        table.seats[table.seat_of(table.host_id) or 0]
        if table.seat_of(table.host_id) is not None
        else None
    )
    embed.description = t(
        f"tables.lobby.status.{status.value}",
        lang,
        host=seat_name(host, lang),
        thread=_thread_link(table),
    )
    seats: list[str] = []
    for i, seat in enumerate(table.seats):
        team = table.team_of(i)
        prefix = t("tables.team", lang, team="AB"[team]) + " · " if team is not None else ""
        star = " ⭐" if seat is not None and seat.user_id == table.host_id else ""
        seats.append(f"`{i + 1}` {prefix}{seat_name(seat, lang)}{star}")
    embed.add_field(name=t("tables.seats", lang), value="\n".join(seats), inline=True)
    embed.add_field(
        name=t("tables.options", lang), value="\n".join(options_lines(table, lang)), inline=True
    )
    if status is Status.LOBBY:
        embed.set_footer(text=t("tables.lobby.footer", lang))
        embed.timestamp = datetime.fromtimestamp(table.lobby_deadline, tz=UTC)
    return embed


def _thread_link(table: Table) -> str:
    return f"<#{table.thread_id}>" if table.thread_id else ""


def _deadline(table: Table) -> str:
    if table.turn_deadline is None:
        return ""
    return f"<t:{int(table.turn_deadline)}:R>"


def trick_line(table: Table, round_: Round, lang: str) -> str:
    if not round_.trick:
        return t("tables.trick.empty", lang)
    return " · ".join(
        f"{seat_name(table.seats[seat], lang)} {card_text(card)}"
        for seat, card in round_.trick_seats()
    )


def scores_line(table: Table, round_: Round, lang: str) -> str:
    parts: list[str] = []
    game = table.game
    for side, seats in enumerate(round_.sides):
        names = " & ".join(seat_name(table.seats[s], lang) for s in seats)
        rounds = game.rounds_won[side] if game else 0
        parts.append(
            t("tables.score", lang, names=names, points=round_.side_score(side), rounds=rounds)
        )
    return "\n".join(parts)


def turned_line(round_: Round, lang: str) -> str:
    line = t(
        "tables.trump", lang, suit=suit_text(round_.trump, lang), card=card_text(round_.turned_card)
    )
    if round_.variant is Variant.HABANERO:
        if round_.stock_left:
            line += "\n" + t("tables.stock", lang, count=round_.stock_left)
        else:
            line += "\n" + t("tables.stock_empty", lang)
    elif round_.table_card >= 0:
        line += "\n" + t("tables.table_card", lang, card=card_text(round_.table_card))
    return line


def table_embed(table: Table, lang: str) -> discord.Embed:
    """The public table: trump, trick, turn and clock, last trick, cantes, scores, log."""
    round_ = table.round
    status = table.status
    colour = GOLD if status is Status.PLAYING else GREY
    embed = discord.Embed(title=variant_title(table, lang), colour=colour)
    if round_ is None or status is not Status.PLAYING:
        embed.description = t(f"tables.play.status.{status.value}", lang)
        if table.winner is not None and table.game is not None:
            embed.description += "\n" + winner_line(table, table.winner, lang)
        embed.add_field(
            name=t("tables.log", lang), value=log_text(table, lang) or "-", inline=False
        )
        return embed
    lines = [turned_line(round_, lang)]
    if round_.phase.name == "AUCTION":
        lines.append(
            t(
                "tables.auction",
                lang,
                name=seat_name(table.seats[round_.turn], lang),
                bid=round_.high_bid or "-",
            )
        )
    else:
        turn_name = seat_name(table.seats[round_.turn], lang)
        lines.append(t("tables.turn", lang, name=turn_name, clock=_deadline(table)))
    if round_.contract is not None:
        lines.append(
            t(
                "tables.contract",
                lang,
                name=seat_name(table.seats[round_.contract.seat], lang),
                points=round_.contract.points,
            )
        )
    if round_.capote_seat >= 0:
        lines.append(
            t("tables.capote", lang, name=seat_name(table.seats[round_.capote_seat], lang))
        )
    embed.description = "\n".join(lines)
    embed.add_field(
        name=t("tables.trick", lang, number=len(round_.tricks) + 1),
        value=trick_line(table, round_, lang),
        inline=False,
    )
    if round_.tricks:
        last = round_.tricks[-1]
        cards = " ".join(card_text(c) for c in last.cards)
        points = sum(_points(c) for c in last.cards)
        embed.add_field(
            name=t("tables.last_trick", lang),
            value=t(
                "tables.last_trick_line",
                lang,
                name=seat_name(table.seats[last.winner], lang),
                cards=cards,
                points=points,
            ),
            inline=False,
        )
    if round_.cantes:
        cantes = [
            t(
                "tables.cante_line",
                lang,
                name=seat_name(table.seats[c.seat], lang),
                points=c.points,
                suit=suit_text(c.suit, lang),
            )
            for c in round_.cantes
        ]
        embed.add_field(name=t("tables.cantes", lang), value="\n".join(cantes), inline=False)
    embed.add_field(
        name=t("tables.scores", lang), value=scores_line(table, round_, lang), inline=False
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
    embed.set_footer(text=t("tables.play.footer", lang, deal=table.deal_no + 1))
    return embed


def _points(card: int) -> int:
    from bot.engine.cards import POINTS

    return POINTS[card]


def log_text(table: Table, lang: str, last: int = 4) -> str:
    lines: list[str] = []
    for entry in table.log[-last:]:
        params = dict(entry.params)
        if "suit" in params:
            params["suit"] = suit_text(int(params["suit"]), lang)
        if "cards" in params:
            params["cards"] = " ".join(card_text(int(c)) for c in params["cards"])
        if (
            "name" in params
            and isinstance(params["name"], str)
            and params["name"].startswith("robot:")
        ):
            params["name"] = t("tables.robot_short", lang, number=params["name"].partition(":")[2])
        if "level" in params:
            params["level"] = t(f"robots.{params['level']}", lang)
        lines.append("• " + t(entry.key, lang, **params))
    return "\n".join(lines)


def winner_line(table: Table, side: int, lang: str) -> str:
    seats = ((0, 2), (1, 3))[side] if table.variant is Variant.PAIRS else (side,)
    names = " & ".join(seat_name(table.seats[s], lang) for s in seats)
    return t("tables.winner", lang, names=names)


# ------------------------------------------------------------------------ the hand


def action_label(action: Action, round_: Round, lang: str) -> str:
    kind = action.kind
    if kind is Kind.PLAY:
        return card_text(action.arg)
    if kind is Kind.SING:
        points = 40 if action.arg == round_.trump else 20
        return t("hand.sing", lang, points=points, suit=suit_text(action.arg, lang))
    if kind is Kind.BID:
        return t("hand.bid", lang, points=action.arg)
    if kind is Kind.EXCHANGE:
        return t("hand.exchange", lang, card=card_text(round_.turned))
    if kind is Kind.CLAIM:
        return t("hand.claim", lang, target=round_.options.target)
    return t(f"hand.{kind.name.lower()}", lang)


def hand_embed(table: Table, seat: int, lang: str) -> discord.Embed:
    """What one player sees of their hand: cards, trump, the trick, whose turn."""
    round_ = table.round
    embed = discord.Embed(
        title=t(
            "hand.title", lang, variant=t(f"variants.{table.variant.value}", lang), id=table.id
        ),
        colour=GREEN,
    )
    if round_ is None or table.status is not Status.PLAYING:
        embed.description = t(f"tables.play.status.{table.status.value}", lang)
        embed.colour = GREY
        return embed
    hand = round_.hand(seat)
    by_suit: dict[int, list[str]] = {}
    for card in hand:
        by_suit.setdefault(SUIT_OF[card], []).append(card_text(card))
    cards = "\n".join(f"{' '.join(v)}" for v in by_suit.values()) or t("hand.no_cards", lang)
    lines = [turned_line(round_, lang), "", cards, ""]
    lines.append(
        t("tables.trick", lang, number=len(round_.tricks) + 1)
        + ": "
        + trick_line(table, round_, lang)
    )
    mine = [a for a in round_.legal_actions() if a.seat == seat]
    if round_.turn == seat and any(a.kind in (Kind.PLAY, Kind.BID, Kind.PASS) for a in mine):
        lines.append(t("hand.your_turn", lang, clock=_deadline(table)))
    elif mine and not any(a.kind is Kind.RESIGN for a in mine):
        lines.append(t("hand.you_may_declare", lang))
    else:
        lines.append(t("hand.waiting", lang, name=seat_name(table.seats[round_.turn], lang)))
    occupant = table.seats[seat]
    if occupant is not None and occupant.away:
        lines.append(t("hand.away", lang))
    embed.description = "\n".join(lines)
    embed.set_footer(text=t("hand.footer", lang, deal=table.deal_no + 1))
    return embed


def summary_embed(table: Table, summary: dict[str, Any], lang: str) -> discord.Embed:
    """A finished deal: points per side, cantes, the last ten, the winner."""
    result = summary["result"]
    names: list[str] = summary["names"]
    embed = discord.Embed(
        title=t("summary.title", lang, deal=summary["deal_no"] + 1, id=table.id), colour=GOLD
    )

    def side_names(side: int) -> str:
        return " & ".join(_display(names[s], table.seats[s], lang) for s in result["sides"][side])

    for side in range(len(result["sides"])):
        value = t(
            "summary.side",
            lang,
            cards=result["card_points"][side],
            cantes=result["cantes"][side],
            last=10 if result["last_trick"] == side else 0,
            total=result["scores"][side],
            rounds=summary["rounds_won"][side],
        )
        taken = summary["taken"][side]
        if taken:
            value += "\n" + " ".join(card_text(c) for c in taken if _points(c))
        embed.add_field(name=side_names(side), value=value, inline=True)
    winner = result["winner"]
    end = result["end"]
    if winner is None:
        embed.description = t("summary.no_winner", lang, target=table.options.target)
    else:
        embed.description = t(f"summary.end.{end}", lang, names=side_names(winner))
        if result.get("double"):
            embed.description += "\n" + t("summary.double", lang)
    if "contract" in result:
        contract = result["contract"]
        key = "summary.contract_made" if contract["made"] else "summary.contract_failed"
        embed.description += "\n" + t(
            key,
            lang,
            name=_display(names[contract["seat"]], table.seats[contract["seat"]], lang),
            points=contract["points"],
        )
    return embed


def _display(name: str, seat: Seat | None, lang: str) -> str:
    return seat_name(seat, lang) if seat is not None else name


def game_over_embed(table: Table, lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("summary.game_over", lang, id=table.id), colour=GOLD)
    if table.winner is not None:
        embed.description = winner_line(table, table.winner, lang)
    game = table.game
    if game is not None:
        sides = (
            ((0, 2), (1, 3))
            if table.variant is Variant.PAIRS
            else tuple((s,) for s in range(table.players))
        )
        lines = [
            t(
                "summary.rounds_line",
                lang,
                names=" & ".join(seat_name(table.seats[s], lang) for s in seats),
                rounds=game.rounds_won[i],
            )
            for i, seats in enumerate(sides)
        ]
        embed.add_field(name=t("summary.rounds", lang), value="\n".join(lines), inline=False)
    return embed
