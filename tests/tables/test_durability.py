"""Nothing is lost or duplicated when the bot dies at any moment.

A real process (tests/tables/_crash_driver.py) plays tables with bets on one SQLite file and
is killed with SIGKILL, again and again on the same file: at a random statement (between
two writes of one transaction, at its COMMIT...) or at a random time. After each kill the
file is checked as a restarting bot would find it (tests/tables/_checks.py): every action
the service had answered is in the log, each action is logged once, the chips add up and
nobody is below zero, each finished deal has its record, the tables in play hold exactly
their stakes, the standings count each finished game once, and every open table comes back
from its log. At the end every table is played out.

Then, without a process: one save is made to fail at each of its statements in turn (the
save that ends a deal: the action, the deal's record, the arrastrado payments, the plato,
the stakes, the standings, the table's state; and a plain card's); each time nothing of it
is in the file, and the action, tried again by a restarted service, is written once.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot.engine import Kind, Variant, parse_options
from bot.storage import Database, leases, ledger, members, open_database
from bot.storage import tables as repo
from bot.storage.settings import update_settings
from bot.tables.errors import SaveFailed
from bot.tables.model import Status
from tests.migrated import open_migrated
from tests.pgserver import fresh_postgres
from tests.storage.helpers import connection_of

from ._checks import check_all, dump
from ._play import CHANNEL, GUILD, Clock, Habits, Players, Timers, make_service, opened, table_of

ROOT = Path(__file__).resolve().parents[2]
KILLS = 8
STARTUP = 30.0
"""Seconds a driver may take to start, or to die once told to (generous: never reached)."""


async def drive(path: Path | str, seed: int, mode: str = "") -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.tables._crash_driver",
        str(path),
        str(seed),
        mode,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    ready = await asyncio.wait_for(proc.stdout.readline(), STARTUP)
    assert ready.startswith(b"ready"), ready
    return proc


async def until_dead(proc: asyncio.subprocess.Process) -> tuple[int, str]:
    assert proc.stdout is not None
    try:
        said = await asyncio.wait_for(proc.stdout.read(), STARTUP)
    except TimeoutError:
        # (only then: signalling a process that has just died would reap it under asyncio's
        # feet, and its exit code would be lost)
        proc.kill()
        raise
    return await proc.wait(), said.decode()


async def killed_from_outside(path: Path | str, seed: int, after: float) -> tuple[int, str]:
    """A driver SIGKILLed ``after`` seconds into its play: its exit code and what it said."""
    proc = await drive(path, seed)
    await asyncio.sleep(after)
    proc.send_signal(signal.SIGKILL)
    return await until_dead(proc)


async def checked_after_a_kill(db: Database, said: str) -> tuple[int, int]:
    """The file as a restarting bot finds it after a kill passes every check; returns how
    many actions the killed run had taken, and how many tables it left in play."""
    await check_all(db, GUILD)
    taken = await acknowledged_are_logged(db, said)
    return taken, len(await repo.open_tables(db))


async def acknowledged_are_logged(db: Database, said: str) -> int:
    """Every action the killed run's service had taken (answered the member) is in the log;
    returns how many."""
    complete = said.split("\n")[:-1]  # (a kill cannot cut a line: one small write each)
    taken = [tuple(int(n) for n in line.split()[1:]) for line in complete if "saved:" in line]
    logged = {tuple(row) for row in await db.fetchall("SELECT table_id, deal_no, seq FROM actions")}
    lost = [action for action in taken if action not in logged]
    assert not lost, f"actions taken but lost: {lost[:5]}"
    return len(taken)


@pytest.mark.e2e
async def test_a_bot_killed_at_any_moment_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    path = tmp_path / "tute.db"
    kills: list[str] = []
    restored: list[int] = []
    taken = 0
    for kill in range(KILLS):
        if kill % 2 == 0:
            # killed by itself as a statement is about to run: any statement, or one of a
            # transaction that has written something already
            where = "between" if kill % 4 == 0 else "any"
            proc = await drive(path, kill, f"{where}:{rng.randrange(300, 3000)}")
            code, said = await until_dead(proc)
            assert "killed at:" in said, said
            kills.append(said.split("killed at:")[1].strip())
            if where == "between":
                assert " in a transaction" in kills[-1] and "after 0 " not in kills[-1]
        else:
            # killed from outside, whatever it is doing
            code, said = await killed_from_outside(path, kill, rng.uniform(0.1, 0.6))
        assert code == -signal.SIGKILL
        db = await open_database(path)
        try:
            logged, in_play = await checked_after_a_kill(db, said)
            taken += logged
            restored.append(in_play)
        finally:
            await db.close()

    proc = await drive(path, KILLS, "finish")
    code, said = await until_dead(proc)
    assert code == 0 and "finished" in said, said
    db = await open_database(path)
    try:
        found = await check_all(db, GUILD)
        audit = await ledger.audit(db, GUILD)
    finally:
        await db.close()
    assert audit.tables == 0, "every table is over: none holds chips"
    statuses = Counter(stored.table.status for stored in found)
    assert not statuses[Status.LOBBY] and not statuses[Status.PLAYING]

    # there was something to lose
    assert taken, "the killed runs had played"
    assert sum(restored) > 0, "some kills left tables in play, restored by the next run"
    assert statuses[Status.FINISHED] and statuses[Status.CANCELLED]
    assert any(s.table.deal_no > 0 for s in found if s.table.status is Status.FINISHED)
    assert any(s.left for stored in found for s in stored.table.seats if s is not None), (
        "members left"
    )


@pytest.mark.e2e
async def test_a_process_killed_on_postgresql_is_taken_over_losing_nothing(
    pg_server: str,
) -> None:
    """The bot as a process of a cluster on PostgreSQL, killed from outside again and again:
    the next process waits for the dead one's lease on the shard, then takes its tables over
    from the database, every action it had answered for in the log."""
    url = await fresh_postgres(pg_server)
    rng = random.Random(20261123)
    taken = 0
    in_play: list[int] = []
    for kill in range(3):
        code, said = await killed_from_outside(url, kill, rng.uniform(0.3, 0.8))
        assert code == -signal.SIGKILL
        db = await open_database(url)
        try:
            logged, left = await checked_after_a_kill(db, said)
            taken += logged
            in_play.append(left)
            assert set(await leases.holders(db)) == {0}, "the dead process still holds it"
        finally:
            await db.close()

    proc = await drive(url, 3, "finish")
    code, said = await until_dead(proc)
    assert code == 0 and "finished" in said, said
    db = await open_database(url)
    try:
        found = await check_all(db, GUILD)
        audit = await ledger.audit(db, GUILD)
        assert await leases.holders(db) == {}, "a clean stop gives the lease back"
    finally:
        await db.close()
    assert taken, "the killed processes had played"
    # the tables each dead process left in play went on in the next one, to their end
    assert sum(in_play) > 0
    assert audit.tables == 0 and audit.balanced
    statuses = Counter(stored.table.status for stored in found)
    assert not statuses[Status.LOBBY] and not statuses[Status.PLAYING]


# ------------------------------------------------------------------ simulated crash


class FailAt:
    """Makes the ``at``-th SQL statement fail as it starts (SQLite interrupts it), counted
    from when it is installed; and that same statement (its SQL and values) whenever it is
    run again, as a fault that stays does (a batch that failed is run again unit by unit)."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.count = 0
        self.failed: str | None = None
        self.current = ""

    def trace(self, sql: str) -> None:
        self.count += 1
        self.current = sql
        if self.count == self.at:
            self.failed = sql

    def progress(self) -> int:
        return int(self.count == self.at or self.current == self.failed)

    async def install(self, db: Database) -> None:
        await connection_of(db).set_trace_callback(self.trace)
        await connection_of(db).set_progress_handler(self.progress, 1)

    @staticmethod
    async def remove(db: Database) -> None:
        # None removes them (sqlite3 takes it; aiosqlite's hints do not say so)
        await connection_of(db).set_progress_handler(None, 1)  # pyright: ignore[reportArgumentType]
        await connection_of(db).set_trace_callback(None)  # pyright: ignore[reportArgumentType]


