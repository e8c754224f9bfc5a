"""Copying a SQLite database into PostgreSQL (``tute-bot migrate-to-postgres``): every row,
the ids to come after the copied ones, the chips audited equal, and an empty target only."""

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.storage import (
    Conn,
    Database,
    ledger,
    members,
    open_database,
    ratings,
    seasons,
    settings,
    tables,
    tournaments,
)
from bot.storage.copy import CHUNK_ROWS, CopyError, copy_database
from bot.storage.ratings import StoredRating

from .conftest import fresh_postgres
from .helpers import ANA, BEA, CAR, GUILD, NOW, OTHER_GUILD

TODAY = "2026-01-01"


async def new_tournament(conn: Conn, now: float) -> int:
    """A tournament signing up in the server's channel 55, hosted by Car."""
    return await tournaments.create_tournament(
        conn,
        guild_id=GUILD,
        channel_id=55,
        host_id=CAR,
        status="signup",
        state="{}",
        now=now,
    )


async def new_table(conn: Conn, host: int, status: str, now: float) -> int:
    """A table of two in the server's channel 55."""
    return await tables.create_table(
        conn,
        guild_id=GUILD,
        channel_id=55,
        host_id=host,
        variant="two",
        status=status,
        state="{}",
        now=now,
    )


async def fill(db: Database) -> dict[str, int]:
    """A server's life, written through the repository functions: members, chips moved
    through a table and a tournament, a season and a rated game. Returns the new ids."""
    async with db.transaction() as conn:
        await settings.update_settings(conn, GUILD, starting_chips=500, language="es")
        for user in (ANA, BEA, CAR):
            await members.ensure_member(conn, GUILD, user, 500, NOW)
        await members.ensure_member(conn, OTHER_GUILD, ANA, 1000, NOW)
        await ledger.claim_daily(conn, GUILD, ANA, 100, TODAY, NOW + 1)
        await members.set_notify_turn(conn, GUILD, BEA, False)
        season = await seasons.start_season(conn, GUILD, NOW, NOW + 86_400, 55)
        table_id = await new_table(conn, ANA, "playing", NOW)
        await ledger.hold_stakes(conn, GUILD, table_id, {ANA: 50, BEA: 50}, NOW + 2)
        await ledger.pot_deposit(conn, GUILD, table_id, None, 10, NOW + 3)
        tournament_id = await new_tournament(conn, NOW)
    await tables.save_progress(
        db,
        table_id,
        deal_no=1,
        actions=[(1, "play 1o"), (2, "play 3o")],
        host_id=ANA,
        status="playing",
        state='{"deal": 1}',
        now=NOW + 4,
    )
    async with db.transaction() as conn:
        await tables.save_deal(
            conn,
            table_id=table_id,
            deal_no=1,
            guild_id=GUILD,
            record="record",
            players=[(0, ANA), (1, BEA)],
            finished_at=NOW + 5,
        )
        await ledger.release_table(conn, GUILD, table_id, {ANA: 105, BEA: 0}, 5, NOW + 6)
        await ratings.keep_game(
            conn, GUILD, table_id, "two", NOW + 6, json.dumps({"sides": [], "places": []})
        )
        await ratings.put_rating(conn, GUILD, "two", ANA, StoredRating(26.5, 8.0, 1, 25.0, 8.3))
        await ratings.put_rating(conn, GUILD, "two", BEA, StoredRating(23, 8, 1, 25, 8))
    return {"table": table_id, "tournament": tournament_id, "season": season.id}


@pytest.fixture
async def source(tmp_path: Path) -> AsyncIterator[Database]:
    db = await open_database(tmp_path / "tute.db")
    yield db
    await db.close()


@pytest.fixture
async def target(pg_server: str) -> AsyncIterator[Database]:
    db = await open_database(await fresh_postgres(pg_server, migrated=True))
    yield db
    await db.close()


async def test_everything_is_copied_and_audited_equal(source: Database, target: Database) -> None:
    ids = await fill(source)

    report = await copy_database(source, target)

    counts = dict(report.rows)
    assert counts["members"] == 4
    assert counts["actions"] == 2
    assert counts["deal_players"] == 2
    assert counts["rated_games"] == counts["seasons"] == counts["tournaments"] == 1
    assert counts["member_preferences"] == counts["guild_settings"] == 1
    assert counts["ledger"] == await _count(source, "ledger") > 0
    assert "schema_version" not in counts
    assert [server.guild_id for server in report.servers] == [GUILD, OTHER_GUILD]
    assert report.summary()[-1] == "audit: 2 servers, all balanced and equal"
    for guild in (GUILD, OTHER_GUILD):
        assert await ledger.audit(target, guild) == await ledger.audit(source, guild)
    for user in (ANA, BEA, CAR):
        assert await ledger.balance(target, GUILD, user) == await ledger.balance(
            source, GUILD, user
        )
    assert await ledger.balance(target, GUILD, ANA) == 500 + 100 - 50 + 105
    assert await tables.load_table(target, ids["table"]) == await tables.load_table(
        source, ids["table"]
    )
    assert await tables.deal_actions(target, ids["table"], 1) == ["play 1o", "play 3o"]
    assert await settings.get_settings(target, GUILD) == await settings.get_settings(source, GUILD)
    for user in (ANA, BEA):
        assert await ratings.member_ratings(target, GUILD, user) == await ratings.member_ratings(
            source, GUILD, user
        )
    assert (await ratings.member_ratings(target, GUILD, BEA))["two"].mu == 23.0
    assert await seasons.running_season(target, GUILD) == await seasons.running_season(
        source, GUILD
    )
    assert not await members.notify_turn(target, GUILD, BEA)


