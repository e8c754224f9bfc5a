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
from collections.abc import Callable, Sequence

from bot.engine import Action
from bot.metrics import Metrics
from bot.storage import Database
from bot.storage.ledger import InsufficientChips

from . import form, leaving, lobby, play
from .announcement import Announcement as Announcement
from .announcement import Said
from .clock import DECLARE_GRACE as DECLARE_GRACE
from .clock import IDLE_TIMEOUT, LOBBY_TIMEOUT, ROBOT_DELAY, Clocks, Due
from .clock import RETRY_FIRST as RETRY_FIRST
from .clock import RETRY_MOST as RETRY_MOST
from .codes import decode_action
from .core import GameOver as GameOver
from .core import Reply as Reply
from .errors import TableError
from .hints import Hint, Hints
from .model import Status, Table
from .notes import Notes
from .opening import Opening
from .persistence import Store
from .review import Review, Reviews
from .robots import AWAY_AFTER_MISSES as AWAY_AFTER_MISSES
from .robots import Robots
from .runtime import Runtime as Runtime
from .surroundings import LostTable as LostTable
from .surroundings import Presenter as Presenter
from .thinking import Thinking
from .views import Outcome as Outcome
from .views import Redraws, TableView, table_view
from .writes import STATE, Write

log = logging.getLogger(__name__)


