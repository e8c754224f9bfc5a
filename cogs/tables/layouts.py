"""The table and the hand drawn with Discord's layout components (components v2): each
message one container that reads top to bottom on a phone — its title, the picture, the
state in a few short lines, what happened, the buttons. Pure builders over the service's
views, like :mod:`embeds` (whose words they share); the pictures are attached by
:mod:`messages` once a message is known to be sent.

A message sent with embeds cannot take layout components: tables and hands sent before
them are drawn the old way by :mod:`messages` until their next fresh message.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import SUITS, Action, Kind
from bot.i18n import t
from bot.render.symbols import SUIT_SYMBOLS
from bot.tables.codes import encode_action
from bot.tables.model import Status
from bot.tables.summary import DealSummary
from bot.tables.views import HandView, TableView
from bot.words import ASKED, card_name, result
from cogs._base import command_path, shown_name

from . import embeds as ui
from . import said
from .buttons import HandButton, TableButton, TableOp
from .faces import NO_FACES, CardFaces
from .hints import hint_button, hints_line
from .pictures import SUMMARY_FILE, TABLE_FILE, TRICK_FILE
from .places import Place
from .replay_buttons import replay_open_button, review_open_button

ROW = 5
"""Buttons in a row (Discord allows five)."""
CARD_ROW = 2
"""Cards in a row of buttons: two names share a phone's line, and a row never leaves a line
half empty before the next."""
LOG_LINES = 2
"""Events the table message shows, newest last (the last trick has a line of its own; the
whole deal is under Tricks, and in its summary)."""

Layout = discord.ui.LayoutView
Item = discord.ui.Item[Any]


def _layout(*items: Item, colour: discord.Colour) -> Layout:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=colour))
    return view


def _text(lines: list[str]) -> discord.ui.TextDisplay[Any]:
    return discord.ui.TextDisplay("\n".join(line for line in lines if line) or "-")


def _small(lines: list[str]) -> list[str]:
    """Lines in Discord's small grey type."""
    return [f"-# {line}" for line in lines]


def picture(filename: str) -> discord.ui.MediaGallery[Any]:
    """Where a picture goes; the file itself is attached when the message is sent."""
    return discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{filename}"))


def rule() -> discord.ui.Separator[Any]:
    """A thin line between a message's parts."""
    return discord.ui.Separator(spacing=discord.SeparatorSpacing.small)


# ------------------------------------------------------------------------ the table


def table_layout(
    table: TableView,
    place: Place,
    lang: str,
    faces: CardFaces = NO_FACES,
    *,
    web: bool = False,
) -> Layout:
    """The table in play (its picture, whose turn and how long they have, trumps, cantes,
    scores, who gets their hand under My hand, what happened last, its buttons; with the
    web table on, Play at the table on a row of its own), or how it ended."""
    deal = table.deal
    if deal is None or table.status is not Status.PLAYING:
        return ended_layout(table, lang, faces)
    state = [ui.turned_line(deal, lang, faces).replace("\n", " · ")]
    state.append(_turn_line(table, lang))
    if table.paused_until is not None:
        state.append(t("tables.play.paused", lang, until=int(table.paused_until)))
    if deal.contract is not None:
        name = ui.seat_name(table.seats[deal.contract.seat], lang)
        state.append(t("tables.contract", lang, name=name, points=deal.contract.points))
    if deal.capote_seat is not None:
        state.append(
            t("tables.capote", lang, name=ui.seat_name(table.seats[deal.capote_seat], lang))
        )
    if deal.cantes:
        cantes = [
            t(
                "tables.cante_item",
                lang,
                name=ui.seat_name(table.seats[c.seat], lang, short=True),
                points=c.points,
                suit=SUIT_SYMBOLS[SUITS[c.suit]],
            )
            for c in deal.cantes
        ]
        state.append(t("tables.cantes_line", lang, cantes=" · ".join(cantes)))
    state.append(_scores_line(table, lang))
    last = ui.last_trick_line(table, lang, faces)
    if last:
        state.append(last)
    closed = [ui.seat_name(table.seats[i], lang) for i in place.closed_seats(table)]
    if closed:
        state.append(t("tables.dms_closed", lang, names=", ".join(closed)))
    delivery = "dm" if table.hand_delivery == "dm" else "ephemeral"
    footer = t(f"tables.play.footer.{delivery}", lang, deal=table.deal_no + 1)
    if table.commitment is not None:
        footer += " · " + t("tables.shuffle", lang, code=table.commitment)
    log = said.log_lines(table, lang, LOG_LINES, faces)
    return _layout(
        _text([f"**{ui.variant_title(table, lang)}**"]),
        picture(TABLE_FILE),
        _text(state),
        rule(),
        _text(_small(["• " + line for line in log]) or [t("tables.log.started", lang)]),
        _table_buttons(table, lang),
        *([web_row(table.id, lang)] if web else []),
        _text(_small([footer])),
        colour=ui.GOLD,
    )


