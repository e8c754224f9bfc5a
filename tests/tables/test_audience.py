"""The one audience rule: who may watch a table's play and its tricks, decided once
(``bot.tables.audience``) and asked by every door. A game without spectators is its
players' alone, on the card table and through Tricks; a table is watched only from its own
place; a member who sat at it (even gone, a robot in their seat) always sees it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.engine import Options, Variant
from bot.i18n import LANGUAGES, t
from bot.storage import Database
from bot.tables.audience import place_of, sat_at, watch_refusal
from bot.tables.errors import TableError
from bot.tables.lobby import alone_options
from bot.tables.model import Seat, Status, Table
from bot.tables.service import TableService
from bot.web.hub import TableHub
from tests.migrated import open_migrated
from tests.tables._play import opened
from tests.web.conftest import quick_hub
from tests.web.test_hub import Socket

GUILD, OTHER, CHANNEL = 1, 2, 5
ANA, LUIS, EVA, GONE = 10, 11, 12, 13


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "t.db")
    yield database
    await database.close()


def _table(status: Status, *, spectators: bool) -> Table:
    return Table(
        id=1,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        variant=Variant.HABANERO,
        options=Options(spectators=spectators),
        language="en",
        created_at=0.0,
        seats=[
            Seat("Ana", ANA),
            Seat("Gone", GONE, robot=None, left=True),
            Seat.for_robot(1),
        ],
        status=status,
    )


@pytest.mark.parametrize(
    ("status", "spectators", "who", "place", "refused"),
    [
        # a lobby is public where it is posted
        (Status.LOBBY, False, EVA, GUILD, None),
        (Status.LOBBY, True, EVA, GUILD, None),
        (Status.LOBBY, True, EVA, OTHER, "watch_elsewhere"),
        # a game with spectators: anybody of its place
        (Status.PLAYING, True, EVA, GUILD, None),
        (Status.PLAYING, True, None, GUILD, None),
        (Status.PLAYING, True, EVA, OTHER, "watch_elsewhere"),
        # without: its players alone, from anywhere, a player who left too
        (Status.PLAYING, False, EVA, GUILD, "watch_private"),
        (Status.PLAYING, False, None, GUILD, "watch_private"),
        (Status.PLAYING, False, ANA, GUILD, None),
        (Status.PLAYING, False, ANA, OTHER, None),
        (Status.PLAYING, False, GONE, GUILD, None),
    ],
)
def test_who_may_watch_a_table(
    status: Status, spectators: bool, who: int | None, place: int, refused: str | None
) -> None:
    assert watch_refusal(_table(status, spectators=spectators), who, place) == refused


def test_a_members_own_deal_in_their_dms_is_theirs_alone() -> None:
    """The daily and practice deals play with the options of a table alone in a member's
    DMs: nobody else watches them, nor reads their tricks."""
    table = replace(_table(Status.PLAYING, spectators=True), options=alone_options(300))
    assert watch_refusal(table, EVA, GUILD) == "watch_private"
    assert watch_refusal(table, ANA, CHANNEL) is None


def test_every_refusal_is_said_in_words() -> None:
    for key in ("watch_private", "watch_elsewhere"):
        for lang in LANGUAGES:
            words = t(f"tables.errors.{key}", lang)
            assert words and "{" not in words and not words.startswith("tables.")


def test_a_member_who_left_still_sat_at_it_and_a_dm_is_its_own_place() -> None:
    table = _table(Status.PLAYING, spectators=False)
    assert sat_at(table, GONE) and sat_at(table, ANA)
    assert not sat_at(table, EVA) and not sat_at(table, None)
    assert place_of(GUILD, CHANNEL) == GUILD
    assert place_of(None, CHANNEL) == CHANNEL


async def _lobby(db: Database, *, spectators: bool) -> tuple[TableService, TableHub, Table]:
    """Ana's lobby in the server's channel, shown on the card table's hub."""
    hub = quick_hub(db)
    service = hub.service
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=replace(Options(), spectators=spectators),
        language="en",
    )
    return service, hub, table


async def _in_play(db: Database, *, spectators: bool) -> tuple[TableService, TableHub, Table]:
    service, hub, table = await _lobby(db, spectators=spectators)
    await service.join(table.id, LUIS, "Luis")
    await service.start(table.id, ANA)
    return service, hub, table


async def test_tricks_of_a_game_without_spectators_are_its_players_alone(db: Database) -> None:
    service, _, table = await _in_play(db, spectators=False)
    assert service.history(table.id, ANA, GUILD).table_id == table.id
    assert service.history(table.id, LUIS, OTHER).table_id == table.id  # from their DMs
    with pytest.raises(TableError) as refused:
        service.history(table.id, EVA, GUILD)
    assert refused.value.key == "watch_private"
    with pytest.raises(TableError) as elsewhere:
        service.watch(table.id, EVA, OTHER)
    assert elsewhere.value.key == "watch_elsewhere"


async def test_tricks_of_a_watched_game_only_from_its_own_place(db: Database) -> None:
    service, _, table = await _in_play(db, spectators=True)
    assert service.history(table.id, EVA, GUILD).table_id == table.id
    with pytest.raises(TableError) as refused:
        service.history(table.id, EVA, OTHER)  # a forged button of another server's table
    assert refused.value.key == "watch_elsewhere"


async def test_the_card_table_shows_a_game_without_spectators_to_its_players_alone(
    db: Database,
) -> None:
    service, hub, table = await _in_play(db, spectators=False)
    ana, eva = Socket(ANA, place=GUILD), Socket(EVA, place=GUILD)
    await hub.join(table.id, ana)
    await hub.join(table.id, eva)
    assert ana.last["type"] == "state" and ana.last["hand"] is not None
    assert eva.sent == [{"type": "private", "table": table.id}]
    await service.leave(table.id, LUIS)  # the table changes: still nothing for eva
    assert [m["type"] for m in eva.sent] == ["private"]
    assert all("deal" not in str(m) for m in eva.sent)


async def test_a_lobby_watcher_sees_no_more_once_a_private_game_starts(db: Database) -> None:
    service, hub, table = await _lobby(db, spectators=False)
    eva = Socket(EVA, place=GUILD)
    await hub.join(table.id, eva)
    assert eva.last["type"] == "state"  # the lobby: she may join
    await service.join(table.id, LUIS, "Luis")
    await service.start(table.id, ANA)
    assert eva.last == {"type": "private", "table": table.id}
    states = [m for m in eva.sent if m["type"] == "state"]
    assert all(m["table"]["status"] == "lobby" for m in states), "no deal was ever sent"
