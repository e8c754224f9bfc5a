"""The sign-up message and its buttons: Join, Leave and (for the host) Start now and Cancel, as
persistent ``DynamicItem``s whose custom_id names the tournament: ``tute:tn:<id>:<op>``.
A click after a restart finds everything in the custom_id and the service."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import discord

from bot.i18n import number, t
from bot.tables.competition.tournament import prize_shares
from bot.tables.competition.tournaments import Tournament, TournamentService, TournamentStatus
from bot.tables.errors import TableError
from cogs._base import mention, shown_name
from cogs.tables.buttons import TuteButton
from cogs.tables.common import answered, locale_of
from cogs.tables.messages import too_old
from cogs.tables.rules_text import rules_line

from . import announce
from .places import places_of
from .posts import GREEN, format_text

log = logging.getLogger(__name__)

FIELD_LIMIT = 1024
"""Discord's limit on an embed field's value."""
LISTED_BUDGET = 3000
"""Characters of entrants' names listed on the sign-up message, over fields of at most
``FIELD_LIMIT``: with the rest of the embed it stays well within Discord's 6,000 per
message, whatever the names (escaped, they may be twice as long as typed). The entrants past
it are counted."""


def tournaments_of(client: discord.Client) -> TournamentService:
    service = getattr(client, "tournaments", None)
    if not isinstance(service, TournamentService):
        raise TableError("tournament_gone")
    return service


class TournamentButton(TuteButton, kind="tn", parts={"op": "join|leave|start|cancel"}):
    """A button of a tournament's sign-up message: ``tute:tn:<tournament id>:<op>``. A
    refusal (``TableError``) is answered ephemerally in the user's language by the base."""

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        tournaments = tournaments_of(interaction.client)
        tournament_id = self.table_id
        user = interaction.user
        op = self.parts[0]
        if op == "start":
            # the refusals first, answered at once; the service checks them again
            found = tournaments.get(tournament_id)
            if user.id != found.host_id:
                raise TableError("host_only")
            if found.status is not TournamentStatus.SIGNUP:
                raise TableError("tournament_started")
            if len(found.entrants) < 2:
                raise TableError("tournament_too_few", needed=2)
            # opening the round's tables outlasts the 3 seconds of an answer
            await interaction.response.defer()
            now = discord.utils.utcnow().timestamp()
            tour = await tournaments.start(tournament_id, now, by=user.id)
            if interaction.message is not None:
                await answered(interaction, interaction.message.edit(**signup_payload(tour)))
            pairings = await announce.round_started(interaction.client, tour)
            if pairings is not None:
                await close_signup(interaction.client, tour, pairings)
            return
        if op == "cancel":
            # the service refuses anyone but the host, and a tournament already started
            tour = await tournaments.cancel(tournament_id, user.id)
            await answered(interaction, interaction.response.edit_message(**signup_payload(tour)))
            return
        if op == "join":
            tour = await tournaments.sign_up(tournament_id, user.id, user.display_name)
        else:
            tour = await tournaments.withdraw(tournament_id, user.id)
        await answer_signup(interaction, tour, op)


async def answer_signup(interaction: discord.Interaction[Any], tour: Tournament, op: str) -> None:
    """A Join or Leave, saved: the sign-up message shows it. One near the hour after which
    Discord limits its edits (30046; a sign-up may stay open for days) moves to a fresh
    message, as a table does, and the old one points to it, its buttons gone. Whatever
    Discord refuses, the member is told, only them."""
    payload = signup_payload(tour)
    message = interaction.message
    if message is not None and too_old(message.id):
        fresh = await repost_signup(interaction.client, tour)
        if fresh is not None:
            payload = moved_payload(tour, fresh.jump_url)
    if await answered(interaction, interaction.response.edit_message(**payload)):
        return
    # saved already (and the fee taken): the member is told even when the message is not
    key = "tournaments.joined" if op == "join" else "tournaments.left"
    text = t(key, locale_of(interaction), id=tour.id)
    if interaction.response.is_done():
        await answered(interaction, interaction.followup.send(text, ephemeral=True))
    else:
        await answered(interaction, interaction.response.send_message(text, ephemeral=True))