class TableService(Opening):
    def __init__(
        self,
        db: Database,
        presenters: Sequence[Presenter],
        runtime: Runtime,
        *,
        robot_delay: float = ROBOT_DELAY,
        lobby_timeout: float = LOBBY_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        think_budget: float = 0.4,
        robot_processes: int | None = 0,
        metrics: Metrics | None = None,
    ) -> None:
        """``presenters``: who shows each saved change (Discord's messages, the card table's
        sockets); ``runtime``: the clocks, the seeds and the robot it runs on; ``metrics``:
        where its figures go (the bot's; by default, figures of its own). All are given
        once, here: nothing is swapped on a running service."""
        self.db = db
        self.metrics = metrics if metrics is not None else Metrics(clock=runtime.clock)
        self.presenters = tuple(presenters)
        self.runtime = runtime
        self.robot_delay = robot_delay
        self.lobby_timeout = lobby_timeout
        self.idle_timeout = idle_timeout
        self.think_budget = think_budget
        self.thinking = Thinking(robot_processes)
        """Where hard robots search: worker processes (``robot_processes``; None: one per
        core) or threads (0)."""
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
        self.reviews = Reviews(db, self.thinking, runtime.clock)
        """The reviews of members' finished deals, judged on the robots' workers."""
        self._redraws = Redraws()
        self.game_over_listeners: list[GameOver] = []
        self._telling: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ lobby

    async def add_robot(
        self,
        table_id: int,
        user_id: int,
        level: str | None = None,
        seat: int | None = None,
        *,
        reply: Reply | None = None,
    ) -> Outcome:
        """The host seats a robot of ``level`` (None: the table's level), in ``seat`` or the
        first free one."""
        async with self._change(table_id) as table:
            lobby.add_robot(table, user_id, level, seat)
            await self.store.save(table)
            outcome = self._outcome(table)
        return await self._done(outcome, reply)

    def settings_form(self, table_id: int, user_id: int) -> TableView:
        """The table as its Settings form shows it: only to its host, only in the lobby."""
        table = self.get(table_id)
        form.may_change(table, user_id)
        return table_view(table)

    async def set_option(
        self, table_id: int, user_id: int, name: str, value: str, *, reply: Reply | None = None
    ) -> Outcome:
        """The host sets option ``name`` of their lobby to ``value``, as typed (``form``)."""
        async with self._change(table_id) as table:
            form.change(table, user_id, name, value)
            await self.store.save(table)
            outcome = self._outcome(table)
        return await self._done(outcome, reply)

    async def remove_robot(
        self, table_id: int, user_id: int, *, reply: Reply | None = None
    ) -> Outcome:
        async with self._change(table_id) as table:
            lobby.remove_robot(table, user_id)
            await self.store.save(table)
            outcome = self._outcome(table)
        return await self._done(outcome, reply)

    def may_close(self, table_id: int, user_id: int) -> None:
        """Refused (``host_only``, ``not_lobby``) unless this member may close the
        table now: checked before the question that asks them to be sure."""
        lobby.host_in_lobby(self.get(table_id), user_id)

    async def close(self, table_id: int, user_id: int, *, reply: Reply | None = None) -> Outcome:
        async with self._change(table_id) as table:
            lobby.host_in_lobby(table, user_id)
            lobby.close(table)
            await self.store.save(table)
            self._after_change(table)
            outcome = self._outcome(table, announce=[Announcement(Said.CLOSED_BY_HOST)])
        return await self._done(outcome, reply)

    async def start(
        self,
        table_id: int,
        user_id: int,
        *,
        public_input: str | None = None,
        reply: Reply | None = None,
    ) -> Outcome:
        """Fill the empty seats with robots, take the stakes and deal. ``public_input``: what
        the shuffle mixes in that the bot cannot choose (``play.start``)."""
        async with self._change(table_id) as table:
            lobby.host_in_lobby(table, user_id)
            for uid in table.humans():
                await self._check_chips(table, uid)
            write = play.start(table, self.clock, public_input)
            try:
                await self.store.save(table, write)
            except InsufficientChips as short:
                # another table took a member's chips since the check: nothing was saved,
                # and the table stays in the lobby as it was
                self._rollback(table)
                raise TableError("no_chips", bet=table.options.bet, chips=short.available) from None
            self._after_change(table)
            outcome = self._outcome(table)
        return await self._done(outcome, reply)

    # ------------------------------------------------------------------ play

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: Action,
        *,
        deal_no: int,
        trick_no: int,
        reply: Reply | None = None,
    ) -> Outcome:
        """A member's action from a button: refused when it comes from an earlier trick, when
        it is not theirs to take, or when the rules do not allow it."""
        async with self._change(table_id) as table:
            outcome = await self._act(table, user_id, action, deal_no=deal_no, trick_no=trick_no)
        return await self._done(outcome, reply)

    async def click(
        self,
        table_id: int,
        user_id: int,
        code: str,
        *,
        deal_no: int,
        trick_no: int,
        reply: Reply | None = None,
    ) -> Outcome:
        """A card or a declaration clicked on a member's hand: its button's ``code``
        (:mod:`codes`), read as their seat's action; then as :meth:`act`."""
        async with self._change(table_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            action = decode_action(seat, code)
            outcome = await self._act(table, user_id, action, deal_no=deal_no, trick_no=trick_no)
        return await self._done(outcome, reply)

    async def _act(
        self, table: Table, user_id: int, action: Action, *, deal_no: int, trick_no: int
    ) -> Outcome:
        seat = play.member_action(table, user_id, action, deal_no=deal_no, trick_no=trick_no)
        self.metrics.card_clicked()
        announce = await self._after_action(table, [action])
        return self._outcome(table, seat=seat, announce=announce)

    async def hint(self, table_id: int, user_id: int) -> Hint:
        """What the hard robot would do in this member's seat now, and why (``hints``)."""
        return await self.hints.ask(table_id, user_id)

    async def review(
        self, guild_id: int | None, table_id: int, deal_no: int, *, user_id: int
    ) -> Review:
        """The review of the member's decisions in a finished deal (``review``)."""
        return await self.reviews.review(guild_id, table_id, deal_no, user_id=user_id)

    async def im_back(self, table_id: int, user_id: int, *, reply: Reply | None = None) -> Outcome:
        async with self._change(table_id) as table:
            seat, announce = play.back(table, user_id, self.clock, self.idle_timeout)
            await self.store.save(table)
            self._after_change(table)
            outcome = self._outcome(table, seat=seat, announce=announce)
        return await self._done(outcome, reply)

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

    async def leave(
        self, table_id: int, user_id: int, *, lobby: bool = False, reply: Reply | None = None
    ) -> Outcome:
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
            outcome = self._outcome(table, announce=announce)
        return await self._done(outcome, reply)

    def vote_terms(self, table_id: int, user_id: int) -> tuple[int, int, bool]:
        """What a vote to cancel would do now: ``(votes still missing after it, stake, whether
        it counts as leaving)``."""
        return leaving.vote_terms(self.get(table_id), user_id)

    async def vote_cancel(
        self, table_id: int, user_id: int, *, reply: Reply | None = None
    ) -> Outcome:
        """Cancel by agreement: every human at the table votes yes; robots do not vote. The
        only member left with robots, past the first trick, leaves instead (``is_a_leave``)."""
        async with self._change(table_id) as table:
            settlement, announce = leaving.vote(table, user_id, self.clock, self.idle_timeout)
            await self.store.save(table, Write(settlement=settlement))
            self._after_change(table)
            outcome = self._outcome(table, announce=announce)
        return await self._done(outcome, reply)

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
