"""The presenter: it renders what the service says to redraw (a :class:`Show`) and delivers
it, each message on its own. A call Discord refuses touches only its own message (a closed
DM, a deleted thread, a missing permission); one that may work later (a 5xx, a rate limit)
is tried again a little later. What to redraw, and how edits merge, is the service's call;
this side only compares what a message shows with what it last showed, to send nothing twice.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

import discord

from bot.i18n import number, t
from bot.storage import Database
from bot.tables.model import Status
from bot.tables.runtime import Runtime
from bot.tables.service import LostTable
from bot.tables.views import HandView, Show, TableView
from cogs._base import channel_url, pings

from . import messages
from .common import service_of, web_on
from .delivery import HandDelivery
from .drawing import Files
from .faces import CardFaces
from .messages import TOO_OLD_TO_EDIT, MessageKey, Payload, as_new_message, too_old
from .notices import ThreadNotices
from .outlet import Outlet
from .permissions import PermissionNotes
from .places import Place
from .reach import closed_to_bot
from .summaries import DealSummaries
from .threads import make_thread

log = logging.getLogger(__name__)

RETRY_AFTER = (5.0, 30.0, 120.0, 600.0)
"""Seconds before showing a table again after Discord failed to take a change."""
UNKNOWN_CHANNEL = 10003
THREAD_ARCHIVED = 50083


def _deal_over(table: TableView, place: Place) -> bool:
    """The deal the table message was opened for is over and the next one plays: the
    message becomes the deal's summary, and the next deal gets a fresh one. (The last deal's
    message shows the game's result over its summary.)"""
    summary = table.summary
    return (
        summary is not None
        and place.play_message_deal is not None
        and summary.deal_no == place.play_message_deal
        and table.status is Status.PLAYING
    )