def _scores_line(table: TableView, lang: str, viewer: int | None = None) -> str:
    """Each side's points in the deal, in one line; the rounds each has won too, in a game
    of more than one. As ``viewer``'s seat reads them (in their hand): their own side first,
    as "You" (or "Us"), the other of two pairs as "Them", the others by their names."""
    deal = table.deal
    assert deal is not None
    sides = sorted(range(len(deal.sides)), key=lambda side: viewer not in deal.sides[side])
    items: list[str] = []
    for side in sides:
        seats = deal.sides[side]
        if viewer in seats:
            names = t("hand.side.us" if len(seats) > 1 else "hand.side.you", lang)
        elif viewer is not None and len(seats) > 1 and len(deal.sides) == 2:
            names = t("hand.side.them", lang)
        else:
            names = ui.names_joined(
                [ui.seat_name(table.seats[s], lang, short=True) for s in seats], lang
            )
        points = deal.scores[side]
        if table.options.rounds > 1:
            rounds = ui.rounds_won_by(table, seats)
            items.append(
                t("tables.score_item_rounds", lang, names=names, points=points, rounds=rounds)
            )
        else:
            items.append(t("tables.score_item", lang, names=names, points=points))
    return t("tables.scores_line", lang, scores=" · ".join(items))


def _turn_line(table: TableView, lang: str) -> str:
    deal = table.deal
    assert deal is not None
    name = ui.seat_name(table.seats[deal.turn], lang)
    if deal.auction:
        return t("tables.auction", lang, name=name, bid=deal.high_bid or "-")
    return t("tables.turn", lang, name=name, clock=ui.clock_text(table.turn_deadline))


def _table_buttons(table: TableView, lang: str) -> discord.ui.ActionRow[Any]:
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for button in table_buttons(table, lang):
        row.add_item(button)
    return row


def web_row(table_id: int, lang: str) -> discord.ui.ActionRow[Any]:
    """Play at the table: the web table (Discord's Activity) opened for whoever clicks."""
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    label = t("tables.btn.web", lang)
    row.add_item(TableButton(table_id, TableOp.WEB, label=label, style=discord.ButtonStyle.success))
    return row


def table_buttons(table: TableView, lang: str) -> list[TableButton]:
    """The buttons of the table in play: My hand, the deal's tricks so far, I'm back (while
    a member is away), vote to cancel, leave."""
    primary, danger = discord.ButtonStyle.primary, discord.ButtonStyle.danger
    buttons = [TableButton(table.id, TableOp.HAND, label=t("tables.btn.hand", lang), style=primary)]
    buttons.append(TableButton(table.id, TableOp.TRICKS, label=t("tables.btn.tricks", lang)))
    if any(s is not None and s.away and not s.left for s in table.seats):
        label = t("tables.btn.back", lang)
        buttons.append(
            TableButton(table.id, TableOp.BACK, label=label, style=discord.ButtonStyle.success)
        )
    buttons.append(TableButton(table.id, TableOp.CANCEL, label=t("tables.btn.cancel", lang)))
    label = t("tables.btn.leave_game", lang)
    buttons.append(TableButton(table.id, TableOp.LEAVE, label=label, style=danger))
    return buttons


