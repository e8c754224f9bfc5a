"""The daily deal: every UTC day each server deals one pairs deal, the same cards for all its
members, and each member plays it once, alone with three normal robots (a partner in the
seat across, two opponents). The seed comes from the install's key, the server and the day;
the robots' randomness from the table's seed and the moment (``robots._seed``), and normal
robots think without a clock: the same plays meet the same answers, for everybody.

A member's attempt is written when they start it, before a card is shown, so the deal is
played once whatever becomes of it. It is played at an ordinary table of the service, in
the member's DMs: friendly (no chips, no ratings), private, of one deal, and marked daily
(``Table.daily``): it has no rematch, and no list of the server's tables shows it. When
it ends, the attempt is scored: a deal played to its end by its points; one left, abandoned
or cancelled for waiting is unfinished, with no points, below every finished one. A table
that is not competitive offers hints: a deal played with any ranks after those played
without, and says how many.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from bot.engine import Variant, experience, parse_record, replay
from bot.engine.shuffle import SHORT
from bot.engine.variants import sides_of
from bot.storage import Database, members
from bot.storage import daily as repo
from bot.storage.daily import DAY, Attempt, Score, day_of
from bot.storage.settings import get_settings

from .errors import TableError
from .lobby import Deliver, alone_options
from .model import Level, Status, Table, table_commitment
from .service import TableService
from .views import Outcome

log = logging.getLogger(__name__)

DAILY_VARIANT = Variant.PAIRS
DAILY_ROBOT = Level.NORMAL
"""Normal robots decide by rule alone, with no time budget: a hard robot's search depends on
how fast the machine is, and two members would not meet the same robots."""
MEMBER_SEAT = 0
"""The member's seat; their partner robot sits across, in seat 2."""


def date_of(day: int) -> str:
    """A day as its UTC date, 2026-11-27."""
    return datetime.fromtimestamp(day * DAY, UTC).date().isoformat()


