"""A save the database refuses (a full disk, a lock held elsewhere) changes nothing, in
memory or in the file; once the fault lifts, the same click does it. The last test fills
a real (tmpfs) disk.

Time is simulated (``_sim``): nothing here waits on the wall clock, and nothing depends
on how fast the machine is.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.storage.members import ensure_member
from bot.tables.errors import SaveFailed, TableError
from bot.tables.model import Status, Table
from tests.tables import _sim
from tests.tables._checks import dump
from tests.tables._db_faults import FAULTS, failing
from tests.tables._sim import (
    BET,
    GUILD,
    START,
    Env,
    act,
    check_chips,
    check_log,
    check_memory_is_the_log,
    member_on_turn,
    new_env,
    until_paused,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""


# ------------------------------------------------------- a failed save changes nothing


@dataclass
class Click:
    """A user's request at a prepared table (None: ``open_table``, no table yet), and what
    must still hold in memory when its save fails."""

    table: Table | None
    call: Callable[[], Awaitable[object]]
    unchanged: Callable[[], None] = lambda: None


async def click_open(env: Env) -> Click:
    async def call() -> object:
        return await env.open(30)

    return Click(None, call)


async def click_join(env: Env) -> Click:
    table = await env.open(10)

    def unchanged() -> None:
        assert table.seat_of(11) is None and table.free_seats() == [1, 2, 3]

    return Click(table, lambda: env.service.join(table.id, 11, "user11"), unchanged)


async def click_join_with_bet(env: Env) -> Click:
    """A member the server has never seen (their starting chips are written first) sits at a
    table with a bet."""
    table = await env.open(10, bet=BET)

    def unchanged() -> None:
        assert table.seat_of(12) is None

    return Click(table, lambda: env.service.join(table.id, 12, "user12"), unchanged)


async def click_start(env: Env) -> Click:
    """(Both members have chips already: what fails is the start's own save.)"""
    table = await env.open(10, members=(11,), bet=BET)
    async with env.db.transaction() as conn:
        await ensure_member(conn, GUILD, 10, START, env.time.now)

    def unchanged() -> None:
        assert table.status is Status.LOBBY and table.deal is None
        assert table.free_seats() == [2, 3] and not table.stakes

    return Click(table, lambda: env.service.start(table.id, 10), unchanged)


async def click_leave_lobby(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET)

    def unchanged() -> None:
        assert table.seat_of(11) == 1

    return Click(table, lambda: env.service.leave(table.id, 11, lobby=True), unchanged)


async def click_last_leaves_lobby(env: Env) -> Click:
    table = await env.open(10)

    def unchanged() -> None:
        assert table.status is Status.LOBBY and table.seat_of(10) == 0
        assert table.id in env.service.tables

    return Click(table, lambda: env.service.leave(table.id, 10, lobby=True), unchanged)


async def click_leave_game(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)

    def unchanged() -> None:
        assert table.seat_of(11) == 1 and table.status is Status.PLAYING

    return Click(table, lambda: env.service.leave(table.id, 11), unchanged)


async def click_abandon_game(env: Env) -> Click:
    table = await env.open(10, bet=BET, start=True)

    def unchanged() -> None:
        assert table.seat_of(10) == 0 and table.status is Status.PLAYING
        assert table.id in env.service.tables

    return Click(table, lambda: env.service.leave(table.id, 10), unchanged)


async def click_vote(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)

    def unchanged() -> None:
        assert table.cancel_votes == []

    return Click(table, lambda: env.service.vote_cancel(table.id, 10), unchanged)


async def click_last_vote(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)
    await env.service.vote_cancel(table.id, 11)

    def unchanged() -> None:
        assert table.cancel_votes == [11] and table.status is Status.PLAYING

    return Click(table, lambda: env.service.vote_cancel(table.id, 10), unchanged)


async def click_im_back(env: Env) -> Click:
    table = await env.open(10, bet=BET, turn_time=10, start=True)
    await until_paused(env, table)
    paused_until = table.paused_until

    def unchanged() -> None:
        occupant = table.seats[0]
        assert occupant is not None and occupant.away and table.paused_until == paused_until

    return Click(table, lambda: env.service.im_back(table.id, 10), unchanged)


async def click_card(env: Env) -> Click:
    table = await env.open(10, members=(11,), bet=BET, start=True)
    deal = table.deal
    assert deal is not None
    user, card = member_on_turn(table)
    played = list(deal.actions)

    def unchanged() -> None:
        assert table.deal is not None and table.deal.actions == played
        assert card in table.deal.legal_actions()

    return Click(table, lambda: act(env.service, table, user, card), unchanged)


CLICKS: dict[str, Callable[[Env], Awaitable[Click]]] = {
    "open a table": click_open,
    "join": click_join,
    "join a table with a bet (a new member)": click_join_with_bet,
    "start": click_start,
    "leave the lobby": click_leave_lobby,
    "the last member leaves the lobby": click_last_leaves_lobby,
    "leave a game": click_leave_game,
    "the only member leaves a game": click_abandon_game,
    "vote to cancel": click_vote,
    "the vote that cancels": click_last_vote,
    "I'm back": click_im_back,
    "play a card": click_card,
}


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("click", list(CLICKS))
async def test_a_save_that_fails_leaves_the_table_as_it_was(
    env: Env, click: str, fault: str
) -> None:
    service = env.service
    prepared = await CLICKS[click](env)
    await env.time.quiet(service)
    table = prepared.table
    tables_before = dict(service.tables)
    state = table.state_json() if table is not None else None
    before = await dump(env.db)

    async with failing(env, fault) as refusing:
        with pytest.raises(SaveFailed) as refused:
            await prepared.call()
        assert refusing.refused or fault == "locked", "the fault refused nothing"
        assert refused.value.key == "save_failed" and isinstance(refused.value, TableError)
        assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
        await env.time.quiet(service)
        # in memory: the table as it was, nothing more, nothing less
        assert service.tables == tables_before
        if table is not None:
            assert service.get(table.id) is table
            assert table.state_json() == state
            prepared.unchanged()
        # in the file: nothing at all
        assert await dump(env.db) == before
    await check_log(env.db)

    # the fault lifted, the same click does it
    await prepared.call()
    await env.time.quiet(service)
    assert await dump(env.db) != before
    await check_log(env.db)
    await check_chips(env.db)
    for open_table in service.tables.values():
        if open_table.status is Status.PLAYING:
            await check_memory_is_the_log(env.db, open_table)
    if table is None:
        assert len(service.tables) == len(tables_before) + 1
    else:
        assert table.state_json() != state


# ----------------------------------------------------------------- a real full disk


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs of its own (skipped where mounting is not allowed)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as error:
        pytest.skip(f"no mount command here ({error}): the full-disk test needs a tmpfs")
    if mounted.returncode != 0:
        pytest.skip(
            "cannot mount a tmpfs here (it needs root or CAP_SYS_ADMIN): "
            + (mounted.stderr.strip() or f"exit {mounted.returncode}")
        )
    try:
        yield disk
    finally:
        if subprocess.run(["umount", str(disk)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(disk)], check=False)


def fill_up(disk: Path) -> Path:
    """Write a file until the disk has not a byte left."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            block = bytes(size)
            while True:
                try:
                    os.write(fd, block)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)
    return filler


@pytest.mark.parametrize("click", ["play a card", "join a table with a bet (a new member)"])
async def test_a_full_disk_refuses_the_save_and_nothing_changes(
    small_disk: Path, click: str
) -> None:
    env = await new_env(small_disk / "tute.db")
    try:
        prepared = await CLICKS[click](env)
        table = prepared.table
        assert table is not None
        await env.time.quiet(env.service)
        # the log copied into the file and emptied: the next COMMIT must grow it
        (busy, *_), *_ = await env.db.fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        assert busy == 0
        state, before = table.state_json(), await dump(env.db)
        filler = fill_up(small_disk)
        with pytest.raises(SaveFailed) as refused:
            await prepared.call()
        cause = refused.value.__cause__
        assert isinstance(cause, sqlite3.OperationalError), cause
        assert "database or disk is full" in str(cause)
        await env.time.quiet(env.service)
        assert table.state_json() == state
        prepared.unchanged()
        assert await dump(env.db) == before

        filler.unlink()
        await prepared.call()
        await env.time.quiet(env.service)
        assert table.state_json() != state
        await check_log(env.db)
        await check_chips(env.db)
        if table.status is Status.PLAYING:
            await check_memory_is_the_log(env.db, table)
    finally:
        await env.close()