async def test_new_rows_get_ids_after_the_copied_ones(source: Database, target: Database) -> None:
    ids = await fill(source)
    await copy_database(source, target)
    last_ledger = await _highest(target, "ledger")

    async with target.transaction() as conn:
        table_id = await new_table(conn, BEA, "lobby", NOW + 10)
        await ledger.grant(conn, GUILD, CAR, 20, "admin", NOW + 10)
        tournament_id = await new_tournament(conn, NOW + 10)
        await seasons.end_season(conn, GUILD, NOW + 11)
        season = await seasons.start_season(conn, GUILD, NOW + 12, None, None)

    assert table_id > ids["table"]
    assert tournament_id > ids["tournament"]
    assert season.id > ids["season"]
    assert await _highest(target, "ledger") > last_ledger
    movement = await target.fetchone("SELECT MAX(movement) FROM ledger")
    assert movement is not None and movement[0] > last_ledger
    assert (await ledger.audit(target, GUILD)).balanced


async def test_a_target_with_rows_is_refused(source: Database, target: Database) -> None:
    await fill(source)
    async with target.transaction() as conn:
        await members.ensure_member(conn, GUILD, CAR, 0, NOW)

    with pytest.raises(CopyError, match="already has rows in table members"):
        await copy_database(source, target)

    assert await _count(target, "ledger") == 0


async def test_a_failed_check_writes_nothing(
    source: Database, target: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await fill(source)
    audit = ledger.audit

    async def off_by_one(db: object, guild_id: int) -> ledger.Audit:
        found = await audit(db, guild_id)  # type: ignore[arg-type]
        return dataclasses.replace(found, bank=found.bank + (db is not source))

    monkeypatch.setattr("bot.storage.ledger.audit", off_by_one)

    with pytest.raises(CopyError, match="chips differ after the copy"):
        await copy_database(source, target)

    assert await _count(target, "ledger") == await _count(target, "members") == 0


async def test_an_empty_source_copies_nothing_and_ids_start_at_one(
    source: Database, target: Database
) -> None:
    report = await copy_database(source, target)

    assert report.total_rows == 0
    assert report.servers == ()
    async with target.transaction() as conn:
        table_id = await new_table(conn, BEA, "lobby", NOW)
    assert table_id == 1


async def test_a_table_larger_than_a_chunk_is_copied_whole(
    source: Database, target: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.storage.copy.CHUNK_ROWS", 3)
    assert CHUNK_ROWS == 5000
    ids = await fill(source)
    await tables.save_progress(
        source,
        ids["table"],
        deal_no=2,
        actions=[(seq, f"action {seq}") for seq in range(1, 11)],
        host_id=ANA,
        status="playing",
        state="{}",
        now=NOW,
    )

    report = await copy_database(source, target)

    assert dict(report.rows)["actions"] == 12
    assert await tables.deal_actions(target, ids["table"], 2) == [
        f"action {seq}" for seq in range(1, 11)
    ]


async def test_different_schema_versions_are_refused(tmp_path: Path, target: Database) -> None:
    older = await open_database(tmp_path / "old.db", migrate=False)
    try:
        await older.migrate(target=3)
        with pytest.raises(CopyError, match="schema version 3"):
            await copy_database(older, target)
    finally:
        await older.close()


async def test_the_cli_copies_and_prints_the_summary(
    tmp_path: Path, pg_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tute.db"
    db = await open_database(path)
    try:
        await fill(db)
    finally:
        await db.close()
    url = await fresh_postgres(pg_server)

    code = await _in_thread(["migrate-to-postgres", "--from", str(path), "--to", url])

    out, err = capsys.readouterr()
    assert code == 0, err
    assert "audit: 2 servers, all balanced and equal" in out
    assert "ledger" in out and "members" in out
    copied = await open_database(url)
    try:
        assert await ledger.balance(copied, GUILD, ANA) == 655
    finally:
        await copied.close()

    # a second copy into the same database is refused, and says so
    code = await _in_thread(["migrate-to-postgres", "--from", str(path), "--to", url])

    out, err = capsys.readouterr()
    assert code == 1
    assert "already has rows" in err


async def test_the_cli_without_a_target_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("os.environ", {"PATH": ""})
    (tmp_path / "tute.db").touch()

    assert main(["migrate-to-postgres", "--from", str(tmp_path / "tute.db")]) == 2

    assert "TUTE_DATABASE_URL" in capsys.readouterr().err


# ---------------------------------------------------------------------------- helpers


async def _in_thread(argv: list[str]) -> int:
    """``main(argv)``, which runs an event loop of its own, from this async test."""
    import asyncio

    return await asyncio.to_thread(main, argv)


async def _count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
    assert row is not None
    return int(row[0])


async def _highest(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT MAX(id) FROM {table}")
    assert row is not None
    return int(row[0])


def test_the_report_is_plain() -> None:
    from bot.storage.copy import CopyReport

    report = CopyReport(schema_version=9, rows=(("members", 3), ("ledger", 12)), servers=())
    assert report.total_rows == 15
    assert report.summary() == [
        "schema version 9",
        "members  3 rows",
        "ledger   12 rows",
        "audit: 0 servers, all balanced and equal",
    ]
    assert dataclasses.is_dataclass(report)
