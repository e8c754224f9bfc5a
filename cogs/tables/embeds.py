"""The words of a table (its cards, seats, lines of play, log, hand and summary) and the
lobby's embed; :mod:`layouts` puts them together.

Pure builders over the service's views (``TableView``, ``HandView``: no hand but the
viewer's): nothing here talks to Discord, so tests and the presenter share them. Every text
comes from the catalog; the names members chose go into it through :func:`shown_name`
(escaped: a name's markdown, links or mentions take no effect).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import discord

from bot import words
from bot.engine import CODES, SUITS, Action, Kind
from bot.engine.cards import RANK_OF
from bot.i18n import t
from bot.render.symbols import SUIT_SYMBOLS, card_label
from bot.tables.model import Seat, Status
from bot.tables.summary import DealSummary
from bot.tables.views import DealView, HandView, TableView
from bot.words import card_name as card_name
from bot.words import result
from bot.words import settings as settings_words
from bot.words import suit_text as suit_text
from cogs._base import channel_url, shown_name

from .faces import NO_FACES, CardFaces
from .places import Place
from .rules_text import options_lines

GREEN = discord.Colour.from_rgb(27, 94, 32)
GOLD = discord.Colour.from_rgb(196, 138, 12)
GREY = discord.Colour.from_rgb(96, 99, 104)


def card_text(card: int, lang: str, faces: CardFaces = NO_FACES) -> str:
    """A card in short, for a line of cards: its face (an emoji) and its name, or else
    ``12🪙``. A screen reader reads a face as its emoji's name (``tute_12B_…``), so the
    face never stands alone."""
    face = faces.inline(card)
    return f"{face} {card_name(card, lang)}" if face else card_label(CODES[card])


def rank_name(card: int, lang: str) -> str:
    """A card's rank in words: "King", "Rey", "7"."""
    return words.rank_name(RANK_OF[card], lang)


def card_shown(card: int, lang: str, faces: CardFaces = NO_FACES) -> str:
    """A card in a line of text: its face (or its suit's symbol) and its short name,
    "🂻 King of coins"."""
    return f"{faces.inline(card) or SUIT_SYMBOLS[SUITS[card // 10]]} {card_name(card, lang)}"


def refusal_text(key: str, params: Mapping[str, object], lang: str) -> str:
    """Why the table refuses something, as the chat says it (:func:`bot.words.refusal_text`,
    what a member typed escaped)."""
    return words.refusal_text(key, params, lang, typed=shown_name)


def seat_name(seat: Seat | None, lang: str, *, plain: bool = False, short: bool = False) -> str:
    """Who sits in a seat, for Discord text: a member's name escaped (:func:`shown_name`),
    or raw where no markdown is shown (``plain``: a picture's alt text). ``short``: a robot
    without its level, for a line that must fit a phone's width."""
    return result.seat_text(seat, lang, escape=str if plain else shown_name, short=short)


variant_name = settings_words.variant_name
variant_title = settings_words.variant_title


def lobby_embed(table: TableView, place: Place, lang: str) -> discord.Embed:
    status = table.status
    colour = GREEN if status is Status.LOBBY else GREY
    embed = discord.Embed(title=variant_title(table, lang), colour=colour)
    host = (
        table.seats[table.seat_of(table.host_id) or 0]
        if table.seat_of(table.host_id) is not None
        else None
    )
    embed.description = lobby_status(table, place, seat_name(host, lang), lang)
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
        footer = t("tables.lobby.footer", lang)
        if table.commitment is not None:
            # shown before anyone starts it: the deals are fixed before the click
            footer = t("tables.shuffle", lang, code=table.commitment) + " · " + footer
        embed.set_footer(text=footer)
        embed.timestamp = datetime.fromtimestamp(table.lobby_deadline, tz=UTC)
    return embed


def lobby_status(table: TableView, place: Place, host: str, lang: str) -> str:
    """What the lobby says: how to sit down, where the game plays, or how it ended."""
    status = table.status
    if status is Status.PLAYING:
        if place.thread_id:
            return t("tables.lobby.status.playing", lang, thread=f"<#{place.thread_id}>")
        link = game_link(table, place)
        if link:
            return t("tables.lobby.status.playing_here", lang, link=link)
        return t("tables.lobby.status.starting", lang)
    text = t(f"tables.lobby.status.{status.value}", lang, host=host)
    if status is Status.FINISHED and table.winner is not None and table.rounds_won is not None:
        text += "\n" + winner_line(table, table.winner, lang)
    return text


