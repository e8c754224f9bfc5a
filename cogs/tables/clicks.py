"""What a click on a table's button does (:mod:`buttons` says which button it is): the
lobby's, the table's and a hand's. Each asks the service, answers the click and has the
presenter redraw what changed."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.storage.settings import get_settings
from bot.tables.audience import place_of
from bot.tables.cluster import Click
from bot.tables.errors import TableError
from bot.tables.service import TableService
from bot.tables.views import HandView, Outcome, TableView
from bot.words.result import cancel_question, done_key, leave_question
from cogs._base import channel_url

from .buttons import (
    LOBBY_YES,
    TABLE_YES,
    TEAMS,
    HandButton,
    LobbyButton,
    LobbyOp,
    TableButton,
    TableOp,
    on_click,
)
from .common import answered, cluster_of, db_of, drawn_v2, locale_of, service_of, since_of
from .hints import show_hint
from .launch import launch
from .layouts import ASK, SURE
from .presenter import DiscordPresenter, presenter_of
from .settings_form import FORM_ITEMS, open_settings
from .tricks import show_tricks

BUTTONS = (LobbyButton, TableButton, HandButton, *FORM_ITEMS)
"""The buttons whose clicks this module handles, and the selects of a lobby's Settings form
(the bot listens for them)."""


@on_click(LobbyButton)
async def lobby_click(button: LobbyButton, interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction.client)
    user = interaction.user
    name = user.display_name
    op = button.op
    if op is LobbyOp.WEB:
        await _play_at_the_table(button.table_id, interaction)
        return
    if op in CLOSING_OPS and await _closing(button, interaction):
        return
    if op is LobbyOp.SETTINGS:  # the form, for the host alone: the lobby does not change
        await open_settings(button.table_id, interaction)
        return

    async def reply(outcome: Outcome) -> None:
        table = outcome.show.table
        presenter = presenter_of(interaction.client)
        if (await presenter.places.of(table)).play_message_id is None:
            # the lobby message is the one clicked: answer by editing it
            answer = interaction.response.edit_message(**presenter.lobby_payload(table))
            if not await answered(interaction, answer):
                presenter.forget_lobby(table.id)
        else:
            await answered(interaction, interaction.response.defer())

    table_id = button.table_id
    if op is LobbyOp.JOIN:
        since = since_of(user)
        await service.join(
            table_id, user.id, name, locale=locale_of(interaction), since=since, reply=reply
        )
    elif op in TEAMS:
        await service.join(
            table_id,
            user.id,
            name,
            team=TEAMS.index(op),
            locale=locale_of(interaction),
            since=since_of(user),
            reply=reply,
        )
    elif op is LobbyOp.LEAVE:
        await service.leave(table_id, user.id, lobby=True, reply=reply)
    elif op is LobbyOp.ROBOT:
        await service.add_robot(table_id, user.id, reply=reply)
    elif op is LobbyOp.UNROBOT:
        await service.remove_robot(table_id, user.id, reply=reply)
    elif op is LobbyOp.START:
        # the click's id: the shuffle mixes in what the bot cannot choose
        await service.start(
            table_id, user.id, public_input=f"discord:{interaction.id}", reply=reply
        )
    else:
        raise TableError("stale")


async def _play_at_the_table(table_id: int, interaction: discord.Interaction[Any]) -> None:
    """The web table, opened for whoever clicked in this channel, while the table is open
    (it follows the same game) and the audience rule lets them watch it (a game without
    spectators: its players alone); the click is answered at once, and a launch Discord
    refuses touches only this click."""
    place = place_of(interaction.guild_id, interaction.channel_id or 0)
    table = service_of(interaction.client).watch(table_id, interaction.user.id, place)
    if not table.status.is_open:
        raise TableError("gone")
    await launch(interaction)


CLOSING_OPS = (LobbyOp.CLOSE, LobbyOp.LEAVE, LobbyOp.CLOSE_OK, LobbyOp.LEAVE_OK, LobbyOp.OPEN)
"""The lobby's ops that may close the table (they ask first), and the answers to the
question: Yes to a close, Yes to a leave, and No."""


async def _closing(button: LobbyButton, interaction: discord.Interaction[Any]) -> bool:
    """The host's Close, and their Leave when no other member sits (it closes the table),
    ask first, only the host seeing: Yes closes it, No keeps it open. False for a leave
    that closes nothing: anybody else only gets up, at once."""
    service = service_of(interaction.client)
    user_id, lang, op = interaction.user.id, locale_of(interaction), button.op
    if op is LobbyOp.OPEN:  # No: nothing happened, and the question's message says so
        kept = t("tables.done.kept_open", lang)
        await answered(interaction, interaction.response.edit_message(content=kept, view=None))
        return True
    if op in LOBBY_YES:
        if op is LobbyOp.CLOSE:
            service.may_close(button.table_id, user_id)
            question = "tables.confirm.close"
        elif service.leave_terms(button.table_id, user_id)[0] == "close":
            question = "tables.confirm.close_alone"
        else:
            return False
        view = discord.ui.View(timeout=None)
        label = t("tables.btn.confirm_close", lang)
        danger = discord.ButtonStyle.danger
        view.add_item(LobbyButton(button.table_id, LOBBY_YES[op], label=label, style=danger))
        keep = t("tables.btn.keep_open", lang)
        view.add_item(LobbyButton(button.table_id, LobbyOp.OPEN, label=keep))
        asked = interaction.response.send_message(t(question, lang), view=view, ephemeral=True)
        await answered(interaction, asked)  # if lost, nothing happened: click again
        return True

    async def reply(outcome: Outcome) -> None:
        closed = not outcome.show.table.status.is_open
        done = t("tables.done.closed" if closed else "tables.done.left_lobby", lang)
        await answered(interaction, interaction.response.edit_message(content=done, view=None))

    if op is LobbyOp.CLOSE_OK:
        await service.close(button.table_id, user_id, reply=reply)
    else:  # a member may have sat down since the question: then the host only gets up
        await service.leave(button.table_id, user_id, lobby=True, reply=reply)
    return True


@on_click(TableButton)
async def table_click(button: TableButton, interaction: discord.Interaction[Any]) -> None:
    if button.op is TableOp.WEB:
        await _play_at_the_table(button.table_id, interaction)
        return
    if button.op is TableOp.REMATCH:
        await _rematch(button, interaction)
        return
    if button.op is TableOp.TRICKS:
        await show_tricks(button.table_id, interaction)
        return
    if button.op is TableOp.HINT:
        await show_hint(button.table_id, interaction)
        return
    service = service_of(interaction.client)
    presenter = presenter_of(interaction.client)
    user = interaction.user
    if button.op in (TableOp.HAND, TableOp.REFRESH):
        table = service.view(button.table_id)
        seat = table.seat_of(user.id)
        if seat is None:
            raise TableError("not_seated")
        await presenter.hands.show_ephemeral(
            interaction,
            table,
            service.hand_view(button.table_id, seat),
            locale_of(interaction),
            edit=button.op is TableOp.REFRESH,
        )
        return
    lang = locale_of(interaction)
    if button.op in TABLE_YES:
        # one more click, once the player has read what it does to their stake
        question = interaction.response.send_message(
            _question(button, service, user.id, lang),
            view=_confirm_view(button, lang),
            ephemeral=True,
        )
        await answered(interaction, question)  # if lost, nothing happened: click again
        return
    if button.op is TableOp.KEEP:
        # the answer No: nothing happened, and the question's message says so
        kept = interaction.response.edit_message(content=t("tables.done.kept", lang), view=None)
        await answered(interaction, kept)
        return
    op = button.op

    async def reply(outcome: Outcome) -> None:
        done = _done_key(op, outcome)
        if op is TableOp.BACK:
            answer = interaction.response.send_message(t(done, lang), ephemeral=True)
        else:  # the question's message becomes the answer
            answer = interaction.response.edit_message(content=t(done, lang), view=None)
        await answered(interaction, answer)

    if op is TableOp.BACK:
        await service.im_back(button.table_id, user.id, reply=reply)
    elif op is TableOp.CANCEL_OK:
        await service.vote_cancel(button.table_id, user.id, reply=reply)
    elif op is TableOp.LEAVE_OK:
        await service.leave(button.table_id, user.id, reply=reply)
    else:
        raise TableError("stale")


def _done_key(op: TableOp, outcome: Outcome) -> str:
    """What the answer to I'm back, a vote to cancel or a leave says was done."""
    what = {TableOp.BACK: "back", TableOp.LEAVE_OK: "leave"}.get(op, "cancel")
    return done_key(what, outcome)


