"""``/tute learn``: the first lesson in the member's DMs (here, for them alone, where DMs
are closed), and what a click on a lesson's button does: the service answers the move and
the message becomes the next step, or the same step with why not; at the course's end, a
practice deal is dealt in the member's DMs. A lesson's buttons take only its member's
clicks: anybody else's is refused in words, for them alone."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.client import TuteBot, catalog_str, tell
from bot.i18n import t
from bot.tables.errors import TableError
from bot.tables.practice import deal_practice
from bot.tables.tutorial import LESSONS, LessonView, answer, lesson_view
from cogs._base import CommandsMixin, anywhere, channel_url
from cogs.tables.common import answered, guarded, locale_of, refuse, service_of

from .buttons import OPEN, PRACTICE, LearnButton
from .layout import lesson_layout, picture_file

log = logging.getLogger(__name__)

LESSON_CHOICES = [
    app_commands.Choice(name=catalog_str(f"learn.{lesson.name}.title"), value=number)
    for number, lesson in enumerate(LESSONS)
]


async def drawn(view: LessonView, lang: str, owner: int, notice: str = "") -> dict[str, Any]:
    """The message of a step, ``owner``'s lesson: its layout and its picture, drawn off the
    event loop."""
    file = await asyncio.to_thread(picture_file, view, lang)
    return {"view": lesson_layout(view, lang, notice, owner=owner), "file": file}


def in_dm_with_bot(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from the member's own DM with the bot: not from a DM
    between two members nor a group DM, which discord.py gives as a ``DMChannel`` too (only
    Discord's context tells them apart), where whatever is answered for all is seen by
    the others."""
    return interaction.context.dm_channel


async def practice(interaction: discord.Interaction[Any], lang: str) -> None:
    """The course's last button: a practice deal in the member's DMs (``deal_practice``),
    the answer linking to it. One at a time: while theirs is open, or another press of
    theirs is dealing one, they are told so before anything reaches their DMs. The deal's
    introduction is sent before anything is dealt: refused, nothing is dealt, and they are
    told how to open their DMs, or, pressed in those DMs (open, then), to try again."""
    user = interaction.user
    service = service_of(interaction.client)
    await interaction.response.defer(ephemeral=True, thinking=True)

    async def deliver() -> int:
        dm = await user.create_dm()
        await dm.send(t("learn.practice.intro", lang))
        return dm.id

    try:
        outcome = await deal_practice(
            service, user_id=user.id, name=user.display_name, language=lang, deliver=deliver
        )
    except discord.HTTPException as error:
        log.info("No practice deal by DM for %s (%s)", user.id, error)
        closed = (
            "learn.practice.not_sent"
            if in_dm_with_bot(interaction)
            else "learn.practice.dms_closed"
        )
        await tell(interaction, t(closed, lang))
        return
    link = channel_url(None, outcome.show.table.channel_id)
    await tell(interaction, t("learn.practice.started", lang, link=link))


def owner_of(button: LearnButton, interaction: discord.Interaction[Any]) -> int | None:
    """Whose lesson a button is: the member its custom_id names, or for a button drawn
    before it named one, the member who asked for the message (None where Discord does not
    say: a message sent to a member's DMs, which nobody else sees)."""
    if button.owner is not None:
        return button.owner
    message = interaction.message
    asked = message.interaction_metadata if message is not None else None
    return asked.user.id if asked is not None else None


async def _click(button: LearnButton, interaction: discord.Interaction[Any]) -> None:
    owner = owner_of(button, interaction)
    if owner is not None and owner != interaction.user.id:
        # the lesson stays as it is, for its member: the click is told why, alone
        await refuse(interaction, TableError("learn_not_yours"))
        return
    if button.move == PRACTICE:
        # refused (their practice deal is open, or being dealt): said in words by ``guarded``
        await guarded(interaction, practice(interaction, button.lang))
        return

    async def work() -> None:
        if button.move == OPEN:
            view = lesson_view(button.lesson, button.step)
        else:
            view = answer(button.lesson, button.step, button.move)
        # answered before the picture is drawn (a cold one takes most of a second:
        # benchmarks/lessons.py), then the message becomes the step. A click Discord no
        # longer takes (10062, an outage) changes nothing anywhere: the same button does
        # the same again
        if not await answered(interaction, interaction.response.defer()):
            return
        message = await drawn(view, button.lang, interaction.user.id)
        await answered(
            interaction,
            interaction.edit_original_response(view=message["view"], attachments=[message["file"]]),
        )

    await guarded(interaction, work())


LearnButton.click = _click


async def start(interaction: discord.Interaction[Any], number: int = 0) -> None:
    """Lesson ``number`` (the first by default): in a DM with the bot, as the answer;
    elsewhere (a server, a DM between members, a group DM) sent to the member's DMs, the
    answer, for them alone, linking to it, or, where Discord refuses that DM, given here
    for them alone with a word on why. Nowhere is a lesson shown to anybody but its
    member."""
    lang = locale_of(interaction)
    user = interaction.user
    first = lesson_view(number, 0)
    if in_dm_with_bot(interaction):
        # answered before the picture is drawn, as everywhere (see _click)
        await interaction.response.defer(thinking=True)
        message = await drawn(first, lang, user.id)
        await interaction.edit_original_response(
            view=message["view"], attachments=[message["file"]]
        )
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        sent = await user.send(**await drawn(first, lang, user.id))
    except discord.HTTPException as error:
        # closed DMs (50007) or any other refusal: this one message goes here instead
        log.info("No lesson by DM for %s (%s)", user.id, error)
        closed = "learn.dms_closed" if interaction.guild_id is not None else "learn.here_alone"
        notice = t(closed, lang)
        await interaction.followup.send(**await drawn(first, lang, user.id, notice), ephemeral=True)
        return
    await interaction.edit_original_response(content=t("learn.sent", lang, link=sent.jump_url))


class LearnCommands(CommandsMixin):
    """``/tute learn``, mixed into the Tute cog (which sets ``bot``). A cog_load of a class
    after it in the cog's bases must call super() too."""

    bot: TuteBot

    async def cog_load(self) -> None:
        # a lesson's buttons work after a restart: they carry all they need
        self.bot.add_dynamic_items(LearnButton)
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LearnButton)
        await super().cog_unload()

    @anywhere
    @app_commands.command(
        name=catalog_str("commands.tute.learn.name"),
        description=catalog_str("commands.tute.learn.description"),
    )
    @app_commands.choices(lesson=LESSON_CHOICES)
    @app_commands.rename(lesson=catalog_str("options.lesson.name"))
    @app_commands.describe(lesson=catalog_str("options.lesson.description"))
    async def learn(
        self, interaction: discord.Interaction[TuteBot], lesson: int | None = None
    ) -> None:
        """Learn Tute step by step, on prepared deals against robots; from the first lesson,
        or the one chosen."""
        await start(interaction, lesson or 0)
