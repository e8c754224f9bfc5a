"""A finished deal stepped through, for one member alone: an ephemeral message with the
table picture of each moment (every hand shown: the deal is over) and what happened, and
buttons to go back and forth. Opened from a deal's summary (anyone in the channel) or by
``/tute history``, which adds the deal's game record as a file; Review beside its steps
(:mod:`reviews`) judges the presser's own decisions in it.

The buttons name the table, the deal and the step (and whether the record file goes with
it): a click after a restart rebuilds the replay from the stored record, as the first one
did. Each click edits only its own ephemeral message.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot.engine import CODES, SUITS, Action, Kind
from bot.i18n import t
from bot.render import SeatInfo, TableScene
from bot.render.replay import ReplayScene, render_replay
from bot.tables.errors import TableError
from bot.tables.numbers import parse_number
from bot.tables.replay import DealReplay, ReplayStep, StepKind, deal_replay, recent_deals
from bot.words import card_name, suit_text
from cogs._base import shown_name

from . import embeds as ui
from .buttons import on_click
from .common import answered, clock_of, db_of, locale_of, refuse
from .layouts import picture
from .pictures import as_file
from .presenter import presenter_of
from .replay_buttons import GOES, ReplayButton, ReplayOpen, review_open_button

REPLAY_FILE = "replay.png"
RECORD_FILE = "tute-record.json"


# ------------------------------------------------------------------------ the words


def seat_text(replay: DealReplay, seat: int, lang: str, *, plain: bool = False) -> str:
    """Who sat in ``seat``, for Discord text (a member's name escaped) or a picture."""
    sat = replay.seats[seat]
    if sat.user_id is None:
        return t("tables.robot_short", lang, number=sat.robot_no or seat + 1)
    if sat.name is None:
        return t("replays.player", lang, number=seat + 1)
    return sat.name if plain else shown_name(sat.name)


def _side_text(replay: DealReplay, side: int, lang: str) -> str:
    return ui.names_joined([seat_text(replay, s, lang) for s in replay.sides[side]], lang)


def _declared(replay: DealReplay, action: Action, lang: str) -> str:
    name = seat_text(replay, action.seat, lang)
    if action.kind is Kind.BID:
        return t("replays.said.bid", lang, name=name, points=action.arg)
    return t(f"replays.said.{action.kind.name.lower()}", lang, name=name)


def step_lines(replay: DealReplay, index: int, lang: str) -> list[str]:
    """What happened at step ``index``, in a few short lines, with the points so far."""
    step = replay.steps[index]
    lines: list[str] = []
    if step.kind is StepKind.DEALT:
        lines.append(
            t(
                "replays.dealt",
                lang,
                dealer=seat_text(replay, replay.dealer, lang),
                suit=suit_text(replay.trump, lang),
            )
        )
        lines.append(t("replays.turned", lang, card=card_name(replay.turned, lang)))
    if step.trick is not None:
        trick = step.trick
        cards = " · ".join(
            t(
                "replays.card",
                lang,
                name=seat_text(replay, seat, lang),
                card=card_name(card, lang),
            )
            for seat, card in trick.cards
        )
        lines.append(
            t(
                "replays.trick",
                lang,
                number=trick.number,
                leader=seat_text(replay, trick.leader, lang),
                cards=cards,
                winner=seat_text(replay, trick.winner, lang),
                points=trick.points,
            )
        )
    lines += [
        t(
            "replays.exchange",
            lang,
            name=seat_text(replay, swap.seat, lang),
            gave=card_name(swap.gave, lang, the=True),
            took=card_name(swap.took, lang),
        )
        for swap in step.exchanges
    ]
    lines += [
        t(
            "tables.cante_line",
            lang,
            name=seat_text(replay, cante.seat, lang),
            points=cante.points,
            suit=suit_text(cante.suit, lang),
        )
        for cante in step.cantes
    ]
    lines += [_declared(replay, action, lang) for action in step.declared]
    if step.kind is StepKind.RESULT:
        return lines + _result_lines(replay, step, lang)
    scores = " · ".join(
        t("replays.side_points", lang, names=_side_text(replay, side, lang), points=points)
        for side, points in enumerate(step.scores)
    )
    lines.append(t("replays.scores", lang, scores=scores))
    return lines


def _result_lines(replay: DealReplay, step: ReplayStep, lang: str) -> list[str]:
    result = step.result
    assert result is not None

    def named(side: int) -> str:
        return _side_text(replay, side, lang)

    def seat(n: int) -> str:
        return seat_text(replay, n, lang)

    no_winner = t("replays.no_winner", lang)
    return ui.ending_lines(result, named, seat, no_winner, lang) + ui.side_lines(
        result, named, lang
    )


# --------------------------------------------------------------------- the message


def replay_picture(replay: DealReplay, index: int, lang: str) -> discord.File:
    """The table at step ``index``: the trick that closed there (its winner lit), and
    every seat's hand after it; its alt text says the hands in words."""
    step = replay.steps[index]
    trick = step.trick
    seats = tuple(
        SeatInfo(
            name=seat_text(replay, seat, lang, plain=True),
            is_robot=replay.seats[seat].user_id is None,
            team=replay.team_of(seat),
            note=t("tables.picture.sits_out", lang) if replay.side_of[seat] < 0 else "",
        )
        for seat in range(len(replay.seats))
    )
    table = TableScene(
        seats=seats,
        trump_suit=SUITS[replay.trump],
        trick=tuple((seat, CODES[card]) for seat, card in trick.cards) if trick else (),
        turned=CODES[step.face_up] if step.face_up is not None else None,
        stock_left=step.stock_left,
        trick_winner=trick.winner if trick else None,
    )
    hands = tuple(tuple(CODES[c] for c in hand) for hand in step.hands)
    held = "; ".join(
        t(
            "replays.hand_alt",
            lang,
            name=seat_text(replay, seat, lang, plain=True),
            cards=", ".join(card_name(c, lang) for c in hand) or "-",
        )
        for seat, hand in enumerate(step.hands)
    )
    alt = t("replays.alt", lang, step=index + 1, steps=len(replay.steps), hands=held)
    return as_file(render_replay(ReplayScene(table, hands)), REPLAY_FILE, alt)


def replay_view(replay: DealReplay, index: int, lang: str, *, with_record: bool) -> Any:
    """The replay's message at step ``index``: title, what happened, the picture, (the
    record file), and the four buttons, those that lead nowhere disabled."""
    last = len(replay.steps) - 1
    title = t("replays.title", lang, deal=replay.deal_no + 1, id=replay.table_id)
    where = t("replays.step", lang, step=index + 1, steps=last + 1)
    items: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(f"### {title}\n-# {where}"),
        discord.ui.TextDisplay("\n".join(step_lines(replay, index, lang))),
        picture(REPLAY_FILE),
    ]
    if with_record:
        items.append(discord.ui.TextDisplay("-# " + t("replays.record", lang)))
        items.append(discord.ui.File(f"attachment://{RECORD_FILE}"))
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    targets = {"f": 0, "b": index - 1, "n": index + 1, "l": last}
    for go, symbol in GOES.items():
        target = min(max(targets[go], 0), last)
        row.add_item(
            ReplayButton(
                replay.table_id,
                replay.deal_no,
                target,
                go,
                int(with_record),
                label=symbol,
                disabled=target == index,
            )
        )
    row.add_item(review_open_button(replay.table_id, replay.deal_no, lang))
    items.append(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=ui.GOLD))
    return view