def signup_payload(tour: Tournament, pairings: str | None = None) -> dict[str, Any]:
    """The public sign-up message, in the tournament's language: what it is, when sign-up
    closes, who signed up, and the buttons (none once sign-up is over; then, once started,
    a link to the ``pairings`` when they are posted)."""
    lang = tour.language
    deadline = dt.datetime.fromtimestamp(tour.deadline, dt.UTC)
    closes = discord.utils.format_dt(deadline, "F")
    open_ = tour.status is TournamentStatus.SIGNUP
    description = t(
        "tournaments.signup.body" if open_ else "tournaments.signup.body_closed",
        lang,
        format=format_text(tour, lang),
        host=mention(tour.host_id, lang),
        deadline=f"{closes} ({discord.utils.format_dt(deadline, 'R')})",
    )
    if pairings is not None:
        description += "\n" + t("tournaments.signup.started_link", lang, link=pairings)
    elif tour.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        description += "\n" + t("tournaments.signup.started", lang)
    rules, _ = rules_line(tour.options, lang, tour.variant)
    if rules:
        description += "\n" + rules
    embed = discord.Embed(
        title=signup_title(tour),
        description=description,
        colour=GREEN,
    )
    if tour.entry:
        embed.add_field(
            name=t("tournaments.signup.entry", lang), value=entry_text(tour), inline=False
        )
    names = [shown_name(name) for _, name in tour.entrants]
    fields = entrant_fields(names, lang) or [t("tournaments.signup.none", lang)]
    for i, value in enumerate(fields):
        title = t("tournaments.signup.entrants", lang, count=len(names)) if i == 0 else "\u200b"
        embed.add_field(name=title, value=value, inline=False)
    view = discord.ui.View(timeout=None)
    if open_:
        for op, style in (
            ("join", discord.ButtonStyle.success),
            ("leave", discord.ButtonStyle.secondary),
            ("start", discord.ButtonStyle.primary),
            ("cancel", discord.ButtonStyle.danger),
        ):
            view.add_item(
                TournamentButton(
                    tour.id, op, label=t(f"tournaments.button.{op}", lang), style=style
                )
            )
    elif tour.status is TournamentStatus.CANCELLED:
        footer = t("tournaments.signup.called_off", lang)
        if tour.entry:
            footer += " " + t("tournaments.entries_back", lang, fee=number(tour.entry, lang))
        embed.set_footer(text=footer)
    else:
        embed.set_footer(text=t("tournaments.signup.closed", lang))
    return {"embed": embed, "view": view}


async def close_signup(
    client: discord.Client, tour: Tournament, pairings: str | None = None
) -> None:
    """Its sign-up message, once the clock started it or called it off: no more buttons
    (and, once posted, a link to the round's ``pairings``).
    A message Discord refuses to edit (deleted, no access) is left as it is: its buttons
    answer that the tournament started."""
    places = places_of(client)
    message_id = None if places is None else (await places.of(tour.id)).message_id
    if message_id is None:
        return
    channel = client.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
    try:
        payload = signup_payload(tour, pairings)
        await channel.get_partial_message(message_id).edit(**payload)
    except discord.HTTPException as error:
        log.info("Tournament %s: its sign-up message stays as it was (%s)", tour.id, error)


async def repost_signup(client: discord.Client, tour: Tournament) -> discord.Message | None:
    """The sign-up message posted afresh, and kept as the tournament's (None: Discord
    refused it; the old one stays)."""
    channel = client.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
    try:
        fresh = await channel.send(
            allowed_mentions=discord.AllowedMentions.none(), **signup_payload(tour)
        )
    except discord.HTTPException as error:
        log.warning("Tournament %s: its sign-up could not move (%s)", tour.id, error)
        return None
    places = places_of(client)
    if places is not None:
        await places.posted(tour.id, fresh.id)
    return fresh


def signup_title(tour: Tournament) -> str:
    lang = tour.language
    return t(
        "tournaments.signup.title",
        lang,
        id=tour.id,
        variant=t(f"variants.{tour.variant.value}", lang),
    )


def moved_payload(tour: Tournament, link: str) -> dict[str, Any]:
    """What an old sign-up message becomes once a fresh one took its place."""
    lang = tour.language
    embed = discord.Embed(
        title=signup_title(tour),
        description=t("tournaments.signup.moved", lang, link=link),
        colour=GREEN,
    )
    return {"embed": embed, "view": discord.ui.View(timeout=None)}


def entrant_fields(names: list[str], lang: str) -> list[str]:
    """The entrants, numbered one a line, over field values of at most ``FIELD_LIMIT``
    characters and ``LISTED_BUDGET`` in all; those past it counted on a last line."""
    fields: list[str] = []
    lines: list[str] = []
    size = used = 0
    for i, name in enumerate(names, start=1):
        line = f"{i}. {name}"[: FIELD_LIMIT - 1]
        if used + len(line) + 1 > LISTED_BUDGET:
            more = t("tournaments.signup.more", lang, count=len(names) - i + 1)
            if size + len(more) + 1 > FIELD_LIMIT:
                fields.append("\n".join(lines))
                lines, size = [], 0
            lines.append(more)
            break
        if size + len(line) + 1 > FIELD_LIMIT:
            fields.append("\n".join(lines))
            lines, size = [], 0
        lines.append(line)
        size += len(line) + 1
        used += len(line) + 1
    if lines:
        fields.append("\n".join(lines))
    return fields


def entry_text(tour: Tournament) -> str:
    """The fee, the pot it makes with the entrants so far, and how it is paid out; once
    sign-up is over, the prize pool it made (or, called off, that the entries went back)."""
    lang = tour.language
    shares = prize_shares(max(2, len(tour.entrants)))
    if len(shares) == 1:
        split = t("tournaments.signup.split_one", lang)
    else:
        each = " / ".join(f"{share}%" for share in shares)
        split = t("tournaments.signup.split", lang, shares=each, places=len(shares))
    if tour.status is TournamentStatus.CANCELLED:
        return t("tournaments.entries_back", lang, fee=number(tour.entry, lang))
    over = tour.status is not TournamentStatus.SIGNUP  # no more joining, nor leaving for it back
    return t(
        "tournaments.signup.entry_over" if over else "tournaments.signup.entry_text",
        lang,
        fee=number(tour.entry, lang),
        pot=number(tour.entry * len(tour.entrants), lang),
        split=split,
    )