def game_link(table: TableView, place: Place) -> str:
    """Where to follow the game: its thread, or else the table message in the channel."""
    if place.thread_id:
        return channel_url(table.guild_id, place.thread_id)
    if place.play_message_id:
        return channel_url(table.guild_id, table.channel_id, place.play_message_id)
    return ""


def clock_text(deadline: float | None) -> str:
    return "" if deadline is None else f"<t:{int(deadline)}:R>"


def trick_line(
    table: TableView,
    trick: tuple[tuple[int, int], ...],
    lang: str,
    *,
    plain: bool = False,
    short: bool = False,
    faces: CardFaces = NO_FACES,
) -> str:
    """The cards on the table, each with who played it (``plain``: for a picture's alt
    text, the names unescaped and the cards in words; ``short``: robots without their
    level)."""
    if not trick:
        return t("tables.trick.empty", lang)
    return " · ".join(
        f"{seat_name(table.seats[seat], lang, plain=plain, short=short)} "
        + (card_name(card, lang) if plain else card_shown(card, lang, faces))
        for seat, card in trick
    )


def stock_line(stock_left: int, lang: str) -> str:
    if stock_left:
        return t("tables.stock", lang, count=stock_left)
    return t("tables.stock_empty", lang)


def rounds_won_by(table: TableView, seats: tuple[int, ...]) -> int:
    """The rounds won in the game by the side of these seats (one side of a deal). At an
    arrastrado table of four a deal's sides leave its dealer out: they are not the game's."""
    won = zip(table.sides, table.rounds_won or (), strict=False)
    return next((rounds for side, rounds in won if seats[0] in side), 0)


def scores_line(table: TableView, deal: DealView, lang: str) -> str:
    parts: list[str] = []
    for side, seats in enumerate(deal.sides):
        names = names_joined([seat_name(table.seats[s], lang, short=True) for s in seats], lang)
        rounds = rounds_won_by(table, seats)
        parts.append(t("tables.score", lang, names=names, points=deal.scores[side], rounds=rounds))
    return "\n".join(parts)


def turned_line(deal: DealView, lang: str, faces: CardFaces = NO_FACES) -> str:
    """Trumps, and where the card turned to name them went (its face, where the bot has
    one, and its name): under the stock (then the stock), in the dealer's
    hand, or on the table: out of play, waiting for the trump 7 (or 2) that may take it, or
    taken for that card, left out of play instead."""
    turned = card_shown(deal.turned, lang, faces)
    suit = suit_text(deal.trump, lang)
    if deal.stock_left is not None:
        line = t("tables.trump", lang, suit=suit, card=turned)
        return line + "\n" + stock_line(deal.stock_left, lang)
    if deal.table_card is None:  # the dealer's last card
        return t("tables.trump.dealer", lang, suit=suit, card=turned)
    if deal.table_card != deal.turned:
        left = card_shown(deal.table_card, lang, faces)
        return t("tables.trump.swapped", lang, suit=suit, card=turned, left=left)
    if deal.swap_by is not None:
        rank = rank_name(deal.swap_by, lang)
        return t("tables.trump.may_swap", lang, suit=suit, card=turned, rank=rank)
    return t("tables.trump.out", lang, suit=suit, card=turned)


def last_trick_line(table: TableView, lang: str, faces: CardFaces = NO_FACES) -> str:
    """The last trick over, who played which card and who took it: "Last trick: Ana 7♣ ·
    Luis 1♣ · 🤖 Robot 2 3♣ → Luis takes it (+21)"; empty before the first."""
    deal = table.deal
    last = deal.last_trick if deal is not None else None
    if last is None:
        return ""
    cards = played_cards(table, last.cards, lang, faces)
    name = seat_name(table.seats[last.winner], lang, short=True)
    return t("tables.last_trick_line", lang, cards=cards, name=name, points=last.points)


def played_cards(
    table: TableView, cards: tuple[tuple[int, int], ...], lang: str, faces: CardFaces = NO_FACES
) -> str:
    """Cards played, each after who played it, in short: "Ana 7♣ · 🤖 Robot 2 3♣"."""
    return " · ".join(
        f"{seat_name(table.seats[seat], lang, short=True)} {card_text(card, lang, faces)}"
        for seat, card in cards
    )


