"""A database where members have left every kind of data the bot keeps, played through the
services as people play: competitive games with stakes (ratings, standings, the ledger),
games in a season, a tournament with an entry fee played to its end, a daily deal, a turn
notice switched off, a lobby closed and a game cancelled, in two servers. For the tests
that erase a member's data, or read it back, and check what is left."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from bot.engine import Options, Variant, parse_options
from bot.storage import Database, places
from bot.tables.competition import seasons
from bot.tables.competition.tournament import Format
from bot.tables.competition.tournaments import TournamentService, TournamentStatus
from bot.tables.daily import DailyService
from bot.tables.model import Status
from bot.tables.service import TableService
from tests.tables._play import Clock, Timers, make_service, opened, pick

GUILD = 1
OTHER_GUILD = 2
CHANNEL = 20
DM_CHANNEL = 900

ERASED = 7_301_000_000_000_000_01
"""The member who asks for their data to go (a Discord-sized id)."""
ERASED_NAME = "Zoë Quintana"
OTHERS = [7_301_000_000_000_000_02, 7_301_000_000_000_000_03, 7_301_000_000_000_000_04]
"""The members they played with, who keep everything."""


def name_of(user_id: int) -> str:
    return ERASED_NAME if user_id == ERASED else f"Other {OTHERS.index(user_id) + 1}"


def quick(
    variant: Variant = Variant.HABANERO, *, bet: int = 0, competitive: bool = True
) -> Options:
    raw: dict[str, object] = {"turn_time": 3600, "bet": bet, "competitive": competitive}
    if variant is Variant.HABANERO:
        raw["target"] = 31
    return parse_options(variant, raw)


@dataclass
class World:
    db: Database
    clock: Clock = field(default_factory=Clock)
    timers: Timers = field(default_factory=Timers)
    rng: random.Random = field(default_factory=lambda: random.Random(44))
    tables: TableService = field(init=False)
    tournaments: TournamentService = field(init=False)
    daily: DailyService = field(init=False)

    def __post_init__(self) -> None:
        self.tables = make_service(self.db, self.timers, self.clock)
        self.tournaments = TournamentService(self.db, self.tables, self.clock)
        self.daily = DailyService(self.db, self.tables)

    async def settle(self) -> None:
        while True:
            await self.tables.told()
            await self.timers.quiet(self.tables)
            if not self.tables.telling:
                return

    async def play_out(self, table_id: int) -> None:
        """Every member seated plays (a seeded random legal action) until the table ends."""
        for _ in range(5000):
            await self.settle()
            table = self.tables.tables.get(table_id)
            if table is None or table.status is not Status.PLAYING:
                return
            self.clock.now += 7
            deal = table.deal
            assert deal is not None
            moves = [
                (s.user_id, a)
                for a in deal.legal_actions()
                if (s := table.seats[a.seat]) is not None and s.user_id and not s.robot_plays
            ]
            assert moves, "nobody to play at a quiet table"
            on_turn = [m for m in moves if m[1].seat == deal.turn] or moves
            action = pick([a for _, a in on_turn], self.rng)
            user = next(u for u, a in on_turn if a == action)
            assert user is not None
            await self.tables.act(
                table.id, user, action, deal_no=table.deal_no, trick_no=len(deal.tricks)
            )
        raise AssertionError("the table never ended")

    async def game(
        self,
        guild_id: int,
        users: list[int],
        *,
        variant: Variant = Variant.HABANERO,
        bet: int = 0,
        competitive: bool = True,
        play: bool = True,
        language: str = "en",
    ) -> int:
        """A table hosted by ``users[0]`` with the others seated (robots fill the rest),
        started and, with ``play``, played to its end."""
        host = users[0]
        table = await opened(
            self.tables,
            guild_id=guild_id,
            channel_id=CHANNEL,
            host_id=host,
            host_name=name_of(host),
            variant=variant,
            options=quick(variant, bet=bet, competitive=competitive),
            language=language,
        )
        for user in users[1:]:
            await self.tables.join(table.id, user, name_of(user))
        await self.tables.start(table.id, host)
        if play:
            await self.play_out(table.id)
        return table.id

    async def tournament(self, guild_id: int, entrants: list[int], *, entry: int) -> int:
        """A knockout with an entry fee, hosted by ``entrants[0]`` and played to its end."""
        t = await self.tournaments.create(
            guild_id=guild_id,
            channel_id=CHANNEL,
            host_id=entrants[0],
            variant=Variant.HABANERO,
            options=quick(),
            format=Format.KNOCKOUT,
            deadline=self.clock() + 600,
            swiss_rounds=2,
            max_entrants=16,
            entry=entry,
        )
        for user in entrants:
            await self.tournaments.sign_up(t.id, user, name_of(user))
        await self.tournaments.start(t.id, self.clock(), by=entrants[0])
        for _ in range(50):
            await self.settle()
            if t.id not in self.tournaments.tournaments:
                break
            playing = [
                x.id
                for x in list(self.tables.tables.values())
                if x.tournament_id == t.id and x.status is Status.PLAYING
            ]
            for table_id in playing:
                await self.play_out(table_id)
        done = await self.tournaments.load(t.id)
        assert done.status is TournamentStatus.FINISHED
        return t.id

    async def daily_deal(self, guild_id: int, user: int) -> int:
        outcome = await self.daily.play(
            guild_id=guild_id,
            user_id=user,
            name=name_of(user),
            language="en",
            channel_id=DM_CHANNEL,
        )
        table_id = outcome.show.table.id
        await self.play_out(table_id)
        await self.settle()
        return table_id

    async def stop(self) -> None:
        await self.settle()
        self.daily.stop()
        await self.tables.suspend()
        await self.timers.stop()


async def seed_everything(world: World) -> None:
    """The erased member and the others leave every kind of data there is, in two servers."""
    await seasons.start(world.db, GUILD, world.clock(), None, CHANNEL)
    await world.tables.notes.set_notify(GUILD, ERASED, False)
    # rated games with stakes, with the others and against robots
    await world.game(GUILD, [ERASED, OTHERS[0]], variant=Variant.HABANERO, bet=50)
    await world.game(GUILD, [OTHERS[1], ERASED, OTHERS[2]], variant=Variant.INDIVIDUAL, bet=20)
    await world.game(GUILD, [ERASED, OTHERS[0], OTHERS[1], OTHERS[2]], variant=Variant.PAIRS)
    await world.game(GUILD, [OTHERS[0], OTHERS[1]], bet=10)  # without them
    # a tournament with an entry fee, played to its end
    await world.tournament(GUILD, [OTHERS[0], ERASED, OTHERS[1], OTHERS[2]], entry=100)
    # a daily deal
    await world.daily_deal(GUILD, ERASED)
    # a lobby they hosted and closed; a game cancelled with stakes given back
    lobby = await opened(
        world.tables,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ERASED,
        host_name=ERASED_NAME,
        variant=Variant.HABANERO,
        options=quick(),
        language="en",
    )
    await world.tables.join(lobby.id, OTHERS[0], name_of(OTHERS[0]))
    await world.tables.close(lobby.id, ERASED)
    cancelled = await world.game(GUILD, [OTHERS[2], ERASED], bet=30, play=False)
    await world.settle()
    await world.tables.vote_cancel(cancelled, OTHERS[2])
    await world.tables.vote_cancel(cancelled, ERASED)
    await world.settle()
    # another server, which plays in Spanish
    spanish = await world.game(OTHER_GUILD, [OTHERS[0], ERASED], bet=40, language="es")
    await world.settle()
    # where the Discord side sent the hands of that game (their DMs)
    hands = {
        str(seat): {"user": user, "channel": DM_CHANNEL + seat, "message": 5000 + seat}
        for seat, user in enumerate((OTHERS[0], ERASED))
    }
    await places.save(world.db, [places.PlaceRow(spanish, 1, 2, 3, 0, None, json.dumps(hands))])