def ended_layout(table: TableView, lang: str, faces: CardFaces = NO_FACES) -> Layout:
    """A table that no longer plays: the result of a finished game (the winner, the rounds
    each side won, what each member won or lost, then the last deal's summary, which this
    message showed) and a Rematch button; or why it stopped. A daily deal, played once, has
    no rematch: a line says where to go next instead."""
    status = table.status
    finished = status is Status.FINISHED
    title = t("summary.game_over", lang, id=table.id) if finished else None
    lines = [f"### {title or ui.variant_title(table, lang)}"]
    if not finished:  # why it stopped (a finished game's title says it)
        lines.append(t(f"tables.play.status.{status.value}", lang))
    if table.winner is not None and table.rounds_won is not None:
        lines.append(ui.winner_line(table, table.winner, lang))
    items: list[Item] = [_text(lines)]
    if finished and table.rounds_won is not None:
        rounds = result.rounds_lines(table, lang, escape=shown_name)
        items.append(_text([f"**{t('summary.rounds', lang)}**", *rounds]))
        tally = ui.tally_lines(table, lang)
        if tally:
            items.append(_text([f"**{ui.tally_title(table, lang)}**", *tally]))
        hinted = hints_line(table, lang)
        if hinted:
            items.append(_text([hinted]))
    log = said.log_lines(table, lang, LOG_LINES, faces)
    if log:
        items += [rule(), _text(_small(["• " + line for line in log]))]
    summary = table.summary
    if finished and summary is not None:
        title = t("summary.title", lang, deal=summary.deal_no + 1, id=table.id)
        items += [
            rule(),
            _text([f"**{title}**", *ui.summary_lines(table, summary, lang)]),
            picture(SUMMARY_FILE),
        ]
    if table.daily:
        board = command_path(lang, "tute", "challenge", "board")
        items += [rule(), _text([t("daily.ended", lang, command=board)])]
    if finished:
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        if not table.daily:
            label = t("tables.btn.rematch", lang)
            row.add_item(
                TableButton(
                    table.id, TableOp.REMATCH, label=label, style=discord.ButtonStyle.success
                )
            )
        if summary is not None:
            row.add_item(replay_open_button(table.id, summary.deal_no, lang))
            row.add_item(review_open_button(table.id, summary.deal_no, lang))
        if row.children:
            items.append(row)
    return _layout(*items, colour=ui.GOLD if finished else ui.GREY)


def summary_layout(table: TableView, summary: DealSummary, lang: str) -> Layout:
    """A deal that is over, as it stays in the thread: how it ended, each side's points,
    and the picture of what each side took."""
    title = t("summary.title", lang, deal=summary.deal_no + 1, id=table.id)
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(replay_open_button(table.id, summary.deal_no, lang))
    row.add_item(review_open_button(table.id, summary.deal_no, lang))
    hinted = hints_line(table, lang)  # apart from the points, so that no count reads as one
    return _layout(
        _text([f"### {title}", *ui.summary_lines(table, summary, lang), *filter(None, [hinted])]),
        picture(SUMMARY_FILE),
        row,
        colour=ui.GOLD,
    )


# ------------------------------------------------------------------------- the hand


ASK = "q"
"""Before an action's code in a button's id: the click asks whether to do it."""
SURE = "y"
"""Before an action's code in a button's id: the answer Yes to that question."""


def shows_trick(hand: HandView) -> bool:
    """A hand shows the table from its seat (the trick, who played each card, whose turn)
    on its player's turn: the hand is then all they need, on a phone too. It is edited when
    its buttons change, so between turns the picture would fall behind."""
    return hand.playing and hand.your_turn and not hand.robot_plays and bool(hand.cards)


