"""``tute-bot backup``: a copy of the SQLite file taken while the bot writes to it; ``tute-bot
check``: what is wrong with a database, a backup or the live one.

The writes that go on during a backup are made to happen while its copy is being taken
(its ``on_snapshot`` waits for them), not left to how fast the machine is."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.storage import Database, ledger, open_database
from bot.storage.backup import BackupError, backup_sqlite, check_database
from bot.storage.base import migration_scripts
from tests.migrated import open_migrated
from tests.pgserver import fresh_postgres
from tests.storage.helpers import ANA, BEA, CAR, GUILD, NOW, OTHER_GUILD, join

LATEST = len(migration_scripts())

WRITES_DURING = 20
"""Movements the writer commits while the backup holds its moment."""


async def filled(path: Path) -> Database:
    """The bot's database at ``path`` with members in two servers and chips moved about."""
    db = await open_migrated(path)
    await join(db, ANA, BEA, CAR)
    await join(db, ANA, guild=OTHER_GUILD)
    await pay(db, 0)
    return db


async def pay(db: Database, n: int) -> None:
    """One movement of chips, as a deal's payments make: someone pays the others."""
    payer, *paid = [(ANA, BEA, CAR), (BEA, CAR, ANA), (CAR, ANA, BEA)][n % 3]
    async with db.transaction() as conn:
        deltas = {payer: -2, paid[0]: 1, paid[1]: 1}
        await ledger.settle_payments(conn, GUILD, None, deltas, NOW + n)
        await ledger.grant(conn, GUILD, payer, 2, "admin", NOW + n)


async def ledger_rows(db: Database) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM ledger")
    assert row is not None
    return int(row[0])


async def names(folder: Path) -> list[str]:
    return sorted(await asyncio.to_thread(lambda: [p.name for p in folder.iterdir()]))


async def backed_up(tmp_path: Path) -> Path:
    """A good backup of a database with chips in it."""
    db = await filled(tmp_path / "data" / "tute.db")
    try:
        target = tmp_path / "backup.db"
        await asyncio.to_thread(backup_sqlite, tmp_path / "data" / "tute.db", target)
    finally:
        await db.close()
    return target


async def test_a_backup_taken_while_the_bot_writes_is_whole_and_passes_the_check(
    tmp_path: Path,
) -> None:
    source, target = tmp_path / "data" / "tute.db", tmp_path / "backups" / "tute.db"
    db = await filled(source)
    committed = 0
    snapshot_at: list[int] = []
    written_during = threading.Event()
    started, after = asyncio.Event(), asyncio.Event()
    stop = asyncio.Event()

    async def writer() -> None:
        nonlocal committed
        while not stop.is_set():
            await pay(db, committed)
            committed += 1
            if committed >= 5:
                started.set()
            if snapshot_at and committed >= snapshot_at[0] + WRITES_DURING:
                written_during.set()
            if snapshot_at and committed >= snapshot_at[0] + WRITES_DURING + 5:
                after.set()
            await asyncio.sleep(0)

    def hold_the_moment() -> None:
        # the copy's moment is fixed: the bot writes on before its pages are copied
        snapshot_at.append(committed)
        assert written_during.wait(timeout=60), "the writer wrote during the backup"

    writing = asyncio.create_task(writer())
    try:
        await started.wait()
        report = await asyncio.to_thread(backup_sqlite, source, target, on_snapshot=hold_the_moment)
        await after.wait()  # and it writes on after it
    finally:
        stop.set()
        await writing
    try:
        live_rows = await ledger_rows(db)
    finally:
        await db.close()

    check = await check_database(target)
    assert check.ok, check.problems
    assert check.lines == [
        "integrity: ok",
        f"schema: version {LATEST}, the latest",
        "chips: 2 servers, all balanced",
    ]
    copy = await open_database(target)
    try:
        copied_rows = await ledger_rows(copy)
    finally:
        await copy.close()
    # the copy is the database at its moment: what was written meanwhile is not in it
    assert dict(report.rows)["ledger"] == copied_rows
    assert copied_rows < live_rows - 4 * WRITES_DURING
    assert report.schema_version == LATEST
    assert report.size == target.stat().st_size
    assert await names(target.parent) == ["tute.db"], "no file left over"