async def _rematch(button: TableButton, interaction: discord.Interaction[Any]) -> None:
    """The game again: the first member to ask opens its lobby in the table's channel,
    the others invited there; a member who asks later sits down in it."""
    service = service_of(interaction.client)
    presenter = presenter_of(interaction.client)
    user, lang = interaction.user, locale_of(interaction)
    # the lobby is posted (its publication) before the answer can say where: the click is
    # answered first
    await interaction.response.defer(ephemeral=True, thinking=True)
    settings = await get_settings(db_of(interaction.client), interaction.guild_id or 0)
    table, opened = await service.rematch(
        button.table_id, user.id, user.display_name, locale=lang, max_tables=settings.max_tables
    )
    if opened and presenter.places.peek(table).message_id is None:
        # nobody in the chat can see it (the channel is closed to the bot, or Discord
        # refused the post): no lobby
        await service.discard(table.id)
        raise TableError("rematch_failed")
    key = "tables.rematch.opened" if opened else "tables.rematch.joined"
    link = channel_url(table.guild_id, table.channel_id)
    await answered(interaction, interaction.edit_original_response(content=t(key, lang, link=link)))


def _question(button: TableButton, service: TableService, user_id: int, lang: str) -> str:
    if button.op is TableOp.LEAVE:
        return leave_question(*service.leave_terms(button.table_id, user_id), lang)
    return cancel_question(*service.vote_terms(button.table_id, user_id), lang)


