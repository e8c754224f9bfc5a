"""How tables open and fill: a lobby from ``/tute new``, the card table, a rematch, a
tournament, a practice or a daily deal (one opening at a time per server, its checks held
while the table is written), a member sitting down, and the chips a seat needs. :class:`bot.tables.service.TableService` stands on
it; every opening is published, as every change is."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.engine import Options, Variant
from bot.storage import members, places
from bot.storage.settings import HandDelivery, get_settings

from . import lobby, rematch
from .core import Reply, ServiceCore
from .errors import SaveFailed, TableError
from .house import opening_options
from .model import DEFAULT_ROBOT, Level, Seat, Status, Table
from .settlement import chips_of
from .views import Outcome, TableView, table_view

log = logging.getLogger(__name__)


class Opening(ServiceCore):
    """The service's openings (its ``__init__`` sets the locks)."""

    _guild_locks: dict[int, asyncio.Lock]
    """One opening at a time per server."""
    _rematching: asyncio.Lock
    """One lobby per rematch, however many ask at once."""
    lobby_timeout: float

    def _guild_lock(self, guild_id: int) -> asyncio.Lock:
        return self._guild_locks.setdefault(guild_id, asyncio.Lock())

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: Variant,
        options: Options,
        language: str,
        invited: list[int] | None = None,
        max_tables: int = 10,
        host_locale: str = "en",
        hand_delivery: HandDelivery = "dm",
        robot_level: Level = DEFAULT_ROBOT,
        rematch_of: int | None = None,
        host_since: tuple[float | None, float | None] = (None, None),
        tournament_id: int | None = None,
        seed: int | None = None,
        daily: bool = False,
        robots: Sequence[tuple[str | None, int | None]] = (),
        new_lobby: bool = False,
        reply: Reply | None = None,
    ) -> TableView:
        """``tournament_id``: the table plays a match of that tournament (its host may host
        another table meanwhile: the tournament seats them, they did not ask). ``seed``: the
        table's cards and robots come from this seed (a daily deal's), not a fresh one.
        ``daily``: the table plays its host's daily deal (``Table.daily``). A daily deal and
        a table of no server (``lobby.NO_SERVER``, a practice deal in its host's DMs) are
        their member's own (``lobby.alone``): no limit of tables, and they neither block
        their host's other tables nor are blocked by them (one practice deal at a time,
        though, its rematch too). ``robots``: (level, seat) of the robots its host seats at
        once (a rematch's). ``new_lobby``: the lobby was opened outside the chat (the card
        table, a rematch): the chat posts it (a ``/tute new`` lobby is its command's own
        answer, ``reply``). Once saved, the lobby is published."""
        # one opening at a time per server: the checks hold while the table is written
        async with self._guild_lock(guild_id):
            if guild_id == lobby.NO_SERVER:
                # one practice deal at a time, its rematch too
                lobby.may_host(self._open_in(guild_id), host_id)
            elif daily:
                pass  # one a day: the daily deals' own rule
            elif tournament_id is None:
                lobby.may_open(self._open_in(guild_id), host_id, max_tables)
            else:
                lobby.may_seat(self._open_in(guild_id), max_tables)
            now = self.clock()
            table = lobby.new_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host=Seat(
                    name=host_name,
                    user_id=host_id,
                    locale=host_locale,
                    notify=await members.notify_turn(self.db, guild_id, host_id),
                    account_created=host_since[0],
                    joined_server=host_since[1],
                ),
                variant=variant,
                options=options,
                language=language,
                invited=invited,
                hand_delivery=hand_delivery,
                robot_level=robot_level,
                rematch_of=rematch_of,
                seed=self.runtime.seeds() if seed is None else seed,
                now=now,
                deadline=now + self.lobby_timeout,
            )
            table.tournament_id = tournament_id
            table.daily = daily
            if tournament_id is None:
                # a lobby its host cannot pay for could never start
                await self._check_chips(table, host_id)
            await self.store.create(table)
            self.tables[table.id] = table
            self.clocks.schedule(table)
        if robots:
            async with self._change(table.id) as table:
                for level, seat in robots:
                    lobby.add_robot(table, host_id, level, seat)
                await self.store.save(table)
        outcome = self._outcome(table)
        if new_lobby:
            outcome = Outcome(replace(outcome.show, new_lobby=True), outcome.seat)
        return (await self._done(outcome, reply)).table

    async def open_from_page(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: Variant,
        language: str,
        reply: Reply | None = None,
    ) -> TableView:
        """A lobby opened from the web table in its Activity's channel: the server's
        settings (turn time, language, hand delivery, table limit) and the variant's standard
        rules, as ``/tute new`` with no options. Where only some members may open tables
        (an opener role), the page cannot tell who holds it: they open from the chat."""
        settings = await get_settings(self.db, guild_id)
        if settings.opener_role_id:
            raise TableError("opener_role_page")
        return await self.open_table(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            variant=variant,
            options=opening_options(variant, Options(turn_time=settings.turn_time), set()),
            language=settings.language or language,
            max_tables=settings.max_tables,
            host_locale=language,
            hand_delivery=settings.hand_delivery,
            new_lobby=True,
            reply=reply,
        )

    async def open_in_thread(self, thread_id: int) -> TableView | None:
        """The open table whose game plays in this thread (the chat gave it one), if any:
        an Activity opened in the thread is at that table."""
        for table_id in await places.tables_in_thread(self.db, thread_id):
            table = self.tables.get(table_id)
            if table is not None and table.status.is_open:
                return table_view(table)
        return None

    async def discard(self, table_id: int) -> None:
        """A lobby nobody could see (its message was never posted): closed at once."""
        try:
            async with self._change(table_id) as table:
                if table.status is not Status.LOBBY:
                    return
                lobby.close(table)
                await self.store.save(table)
                self._after_change(table)
                outcome = self._outcome(table)
        except TableError:
            return
        await self.publish(outcome.show)

    async def rematch(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        locale: str = "en",
        max_tables: int | None = None,
    ) -> tuple[TableView, bool]:
        """The game ``table_id`` again: its lobby, and whether this member opened it now
        (else they sat down in the one another member opened). See ``rematch``. A lobby
        opened now is published as one the chat posts (its robots seated already).
        ``max_tables``: the server's limit of tables (None: read from its settings)."""
        old = await self.store.load_ended(table_id)
        if max_tables is None:
            max_tables = (await get_settings(self.db, old.guild_id)).max_tables
        async with self._rematching:
            todo = rematch.plan(old, user_id, list(self.tables.values()))
            if todo.lobby_id is not None:
                since, team = todo.since, todo.team
                joined = await self.join(
                    todo.lobby_id, user_id, name, team=team, locale=locale, since=since
                )
                return joined.table, False
            view = await self.open_table(
                **todo.opening,
                host_id=user_id,
                host_name=name,
                max_tables=max_tables,
                host_locale=locale,
                host_since=todo.since,
                robots=todo.robots,
                new_lobby=True,
            )
            return view, True

    async def _chips(self, guild_id: int, user_id: int) -> int:
        """A member's chips now (their first look writes their starting chips)."""
        return await chips_of(self.db, guild_id, user_id, self.clock())

    async def _check_chips(self, table: Table, user_id: int) -> None:
        """A player needs the chips of the bet to sit (checked again at the start)."""
        if table.options.bet <= 0 or not table.options.competitive:
            return
        try:
            # a member's first check writes their starting chips: a write like any other
            chips = await self._chips(table.guild_id, user_id)
        except Exception as error:
            log.error("The chips of %s could not be checked", user_id, exc_info=error)
            raise SaveFailed from error
        if chips < table.options.bet:
            raise TableError("no_chips", bet=table.options.bet, chips=chips)

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        team: int | None = None,
        locale: str = "en",
        since: tuple[float | None, float | None] = (None, None),
        reply: Reply | None = None,
    ) -> Outcome:
        """Seat a member; ``since``: when their Discord account was made and when they
        joined the server (for the fair-play minimums of rated play)."""
        async with self._change(table_id) as table:
            moving_from, seat = lobby.seat_for(table, user_id, team)
            await self._check_chips(table, user_id)
            notify = await members.notify_turn(self.db, table.guild_id, user_id)
            member = Seat(
                name=name,
                user_id=user_id,
                locale=locale,
                notify=notify,
                account_created=since[0],
                joined_server=since[1],
            )
            lobby.sit(table, member, seat, moving_from=moving_from)
            await self.store.save(table)
            outcome = self._outcome(table)
        return await self._done(outcome, reply)
