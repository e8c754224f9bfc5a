"""The table service: one façade over a table's life, its concerns in the modules beside it
(its core, the lock and the change under it, in ``core``).

Every change to a table happens under that table's lock as load -> apply -> save -> show.
The façade takes the lock; a concern applies the change to the table in memory (``lobby``,
``play``, ``leaving``, ``robots``); ``persistence`` writes the action ahead in the same
transaction as the table's new state; only then is it shown. ``clock`` wakes a table when
something is due, and the façade does it like any other change. Keeping the lock, the save
and the show here is what makes that order hold everywhere. What members switch that is not
a move (turn notices) is ``notes``, under the same locks. Where a table's messages live is
not the service's business: the presenter keeps it.

Nothing here imports discord: the adapter passes ids and names in and renders what the
``Presenter`` is told.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.engine import Action, Options, Variant
from bot.storage import Database, members, places
from bot.storage.ledger import InsufficientChips
from bot.storage.settings import HandDelivery, get_settings

from . import form, leaving, lobby, play, rematch
from .announcement import Announcement as Announcement
from .announcement import Said
from .clock import DECLARE_GRACE as DECLARE_GRACE
from .clock import IDLE_TIMEOUT, LOBBY_TIMEOUT, ROBOT_DELAY, Clocks, Due
from .clock import RETRY_FIRST as RETRY_FIRST
from .clock import RETRY_MOST as RETRY_MOST
from .codes import decode_action
from .core import GameOver as GameOver
from .core import ServiceCore
from .errors import SaveFailed, TableError
from .hints import Hint, Hints
from .house import opening_options
from .model import DEFAULT_ROBOT, Level, Seat, Status, Table
from .notes import Notes
from .persistence import STATE, Store, Write
from .robots import AWAY_AFTER_MISSES as AWAY_AFTER_MISSES
from .robots import Robots, default_robot

# Read from this module when used, so that a test may replace them here: the seed of a new
# table (``secrets``), a member's chips (``chips_of``) and the robots (``default_robot``).
from .settlement import chips_of
from .surroundings import LostTable as LostTable
from .surroundings import Presenter as Presenter
from .surroundings import Robot
from .thinking import Thinking
from .views import Outcome as Outcome
from .views import Redraws, TableView, table_view

log = logging.getLogger(__name__)


class TableService(ServiceCore):
    def __init__(
        self,
        db: Database,
        presenter: Presenter,
        *,
        clock: Callable[[], float],
        robot_delay: float = ROBOT_DELAY,
        lobby_timeout: float = LOBBY_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        think_budget: float = 0.4,
        robot: Robot | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        robot_processes: int | None = 0,
    ) -> None:
        self.db = db
        self.presenter = presenter
        self.clock = clock
        self.robot_delay = robot_delay
        self.lobby_timeout = lobby_timeout
        self.idle_timeout = idle_timeout
        self.think_budget = think_budget
        self.robot: Robot = robot or default_robot
        self.thinking = Thinking(robot_processes)
        """Where hard robots search: worker processes (``robot_processes``; None: one per
        core) or threads (0)."""
        # how the tables' clocks wait; the sandbox waits on its simulated clock instead
        self.sleep = sleep
        self.tables: dict[int, Table] = {}
        self.owns: Callable[[int], bool] = everywhere
        """Whether a server's tables run in this process (:mod:`bot.tables.cluster`)."""
        self.locks: dict[int, asyncio.Lock] = {}
        """Each table's lock (while anything holds it, or waits for it)."""
        self._guild_locks: dict[int, asyncio.Lock] = {}
        self._rematching = asyncio.Lock()  # one lobby per rematch, however many ask at once
        self.dealing_alone = lobby.Dealing()
        """A member's own deal in their DMs being dealt: one press at a time."""
        self.store = Store(self)
        """The database side: each table's last save."""
        self.robots = Robots(self)
        self.clocks = Clocks(self, self.robots, self._ring)
        """Each table's timer, and the back-off of a table whose change failed."""
        self.notes = Notes(db, self.tables, self._holding, self.store.save_quietly, self._open_in)
        """What members switch that is not a move: their turn notices."""
        self.hints = Hints(self.tables, self._holding, self.store.save_quietly, self.thinking)
        """What the hard robot would do in a member's seat, asked at a friendly table."""
        self._redraws = Redraws()
        self.game_over_listeners: list[GameOver] = []
        self._telling: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ lobby

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
    ) -> TableView:
        """``tournament_id``: the table plays a match of that tournament (its host may host
        another table meanwhile: the tournament seats them, they did not ask). ``seed``: the
        table's cards and robots come from this seed (a daily deal's), not a fresh one.
        ``daily``: the table plays its host's daily deal (``Table.daily``). A daily deal and
        a table of no server (``lobby.NO_SERVER``, a practice deal in its host's DMs) are
        their member's own (``lobby.alone``): no limit of tables, and they neither block
        their host's other tables nor are blocked by them (one practice deal at a time,
        though, its rematch too)."""
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
                seed=secrets.randbits(62) if seed is None else seed,
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
            return table_view(table)

    async def open_from_page(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: Variant,
        language: str,
    ) -> Outcome:
        """A lobby opened from the web table in its Activity's channel: the server's
        settings (turn time, language, hand delivery, table limit) and the variant's standard
        rules, as ``/tute new`` with no options. Where only some members may open tables
        (an opener role), the page cannot tell who holds it: they open from the chat."""
        settings = await get_settings(self.db, guild_id)
        if settings.opener_role_id:
            raise TableError("opener_role_page")
        view = await self.open_table(
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
        )
        outcome = self._outcome(self.get(view.id))
        return Outcome(replace(outcome.show, new_lobby=True), outcome.seat)

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
        except TableError:
            return

    async def join(
        self,
        table_id: int,
        user_id: int,
        name: str,
        *,
        team: int | None = None,
        locale: str = "en",
        since: tuple[float | None, float | None] = (None, None),
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
            return self._outcome(table)

    async def add_robot(
        self, table_id: int, user_id: int, level: str | None = None, seat: int | None = None
    ) -> Outcome:
        """The host seats a robot of ``level`` (None: the table's level), in ``seat`` or the
        first free one."""
        async with self._change(table_id) as table:
            lobby.add_robot(table, user_id, level, seat)
            await self.store.save(table)
            return self._outcome(table)

    def settings_form(self, table_id: int, user_id: int) -> TableView:
        """The table as its Settings form shows it: only to its host, only in the lobby."""
        table = self.get(table_id)
        form.may_change(table, user_id)
        return table_view(table)

    async def set_option(self, table_id: int, user_id: int, name: str, value: str) -> Outcome:
        """The host sets option ``name`` of their lobby to ``value``, as typed (``form``)."""
        async with self._change(table_id) as table:
            form.change(table, user_id, name, value)
            await self.store.save(table)
            return self._outcome(table)

    async def rematch(
        self, table_id: int, user_id: int, name: str, *, locale: str = "en", max_tables: int = 10
    ) -> tuple[Outcome, bool]:
        """The game ``table_id`` again: its lobby, and whether this member opened it now
        (else they sat down in the one another member opened). See ``rematch``."""
        old = await self.store.load_ended(table_id)
        async with self._rematching:
            todo = rematch.plan(old, user_id, list(self.tables.values()))
            if todo.lobby_id is not None:
                since, team = todo.since, todo.team
                joined = await self.join(
                    todo.lobby_id, user_id, name, team=team, locale=locale, since=since
                )
                return joined, False
            view = await self.open_table(
                **todo.opening,
                host_id=user_id,
                host_name=name,
                max_tables=max_tables,
                host_locale=locale,
                host_since=todo.since,
            )
            for level, seat in todo.robots:
                await self.add_robot(view.id, user_id, level, seat)
            show = self.redraw(view.id)
            assert show is not None  # a lobby just opened stays in memory
            return Outcome(show), True

    async def remove_robot(self, table_id: int, user_id: int) -> Outcome:
        async with self._change(table_id) as table:
            lobby.remove_robot(table, user_id)
            await self.store.save(table)
            return self._outcome(table)

    def may_close(self, table_id: int, user_id: int) -> None:
        """Refused (``host_only``, ``not_lobby``) unless this member may close the
        table now: checked before the question that asks them to be sure."""
        lobby.host_in_lobby(self.get(table_id), user_id)

    async def close(self, table_id: int, user_id: int) -> Outcome:
        async with self._change(table_id) as table:
            lobby.host_in_lobby(table, user_id)
            lobby.close(table)
            await self.store.save(table)
            self._after_change(table)
            return self._outcome(table, announce=[Announcement(Said.CLOSED_BY_HOST)])

    async def start(self, table_id: int, user_id: int) -> Outcome:
        """Fill the empty seats with robots, take the stakes and deal."""
        async with self._change(table_id) as table:
            lobby.host_in_lobby(table, user_id)
            for uid in table.humans():
                await self._check_chips(table, uid)
            write = play.start(table, self.clock)
            try:
                await self.store.save(table, write)
            except InsufficientChips as short:
                # another table took a member's chips since the check: nothing was saved,
                # and the table stays in the lobby as it was
                self._rollback(table)
                raise TableError("no_chips", bet=table.options.bet, chips=short.available) from None
            self._after_change(table)
            return self._outcome(table)

    async def _check_chips(self, table: Table, user_id: int) -> None:
        """A player needs the chips of the bet to sit (checked again at the start)."""
        if table.options.bet <= 0 or not table.options.competitive:
            return
        try:
            # a member's first check writes their starting chips: a write like any other
            chips = await chips_of(self.db, table.guild_id, user_id, self.clock())
        except Exception as error:
            log.error("The chips of %s could not be checked", user_id, exc_info=error)
            raise SaveFailed from error
        if chips < table.options.bet:
            raise TableError("no_chips", bet=table.options.bet, chips=chips)

    # ------------------------------------------------------------------ play

    async def act(
        self, table_id: int, user_id: int, action: Action, *, deal_no: int, trick_no: int
    ) -> Outcome:
        """A member's action from a button: refused when it comes from an earlier trick, when
        it is not theirs to take, or when the rules do not allow it."""
        async with self._change(table_id) as table:
            return await self._act(table, user_id, action, deal_no=deal_no, trick_no=trick_no)

    async def click(
        self, table_id: int, user_id: int, code: str, *, deal_no: int, trick_no: int
    ) -> Outcome:
        """A card or a declaration clicked on a member's hand: its button's ``code``
        (:mod:`codes`), read as their seat's action; then as :meth:`act`."""
        async with self._change(table_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            action = decode_action(seat, code)
            return await self._act(table, user_id, action, deal_no=deal_no, trick_no=trick_no)

    async def _act(
        self, table: Table, user_id: int, action: Action, *, deal_no: int, trick_no: int
    ) -> Outcome:
        seat = play.member_action(table, user_id, action, deal_no=deal_no, trick_no=trick_no)
        announce = await self._after_action(table, [action])
        return self._outcome(table, seat=seat, announce=announce)

    async def hint(self, table_id: int, user_id: int) -> Hint:
        """What the hard robot would do in this member's seat now, and why (``hints``)."""
        return await self.hints.ask(table_id, user_id)

    async def im_back(self, table_id: int, user_id: int) -> Outcome:
        async with self._change(table_id) as table:
            seat, announce = play.back(table, user_id, self.clock, self.idle_timeout)
            await self.store.save(table)
            self._after_change(table)
            return self._outcome(table, seat=seat, announce=announce)

    async def _after_action(self, table: Table, actions: list[Action]) -> list[Announcement]:
        """Save what was done (write-ahead) and move the game on."""
        write, announce = play.move_on(table, actions, self.clock, self.idle_timeout)
        await self.store.save(table, write)
        self._after_change(table)
        return announce

    # -------------------------------------------------------- leaving and votes

    def leave_terms(self, table_id: int, user_id: int) -> tuple[str, int]:
        """What leaving would do now, for the question before it: ``(case, stake)``."""
        return leaving.terms(self.get(table_id), user_id)

    async def leave(self, table_id: int, user_id: int, *, lobby: bool = False) -> Outcome:
        """Leave the table. ``lobby``: the click came from the lobby, and a game that has
        started since is not left from there (that would forfeit the stake unasked)."""
        async with self._change(table_id) as table:
            seat = leaving.leaver_seat(table, user_id, from_lobby=lobby)
            if table.status is Status.LOBBY:
                announce = leaving.leave_lobby(table, seat, user_id)
                write = STATE
            else:
                settlement, announce = leaving.leave_game(
                    table, seat, user_id, self.clock, self.idle_timeout
                )
                write = Write(settlement=settlement)
            await self.store.save(table, write)
            self._after_change(table)
            return self._outcome(table, announce=announce)

    def vote_terms(self, table_id: int, user_id: int) -> tuple[int, int, bool]:
        """What a vote to cancel would do now: ``(votes still missing after it, stake, whether
        it counts as leaving)``."""
        return leaving.vote_terms(self.get(table_id), user_id)

    async def vote_cancel(self, table_id: int, user_id: int) -> Outcome:
        """Cancel by agreement: every human at the table votes yes; robots do not vote. The
        only member left with robots, past the first trick, leaves instead (``is_a_leave``)."""
        async with self._change(table_id) as table:
            settlement, announce = leaving.vote(table, user_id, self.clock, self.idle_timeout)
            await self.store.save(table, Write(settlement=settlement))
            self._after_change(table)
            return self._outcome(table, announce=announce)

    # ------------------------------------------------------------------ clock

    async def _ring(self, table_id: int) -> None:
        """A table's clock rang: what is due is a change like any other, then shown."""
        if table_id not in self.tables:
            return
        async with self._change(table_id) as table:
            if not table.status.is_open:
                return
            self.clocks.rang(table_id)
            announce = await self._on_time(table)
            if announce is None:
                return
        self.clocks.forget(table_id)  # it went through: a failure starts the back-off again
        await self._show(table, announce=announce)

    async def _on_time(self, table: Table) -> list[Announcement] | None:
        """What the table's clock does now (None: nothing yet, the timer is set again)."""
        due = self.clocks.due(table)
        if due is None:
            self.clocks.schedule(table)
            return None
        if due is Due.ROBOTS:
            done = await self.robots.play_run(table)
            if not done:
                self.clocks.schedule(table)
                return []
            return await self._after_action(table, done)
        if due is Due.TURN_OVER:
            return await self._after_action(table, await self.robots.stand_in(table))
        if due is Due.LOBBY_EXPIRED:
            announce = lobby.expire(table, self.lobby_timeout)
            await self.store.save(table)
        else:
            settlement, announce = leaving.cancel_idle(table, self.idle_timeout)
            await self.store.save(table, Write(settlement=settlement))
        self._after_change(table)
        return announce


def everywhere(_guild_id: int) -> bool:
    """One process runs every server's tables."""
    return True