def daily_seed(key: str, guild_id: int, day: int) -> int:
    """The seed of a server's deal of a day: a keyed hash, so that nobody without the
    install's key can work the cards out ahead."""
    digest = hashlib.blake2b(
        f"{guild_id}:{day}".encode(), key=key.encode()[:64], digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 2  # 62 bits, as a table's own seed


def streak_of(days: list[int], today: int) -> int:
    """Consecutive days played up to today (from yesterday while today is not played yet):
    ``days``, newest first."""
    if not days:
        return 0
    expected = today if days[0] == today else today - 1
    streak = 0
    for day in days:
        if day > expected:
            continue
        if day != expected:
            break
        streak += 1
        expected -= 1
    return streak


def _member_seat(table: Table, user_id: int) -> int | None:
    """The seat the member played from, even after they left it (``Table.seat_of`` forgets
    a member who left: their unfinished deal is still theirs)."""
    return next(
        (i for i, s in enumerate(table.seats) if s is not None and s.user_id == user_id), None
    )


def score_of(table: Table, user_id: int) -> Score | None:
    """How a daily table's deal went for its member (None: it was not played to its end)."""
    deal = table.deal
    if table.status is not Status.FINISHED or deal is None or deal.result is None:
        return None
    seat = _member_seat(table, user_id)
    occupant = table.seats[seat] if seat is not None else None
    if seat is None or occupant is None:
        return None
    result = deal.result
    side = deal.side_of[seat]
    points = result.scores[side]
    others = [score for i, score in enumerate(result.scores) if i != side]
    return Score(
        points=points,
        margin=points - max(others, default=0),
        won=result.winner == side,
        tricks="".join("W" if deal.side_of[t.winner] == side else "L" for t in deal.tricks),
        cantes=sum(1 for c in deal.cantes if deal.side_of[c.seat] == side),
        hints=occupant.hints,
    )


def xp_of(table: Table, user_id: int) -> int:
    """The experience a finished daily deal gives where its server chose so: what the same
    game would give were it competitive."""
    seat = _member_seat(table, user_id)
    if table.winner is None or table.status is not Status.FINISHED or seat is None:
        return 0
    sides = sides_of(table.variant, table.players)
    return experience(table.variant, replace(table.options, competitive=True), table.winner, sides)[
        seat
    ]


class DailyRefusal(Exception):
    """What a member cannot do with the daily deal, said in words (``key``)."""

    def __init__(self, key: str, attempt: Attempt | None = None) -> None:
        super().__init__(key)
        self.key = key
        self.attempt = attempt


@dataclass(frozen=True, slots=True)
class Scored:
    """An attempt just scored, for the member who played it."""

    attempt: Attempt
    streak: int
    channel_id: int
    """Where its table played (the member's DMs)."""
    language: str


@dataclass(frozen=True, slots=True)
class BoardEntry:
    place: int
    """1, 2, 3... for the finished; 0 for those in play or unfinished."""
    attempt: Attempt
    streak: int


@dataclass(frozen=True, slots=True)
class Board:
    day: int
    entries: tuple[BoardEntry, ...]
    commitment: str = ""
    """The day's deal's commitment, as a table shows it (12 hex digits): the same for every
    member, on the board before anyone plays."""


Told = Callable[[Scored], Awaitable[None]]


class DailyService:
    """The daily deals of every server, on the table service (whose clock it reads)."""

    def __init__(self, db: Database, tables: TableService) -> None:
        self.db = db
        self.tables = tables
        self._key: str | None = None
        self.scored_listeners: list[Told] = []
        tables.on_game_over(self._game_over)

    def stop(self) -> None:
        if self._game_over in self.tables.game_over_listeners:
            self.tables.game_over_listeners.remove(self._game_over)

    def today(self) -> int:
        return day_of(self.tables.clock())

    async def commitment(self, guild_id: int, day: int) -> str:
        """The commitment of a server's deal of a day (64 hex digits): the same for every
        member, shown with the day's deal before anyone plays it."""
        return table_commitment(await self.seed(guild_id, day))

    async def seed(self, guild_id: int, day: int) -> int:
        if self._key is None:
            self._key = await repo.key(self.db, self.tables.runtime.keys())
        return daily_seed(self._key, guild_id, day)

    async def attempt(self, guild_id: int, user_id: int) -> Attempt | None:
        """The member's attempt of today's deal, if they made it."""
        return await repo.get(self.db, guild_id, user_id, self.today())

    async def may_play(self, guild_id: int, user_id: int) -> None:
        """Refused (``played``) when the member made today's attempt already."""
        attempt = await self.attempt(guild_id, user_id)
        if attempt is not None:
            raise DailyRefusal("played", attempt)

    async def deal(
        self, *, guild_id: int, user_id: int, name: str, language: str, deliver: Deliver
    ) -> Outcome:
        """``/tute challenge play``: refused (``DailyRefusal``) when the member made today's
        attempt, or (``TableError``, ``dealing``) while another press of theirs is dealing
        their deal or a practice deal, before anything is sent; else its introduction is
        sent (``deliver``) and the deal starts there (:meth:`play`)."""
        with self.tables.dealing_alone(user_id):
            await self.may_play(guild_id, user_id)
            channel_id = await deliver()
            return await self.play(
                guild_id=guild_id,
                user_id=user_id,
                name=name,
                language=language,
                channel_id=channel_id,
            )

    async def play(
        self, *, guild_id: int, user_id: int, name: str, language: str, channel_id: int
    ) -> Outcome:
        """Start the member's deal of today at a table in ``channel_id`` (their DMs). The
        attempt is written first: a second start, now or after a restart, is refused. A
        table the service refuses to open (a failed save) takes it back. It is played
        whatever other table its member hosts (``lobby.alone``)."""
        day = self.today()
        now = self.tables.clock()
        if not await repo.begin(self.db, guild_id, user_id, day, now):
            raise DailyRefusal("played", await repo.get(self.db, guild_id, user_id, day))
        try:
            settings = await get_settings(self.db, guild_id)
            view = await self.tables.open_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                host_name=name,
                variant=DAILY_VARIANT,
                options=alone_options(settings.turn_time),
                language=language,
                host_locale=language,
                hand_delivery="dm",
                robot_level=DAILY_ROBOT,
                seed=await self.seed(guild_id, day),
                daily=True,
            )
        except TableError:
            await repo.withdraw(self.db, guild_id, user_id, day)
            raise
        await repo.seat(self.db, guild_id, user_id, day, view.id)
        # the same input for every member: the same cards for all, committed by the seed
        return await self.tables.start(view.id, user_id, public_input=f"daily:{guild_id}:{day}")

    async def board(self, guild_id: int, day: int | None = None) -> Board:
        """The server's board of a day (today by default), with each member's streak."""
        day = self.today() if day is None else day
        attempts = await repo.board(self.db, guild_id, day)
        played = await repo.days_played(self.db, guild_id, [a.user_id for a in attempts], day)
        entries: list[BoardEntry] = []
        place = 0
        for attempt in attempts:
            if attempt.status == "finished":
                place += 1
            shown = place if attempt.status == "finished" else 0
            entries.append(BoardEntry(shown, attempt, streak_of(played[attempt.user_id], day)))
        return Board(day, tuple(entries), (await self.commitment(guild_id, day))[:SHORT])

    async def streak(self, guild_id: int, user_id: int, day: int) -> int:
        played = await repo.days_played(self.db, guild_id, [user_id], day)
        return streak_of(played[user_id], day)

    # ------------------------------------------------------------- scoring

    async def _game_over(self, table: Table) -> None:
        attempt = await repo.at_table(self.db, table.id)
        if attempt is not None and attempt.status == "playing":
            await self._score(attempt, table)

    async def catch_up(self) -> int:
        """Score the attempts whose table ended while nothing here listened (the bot
        stopped between the two): after a start. Returns how many were scored."""
        scored = 0
        for attempt in await repo.in_play(self.db):
            assert attempt.table_id is not None
            if attempt.table_id in self.tables.tables or not self.tables.owns(attempt.guild_id):
                continue
            try:
                table = await self.tables.ended(attempt.table_id)
            except TableError:
                log.warning("The table of a daily deal is gone: %s", attempt.table_id)
                continue
            if table.status.is_open:
                continue
            if table.status is Status.FINISHED and table.deal is None:
                # an ended table is loaded without its deal: its record has it
                records = await members.finished_records(self.db, table.id, table.deal_no + 1)
                if records:
                    table.deal = replay(parse_record(json.loads(records[-1]))).deal
            scored += await self._score(attempt, table)
        return scored

    async def _score(self, attempt: Attempt, table: Table) -> bool:
        score = score_of(table, attempt.user_id)
        xp = 0
        if score is not None and (await get_settings(self.db, attempt.guild_id)).daily_experience:
            xp = xp_of(table, attempt.user_id)
        done = await repo.finish(self.db, attempt, score, self.tables.clock(), xp=xp)
        if done is None:
            return False
        streak = await self.streak(done.guild_id, done.user_id, done.day)
        scored = Scored(done, streak, table.channel_id, table.language)
        for listener in self.scored_listeners:
            try:
                await listener(scored)
            except Exception:
                log.exception("Telling a daily deal's result failed (table %s)", table.id)
        return True