async def deal_played_down_to(
    db: Database, rounds: int, cards_left: int
) -> tuple[int, Players, Timers]:
    """Three members at an arrastrado table with a bet and the plato, played (at random,
    seeded) until ``cards_left`` cards are still to play in the first deal."""
    timers = Timers()
    service = make_service(db, timers, Clock())
    players = Players(service, timers, random.Random(rounds), [301, 302, 303], habits=Habits(0, 0))
    options = parse_options(
        Variant.ARRASTRADO,
        {"bet": 100, "plato": True, "rounds": rounds, "allow_tute": False, "turn_time": 3600},
    )
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=301,
        host_name="Ana",
        variant=Variant.ARRASTRADO,
        options=options,
        language="en",
    )
    await service.join(table.id, 302, "Bea")
    await service.join(table.id, 303, "Cid")
    await service.start(table.id, 301)
    deal = table.deal
    assert deal is not None
    while sum(len(deal.hand(s)) for s in range(3)) > cards_left:
        assert await players.move(table.id)
    return table.id, players, timers


@pytest.mark.parametrize(
    ("rounds", "cards_left"),
    [(1, 1), (2, 1), (1, 20)],
    ids=["the save that ends the game", "the save that deals again", "a card mid-deal"],
)
async def test_a_save_that_fails_at_any_statement_leaves_nothing_half_done(
    tmp_path: Path, rounds: int, cards_left: int
) -> None:
    db = await open_migrated(tmp_path / "tute.db")
    try:
        async with db.transaction() as conn:
            await update_settings(conn, GUILD, starting_chips=1000)
        table_id, players, timers = await deal_played_down_to(db, rounds, cards_left)
        service = players.service
        before = await dump(db)
        failed: list[str] = []
        at = 0
        while True:
            at += 1
            table = table_of(service, table_id)
            deal = table.deal
            assert deal is not None
            card = next(
                a for a in deal.legal_actions() if a.seat == deal.turn and a.kind is Kind.PLAY
            )
            user = table.seats[card.seat].user_id  # type: ignore[union-attr]
            assert user is not None
            played = len(deal.actions)
            cause: BaseException | None = None
            fail = FailAt(at)
            await fail.install(db)
            try:
                await service.act(
                    table_id, user, card, deal_no=table.deal_no, trick_no=len(deal.tricks)
                )
                saved = True
            except SaveFailed as refused:
                cause = refused.__cause__
                saved = False
            finally:
                await FailAt.remove(db)
            if saved:
                break
            assert isinstance(cause, sqlite3.OperationalError)  # "interrupted"
            # nothing changed in memory either: the card is still in the hand, on turn
            same = table_of(service, table_id)
            assert same.deal is not None and len(same.deal.actions) == played
            assert card in same.deal.legal_actions() and same.status is Status.PLAYING
            assert fail.failed is not None, "a statement failed that was not made to"
            failed.append(fail.failed.split()[0].upper())
            assert await dump(db) == before, f"statement {at} ({fail.failed}) left a trace"
            # the bot starts again: the table as the file has it, the card still to play
            await timers.stop()
            timers = Timers()
            service = make_service(db, timers, Clock())
            await service.restore()
            players.service = service
        await timers.quiet(service)
        assert fail.failed is None, "the last attempt failed nowhere"
        # every statement of the save failed once, the writes between others included
        assert failed[0] == "BEGIN" and failed[-1] == "COMMIT", failed
        assert {"INSERT", "UPDATE"} <= set(failed), failed
        if cards_left == 1:  # the deal's record, the chips, the standings: many statements
            assert len(failed) > 15 and {"DELETE", "SELECT"} <= set(failed), failed

        table = table_of(service, table_id)
        assert table.status is (Status.FINISHED if rounds == 1 == cards_left else Status.PLAYING)
        (stored,) = await check_all(db, GUILD)
        assert sorted(stored.results) == ([0] if cards_left == 1 else []), "recorded once"
        after = await dump(db)
        assert len(after["actions"]) == len(before["actions"]) + 1, "the card is logged once"
        if table.status is Status.FINISHED:
            payouts = [r for r in after["ledger"] if r[5] == "payout"]
            assert len({r[-1] for r in payouts}) == 1, "the stakes are paid out once"
            for user in (301, 302, 303):
                member = await members.member_stats(db, GUILD, user)
                assert member is not None and member.games_played == 1
    finally:
        await timers.stop()
        await db.close()