def _confirm_view(button: TableButton, lang: str) -> discord.ui.View:
    """Yes (what the question asks) or No (nothing happens)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            button.table_id,
            TABLE_YES[button.op],
            label=t(f"tables.btn.confirm_{button.op.value}", lang),
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(TableButton(button.table_id, TableOp.KEEP, label=t("tables.btn.keep", lang)))
    return view


@on_click(HandButton)
async def hand_click(button: HandButton, interaction: discord.Interaction[Any]) -> None:
    if button.code.startswith(ASK):
        await _ask(button, interaction)
        return
    sure = button.code.startswith(SURE)  # Yes to a question: the code follows
    code = button.code[1:] if sure else button.code
    service = service_of(interaction.client)
    cluster = cluster_of(interaction.client)
    if cluster is not None and not cluster.holds(button.table_id, service):
        # a DM click that reached this process (shard 0) for a table another runs: that
        # process plays it and redraws the hand; this one only acknowledges the click
        await answered(interaction, interaction.response.defer())
        click = Click(button.table_id, interaction.user.id, code, button.deal_no, button.trick_no)
        await cluster.forward(click)
        return
    presenter = presenter_of(interaction.client)
    lang = locale_of(interaction)

    async def reply(outcome: Outcome) -> int | None:
        """The click's answer; the seat whose hand it showed (the publication skips it)."""
        seat = outcome.seat
        assert seat is not None
        show = outcome.show
        if sure:
            # the question becomes what was done; the hand itself is redrawn where it lives
            done = t(f"hand.asked.done.{code[0]}", lang)
            await answered(interaction, interaction.response.edit_message(content=done, view=None))
            return None
        hand = show.hand(seat)
        if interaction.guild_id is not None:
            return await presenter.hands.answer_ephemeral(interaction, show.table, hand, lang)
        # the hand clicked in the DMs is the one the bot keeps (another may have come after
        # a restart that lost where this one was): it goes once the click is answered
        adopted = await presenter.hands.adopt(show.table, seat, interaction.message)
        skip = await _answer_in_dm(interaction, presenter, show.table, hand, lang)
        if adopted is not None:
            await presenter.hands.retire(show.table, adopted)
        return skip

    await service.click(
        button.table_id,
        interaction.user.id,
        code,
        deal_no=button.deal_no,
        trick_no=button.trick_no,
        reply=reply,
    )


async def _answer_in_dm(
    interaction: discord.Interaction[Any],
    presenter: DiscordPresenter,
    table: TableView,
    hand: HandView,
    lang: str,
) -> int | None:
    """Answer a click in the DM holding the hand; the seat whose hand the refresh need not
    edit again (None: it must)."""
    if not drawn_v2(interaction):
        # a DM hand sent with embeds, before layout components, cannot take them: the
        # refresh replaces it with a fresh one
        await answered(interaction, interaction.response.defer())
        return None
    payload = await presenter.hand_payload(table, hand, lang)
    if not await answered(interaction, interaction.response.edit_message(**payload)):
        presenter.forget_hand(table.id, hand.seat)
        return None
    return hand.seat


async def _ask(button: HandButton, interaction: discord.Interaction[Any]) -> None:
    """A declaration that binds the deal (capote, resigning) asks first, only its player
    seeing: Yes makes it (if the hand still may), No leaves everything as it was."""
    lang = locale_of(interaction)
    code = button.code[len(ASK) :]
    view = discord.ui.View(timeout=None)
    yes = HandButton(
        button.table_id,
        button.deal_no,
        button.trick_no,
        SURE + code,
        label=t(f"hand.asked.yes.{code[0]}", lang),
        style=discord.ButtonStyle.danger,
    )
    view.add_item(yes)
    view.add_item(TableButton(button.table_id, TableOp.KEEP, label=t("tables.btn.keep", lang)))
    question = t(f"hand.asked.{code[0]}", lang)
    await answered(
        interaction, interaction.response.send_message(question, view=view, ephemeral=True)
    )