def tally_lines(table: TableView, lang: str) -> list[str]:
    """What the game gave each member, in seat order (:func:`bot.words.result.tally_line`)."""
    return result.tally_lines(table, lang, escape=shown_name)


tally_title = result.tally_title
names_joined = result.names_joined


def tally_line(table: TableView, seat: Seat | None, lang: str) -> str:
    """What the game gave the member in a seat (nothing for a robot, or a friendly game)."""
    return result.tally_line(table, seat, lang, escape=shown_name)


def winner_line(table: TableView, side: int, lang: str) -> str:
    return result.winner_line(table, side, lang, escape=shown_name)


# ------------------------------------------------------------------------ the hand


def action_label(action: Action, hand: HandView, lang: str) -> str:
    """What a hand's button says: a card in short (its face where the bot has one), else
    the declaration in words, as the web table says it."""
    if action.kind is Kind.PLAY:
        return card_text(action.arg, lang)
    return words.hand_label(action, hand, lang)


def hand_lines(
    table: TableView,
    hand: HandView,
    lang: str,
    faces: CardFaces = NO_FACES,
    *,
    pictured: bool = False,
) -> list[str]:
    """What a hand says, and only what stays true until it is edited again: trumps; the
    trick (in words where no picture shows it: ``pictured``), the clock and why a card is
    held back when it is their turn (the hand is edited when the turn comes to them); a
    declaration they may make; that a robot plays for them. Once the game is over, how it
    ended."""
    if not hand.playing:
        lines = [t(f"tables.play.status.{table.status.value}", lang)]
        if table.winner is not None and table.rounds_won is not None:
            lines.append(winner_line(table, table.winner, lang))
        # what the game gave them, there too: the hand is all a player needs
        lines.append(tally_line(table, hand.occupant, lang))
        return [line for line in lines if line]
    line = t("hand.trumps", lang, suit=suit_text(hand.trump, lang))
    if hand.stock_left is not None:
        line += " · " + stock_line(hand.stock_left, lang)
    lines = [line]
    if hand.sits_out:
        lines.append(t("hand.sitting_out", lang))
    elif not hand.cards:
        lines.append(t("hand.no_cards", lang))
    if hand.robot_plays:
        lines.append(t("hand.away", lang))
    elif hand.your_turn:
        if hand.trick and not pictured:
            trick = trick_line(table, hand.trick, lang, short=True, faces=faces)
            lines.append(f"{t('tables.trick', lang, number=hand.trick_no + 1)}: {trick}")
        lines.append(t("hand.your_turn", lang, clock=clock_text(hand.turn_deadline)))
        lines += refused_lines(hand, lang)
    elif hand.may_declare:
        lines.append(t("hand.you_may_declare", lang))
    return lines


def refused_lines(hand: HandView, lang: str) -> list[str]:
    """Why cards cannot be played now, in one line ("🚫 You must follow suit: play copas."):
    the reason of a card beside the ones that may be played (of their suit: "beat the 5
    with a higher one" says "follow suit" too), else the first. The cards themselves show
    on the buttons, disabled; one line keeps the hand on a phone's screen."""
    if not hand.refusals:
        return []
    suits = {card // 10 for card in hand.playable}
    refusal = next((r for r in hand.refusals if r.card // 10 in suits), hand.refusals[0])
    return [t("hand.refused", lang, why=refusal_text(refusal.key, refusal.params, lang))]


def summary_lines(table: TableView, summary: DealSummary, lang: str) -> list[str]:
    """A finished deal in a few short lines: how it ended, then each side's points."""
    ended = summary.result
    names = summary.names
    sides = ended.sides

    def named(side: int) -> str:
        return names_joined([_display(names[s], table.seats[s], lang) for s in sides[side]], lang)

    def seat(n: int) -> str:
        return _display(names[n], table.seats[n], lang)

    no_winner = t("summary.no_winner", lang, target=table.options.target)
    return [
        *ending_lines(ended, named, seat, no_winner, lang),
        "",
        *side_lines(ended, named, lang, summary.carried),
    ]


ending_lines = result.ending_lines
side_lines = result.side_lines


def _display(name: str, seat: Seat | None, lang: str) -> str:
    return seat_name(seat, lang) if seat is not None else shown_name(name)