def replay_files(
    replay: DealReplay, index: int, lang: str, *, with_record: bool
) -> list[discord.File | None]:
    files: list[discord.File | None] = [replay_picture(replay, index, lang)]
    if with_record:
        text = json.dumps(json.loads(replay.record), indent=1, ensure_ascii=False)
        files.append(as_file(text.encode(), RECORD_FILE, t("replays.record", lang)))
    return files


async def replay_at(
    interaction: discord.Interaction[Any], table_id: int, deal_no: int, step: int
) -> tuple[DealReplay, int]:
    """The replay asked for (refused where it is not this server's, or the member's own in
    their DMs; or not over) and the step to show, within its steps."""
    replay = await deal_replay(
        db_of(interaction.client),
        interaction.guild_id,
        table_id,
        deal_no,
        user_id=interaction.user.id,
        now=clock_of(interaction.client)(),
    )
    return replay, min(max(step, 0), len(replay.steps) - 1)


async def drawn(
    interaction: discord.Interaction[Any], replay: DealReplay, index: int, *, with_record: bool
) -> dict[str, Any]:
    """The message of step ``index``, its pictures drawn off the event loop."""
    lang = locale_of(interaction)
    files = await presenter_of(interaction.client).outlet.drawing.draw(
        functools.partial(replay_files, replay, index, lang, with_record=with_record)
    )
    return {"view": replay_view(replay, index, lang, with_record=with_record), "files": files}