class DiscordPresenter:
    """Keeps a table's messages in step: the lobby and the table message (edited in place,
    only when they change; each deal has one, which becomes the deal's summary when it is
    over), each player's hand (:class:`HandDelivery`). Nothing else is said in the channel:
    the table's message says a pause, a close or a cancel. Where each message lives is its
    own business (:class:`Places`), never the table service's."""

    def __init__(
        self,
        bot: discord.Client,
        db: Database,
        runtime: Runtime,
        *,
        language: str = "en",
        optional: Callable[[], bool] = lambda: True,
    ) -> None:
        """``db`` and ``runtime``: the Discord side's own handle on the database (where
        each message lives) and its clocks (built once, beside the service's);
        ``optional``: whether what may be left undone goes on now (:class:`Outlet`)."""
        self.bot = bot
        self.language = language
        """The language of messages that no table's own language covers."""
        self.outlet = Outlet(bot, db, runtime.sleep, optional)
        self.shown = self.outlet.shown
        self.places = self.outlet.places
        """Where each table's messages live."""
        self.hands = HandDelivery(self.outlet, self._dms_closed)
        self._retries: dict[int, int] = {}
        self._latest: dict[int, Show] = {}
        """The last change of each table published to it: the table as it is now (what a
        retry shows, without its announcements and turn notices, which went once)."""
        self._retry_tasks: dict[int, asyncio.Task[None]] = {}
        self._public_locks: dict[int, asyncio.Lock] = {}
        """One update at a time of a table's lobby and table message."""
        self.summaries = DealSummaries(self.outlet, RETRY_AFTER)
        self.permissions = PermissionNotes(bot, self.outlet)
        """The permission problems each host was told of."""
        self.notices = ThreadNotices(bot)
        """Discord's notices of the threads the bot made, which go."""

    @property
    def faces(self) -> CardFaces:
        return self.outlet.faces

    @property
    def web(self) -> bool:
        """Whether the bot serves the web table: its messages offer Play at the table."""
        return web_on(self.bot)

    # payloads the buttons answer with ---------------------------------------

    def lobby_payload(self, table: TableView) -> Payload:
        payload = messages.lobby_payload(table, self.places.peek(table), web=self.web)
        self.shown.digests[MessageKey.lobby(table.id)] = messages.digest(payload)
        return payload

    async def post_lobby(self, table: TableView) -> bool:
        """A lobby of the bot's own making (a rematch, one opened from the web table) in the
        table's channel, its invited members pinged there; False when Discord did not take
        it (nobody in the chat can see it)."""
        place = await self.places.of(table)
        if place.closed:
            return False  # nobody would see it: the table plays on the web table
        mentions = " ".join(f"<@{uid}>" for uid in table.invited)
        content = (
            t("tables.rematch.invited", table.language, mentions=mentions) if mentions else None
        )
        try:
            message = await self.bot.get_partial_messageable(table.channel_id).send(
                content=content,
                allowed_mentions=pings(table.invited),
                **self.lobby_payload(table),
            )
        except discord.HTTPException as error:
            log.warning("Table %s: its lobby could not be shown (%s)", table.id, error)
            if self.outlet.closes(table, error):
                self.outlet.shut(place, error)
            return False
        await self.lobby_posted(table, message.id)
        return True

    async def link(self, table: TableView) -> str | None:
        """Where the table's game plays: a link to its table message (None: not shown yet,
        or not in the chat)."""
        place = await self.places.of(table)
        if place.play_message_id is None or place.closed:
            return None
        return channel_url(table.guild_id, place.where_id, place.play_message_id)

    async def lobby_posted(self, table: TableView, message_id: int) -> None:
        """The lobby message went up: where it lives."""
        place = await self.places.of(table)
        place.message_id = message_id
        self.places.changed(place)

    async def hand_payload(self, table: TableView, hand: HandView, lang: str) -> Payload:
        """The hand a click in a DM answers with: now the hand that seat sees."""
        return await self.hands.answer(table, hand, lang, ephemeral=False, remember=True)

    def forget_hand(self, table_id: int, seat: int) -> None:
        self.shown.forget_hand(table_id, seat)

    def forget_lobby(self, table_id: int) -> None:
        self.shown.digests.pop(MessageKey.lobby(table_id), None)

    # refresh ---------------------------------------------------------------

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        """Bring every message of the table in step, each on its own; what failed in a way
        worth another try is tried again a little later."""
        table = show.table
        self._latest[table.id] = show
        place = await self.places.of(table)
        if show.new_lobby and place.message_id is None:
            # opened from the web table: the channel gets its lobby (where the bot may post)
            if not place.closed and await closed_to_bot(self.bot, self.places, table):
                self.outlet.shut(place, "known before posting")
            await self.post_lobby(table)
        ok = True
        if show.public and self.permissions.holds_back(table.id):
            # its channel refuses the bot, and refusals near Discord's limit: the next
            # change once they are back under shows the table as it is then
            log.debug("Table %s: not redrawn while refused requests are high", table.id)
        elif show.public:
            ok &= await self.step(table, "table", self._public(show, place))
        for hand in show.hands:
            delivery = self.hands.deliver(table, place, hand, shown=hand.seat == skip_seat)
            ok &= await self.step(table, "hand", delivery)
        if not ok:
            self._retry_later(show)
            return
        self._retries.pop(table.id, None)
        if not table.status.is_open:
            self._forget(table.id)

    async def step(self, table: TableView, what: str, work: Awaitable[None]) -> bool:
        """Run one message's update; False when it failed in a way worth another try."""
        try:
            await work
        except discord.Forbidden as error:
            if what != "hand" and self.outlet.closes(table, error):
                # never asked again: the table plays on the web table from now on
                self.outlet.shut(await self.places.of(table), error)
            else:
                await self.permissions.missing(table, what, error)
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                log.warning("Table %s: Discord failed its %s (%s)", table.id, what, error)
                return False
            log.warning("Table %s: Discord refused its %s (%s)", table.id, what, error)
        except Exception:
            log.exception("Could not show the %s of table %s", what, table.id)
        return True

    def _retry_later(self, show: Show) -> None:
        """Show the table again after a while (5 s, 30 s, 2 min...): what did not change is
        not sent again, what failed is. Not while optional work stops (refused requests
        near Discord's limit, a 429 among them): the next change shows it."""
        table_id = show.table.id
        if not self.outlet.optional():
            log.info("Table %s: not tried again while refused requests are high", table_id)
            self._retries.pop(table_id, None)
            return
        task = self._retry_tasks.get(table_id)
        if task is not None and not task.done():
            return
        tries = self._retries.get(table_id, 0)
        if tries >= len(RETRY_AFTER):
            log.error("Table %s: giving up showing it until its next change", table_id)
            self._retries.pop(table_id, None)
            return
        self._retries[table_id] = tries + 1
        self._retry_tasks[table_id] = asyncio.get_running_loop().create_task(
            self._retry(show, RETRY_AFTER[tries]), name=f"table-{table_id}-redraw"
        )

    async def _retry(self, show: Show, delay: float) -> None:
        await self.outlet.sleep(delay)
        self._retry_tasks.pop(show.table.id, None)
        # the table as it is now (none: its end has been shown since)
        again = self.now(show.table.id)
        if again is not None:
            await self.refresh(again)

    def now(self, table_id: int) -> Show | None:
        """The table as it is now, to show again: its last change published, every message
        of it (none: it ended and its end was shown)."""
        latest = self._latest.get(table_id)
        if latest is None:
            return None
        hands = tuple(replace(hand, notify=False) for hand in latest.hands)
        return replace(latest, public=True, announce=(), hands=hands)

    def _forget(self, table_id: int) -> None:
        """A table that no longer plays: nothing of it to keep in step any more."""
        self.shown.forget_table(table_id)
        self.hands.forget_table(table_id)
        self.summaries.forget_table(table_id)
        self._retries.pop(table_id, None)
        self._latest.pop(table_id, None)
        self._public_locks.pop(table_id, None)
        self.permissions.forget(table_id)
        self.places.ended(table_id)

    # the public messages -----------------------------------------------------

    async def _public(self, show: Show, place: Place) -> None:
        """The lobby and the table message. One table's go one at a time (an earlier one may
        have posted a new table message: ``place`` says where it is now)."""
        lock = self._public_locks.setdefault(show.table.id, asyncio.Lock())
        async with lock:
            await self._public_now(show, place)

    async def _public_now(self, show: Show, place: Place) -> None:
        table = show.table
        if place.closed:
            return  # the channel is closed to the bot: the web table shows it all
        if table.status is Status.FINISHED and place.play_message_id is not None:
            # the table message and the hands show the end at once; the lobby a moment
            # later, so that the play that ended the game costs no more than three calls
            self._lobby_later(table, place)
        else:
            await self.step(table, "lobby", self._lobby(table, place))
        if table.status is Status.LOBBY or (
            place.play_message_id is None
            and place.legacy_message_id is None
            and table.status is not Status.PLAYING
        ):
            return
        if place.legacy_message_id is not None:
            await self._replace_legacy(show, place)
        elif place.play_message_id is None:
            await self._open_play_message(show, place)
        elif _deal_over(table, place):
            await self._next_message(show, place)
        elif too_old(place.play_message_id):
            await self._move_on(show, place)
        else:
            await self.edit_table(show, place)

    def _files(self, table: TableView) -> Callable[[], Files]:
        return functools.partial(messages.table_files, self.shown, table)

    async def edit_table(self, show: Show, place: Place) -> None:
        """Edit the table message; one Discord lost (deleted, its thread gone) or can no
        longer edit (older than an hour) is posted again."""
        table = show.table
        assert place.play_message_id is not None
        try:
            await self._edit_play_message(show, place)
        except discord.NotFound as error:
            log.warning("Table %s: its message is gone (%s); posting it again", table.id, error)
            if error.code == UNKNOWN_CHANNEL and place.thread_id is not None:
                # the thread was deleted: the game goes on in the channel
                place.thread_id = None
                self.places.changed(place)
            await self._open_play_message(show, place)
        except discord.HTTPException as error:
            if error.code == THREAD_ARCHIVED and place.thread_id is not None:
                await self._reopen_thread(show, place)
            elif error.code == TOO_OLD_TO_EDIT:
                await self._move_on(show, place)
            else:
                raise

    async def _edit_play_message(self, show: Show, place: Place) -> None:
        table = show.table
        assert place.play_message_id is not None
        await self.outlet.edit(
            place.where_id,
            place.play_message_id,
            MessageKey.table(table.id),
            messages.table_payload(table, place, self.faces, web=self.web),
            self._files(table),
        )

    async def _reopen_thread(self, show: Show, place: Place) -> None:
        """Discord archived the game's thread (nothing was said in it for a while: a long
        pause) and takes no edits in it: it is opened again and the table edited; if that
        fails, the table is posted again (a new message opens the thread too)."""
        table = show.table
        assert place.play_message_id is not None and place.thread_id is not None
        try:
            thread = await self.bot.fetch_channel(place.thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=False)
            await self._edit_play_message(show, place)
        except discord.HTTPException as error:
            log.info("Table %s: its thread stays archived (%s); posting again", table.id, error)
            await self._move_on(show, place)

    async def _next_message(self, show: Show, place: Place) -> None:
        """The deal of the table message is over: the next deal gets a fresh message under
        it, and a moment later the old one becomes the deal's summary (it stays in the
        thread, the picture of what each side took with it)."""
        table = show.table
        assert table.summary is not None and place.play_message_id is not None
        old, where = place.play_message_id, place.where_id
        await self._open_play_message(show, place)
        self.summaries.later(table, where, old)

    async def stopping(self) -> None:
        """The bot is about to stop: what is a moment away on screen is shown now, and where
        each message lives is written."""
        await self.summaries.now()
        await self.outlet.close()

    async def _move_on(self, show: Show, place: Place) -> None:
        """A fresh table message before Discord stops letting the bot edit the old one (an
        hour): the old one, a moment of the deal that the fresh one right under it goes on
        from, goes (a long game leaves no trail of them)."""
        old, where = place.play_message_id, place.where_id
        await self._open_play_message(show, place)
        if old is not None:
            # the game is shown in its new message all the same, if the old one stays
            await self.outlet.delete(show.table.id, where, old)

    async def _replace_legacy(self, show: Show, place: Place) -> None:
        """A table message sent with embeds, before layout components (saved by an older
        version of the bot): a fresh message takes its place, and the old one goes."""
        old, where = place.legacy_message_id, place.where_id
        place.legacy_message_id = None
        if show.table.status is Status.PLAYING:
            await self._open_play_message(show, place)
        else:
            self.places.changed(place)
        if old is not None:
            await self.outlet.delete(show.table.id, where, old)

    async def _lobby(self, table: TableView, place: Place) -> None:
        if place.message_id is not None:
            payload = messages.lobby_payload(table, place, web=self.web)
            try:
                await self.outlet.edit(
                    table.channel_id, place.message_id, MessageKey.lobby(table.id), payload
                )
            except discord.NotFound:
                log.info("Table %s: its lobby message is gone", table.id)

    def _lobby_later(self, table: TableView, place: Place) -> None:
        if place.message_id is not None:
            payload = messages.lobby_payload(table, place, web=self.web)
            self.summaries.game_over(table, place.message_id, payload)

    async def _open_play_message(self, show: Show, place: Place) -> None:
        """At the start: the game's own thread when the bot may make one (a private one
        when spectators are off), else the channel; then the table message there. Later: a
        fresh table message where the game plays."""
        table = show.table
        first = place.play_message_id is None and place.legacy_message_id is None
        if place.thread_id is None and first:
            place.thread_id = await make_thread(self.bot, table, place)
            if place.thread_id is not None:
                await self.notices.made(place.thread_id)
        payload = messages.table_payload(table, place, self.faces, web=self.web)
        await self.outlet.draw(payload, self._files(table))
        try:
            message = await self.bot.get_partial_messageable(place.where_id).send(
                **as_new_message(payload)
            )
        except discord.NotFound:
            if place.thread_id is None:
                raise
            # the thread is gone: the game goes on in the channel
            log.warning("Table %s: its thread is gone; playing on in the channel", table.id)
            place.thread_id = None
            payload = messages.table_payload(table, place, self.faces, web=self.web)
            await self.outlet.draw(payload, self._files(table))
            message = await self.bot.get_partial_messageable(table.channel_id).send(
                **as_new_message(payload)
            )
        self.shown.digests[MessageKey.table(table.id)] = messages.digest(payload)
        place.play_message_id = message.id
        place.play_message_deal = table.deal_no
        self.places.changed(place)
        if first:
            # the lobby now links to the game
            await self.step(table, "lobby", self._lobby(table, place))

    async def _dms_closed(self, table: TableView, place: Place) -> None:
        """A player's DMs turned out closed: the table says so at once (their hand is under
        My hand now)."""
        now = self.now(table.id)
        if now is not None and now.table.status is Status.PLAYING and place.play_message_id:
            await self.step(table, "table", self.edit_table(now, place))

    async def table_lost(self, lost: LostTable) -> None:
        """A table that could not be restored: its players are told where it played, with
        the chips each got back (not in a channel closed to the bot: the web table tells
        them)."""
        if await self.places.closed(lost.table_id):
            return
        lang = self.language
        if lost.refunded:
            refunds = ", ".join(
                t("tables.refund_line", lang, name=f"<@{uid}>", chips=number(chips, lang))
                for uid, chips in lost.refunded.items()
            )
            text = t("tables.announce.lost_refunds", lang, table=lost.table_id, refunds=refunds)
        else:
            text = t("tables.announce.lost", lang, table=lost.table_id)
        await self.bot.get_partial_messageable(lost.channel_id).send(
            text,
            allowed_mentions=pings(lost.refunded),
        )


def presenter_of(client: discord.Client) -> DiscordPresenter:
    """The tables' Discord presenter (one of those the service was built with, beside the
    card table's sockets when it runs)."""
    found = (p for p in service_of(client).presenters if isinstance(p, DiscordPresenter))
    presenter = next(found, None)
    if presenter is None:
        raise RuntimeError("the table service has no Discord presenter")
    return presenter
