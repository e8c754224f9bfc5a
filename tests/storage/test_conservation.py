"""Randomized games, cancels, leaves, payments and grants against a model of every balance:
after each step the ledger equals the model, no member is below zero, and the chips of the
members, the bank and the tables add up to the chips granted."""

import datetime as dt
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from bot.engine import split_bet
from bot.storage import Database, ledger, members
from bot.storage.settings import get_settings, update_settings

GUILDS = (1, 2)
USERS = tuple(range(100, 112))
DAY = 86_400.0
EPOCH = 1_767_225_600.0  # 2026-01-01T00:00:00Z


class Crash(Exception):
    """A failure in the middle of a transaction."""


@dataclass
class TableModel:
    guild: int
    bet: int
    seats: list[int | None]  # user ids, None for a robot
    stakes: dict[int, int] = field(default_factory=dict[int, int])
    forfeited: int = 0
    pot: dict[int | None, int] = field(default_factory=dict[int | None, int])

    @property
    def held(self) -> int:
        return sum(self.stakes.values()) + self.forfeited + sum(self.pot.values())


@dataclass
class Model:
    chips: dict[tuple[int, int], int] = field(default_factory=dict[tuple[int, int], int])
    bank: dict[int, int] = field(default_factory=lambda: dict.fromkeys(GUILDS, 0))
    granted: dict[int, int] = field(default_factory=lambda: dict.fromkeys(GUILDS, 0))
    daily: dict[tuple[int, int], str] = field(default_factory=dict[tuple[int, int], str])
    tables: dict[int, TableModel] = field(default_factory=dict[int, TableModel])
    closed: set[int] = field(default_factory=set[int])

    def members(self, guild: int) -> list[int]:
        return sorted(u for g, u in self.chips if g == guild)

    def add(self, guild: int, account: int | None, amount: int) -> None:
        if account is None:
            self.bank[guild] += amount
        else:
            self.chips[guild, account] += amount


