"""A server's standings after any sequence of games, cancels, leaves and restarts.

Each seed plays a sequence of whole games through the table service (every variant, bets,
humans and robots): members leave mid-game, vote to cancel (all agreeing or not), hosts
close lobbies, and the bot restarts (suspend, a new service, restore on the same file) at
random moments, now and then while the robots are still playing. Afterwards every balance
is what RULES.md says it should be (computed here from the games' results), the chips add
up, and the standings count every finished game once and nothing else.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Variant, arrastrado_payout, parse_options
from bot.storage import Database, ledger, members
from bot.storage import tables as repo
from bot.storage.settings import MAX_CHIPS_SETTING, get_settings, update_settings
from bot.tables.announcement import Said
from bot.tables.errors import TableError
from bot.tables.model import STAND_IN_ROBOT, Status, Table
from bot.tables.service import TableService
from tests.migrated import open_migrated
from tests.runtime import seeds

from ._checks import Stored, check_all, check_ledger, side_of
from ._play import CHANNEL, GUILD, Clock, Players, Seen, Timers, make_service, opened, table_of

USERS = [101, 102, 103, 104, 105, 106]
STARTING = MAX_CHIPS_SETTING
"""So many chips that no payment is ever cut to what a member has: every balance can be
computed exactly from the results."""
SEEDS = range(10)
STEPS = 160
BANK_RAKE = 25
PLATO = 100


@dataclasses.dataclass
class Snapshot:
    """What a table in play looks like to its players."""

    status: Status
    deal_no: int
    seats: list[object]
    stakes: dict[int, int]
    cancel_votes: list[int]
    actions: list[object]
    turn_seat: int | None

    @classmethod
    def of(cls, table: Table) -> Snapshot:
        return cls(
            table.status,
            table.deal_no,
            [None if s is None else dataclasses.astuple(s) for s in table.seats],
            dict(table.stakes),
            list(table.cancel_votes),
            list(table.deal.actions) if table.deal is not None else [],
            table.turn_seat,
        )


class Server:
    """A sequence of games on one database, with restarts."""

    def __init__(self, db: Database, seed: int) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.timers = Timers()
        self.service = make_service(db, self.timers, self.clock)
        self.players = Players(self.service, self.timers, self.rng, USERS, bets=(0, 10, 100, 1000))
        self.players.on_leave = self.robot_took_the_seat
        self.playing: list[int] = []
        self.restarts = 0

    def robot_took_the_seat(self, table: Table, user_id: int) -> None:
        seat = next(s for s in table.seats if s is not None and s.user_id == user_id)
        assert seat.left and seat.robot_plays and seat.robot == STAND_IN_ROBOT
        assert table.seat_of(user_id) is None

    async def step(self) -> None:
        rng = self.rng
        self.playing = [t for t in self.playing if table_of(self.service, t).status.is_open]
        roll = rng.random()
        if roll < 0.03:
            await self.restart()
        elif not self.playing or (roll < 0.15 and len(self.playing) < 3):
            table_id = await self.players.open()
            if table_id is not None:
                self.playing.append(table_id)
        else:
            await self.players.move(rng.choice(self.playing))

    async def restart(self) -> None:
        """The bot stops (its clocks keep each turn's time left) and starts again on the
        same file; now and then it stops while robots are in the middle of their moves."""
        rng = self.rng
        old = self.service
        if rng.random() < 0.6:
            await self.timers.quiet(old)
        else:
            for _ in range(rng.randrange(8)):
                await asyncio.sleep(0)
        self.clock.now += rng.uniform(0, 50)
        await old.suspend()
        await self.timers.quiet(old)
        before = {t.id: Snapshot.of(t) for t in old.tables.values() if t.status.is_open}
        left = {t.id: t.turn_left for t in old.tables.values() if t.status is Status.PLAYING}
        await self.timers.stop()
        self.clock.now += rng.uniform(0, 3600)  # the bot is down for a while
        self.service = make_service(self.db, self.timers, self.clock)
        self.players.service = self.service
        self.timers.pause()  # see the tables as restored, before any robot moves
        restored = await self.service.restore()
        assert sorted(t.id for t in restored) == sorted(before)
        for table in restored:
            assert Snapshot.of(table) == before[table.id], f"table {table.id} came back changed"
            if table.turn_deadline is not None:
                time_left = left[table.id]
                assert time_left is not None and time_left > 0
                assert table.turn_deadline - self.clock.now == pytest.approx(time_left)
        self.timers.resume()
        self.restarts += 1

    async def finish(self) -> None:
        for table_id in list(self.service.tables):
            if table_of(self.service, table_id).status.is_open:
                await self.players.play_out(table_id)
        await self.timers.quiet(self.service)
        await self.service.suspend()
        await self.timers.stop()


def account(seen: Seen, seat: int, left_before: int) -> int | None:
    """Whose chips a seat plays with: its member's, or the bank's for a robot and for a
    member who left during a deal numbered below ``left_before``."""
    user = seen.members.get(seat)
    if user is None or seen.left.get(user, left_before) < left_before:
        return None
    return user


def deal_payments(
    stored: Stored, watched: Seen, pay: Callable[[int | None, int], None]
) -> dict[int | None, int]:
    """Arrastrado's payments deal by deal, with the plato filled whenever it is empty;
    returns who put what into the pot left at the end (it goes back to them)."""
    table = stored.table
    pot: dict[int | None, int] = {}
    for deal_no in range(table.deal_no + 1):
        dealer = (table.players - 1 + deal_no) % table.players
        out = dealer if table.players > table.variant.players else -1
        if table.options.plato and not sum(pot.values()):
            for seat in range(table.players):
                if seat == out:  # the dealer sitting the deal out puts nothing in
                    continue
                payer = account(watched, seat, deal_no)
                pay(payer, -PLATO)
                pot[payer] = pot.get(payer, 0) + PLATO
        result = stored.results.get(deal_no)
        if result is None or table.variant is not Variant.ARRASTRADO:
            continue
        payout = arrastrado_payout(result, pot=sum(pot.values()), seats=table.players)
        for seat, delta in enumerate(payout.seats):
            pay(account(watched, seat, deal_no + 1), delta)
        if payout.pot < 0:
            pot = {}
        elif payout.pot > 0:
            assert result.contract is not None
            contractor = account(watched, result.contract.seat, deal_no + 1)
            pot[contractor] = pot.get(contractor, 0) + payout.pot
    return pot


def expected_balances(found: list[Stored], seen: dict[int, Seen]) -> dict[int | None, int]:
    """Every account's chips after the games, as RULES.md pays them: each member stakes the
    bet; arrastrado pays each deal (seeds/001) with the plato filled whenever it is empty;
    the winners still seated share the stakes less the bank's 25%; a cancelled game gives
    the stakes back (not those of members who left) and the pot to whoever put it in.
    Robots, and members once they have left, play with the bank's chips. ``None`` is the
    bank."""
    chips: dict[int | None, int] = dict.fromkeys(USERS, STARTING)
    chips[None] = 0

    def pay(who: int | None, amount: int) -> None:
        chips[who] = chips.get(who, 0) + amount

    for stored in found:
        table = stored.table
        watched = seen.get(table.id)
        if watched is None or not watched.started or not table.options.competitive:
            continue
        bet = table.options.bet
        for user in watched.members.values():
            pay(user, -bet)
        for who, amount in deal_payments(stored, watched, pay).items():
            pay(who, amount)
        staying = [u for u in watched.members.values() if u not in watched.left]
        stakes = bet * len(watched.members)
        if table.status is Status.FINISHED:
            assert table.winner is not None
            takers = [
                u
                for seat, u in watched.members.items()
                if u in staying and side_of(table.variant, seat) == table.winner
            ]
            rake = stakes * BANK_RAKE // 100
            share = (stakes - rake) // len(takers) if takers else 0
            for user in takers:
                pay(user, share)
            pay(None, stakes - share * len(takers))
        else:
            assert table.status is Status.CANCELLED, table.status
            for user in staying:
                pay(user, bet)
            pay(None, bet * (len(watched.members) - len(staying)))
    return chips


async def ledger_of(db: Database, table_id: int, user_id: int) -> list[tuple[str, int]]:
    rows = await db.fetchall(
        "SELECT kind, amount FROM ledger WHERE table_id = ? AND account = 'member'"
        " AND user_id = ? ORDER BY id",
        (table_id, user_id),
    )
    return [(kind, amount) for kind, amount in rows]


async def check_chips(db: Database, found: list[Stored], seen: dict[int, Seen]) -> None:
    """Every balance is what the results say; a cancelled game gave every stake back but
    those of members who left; a member who left lost exactly the stake from then on."""
    expected = expected_balances(found, seen)
    for user in USERS:
        stats = await members.member_stats(db, GUILD, user)
        if stats is not None:
            assert stats.balance == expected[user], f"member {user}"
    assert await ledger.bank_balance(db, GUILD) == expected[None], "the bank"
    for stored in found:
        table = stored.table
        watched = seen[table.id]
        assert not table.status.is_open
        if not watched.started or not table.options.competitive:
            assert not await db.fetchall("SELECT 1 FROM ledger WHERE table_id = ?", (table.id,))
            continue
        bet = table.options.bet
        for user in watched.members.values():
            moves = await ledger_of(db, table.id, user)
            assert sum(a for kind, a in moves if kind == "stake") == -bet
            back = sum(a for kind, a in moves if kind == "refund")
            if user in watched.left:
                # the stake is forfeited, even when the others cancel; after leaving a robot
                # plays the seat with the bank's chips: nothing more is paid or won (but the
                # plato the member put in before, which goes back to whoever put it in)
                after = moves[[kind for kind, _ in moves].index("forfeit") + 1 :] if bet else []
                assert all(kind in ("payout", "refund") for kind, _ in after), after
                assert table.options.plato or (not after and not back)
            elif table.status is Status.CANCELLED:
                assert back >= bet, "a cancelled game gives every stake back"
        if table.status is Status.CANCELLED and len(watched.left) < len(watched.members):
            # cancelled by agreement: every member still seated voted for it
            assert set(watched.voted) >= set(watched.members.values()) - set(watched.left)


async def play(db: Database, seed: int) -> Server:
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, starting_chips=STARTING)
    server = Server(db, seed)
    for _ in range(STEPS):
        await server.step()
    await server.finish()
    return server


@pytest.mark.e2e
async def test_standings_are_right_after_games_cancels_leaves_and_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    finished: set[Variant] = set()
    seen_at_all: Counter[str] = Counter()
    for seed in SEEDS:
        rng = random.Random(f"deals {seed}")
        seeds().draw_from(rng.getrandbits)  # the tables' shuffles
        db = await open_migrated(tmp_path / f"{seed}.db")
        try:
            server = await play(db, seed)
            found = await check_all(db, GUILD)
            await check_chips(db, found, server.players.seen)
        except AssertionError as failure:
            raise AssertionError(f"seed {seed}: {failure}") from failure
        finally:
            await db.close()
        seen_at_all["restarts"] += server.restarts
        for stored in found:
            table = stored.table
            watched = server.players.seen[table.id]
            status = table.status
            if status is Status.FINISHED:
                finished.add(table.variant)
            seen_at_all[status.value] += 1
            seen_at_all["left"] += bool(watched.left)
            seen_at_all["refused votes"] += bool(watched.voted) and status is Status.FINISHED
            seen_at_all[f"{status.value} after a deal"] += table.deal_no > 0
            seen_at_all["plato"] += table.options.plato and status is Status.FINISHED
    # what the seeds played, all together
    assert finished == set(Variant)
    for what in (
        "restarts",
        "closed",
        "cancelled",
        "left",
        "refused votes",
        "finished after a deal",
        "cancelled after a deal",
        "plato",
    ):
        assert seen_at_all[what], what


async def open_bet_table(
    service: TableService, host: int, others: list[int], bet: int = 100
) -> int:
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=host,
        host_name=f"user{host}",
        variant=Variant.INDIVIDUAL,
        options=parse_options(Variant.INDIVIDUAL, {"bet": bet, "turn_time": 3600}),
        language="en",
    )
    for user in others:
        await service.join(table.id, user, f"user{user}")
    return table.id


class SlowChecks(TableService):
    """A service whose check of member 10's chips, once ``armed``, waits until told to go
    on (``go``): another table starts meanwhile."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.armed = False
        self.checked = asyncio.Event()
        self.go = asyncio.Event()

    async def _chips(self, guild_id: int, user_id: int) -> int:
        chips = await super()._chips(guild_id, user_id)
        if self.armed and user_id == 10 and not self.checked.is_set():
            self.checked.set()
            await self.go.wait()
        return chips


async def test_a_start_that_loses_a_members_chips_to_another_table_stays_in_the_lobby(
    tmp_path: Path,
) -> None:
    """Member 10 has chips for one bet and sits at two tables whose hosts start at the same
    time: the table that takes the chips first starts, the other is refused and stays in
    its lobby as it was (no game with a bet and no stakes)."""
    db = await open_migrated(tmp_path / "tute.db")
    timers = Timers()
    try:
        async with db.transaction() as conn:
            await update_settings(conn, GUILD, starting_chips=100)
        made = make_service(db, timers, Clock())
        service = SlowChecks(
            db, made.presenters, made.runtime, robot_delay=made.robot_delay, robot_processes=0
        )
        first = await open_bet_table(service, 11, [10])
        second = await open_bet_table(service, 12, [10])
        lobby = Snapshot.of(table_of(service, first))

        service.armed = True
        starting = asyncio.create_task(service.start(first, 11))
        await service.checked.wait()
        await service.start(second, 12)  # meanwhile the other table starts
        service.go.set()
        with pytest.raises(TableError) as refusal:
            await starting
        assert refusal.value.key == "no_chips"

        table = table_of(service, first)
        assert Snapshot.of(table) == lobby, "the table is in its lobby as it was"
        assert table.free_seats() == [2, 3], "nobody (no robot) took a seat"
        assert (await repo.load_table(db, first)).status == "lobby"  # type: ignore[union-attr]
        assert await ledger.balance(db, GUILD, 10) == 0
        assert (await ledger.table_state(db, second)).stakes == {10: 100, 12: 100}
        await check_ledger(db, GUILD)

        # once the member has the chips again, the table starts, with every stake
        async with db.transaction() as conn:
            await ledger.grant(conn, GUILD, 10, 100, "admin", 0.0)
        await service.start(first, 11)
        assert table_of(service, first).status is Status.PLAYING
        assert (await ledger.table_state(db, first)).stakes == {10: 100, 11: 100}
    finally:
        await timers.stop()
        await db.close()


async def test_when_the_only_member_who_had_not_voted_leaves_the_game_is_cancelled(
    tmp_path: Path,
) -> None:
    """Every member still at the table had voted to cancel: the game is cancelled as the
    last one who had not voted leaves. The leaver forfeits the stake; the others get theirs
    back; nothing is scored."""
    db = await open_migrated(tmp_path / "tute.db")
    timers = Timers()
    try:
        service = make_service(db, timers, Clock())
        table_id = await open_bet_table(service, 21, [22, 23])
        await service.start(table_id, 21)
        await service.vote_cancel(table_id, 21)
        await service.vote_cancel(table_id, 22)
        assert table_of(service, table_id).status is Status.PLAYING
        outcome = await service.leave(table_id, 23)
        assert outcome.table.status is Status.CANCELLED
        assert Said.CANCELLED in [a.what for a in outcome.announce]
        await timers.quiet(service)
        start = (await get_settings(db, GUILD)).starting_chips
        assert [await ledger.balance(db, GUILD, u) for u in (21, 22, 23)] == [
            start,
            start,
            start - 100,
        ]
        assert await ledger.bank_balance(db, GUILD) == 100
        for user in (21, 22, 23):
            stats = await members.member_stats(db, GUILD, user)
            assert stats is not None and stats.games_played == 0 and stats.xp == 0
        await check_all(db, GUILD)
    finally:
        await timers.stop()
        await db.close()