async def test_a_backup_never_replaces_a_file_unless_forced(tmp_path: Path) -> None:
    target = await backed_up(tmp_path)
    target.write_bytes(b"yesterday's")
    source = tmp_path / "data" / "tute.db"

    with pytest.raises(BackupError, match=r"already exists.*--force"):
        await asyncio.to_thread(backup_sqlite, source, target)
    assert target.read_bytes() == b"yesterday's"

    await asyncio.to_thread(backup_sqlite, source, target, force=True)
    assert (await check_database(target)).ok
    assert await names(tmp_path) == ["backup.db", "data"], "no file left over"

    with pytest.raises(BackupError, match="replace the database itself"):
        await asyncio.to_thread(backup_sqlite, source, source, force=True)
    with pytest.raises(BackupError, match="no SQLite database"):
        await asyncio.to_thread(backup_sqlite, tmp_path / "none.db", tmp_path / "b.db")


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def scribble(path: Path) -> None:
    """Bytes of a page in the middle of the file overwritten (a disk's fault)."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 4096] = b"\xa5" * 4096
    path.write_bytes(bytes(data))


def not_a_database(path: Path) -> None:
    path.write_text("these are not the chips you are looking for\n" * 100)


@pytest.mark.parametrize("damage", [truncate, scribble, not_a_database])
async def test_a_damaged_file_fails_the_check(
    tmp_path: Path, damage: object, capsys: pytest.CaptureFixture[str]
) -> None:
    target = await backed_up(tmp_path)
    assert callable(damage)
    damage(target)

    report = await check_database(target)

    assert not report.ok
    assert "integrity: ok" not in report.lines
    code = await asyncio.to_thread(main, ["check", str(target)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "no problem found" not in out
    assert f"tute-bot: {target}: " in err


async def test_an_unbalanced_ledger_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = await backed_up(tmp_path)
    with contextlib.closing(sqlite3.connect(target)) as conn:
        # chips that came from nowhere: a payment with nobody paying
        conn.execute(
            "INSERT INTO ledger (guild_id, account, user_id, kind, amount, created_at, movement)"
            " VALUES (?, 'member', ?, 'transfer', 50, ?, 999999)",
            (GUILD, BEA, NOW),
        )
        conn.commit()

    report = await check_database(target)

    assert not report.ok
    (problem,) = report.problems
    assert problem.startswith(f"chips: server {GUILD}: ")
    assert "= 3052, but 3002 were granted" in problem
    assert "movements that do not add up to zero: 999999" in problem
    assert report.lines[:2] == ["integrity: ok", f"schema: version {LATEST}, the latest"]
    assert await asyncio.to_thread(main, ["check", str(target)]) == 1
    assert f"server {GUILD}" in capsys.readouterr().err


async def test_a_database_of_an_older_bot_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    old = await open_database(path, migrate=False)
    try:
        await old.migrate(target=3)
    finally:
        await old.close()

    report = await check_database(path)

    assert not report.ok
    assert report.problems == [
        f"schema: version 3, older than this bot's {LATEST}: the bot migrates it when it "
        "starts on it (restore it, start the bot, then check again)"
    ]
    assert await asyncio.to_thread(main, ["check", str(path)]) == 1
    assert "version 3" in capsys.readouterr().err
    # the check changed nothing: still version 3
    again = await open_database(path, migrate=False)
    try:
        assert await again.schema_version() == 3
    finally:
        await again.close()


async def test_the_commands_read_the_bots_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = await filled(tmp_path / "live" / "tute.db")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("os.environ", {"TUTE_DB_PATH": "live/tute.db"})
    try:
        code = await asyncio.to_thread(main, ["backup", "backups/monday.db"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "Backing up live/tute.db to backups/monday.db..." in out
        assert "  ledger" in out and "Done: " in out
        # no --force: refused, and said why
        assert await asyncio.to_thread(main, ["backup", "backups/monday.db"]) == 1
        assert "--force" in capsys.readouterr().err
        assert await asyncio.to_thread(main, ["backup", "backups/monday.db", "--force"]) == 0
        capsys.readouterr()
        # the live database by default, the backup by its path
        for argv in (["check"], ["check", "backups/monday.db"]):
            assert await asyncio.to_thread(main, argv) == 0
            out, err = capsys.readouterr()
            assert err == ""
            assert "chips: 2 servers, all balanced" in out
            assert out.rstrip().endswith("Done: no problem found.")
    finally:
        await db.close()


async def test_a_missing_file_is_not_made_by_the_check(tmp_path: Path) -> None:
    report = await check_database(tmp_path / "nothing.db")
    assert report.problems == [f"there is no file at {tmp_path / 'nothing.db'}"]
    assert not (tmp_path / "nothing.db").exists()


async def test_the_check_takes_a_postgresql_database_too(pg_server: str) -> None:
    url = await fresh_postgres(pg_server, migrated=True)
    db = await open_database(url)
    try:
        await join(db, ANA, BEA)
        report = await check_database(url)
        assert report.ok, report.problems
        assert report.lines[1:] == [
            f"schema: version {LATEST}, the latest",
            "chips: 1 server, all balanced",
        ]
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO ledger (guild_id, account, kind, amount, created_at, movement)"
                " VALUES (?, 'bank', 'rake', 7, ?, 424242)",
                (GUILD, NOW),
            )
        report = await check_database(url)
        assert not report.ok
        assert "424242" in report.problems[0]
    finally:
        await db.close()


def test_a_bot_on_postgresql_is_backed_up_with_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("os.environ", {"TUTE_DATABASE_URL": "postgresql://u:pw@db/tute"})

    assert main(["backup", "tute.db"]) == 2

    err = capsys.readouterr().err
    assert "pg_dump" in err and "pw@" not in err
    assert not (tmp_path / "tute.db").exists()