async def send_replay(
    interaction: discord.Interaction[Any],
    table_id: int,
    deal_no: int,
    *,
    with_record: bool,
) -> None:
    """Answer with the replay's first step, for the user alone."""
    replay, index = await replay_at(interaction, table_id, deal_no, 0)
    payload = await drawn(interaction, replay, index, with_record=with_record)
    await answered(interaction, interaction.response.send_message(**payload, ephemeral=True))


@on_click(ReplayOpen)
async def _open(button: ReplayOpen, interaction: discord.Interaction[Any]) -> None:
    await send_replay(interaction, button.table_id, button.deal_no, with_record=False)


@on_click(ReplayButton)
async def _step(button: ReplayButton, interaction: discord.Interaction[Any]) -> None:
    replay, index = await replay_at(interaction, button.table_id, button.deal_no, button.step)
    payload = await drawn(interaction, replay, index, with_record=button.with_record)
    payload["attachments"] = payload.pop("files")
    await answered(interaction, interaction.response.edit_message(**payload))


# ------------------------------------------------------------------- /tute history

CHOICES = 25
"""The most choices an autocomplete may offer."""


def _deal_value(table_id: int, deal_no: int) -> str:
    return f"{table_id}:{deal_no}"


async def history_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The member's recent finished deals here, newest first, those matching what they
    typed (a table number, a variant)."""
    lang = locale_of(interaction)
    deals = await recent_deals(
        db_of(interaction.client), interaction.guild_id, interaction.user.id, 100
    )
    typed = current.strip().lower().lstrip("#")
    offered: list[app_commands.Choice[str]] = []
    for past in deals:
        when = datetime.fromtimestamp(past.finished_at, UTC).strftime("%Y-%m-%d %H:%M")
        name = t(
            "replays.choice",
            lang,
            id=past.table_id,
            deal=past.deal_no + 1,
            variant=t(f"variants.{past.variant}", lang),
            when=when,
        )
        if typed and typed not in name.lower():
            continue
        offered.append(
            app_commands.Choice(name=name[:100], value=_deal_value(past.table_id, past.deal_no))
        )
        if len(offered) == CHOICES:
            break
    return offered


async def show_history(interaction: discord.Interaction[Any], chosen: str | None) -> None:
    """``/tute history``: the replay of the deal chosen (without one, the member's last
    finished deal here), with its game record as a file."""
    lang = locale_of(interaction)
    if chosen is None:
        deals = await recent_deals(
            db_of(interaction.client), interaction.guild_id, interaction.user.id, 1
        )
        if not deals:
            await interaction.response.send_message(t("history.none", lang), ephemeral=True)
            return
        table_id, deal_no = deals[0].table_id, deals[0].deal_no
    else:
        table_part, _, deal_part = chosen.partition(":")
        table_id, deal_no = parse_number(table_part), parse_number(deal_part)
        if table_id is None or deal_no is None:
            await refuse(interaction, TableError("replay_pick"))
            return
    try:
        await send_replay(interaction, table_id, deal_no, with_record=True)
    except TableError as error:
        await refuse(interaction, error)
