"""A step of a lesson drawn as one message (layout components): the lesson and step, the
word on the last move, the picture (the cards on a page to read, else the table from the
learner's seat), the state in a few lines, the task, then the learner's cards and
declarations as buttons, every one enabled: the engine answers each click, a wrong one with
why. The course's end offers a practice deal. Pure builders over the tutorial's views;
the picture is drawn by :func:`picture_file`."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import discord

from bot.engine import CODES, SUITS, Action, Kind
from bot.engine.events import exchange_card
from bot.i18n import t
from bot.render import SeatInfo, TableScene, render_table
from bot.render.deck import render_deck
from bot.render.symbols import SUIT_SYMBOLS
from bot.tables.codes import encode_action
from bot.tables.tutorial import NEXT, LessonView, Said, Tone
from bot.words import action_label, card_name, suit_text
from cogs.tables.embeds import refusal_text
from cogs.tables.guide_pages import deck_alt, deck_scene
from cogs.tables.layouts import picture, rule
from cogs.tables.pictures import as_file

from .buttons import OPEN, PRACTICE, LearnButton

PICTURE_FILE: Final = "lesson.png"
CARD_ROW: Final = 3
"""Cards in a row of buttons: a hand of ten in four rows, names still readable on a phone."""
GREEN: Final = discord.Colour.dark_green()
GOLD: Final = discord.Colour.gold()

Item = discord.ui.Item[Any]


def seat_name(view: LessonView, seat: int, lang: str) -> str:
    """ "You", "Robot" in habanero; in pairs "Partner" across and "Rival 1", "Rival 2"."""
    if seat == 0:
        return t("learn.you", lang)
    if view.seat.players == 2:
        return t("learn.robot", lang)
    if seat == 2:
        return t("learn.partner", lang)
    return t("learn.rival", lang, number=1 if seat == 1 else 2)


def said_text(said: Said, lang: str) -> str:
    if said.tone is Tone.REFUSED:
        text = refusal_text(said.key, said.params, lang)
    else:
        text = t(said.key, lang)
    return t(f"learn.tone.{said.tone.value}", lang, text=text)


def _trick_words(view: LessonView, trick: tuple[tuple[int, int], ...], lang: str) -> str:
    return ", ".join(f"{card_name(c, lang)} ({seat_name(view, s, lang)})" for s, c in trick)


def state_lines(view: LessonView, lang: str) -> list[str]:
    """Trumps, the turned card and the stock; the last trick; the cantes; the points."""
    seat = view.seat
    first = [t("learn.trumps", lang, suit=suit_text(seat.trump, lang))]
    if seat.turned_visible:
        first.append(t("learn.turned", lang, card=card_name(seat.turned, lang)))
    if seat.variant.has_stock:
        if seat.stock_left:
            first.append(t("learn.stock", lang, count=seat.stock_left))
        else:
            first.append(t("learn.stock_empty", lang))
    lines = [" · ".join(first)]
    if seat.tricks:
        last = seat.tricks[-1]
        cards = tuple(zip(seat.order(last.leader), last.cards, strict=False))
        lines.append(
            t(
                "learn.last_trick",
                lang,
                cards=_trick_words(view, cards, lang),
                name=seat_name(view, last.winner, lang),
            )
        )
    if seat.cantes:
        sung = [
            f"{c.points} {SUIT_SYMBOLS[SUITS[c.suit]]} ({seat_name(view, c.seat, lang)})"
            for c in seat.cantes
        ]
        lines.append(t("learn.cantes", lang, cantes=" · ".join(sung)))
    if seat.tricks or seat.cantes:
        lines.append(t("learn.points", lang, us=seat.scores[0], them=seat.scores[1]))
    return lines


def end_lines(view: LessonView, lang: str) -> list[str]:
    """A lesson over: its lesson in a line, the count of a finished deal, what comes next."""
    lines = [t("learn.lesson_done", lang, summary=t(f"learn.{view.name}.done", lang))]
    result = view.seat.result
    if result is not None:
        lines.append(
            t(
                "learn.count",
                lang,
                cards=result.card_points[0],
                last=10 if result.last_trick == 0 else 0,
                total=result.scores[0],
                other=result.scores[1],
            )
        )
    if view.last:
        lines.append(t("learn.course_done", lang))
    return lines


def _label(view: LessonView, action: Action, lang: str) -> str:
    if action.kind is Kind.PLAY:
        return card_name(action.arg, lang)
    seat = view.seat
    turned = seat.turned if seat.turned_visible else -1
    return action_label(
        action,
        lang,
        trump=seat.trump,
        target=seat.options.target,
        exchange_card=turned,
        exchange_gives=exchange_card(turned, seat.trump),
    )


def _rows(view: LessonView, lang: str, owner: int) -> list[discord.ui.ActionRow[Any]]:
    rows: list[discord.ui.ActionRow[Any]] = []
    cards = [a for a in view.choices if a.kind is Kind.PLAY]
    said = [a for a in view.choices if a.kind is not Kind.PLAY]

    def button(action: Action, style: discord.ButtonStyle) -> LearnButton:
        code, label = encode_action(action), _label(view, action, lang)
        return LearnButton(lang, view.number, view.step, code, label, owner=owner, style=style)

    for start in range(0, len(cards), CARD_ROW):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for action in cards[start : start + CARD_ROW]:
            row.add_item(button(action, discord.ButtonStyle.secondary))
        rows.append(row)
    if said:
        row = discord.ui.ActionRow()
        for action in said:
            row.add_item(button(action, discord.ButtonStyle.success))
        rows.append(row)
    return rows


def _nav(view: LessonView, lang: str, owner: int) -> discord.ui.ActionRow[Any]:
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    style = discord.ButtonStyle.primary
    if view.reading:
        label = t("learn.btn.next", lang)
        row.add_item(
            LearnButton(lang, view.number, view.step, NEXT, label, owner=owner, style=style)
        )
        return row
    if view.over and not view.last:
        label = t("learn.btn.next_lesson", lang)
        row.add_item(LearnButton(lang, view.number + 1, 0, OPEN, label, owner=owner, style=style))
    if view.over and view.last:
        label = t("learn.btn.practice", lang)
        practice = LearnButton(
            lang, view.number, view.step, PRACTICE, label, owner=owner, style=style
        )
        row.add_item(practice)
    row.add_item(LearnButton(lang, view.number, 0, OPEN, t("learn.btn.again", lang), owner=owner))
    if view.over and view.last:
        row.add_item(LearnButton(lang, 0, 0, OPEN, t("learn.btn.first", lang), owner=owner))
    return row


def lesson_layout(
    view: LessonView, lang: str, notice: str = "", *, owner: int
) -> discord.ui.LayoutView:
    """The step as one message, its buttons ``owner``'s alone; ``notice`` above it (why it
    is not in the DMs)."""
    title = t(f"learn.{view.name}.title", lang)
    heading = [
        t("learn.heading", lang, number=view.number + 1, lessons=view.lessons, title=title),
        f"-# {t('learn.step', lang, step=min(view.step + 1, view.steps), steps=view.steps)}",
    ]
    items: list[Item] = []
    if notice:
        items.append(discord.ui.TextDisplay(f"-# {notice}"))
    items.append(discord.ui.TextDisplay("### " + "\n".join(heading)))
    if view.step == 0 and view.said is None:
        items.append(discord.ui.TextDisplay(t(f"learn.{view.name}.intro", lang)))
    if view.said is not None:
        items.append(discord.ui.TextDisplay(said_text(view.said, lang)))
    items.append(picture(PICTURE_FILE))
    lines = state_lines(view, lang) if not view.reading else []
    if view.over:
        lines += ["", *end_lines(view, lang)]
    else:
        task = t(f"learn.{view.name}.{view.step}.task", lang)
        lines += ["", t("learn.task", lang, task=task)]
    items.append(discord.ui.TextDisplay("\n".join(lines).strip()))
    if not view.over and not view.reading:
        items += _rows(view, lang, owner)
    items.append(rule())
    items.append(_nav(view, lang, owner))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*items, accent_colour=GOLD if view.over else GREEN))
    return layout


@lru_cache(maxsize=4)
def _deck_png(lang: str) -> bytes:
    return render_deck(deck_scene(lang))


def table_scene(view: LessonView, lang: str) -> TableScene:
    seat = view.seat
    pairs = seat.players == 4
    return TableScene(
        seats=tuple(
            SeatInfo(
                name=seat_name(view, i, lang),
                is_turn=seat.result is None and i == seat.turn,
                is_robot=i != 0,
                team=i % 2 if pairs else None,
            )
            for i in range(seat.players)
        ),
        trump_suit=SUITS[seat.trump],
        trick=tuple((s, CODES[c]) for s, c in seat.trick),
        turned=CODES[seat.turned] if seat.turned_visible else None,
        stock_left=seat.stock_left,
        viewer_seat=0,
    )


def picture_file(view: LessonView, lang: str) -> discord.File:
    """The step's picture (drawn here: call it off the event loop)."""
    if view.reading:
        return as_file(_deck_png(lang), PICTURE_FILE, deck_alt(lang))
    seat = view.seat
    trick = _trick_words(view, seat.trick, lang) or t("learn.nothing_played", lang)
    alt = t("learn.picture_alt", lang, trick=trick, trump=suit_text(seat.trump, lang))
    return as_file(render_table(table_scene(view, lang)), PICTURE_FILE, alt)
