"""Tournaments: sign-up, the start (seeded by rating), one table per match played through
the table service, each match decided when its table's game ends, the next round drawn
when a round is over, and the winner.

The draw itself is pure (``tournament``); this is its life: what is saved, when tables
open, and what a restart picks up. A match's table is an ordinary competitive table (bet 0)
that names the tournament: its entrants are seated directly and it starts at once; a
member who does not play is stood in for by the table's turn timeout, like at any table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.engine import Options, Variant
from bot.storage import Conn, Database
from bot.storage import tournaments as repo
from bot.storage.ledger import InsufficientChips
from bot.storage.ratings import ratings_of
from bot.storage.settings import get_settings

from ..errors import SaveFailed, TableError
from ..model import Status, Table
from ..ratings import FAMILY_OF
from ..service import TableService
from .tournament import Draw, Format, Match, seeded
from .tournament_chips import pay_entry, pay_prizes, refund
from .tournament_retry import Opened, Reopened, Retries
from .tournament_state import (
    MAX_ENTRANTS,
    CaughtUp,
    Tournament,
    TournamentStatus,
    leavers,
    match_winner,
)

log = logging.getLogger(__name__)

TOURNAMENT_TABLES = 10_000
"""A tournament's tables do not count against the server's limit of open tables: they are
opened for the members, who did not ask."""


class TournamentService:
    """Every change to a tournament happens under its lock and is saved before anything
    follows from it (tables opened, the next round)."""

    def __init__(self, db: Database, tables: TableService, clock: Callable[[], float]) -> None:
        self.db = db
        self.tables = tables
        self.clock = clock
        self.tournaments: dict[int, Tournament] = {}
        """Tournaments signing up or running."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._retries = Retries(self._reopen, self._sleep)
        tables.on_game_over(self._game_over)

    async def _sleep(self, delay: float) -> None:
        await self.tables.sleep(delay)

    def stop(self) -> None:
        """The bot is stopping: no table is tried again (the next start does it)."""
        self._retries.stop()

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def lock(self, tournament_id: int) -> asyncio.Lock:
        """The tournament's lock: a game-over listener registered after this service waits
        on it to read the tournament once the match is decided and what follows is done."""
        return self._lock(tournament_id)

    async def latest_in(self, guild_id: int) -> Tournament | None:
        """The server's newest tournament, whatever its status."""
        tournament_id = await repo.latest_tournament_id(self.db, guild_id)
        return None if tournament_id is None else await self.load(tournament_id)

    def get(self, tournament_id: int) -> Tournament:
        found = self.tournaments.get(tournament_id)
        if found is None:
            raise TableError("tournament_gone")
        return found

    async def load(self, tournament_id: int) -> Tournament:
        """A tournament, active or not (a finished one is read from the database)."""
        found = self.tournaments.get(tournament_id)
        if found is not None:
            return found
        row = await repo.load_tournament(self.db, tournament_id)
        if row is None:
            raise TableError("tournament_gone")
        return Tournament.from_row(row)

    def active_in(self, guild_id: int) -> list[Tournament]:
        return [t for t in self.tournaments.values() if t.guild_id == guild_id]

    # ----------------------------------------------------------------- saving

    async def _save(
        self, t: Tournament, chips_moved: Callable[[Conn], Awaitable[Any]] | None = None
    ) -> None:
        """Save the tournament, with the chips that move with this change in the same
        transaction (``chips_moved``): both or neither. A member short of chips is refused
        (``tournament_chips``); anything else failing is :class:`SaveFailed`."""
        try:
            async with self.db.transaction() as conn:
                if chips_moved is not None:
                    await chips_moved(conn)
                await repo.save_tournament(
                    conn, t.id, status=t.status.value, state=t.state_json(), now=self.clock()
                )
        except InsufficientChips as short:
            raise TableError("tournament_chips", fee=t.entry, chips=short.available) from None
        except Exception as error:
            log.error("Tournament %s could not be saved", t.id, exc_info=error)
            raise SaveFailed from error
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            self.tournaments.pop(t.id, None)

    # ----------------------------------------------------------------- sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: Variant,
        options: Options,
        format: Format,
        deadline: float,
        swiss_rounds: int = 3,
        max_entrants: int = MAX_ENTRANTS,
        language: str = "en",
        entry: int = 0,
    ) -> Tournament:
        if format is Format.SWISS and swiss_rounds < 1:
            raise TableError("bad_rounds")
        if entry < 0:
            raise TableError("bad_entry")
        now = self.clock()
        t = Tournament(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            variant=variant,
            options=replace(options, competitive=True, bet=0),
            format=format,
            swiss_rounds=swiss_rounds if format is Format.SWISS else 0,
            deadline=deadline,
            created_at=now,
            language=language,
            max_entrants=max(2, max_entrants),
            entry=entry,
        )
        try:
            async with self.db.transaction() as conn:
                t.id = await repo.create_tournament(
                    conn,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    status=t.status.value,
                    state=t.state_json(),
                    now=now,
                )
        except Exception as error:
            log.error("Could not create a tournament in server %s", guild_id, exc_info=error)
            raise SaveFailed from error
        self.tournaments[t.id] = t
        return t

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        async with self._lock(tournament_id):
            t = self.get(tournament_id)
            if t.status is not TournamentStatus.SIGNUP:
                raise TableError("tournament_started")
            if user_id in t.entrant_ids():
                raise TableError("already_signed_up")
            if len(t.entrants) >= t.max_entrants:
                raise TableError("tournament_full", limit=t.max_entrants)
            t.entrants.append((user_id, name))
            try:
                await self._save(t, pay_entry(t, user_id, self.clock) if t.entry else None)
            except TableError:
                t.entrants.pop()
                raise
            return t

    async def withdraw(self, tournament_id: int, user_id: int) -> Tournament:
        async with self._lock(tournament_id):
            t = self.get(tournament_id)
            if t.status is not TournamentStatus.SIGNUP:
                raise TableError("tournament_started")
            before = list(t.entrants)
            if user_id not in t.entrant_ids():
                raise TableError("not_signed_up")
            t.entrants = [e for e in t.entrants if e[0] != user_id]
            try:
                await self._save(t, refund(t, self.clock, user_id))
            except SaveFailed:
                t.entrants = before
                raise
            return t

    async def cancel(self, tournament_id: int, user_id: int) -> Tournament:
        """The host calls it off before it starts."""
        async with self._lock(tournament_id):
            t = self.get(tournament_id)
            if user_id != t.host_id:
                raise TableError("host_only")
            if t.status is not TournamentStatus.SIGNUP:
                raise TableError("tournament_started")
            await self._call_off(t)
            return t

    # ------------------------------------------------------------------ chips

    async def _call_off(self, t: Tournament) -> None:
        """Cancelled before it started: every entry given back with it."""
        t.status = TournamentStatus.CANCELLED
        try:
            await self._save(t, refund(t, self.clock))
        except SaveFailed:
            t.status = TournamentStatus.SIGNUP
            raise

    async def _finish(self, t: Tournament) -> None:
        """The draw is over: the prizes paid out of the entries with it, by place (who left
        takes none: ``Draw.places``)."""
        draw = t.draw
        assert draw is not None
        t.status = TournamentStatus.FINISHED

        try:
            await self._save(t, pay_prizes(t, draw, self.clock))
        except SaveFailed:
            t.status, t.prizes = TournamentStatus.RUNNING, {}
            raise

    # ------------------------------------------------------------------ start

    async def start(self, tournament_id: int, now: float, *, by: int | None = None) -> Tournament:
        """Start at the deadline (``by`` None), or earlier by the host (``by``): the entrants
        seeded by rating, round 1 drawn and its tables opened."""
        async with self._lock(tournament_id):
            t = self.get(tournament_id)
            if t.status is not TournamentStatus.SIGNUP:
                raise TableError("tournament_started")
            if by is None and now < t.deadline:
                raise TableError("tournament_not_yet")
            if by is not None and by != t.host_id:
                raise TableError("host_only")
            if len(t.entrants) < 2:
                raise TableError("tournament_too_few", needed=2)
            entrants = t.entrant_ids()
            ratings = await ratings_of(self.db, t.guild_id, FAMILY_OF[t.variant].value, entrants)
            order = seeded(entrants, {u: r.mu - 3 * r.sigma for u, r in ratings.items()})
            draw = Draw(order, t.table_size, t.format, t.swiss_rounds)
            draw.next_round()
            t.draw, t.status = draw, TournamentStatus.RUNNING
            try:
                await self._save(t)
            except SaveFailed:
                t.draw, t.status = None, TournamentStatus.SIGNUP
                raise
            await self._advance(t)
            return t

    async def start_due(self, now: float) -> list[Tournament]:
        """Every tournament whose sign-up ended by ``now``: started, or cancelled when fewer
        than two signed up. Returns them."""
        done: list[Tournament] = []
        for t in [t for t in self.tournaments.values() if t.status is TournamentStatus.SIGNUP]:
            if now < t.deadline:
                continue
            try:
                if len(t.entrants) < 2:
                    async with self._lock(t.id):
                        await self._call_off(t)
                else:
                    await self.start(t.id, now)
            except TableError:
                log.exception("Tournament %s could not start", t.id)
                continue
            done.append(t)
        return done

    # ------------------------------------------------------------------ matches

    async def _advance(self, t: Tournament) -> None:
        """Draw rounds while the last is over (byes are decided at once), finish when the
        draw is, and open the tables of the round in play."""
        draw = t.draw
        assert draw is not None
        while draw.round_over(draw.current_round) and not draw.finished:
            draw.next_round()
            await self._save(t)
        if draw.finished:
            await self._finish(t)
            return
        if not await self._open_tables(t):
            self._retries.start(t.id)

    async def _open_tables(self, t: Tournament) -> bool:
        """Open the tables of the round in play that are not; False if one failed."""
        draw = t.draw
        assert draw is not None
        opened = True
        for index, match in enumerate(list(draw.matches)):
            if match.winner is None and match.round == draw.current_round:
                try:
                    await self._play(t, index, match)
                except Exception:
                    log.exception("The table of match %s of tournament %s failed", index, t.id)
                    opened = False
        return opened

    async def _reopen(self, tournament_id: int) -> Reopened | None:
        """A try again of the tables that failed to open (``Retries``), with the tables it
        opened: its listeners are told of them."""
        async with self._lock(tournament_id):
            t = self.tournaments.get(tournament_id)
            if t is None or t.status is not TournamentStatus.RUNNING or t.draw is None:
                return None
            before = set(t.tables.values())
            opened = await self._open_tables(t)
            return Reopened(t, opened, tuple(sorted(set(t.tables.values()) - before)))

    def on_opened(self, listener: Opened) -> None:
        """Have ``listener`` told of the tables that opened late (on a try again), once:
        where they are is its to tell."""
        self._retries.listeners.append(listener)

    async def _play(self, t: Tournament, index: int, match: Match) -> None:
        """Open the match's table (saved as the match's before anyone sits), seat its
        entrants, fill it with robots and start it; what was done before is not done again."""
        players = match.players
        table_id = t.tables.get(index)
        if table_id is None:
            # the hands are dealt as the server deals them at any table (/tute config)
            settings = await get_settings(self.db, t.guild_id)
            view = await self.tables.open_table(
                guild_id=t.guild_id,
                channel_id=t.channel_id,
                host_id=players[0],
                host_name=t.name_of(players[0]),
                variant=t.variant,
                options=t.options,
                language=t.language,
                max_tables=TOURNAMENT_TABLES,
                tournament_id=t.id,
                hand_delivery=settings.hand_delivery,
            )
            table_id = view.id
            t.tables[index] = table_id
            await self._save(t)
        table = self.tables.tables.get(table_id)
        if table is None or table.status is not Status.LOBBY:
            return  # in play already, or ended (decided by its game over, or at restore)
        for user_id in players:
            if table.seat_of(user_id) is None:
                await self.tables.join(table_id, user_id, t.name_of(user_id))
        for _ in table.free_seats():
            await self.tables.add_robot(table_id, table.host_id)
        await self.tables.start(table_id, table.host_id)

    async def _game_over(self, table: Table) -> None:
        """A table's game ended: its match is decided, and the tournament goes on."""
        if table.tournament_id is None or table.tournament_id not in self.tournaments:
            return
        async with self._lock(table.tournament_id):
            t = self.tournaments.get(table.tournament_id)
            if t is None or t.status is not TournamentStatus.RUNNING:
                return
            if await self._decide(t, table):
                await self._advance(t)

    async def _decide(self, t: Tournament, table: Table) -> bool:
        """Record the winner of the match ``table`` played; False if there is none to
        decide (not one of its tables, or decided before)."""
        index = t.match_of_table(table.id)
        draw = t.draw
        if index is None or draw is None:
            return False
        match = draw.matches[index]
        if match.winner is not None:
            return False
        out_before = set(draw.out)
        draw.decide(match, match_winner(match, table, draw.entrants), leavers(match, table))
        try:
            await self._save(t)
        except SaveFailed:
            draw.matches[index], draw.out = match, out_before
            raise
        return True

    # -------------------------------------------------------- start and stop

    async def restore(self) -> list[CaughtUp]:
        """After a start (and the table service's ``restore``): reload the active
        tournaments; a match whose table ended while the bot was down is decided now, and
        what is missing of the round in play (a table, a start) is done. Returns what each
        running tournament's catch-up did, for its channel to be told."""
        restored: list[Tournament] = []
        for row in await repo.active_tournaments(self.db):
            if not self.tables.owns(row.guild_id):
                continue  # another process's
            try:
                t = Tournament.from_row(row)
            except Exception:
                log.exception("Tournament %s could not be restored", row.id)
                continue
            self.tournaments[t.id] = t
            restored.append(t)
        caught_up: list[CaughtUp] = []
        for t in restored:
            if t.status is not TournamentStatus.RUNNING or t.draw is None:
                continue
            round_before = t.draw.current_round
            decided: list[int] = []
            try:
                async with self._lock(t.id):
                    await self._catch_up(t, decided)
            except Exception:
                log.exception("Tournament %s could not catch up", t.id)
            caught_up.append(CaughtUp(t, tuple(decided), round_before))
        return caught_up

    async def _catch_up(self, t: Tournament, decided: list[int]) -> None:
        draw = t.draw
        assert draw is not None
        for index, table_id in list(t.tables.items()):
            if draw.matches[index].winner is not None or table_id in self.tables.tables:
                continue
            table = await self.tables.ended(table_id)
            if await self._decide(t, table):
                decided.append(index)
        await self._advance(t)
