"""Every record the bot writes verifies: whole games of each variant played through the
service, a rematch, a game restored after a restart; a deal's seed is revealed only once
the deal is over, and its commitment is the one the table showed before it dealt."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Options, Variant
from bot.engine.fairness import OLDER, verify_record
from bot.storage import Database
from bot.storage.replays import stored_deal
from bot.tables.model import Status, Table
from bot.tables.service import TableService
from tests.migrated import open_migrated
from tests.runtime import seeds
from tests.tables.test_service import ana_opens, play_out, quick_service, settle

OPTIONS = [
    (Variant.HABANERO, Options(rounds=2)),
    (Variant.ARRASTRADO, Options(rounds=2)),
    (Variant.ARRASTRADO, Options(deck=36)),
    (Variant.ARRASTRADO, Options(seats=4)),
    (Variant.INDIVIDUAL, Options(rounds=2)),
    (Variant.PAIRS, Options(rounds=2)),
]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "t.db")
    yield database
    await database.close()


async def records(db: Database, table: Table) -> list[tuple[bool, dict[str, Any]]]:
    """Each stored deal of ``table``: whether it was played to its end, and its record."""
    found: list[tuple[bool, dict[str, Any]]] = []
    for deal_no in range(table.deal_no + 1):
        stored = await stored_deal(db, table.id, deal_no)
        assert stored is not None, f"deal {deal_no} was stored"
        found.append((stored.finished, json.loads(stored.record)))
    return found


async def check_fair(db: Database, table: Table, shown: str) -> int:
    """Every finished deal of ``table`` verifies, against the commitment ``shown`` before
    the game; a deal still in play keeps its seed. Returns the deals checked."""
    checked = 0
    for finished, record in await records(db, table):
        shuffle = record["shuffle"]
        assert shuffle["version"] == 2 and shuffle["commitment"][:12] == shown
        if finished:
            verdict = verify_record(record)
            assert verdict.fair, verdict
            checked += 1
        else:
            assert "seed" not in shuffle
            assert verify_record(record).unverifiable is not None
    return checked


async def start_game(
    service: TableService, variant: Variant, options: Options, click: str
) -> tuple[Table, str]:
    table = await ana_opens(service, variant, options, language="en")
    shown = table.short_commitment
    assert shown is not None and len(shown) == 12
    if variant.players > 2:
        await service.join(table.id, 11, "Bea")
    await service.start(table.id, 10, public_input=click)
    assert table.public_input == click
    return table, shown


@pytest.mark.parametrize(("variant", "options"), OPTIONS, ids=lambda v: str(v))
async def test_every_deal_of_a_whole_game_verifies(
    db: Database, variant: Variant, options: Options
) -> None:
    service = quick_service(db)
    table, shown = await start_game(service, variant, options, "discord:1180000000000000001")
    await play_out(service, table, random.Random(5))
    assert table.status is Status.FINISHED
    assert await check_fair(db, table, shown) == table.deal_no + 1


async def test_the_seed_is_kept_until_the_deal_is_over(db: Database) -> None:
    service = quick_service(db)
    table, shown = await start_game(service, Variant.HABANERO, Options(), "web:" + "ab" * 16)
    await settle(service, table)
    [(finished, record)] = await records(db, table)
    assert not finished and "seed" not in record["shuffle"]
    assert table.secret().hex() not in json.dumps(record)
    assert await check_fair(db, table, shown) == 0


async def test_another_click_deals_other_cards_from_the_same_commitment(db: Database) -> None:
    """The same table's seed with two Start clicks: one commitment, two deals."""
    seeds().pin(5)
    hands: list[object] = []
    shown: set[str] = set()
    for click in ("discord:1", "discord:2"):
        service = quick_service(db)
        table, commitment = await start_game(service, Variant.PAIRS, Options(), click)
        assert table.deal is not None
        hands.append(table.deal.dealt.hands)
        shown.add(commitment)
        await service.suspend()
    assert len(shown) == 1 and hands[0] != hands[1]


async def test_a_rematch_commits_anew_and_verifies(db: Database) -> None:
    service = quick_service(db)
    old, old_shown = await start_game(service, Variant.PAIRS, Options(), "discord:11")
    await play_out(service, old, random.Random(2))
    lobby, _ = await service.rematch(old.id, 10, "Ana")
    again = service.get(lobby.id)
    shown = again.short_commitment
    assert shown is not None and shown != old_shown
    await service.start(again.id, 10, public_input="discord:12")
    await play_out(service, again, random.Random(3))
    assert again.status is Status.FINISHED
    assert await check_fair(db, again, shown) == again.deal_no + 1


async def test_a_game_restored_after_a_restart_deals_on_and_verifies(db: Database) -> None:
    service = quick_service(db)
    table, shown = await start_game(service, Variant.HABANERO, Options(rounds=2), "discord:7")
    rng = random.Random(4)
    # play into the second deal, then stop the bot and start it again on the same file
    while table.deal_no == 0 or len(table.deal.actions if table.deal else ()) < 3:
        await play_one(service, table, rng)
    await service.suspend()
    service = quick_service(db)
    [back] = await service.restore()
    assert back.id == table.id and back.public_input == "discord:7"
    assert back.short_commitment == shown
    await play_out(service, back, rng)
    assert back.status is Status.FINISHED
    assert await check_fair(db, back, shown) == back.deal_no + 1


async def play_one(service: TableService, table: Table, rng: random.Random) -> None:
    """The member on turn plays one card (the robots answer first)."""
    await settle(service, table)
    deal = table.deal
    assert deal is not None and table.status is Status.PLAYING
    occupant = table.seats[deal.turn]
    assert occupant is not None and occupant.user_id is not None
    legal = [a for a in deal.legal_actions() if a.seat == deal.turn]
    await service.act(
        table.id,
        occupant.user_id,
        rng.choice(legal),
        deal_no=table.deal_no,
        trick_no=len(deal.tricks),
    )


async def test_a_table_of_the_older_shuffle_writes_records_that_say_so(db: Database) -> None:
    """A table saved before the committed shuffle (restored during an upgrade) deals on
    with the older one: its records say so, and verify calls them not verifiable rather
    than unfair."""
    service = quick_service(db)
    table = await ana_opens(service, Variant.HABANERO, Options(), language="en")
    table.shuffle = 1  # as ``Table.from_state`` reads a state saved before
    assert table.short_commitment is None
    await service.start(table.id, 10, public_input="discord:3")
    await play_out(service, table, random.Random(6))
    for finished, record in await records(db, table):
        assert record["shuffle"] == {"version": 1}
        assert finished and verify_record(record).unverifiable == OLDER