def hand_layout(
    table: TableView,
    hand: HandView,
    lang: str,
    *,
    ephemeral: bool,
    faces: CardFaces = NO_FACES,
) -> Layout:
    """A player's hand: on their turn the table from their seat (a picture), the clock, the
    score and why a card is held back; trumps; one button per card, two to a row, each
    naming its card (the playable ones enabled); the declarations they may make now, and
    those that ask first on a row of their own."""
    if hand.left:
        # the hand's last word, with nothing left to click
        return _layout(_text([t("tables.hand.left", lang)]), colour=ui.GREY)
    title = t("hand.title", lang, id=table.id, deal=table.deal_no + 1)
    lines = ui.hand_lines(table, hand, lang, faces, pictured=shows_trick(hand))
    if not hand.playing:
        return _layout(_text([title, *lines]), colour=ui.GREY)
    items: list[Item] = [_text([title])]
    if shows_trick(hand):
        items.append(picture(TRICK_FILE))
        lines.insert(1, _scores_line(table, lang, hand.seat))
    items.append(_text(lines))
    rows = _card_rows(hand, lang)
    said: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    asked: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for button in declaration_buttons(hand, lang):
        (asked if button.code.startswith(ASK) else said).add_item(button)
    if ephemeral:
        refresh = TableButton(table.id, TableOp.REFRESH, label=t("tables.btn.refresh", lang))
        if rows:
            rows[-1].add_item(refresh)  # after the last cards: on their line, if it fits
        elif said.children and len(said.children) < ROW:
            said.add_item(refresh)
        else:
            alone: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            alone.add_item(refresh)
            rows.append(alone)
    hints: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    if hand.hint:  # after the declarations, on their row if it fits
        (said if len(said.children) < ROW else hints).add_item(hint_button(table.id, lang))
    items += rows
    items += [row for row in (said, hints, asked) if row.children]
    return _layout(*items, colour=ui.GREEN)


def _card_rows(hand: HandView, lang: str) -> list[discord.ui.ActionRow[Any]]:
    """The cards in the hand's order (a suit after another), two to a row of buttons, each
    button the card's name, "King of coins", which says the suit to a screen reader too. No
    face beside it: the names alone let two buttons share a line on a phone, and the hand
    stay on one screen."""
    rows: list[discord.ui.ActionRow[Any]] = []
    for start in range(0, len(hand.cards), CARD_ROW):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for card in hand.cards[start : start + CARD_ROW]:
            playable = card in hand.playable
            button = hand_button(
                hand,
                Action.play(hand.seat, card),
                card_name(card, lang),
                discord.ButtonStyle.primary if playable else discord.ButtonStyle.secondary,
                disabled=not playable,
            )
            row.add_item(button)
        rows.append(row)
    return rows


def declaration_buttons(hand: HandView, lang: str) -> list[HandButton]:
    """What the player may declare now (sing, exchange, tute...), in words; capote and
    resigning ask first (their code says so), resigning in red."""
    buttons: list[HandButton] = []
    for action in hand.declarations:
        style = discord.ButtonStyle.success
        if action.kind is Kind.RESIGN:
            style = discord.ButtonStyle.danger
        elif action.kind in ASKED:
            style = discord.ButtonStyle.secondary
        label = ui.action_label(action, hand, lang)
        prefix = ASK if action.kind in ASKED else ""
        buttons.append(hand_button(hand, action, label, style, prefix=prefix))
    return buttons


def hand_button(
    hand: HandView,
    action: Action,
    label: str,
    style: discord.ButtonStyle,
    *,
    disabled: bool = False,
    prefix: str = "",
) -> HandButton:
    """A card or a declaration of the hand; its id names the deal and trick it was drawn
    for (a click on a stale one is refused), and its action's code after ``prefix`` (``ASK``
    or ``SURE``, or none: the click acts)."""
    return HandButton(
        hand.table_id,
        hand.deal_no,
        hand.trick_no,
        prefix + encode_action(action),
        label=label,
        style=style,
        disabled=disabled,
    )