class Simulation:
    def __init__(self, db: Database, seed: int) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.model = Model()
        self.now = EPOCH
        self.next_table = 1
        self.counts: dict[str, int] = {}

    @property
    def today(self) -> str:
        return dt.datetime.fromtimestamp(self.now, dt.UTC).date().isoformat()

    async def step(self) -> None:
        self.now += self.rng.choice((1.0, 60.0, 3600.0, DAY / 2))
        actions = [
            (self.join, 4),
            (self.daily, 3),
            (self.admin, 1),
            (self.settings, 1),
            (self.start, 4),
            (self.plato, 3),
            (self.leave, 1),
            (self.finish, 3),
            (self.cancel, 1),
            (self.payments, 3),
            (self.crash, 2),
        ]
        action = self.rng.choices([a for a, _ in actions], [w for _, w in actions])[0]
        name = await action()
        self.counts[name] = self.counts.get(name, 0) + 1
        await self.check()

    # ----------------------------------------------------------------- actions

    async def join(self) -> str:
        guild, user = self.rng.choice(GUILDS), self.rng.choice(USERS)
        starting = (await get_settings(self.db, guild)).starting_chips
        async with self.db.transaction() as conn:
            new = await members.ensure_member(conn, guild, user, starting, self.now)
        assert new == ((guild, user) not in self.model.chips)
        if new:
            self.model.chips[guild, user] = starting
            self.model.granted[guild] += starting
        return "join"

    def pick_member(self) -> tuple[int, int] | None:
        if not self.model.chips:
            return None
        return self.rng.choice(sorted(self.model.chips))

    async def daily(self) -> str:
        picked = self.pick_member()
        if picked is None:
            return "none"
        guild, user = picked
        amount = (await get_settings(self.db, guild)).daily_grant
        async with self.db.transaction() as conn:
            claimed = await ledger.claim_daily(conn, guild, user, amount, self.today, self.now)
        assert claimed == (self.model.daily.get(picked) != self.today)
        if claimed:
            self.model.daily[picked] = self.today
            self.model.chips[picked] += amount
            self.model.granted[guild] += amount
        return "daily"

    async def admin(self) -> str:
        picked = self.pick_member()
        if picked is None:
            return "none"
        guild, user = picked
        amount = self.rng.choice((-1, 1)) * self.rng.randint(1, 800)
        try:
            async with self.db.transaction() as conn:
                await ledger.grant(conn, guild, user, amount, "admin", self.now)
        except ledger.InsufficientChips:
            assert self.model.chips[picked] + amount < 0
            return "admin refused"
        self.model.chips[picked] += amount
        self.model.granted[guild] += amount
        return "admin"

    async def settings(self) -> str:
        guild = self.rng.choice(GUILDS)
        async with self.db.transaction() as conn:
            await update_settings(
                conn,
                guild,
                starting_chips=self.rng.choice((0, 100, 1000)),
                daily_grant=self.rng.choice((0, 50, 100)),
            )
        return "settings"

    async def start(self) -> str:
        guild = self.rng.choice(GUILDS)
        members = self.model.members(guild)
        if len(members) < 2:
            return "none"
        busy = {u for t in self.model.tables.values() if t.guild == guild for u in t.stakes}
        free = [u for u in members if u not in busy]
        if len(free) < 2:
            return "none"
        humans = self.rng.sample(free, self.rng.randint(2, min(4, len(free))))
        seats: list[int | None] = [*humans, *([None] * self.rng.randint(0, 4 - len(humans)))]
        bet = self.rng.choice((0, 50, 100, 300))
        plato = self.rng.random() < 0.4
        table = TableModel(guild, bet, seats)
        table_id = self.next_table
        self.next_table += 1
        short: ledger.InsufficientChips | None = None
        try:
            async with self.db.transaction() as conn:
                if bet:
                    await ledger.hold_stakes(
                        conn, guild, table_id, dict.fromkeys(humans, bet), self.now
                    )
                if plato:
                    for seat in seats:
                        await ledger.pot_deposit(conn, guild, table_id, seat, 100, self.now)
        except ledger.InsufficientChips as error:
            short = error
        if short is not None:
            need = bet + (100 if plato else 0)
            assert self.model.chips[guild, short.user_id] < need
            return "start refused"
        for user in humans:
            self.model.chips[guild, user] -= bet
            if bet:
                table.stakes[user] = bet
        if plato:
            for seat in seats:
                self.model.add(guild, seat, -100)
                table.pot[seat] = table.pot.get(seat, 0) + 100
        self.model.tables[table_id] = table
        return "start"

    def pick_table(self) -> tuple[int, TableModel] | None:
        if not self.model.tables:
            return None
        table_id = self.rng.choice(sorted(self.model.tables))
        return table_id, self.model.tables[table_id]

    async def plato(self) -> str:
        picked = self.pick_table()
        if picked is None:
            return "none"
        table_id, table = picked
        seat = self.rng.choice(table.seats)
        if self.rng.random() < 0.5:
            async with self.db.transaction() as conn:
                taken = await ledger.pot_take(conn, table.guild, table_id, seat, self.now)
            assert taken == sum(table.pot.values())
            self.model.add(table.guild, seat, taken)
            table.pot = {}
            return "pot taken"
        # A contract failed: as much again as the pot holds, capped at what the payer has.
        want = max(sum(table.pot.values()), 100)
        async with self.db.transaction() as conn:
            paid = await ledger.pot_deposit(
                conn, table.guild, table_id, seat, want, self.now, cap=True
            )
        expected = want if seat is None else min(want, self.model.chips[table.guild, seat])
        assert paid == expected
        self.model.add(table.guild, seat, -paid)
        if paid:
            table.pot[seat] = table.pot.get(seat, 0) + paid
        return "pot filled"

    async def leave(self) -> str:
        picked = self.pick_table()
        if picked is None:
            return "none"
        table_id, table = picked
        humans = [u for u in table.seats if u is not None]
        if not humans:
            return "none"
        user = self.rng.choice(humans)
        async with self.db.transaction() as conn:
            forfeited = await ledger.forfeit_stake(conn, table.guild, table_id, user, self.now)
        assert forfeited == table.stakes.get(user, 0)
        table.forfeited += table.stakes.pop(user, 0)
        table.seats[table.seats.index(user)] = None  # a robot takes the seat
        return "leave"

    async def finish(self) -> str:
        picked = self.pick_table()
        if picked is None:
            return "none"
        table_id, table = picked
        winner = self.rng.randrange(len(table.seats))
        # Seats whose human left are robots now: their stakes were forfeited.
        winner_account = table.seats[winner]
        takers = [winner_account] if winner_account in table.stakes else []
        split = split_bet(sum(table.stakes.values()), len(takers))
        payouts: dict[int | None, int] = dict.fromkeys(takers, split.share)
        # Forfeited stakes and the pot go to the winner (the bank for a robot).
        extra = table.forfeited + sum(table.pot.values())
        payouts[winner_account] = payouts.get(winner_account, 0) + extra
        async with self.db.transaction() as conn:
            await ledger.release_table(conn, table.guild, table_id, payouts, split.bank, self.now)
            for seat, user in enumerate(table.seats):
                if user is not None:
                    await members.add_stats(
                        conn, table.guild, user, games_played=1, games_won=int(seat == winner)
                    )
        for account, amount in payouts.items():
            self.model.add(table.guild, account, amount)
        self.model.bank[table.guild] += split.bank
        del self.model.tables[table_id]
        self.model.closed.add(table_id)
        assert await ledger.table_held(self.db, table_id) == 0
        return "finish"

    async def cancel(self) -> str:
        picked = self.pick_table()
        if picked is None:
            return "none"
        table_id, table = picked
        async with self.db.transaction() as conn:
            back = await ledger.refund_table(conn, table.guild, table_id, self.now)
        expected: dict[int | None, int] = {}
        for user, amount in table.stakes.items():
            expected[user] = amount
        for account, amount in table.pot.items():
            expected[account] = expected.get(account, 0) + amount
        assert back == {a: v for a, v in expected.items() if v}
        for account, amount in back.items():
            self.model.add(table.guild, account, amount)
        self.model.bank[table.guild] += table.forfeited
        del self.model.tables[table_id]
        self.model.closed.add(table_id)
        assert await ledger.table_held(self.db, table_id) == 0
        return "cancel"

    async def payments(self) -> str:
        guild = self.rng.choice(GUILDS)
        members = self.model.members(guild)
        if len(members) < 2:
            return "none"
        accounts: list[int | None] = [*self.rng.sample(members, min(3, len(members))), None]
        accounts = self.rng.sample(accounts, self.rng.randint(2, len(accounts)))
        deltas = {
            a: self.rng.choice((-1, 1)) * self.rng.choice((20, 40, 100, 200, 800))
            for a in accounts[1:]
        }
        deltas[accounts[0]] = -sum(deltas.values())
        async with self.db.transaction() as conn:
            applied = await ledger.settle_payments(conn, guild, None, deltas, self.now)
        assert sum(applied.values()) == 0
        for account, owed in deltas.items():
            got = applied.get(account, 0)
            if owed < 0:
                have = None if account is None else self.model.chips[guild, account]
                assert got == (owed if have is None else -min(-owed, have))
            else:
                assert 0 <= got <= owed
        for account, amount in applied.items():
            self.model.add(guild, account, amount)
        return "payments"

    async def crash(self) -> str:
        """Some writes, then a failure before the commit: nothing may stay."""
        guild = self.rng.choice(GUILDS)
        newcomer = self.rng.choice(USERS)

        async def writes_then_crashes() -> None:
            async with self.db.transaction() as conn:
                await members.ensure_member(conn, guild, newcomer, 1000, self.now)
                for (g, user), chips in sorted(self.model.chips.items()):
                    if g == guild and chips:
                        await ledger.hold_stakes(conn, guild, 10_000, {user: chips}, self.now)
                        await ledger.grant(conn, guild, user, 5, "admin", self.now)
                for table_id, table in sorted(self.model.tables.items()):
                    await ledger.refund_table(conn, table.guild, table_id, self.now)
                raise Crash

        with pytest.raises(Crash):
            await writes_then_crashes()
        seen = await members.member_stats(self.db, guild, newcomer) is not None
        assert seen == ((guild, newcomer) in self.model.chips)
        return "crash"

    # ----------------------------------------------------------------- checks

    async def check(self) -> None:
        model = self.model
        for guild in GUILDS:
            board = await members.leaderboard(self.db, guild, "chips", 0, len(USERS))
            assert {e.user_id: e.value for e in board} == {
                user: chips for (g, user), chips in model.chips.items() if g == guild
            }
        assert all(chips >= 0 for chips in model.chips.values())
        if model.chips:
            (guild, user), chips = self.rng.choice(sorted(model.chips.items()))
            assert await ledger.balance(self.db, guild, user) == chips
        for table_id, table in model.tables.items():
            state = await ledger.table_state(self.db, table_id)
            assert state.held == table.held == await ledger.table_held(self.db, table_id)
            assert dict(state.stakes) == table.stakes
            assert state.forfeited == table.forfeited
            assert dict(state.pot) == table.pot
        assert await ledger.table_held(self.db, 10_000) == 0
        for guild in GUILDS:
            audit = await ledger.audit(self.db, guild)
            assert audit.balanced, audit
            assert audit.bank == model.bank[guild]
            assert audit.granted == model.granted[guild]
            held = sum(t.held for t in model.tables.values() if t.guild == guild)
            assert audit.tables == held
            assert audit.members == sum(c for (g, _), c in model.chips.items() if g == guild)


@pytest.mark.e2e
@pytest.mark.parametrize("seed", range(8))
async def test_random_play_conserves_every_chip(db: Database, seed: int) -> None:
    simulation = Simulation(db, seed)
    for _ in range(250):
        await simulation.step()

    # Every kind of step happened, refusals included.
    assert {"join", "daily", "start", "finish", "cancel", "leave", "payments", "crash"} <= set(
        simulation.counts
    ), simulation.counts


@given(
    collected=hs.integers(min_value=0, max_value=10_000),
    claims=hs.dictionaries(
        hs.one_of(hs.none(), hs.integers(1, 50)), hs.integers(1, 5_000), min_size=1
    ),
)
def test_a_short_collection_is_shared_without_losing_a_chip(
    collected: int, claims: dict[int | None, int]
) -> None:
    owed = sum(claims.values())
    collected = min(collected, owed)

    shares = ledger._share(collected, claims, owed)  # pyright: ignore[reportPrivateUsage]

    assert sum(shares.values()) == collected
    for account, claim in claims.items():
        assert claim * collected // owed <= shares[account] <= claim
