"""The card table's doors pressed at once: two requests that race through the hub (two
tabs of one member, two members, a click beside another) give one outcome, never two
tables, never a stake taken twice, and nothing but a refusal in words for the loser."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import pytest

from bot.engine import Options, Variant
from bot.storage import Database, ledger
from bot.tables.errors import TableError
from bot.tables.model import Status, Table
from bot.web import Session, wire
from bot.web.hub import TableHub
from bot.web.lobby import LobbyAction
from tests.tables.test_service import ana_opens, play_out, settle
from tests.web.conftest import quick_hub
from tests.web.test_hub import Socket

ANA, BEA = 10, 11
GUILD, CHANNEL = 1, 2


def session(user_id: int, name: str) -> Session:
    return Session(
        user_id=user_id,
        name=name,
        instance_id="i-1",
        channel_id=CHANNEL,
        guild_id=GUILD,
        expires=2e9,
    )


def refused_in_words(results: Sequence[object]) -> list[TableError]:
    """The refusals among ``results``; anything else raised fails the test."""
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, TableError):
            raise AssertionError(f"not a refusal in words: {result!r}") from result
    return [r for r in results if isinstance(r, TableError)]


def lobbies_of(hub: TableHub) -> list[Table]:
    return [t for t in hub.service.tables.values() if t.status is Status.LOBBY]


async def finished_game(hub: TableHub, *, bet: int = 50) -> Table:
    """Ana and Bea played a habanero game to its end, for chips."""
    table = await ana_opens(hub.service, Variant.HABANERO, Options(bet=bet), language="en")
    await hub.service.join(table.id, BEA, "Bea")
    await hub.service.start(table.id, ANA)
    await play_out(hub.service, table, random.Random(5))
    assert table.status is Status.FINISHED
    return table


async def test_one_member_pressing_rematch_twice_at_once_opens_one_lobby(db: Database) -> None:
    hub = quick_hub(db)
    old = await finished_game(hub)
    tabs = (Socket(ANA, language="en"), Socket(ANA, language="en"))
    results = await asyncio.gather(
        *(hub.rematch(old.id, session(ANA, "Ana"), tab) for tab in tabs), return_exceptions=True
    )
    refused_in_words(results)
    lobbies = lobbies_of(hub)
    assert len(lobbies) == 1, "one rematch"
    assert [s.user_id for s in lobbies[0].seats if s is not None and not s.is_robot] == [ANA]


async def test_two_members_pressing_rematch_at_once_share_one_lobby(db: Database) -> None:
    hub = quick_hub(db)
    old = await finished_game(hub)
    results = await asyncio.gather(
        hub.rematch(old.id, session(ANA, "Ana"), Socket(ANA, language="en")),
        hub.rematch(old.id, session(BEA, "Bea"), Socket(BEA, language="en")),
        return_exceptions=True,
    )
    assert not refused_in_words(results), "both sit down"
    lobbies = lobbies_of(hub)
    assert len(lobbies) == 1, "one rematch"
    assert {s.user_id for s in lobbies[0].seats if s is not None} == {ANA, BEA}


async def _playing_for_chips(hub: TableHub) -> Table:
    """Ana, Bea and robots at an individual table for 50 chips each, a member to play."""
    service = hub.service
    table = await ana_opens(service, Variant.INDIVIDUAL, Options(bet=50), language="en")
    await service.join(table.id, BEA, "Bea")
    await service.add_robot(table.id, ANA)
    await service.start(table.id, ANA)
    await settle(service, table)
    return table


async def _to_play(hub: TableHub, table: Table) -> tuple[int, str, int, int]:
    """Whose turn it is (a member), a card they may play, the deal and the trick."""
    deal = table.deal
    assert deal is not None
    seat = deal.turn
    occupant = table.seats[seat]
    assert occupant is not None and occupant.user_id is not None
    hand = hub.service.hand_view(table.id, seat)
    code = wire.CODES[sorted(hand.playable)[0]]
    return occupant.user_id, code, hand.deal_no, hand.trick_no


async def test_a_leave_and_a_card_at_once_take_the_stake_once(db: Database) -> None:
    hub = quick_hub(db)
    table = await _playing_for_chips(hub)
    user, code, deal_no, trick_no = await _to_play(hub, table)
    before = await ledger.balance(db, GUILD, user)
    tab = Socket(user, language="en")
    results = await asyncio.gather(
        hub.leave_game(table.id, tab),
        hub.act(table.id, tab, code, deal_no=deal_no, trick_no=trick_no),
        return_exceptions=True,
    )
    refused_in_words(results)
    await settle(hub.service, table)
    seat = table.seat_of(user)
    left = seat is None or (table.seats[seat] or pytest.fail("an empty seat")).robot_plays
    assert left, "the leave went through, before or after the card"
    assert await ledger.balance(db, GUILD, user) == before, "the stake was held at the start"
    assert (await ledger.audit(db, GUILD)).balanced
    assert sum(1 for m in tab.sent if m["type"] == "done") == 1


async def test_two_tabs_leaving_at_once_leave_once(db: Database) -> None:
    hub = quick_hub(db)
    table = await _playing_for_chips(hub)
    before = await ledger.balance(db, GUILD, BEA)
    tabs = (Socket(BEA, language="en"), Socket(BEA, language="en"))
    results = await asyncio.gather(
        *(hub.leave_game(table.id, tab) for tab in tabs), return_exceptions=True
    )
    refused = refused_in_words(results)
    assert len(refused) == 1 and refused[0].key == "not_seated"
    assert await ledger.balance(db, GUILD, BEA) == before
    assert (await ledger.audit(db, GUILD)).balanced
    assert table.status is Status.PLAYING, "Ana plays on"


@pytest.mark.parametrize("first", ["set", "start"])
async def test_a_setting_racing_the_start_is_either_kept_or_refused(
    db: Database, first: str
) -> None:
    hub = quick_hub(db)
    table = await ana_opens(hub.service, Variant.HABANERO, Options(bet=50), language="en")
    await hub.service.join(table.id, BEA, "Bea")
    before = {u: await ledger.balance(db, GUILD, u) for u in (ANA, BEA)}
    tab = Socket(ANA, language="en")
    setting = hub.set_option(table.id, tab, "turn_time", "120")
    start = hub.lobby(table.id, session(ANA, "Ana"), tab, LobbyAction.START)
    pair = (setting, start) if first == "set" else (start, setting)
    results = await asyncio.gather(*pair, return_exceptions=True)
    refused = refused_in_words(results)
    assert table.status is Status.PLAYING
    assert await ledger.table_held(db, table.id) == 100, "each stake held once"
    for user in (ANA, BEA):
        assert await ledger.balance(db, GUILD, user) == before[user] - 50
    if refused:
        assert [r.key for r in refused] == ["settings_started"]
        assert table.options.turn_time != 120
    else:
        assert table.options.turn_time == 120
        assert [m["type"] for m in tab.sent].count("settings") == 1
    assert (await ledger.audit(db, GUILD)).balanced


async def test_two_starts_at_once_start_once(db: Database) -> None:
    hub = quick_hub(db)
    table = await ana_opens(hub.service, Variant.HABANERO, Options(bet=50), language="en")
    await hub.service.join(table.id, BEA, "Bea")
    before = await ledger.balance(db, GUILD, BEA)
    tabs = (Socket(ANA, language="en"), Socket(ANA, language="en"))
    results = await asyncio.gather(
        *(hub.lobby(table.id, session(ANA, "Ana"), tab, LobbyAction.START) for tab in tabs),
        return_exceptions=True,
    )
    assert len(refused_in_words(results)) == 1
    assert await ledger.balance(db, GUILD, BEA) == before - 50, "her stake held once"
    assert await ledger.table_held(db, table.id) == 100
    assert table.status is Status.PLAYING


async def test_two_opens_at_once_from_one_member_open_one_table(db: Database) -> None:
    hub = quick_hub(db)
    tabs = (Socket(ANA, language="en"), Socket(ANA, language="en"))
    results = await asyncio.gather(
        *(hub.open(session(ANA, "Ana"), tab, "habanero") for tab in tabs), return_exceptions=True
    )
    assert not refused_in_words(results)
    lobbies = lobbies_of(hub)
    assert len(lobbies) == 1
    assert results == [lobbies[0].id, lobbies[0].id], "both tabs at her lobby"


async def test_two_joins_at_once_from_one_member_take_one_seat(db: Database) -> None:
    hub = quick_hub(db)
    table = await ana_opens(hub.service, Variant.INDIVIDUAL, Options(), language="en")
    tabs = (Socket(BEA, language="en"), Socket(BEA, language="en"))
    results = await asyncio.gather(
        *(hub.lobby(table.id, session(BEA, "Bea"), tab, LobbyAction.JOIN) for tab in tabs),
        return_exceptions=True,
    )
    refused_in_words(results)
    assert [s.user_id for s in table.seats if s is not None].count(BEA) == 1


async def test_two_members_opening_at_once_in_one_channel_share_one_lobby(
    db: Database,
) -> None:
    """Two pages in a channel with no table, each pressing to open one: one lobby opens,
    and both pages are at it (the second member may sit down there), not two lobbies of
    which the channel's card table would show only the newest."""
    hub = quick_hub(db)
    tabs = (Socket(ANA, language="en"), Socket(BEA, language="en"))
    results = await asyncio.gather(
        hub.open(session(ANA, "Ana"), tabs[0], "habanero"),
        hub.open(session(BEA, "Bea"), tabs[1], "habanero"),
        return_exceptions=True,
    )
    assert not refused_in_words(results)
    lobbies = lobbies_of(hub)
    assert len(lobbies) == 1, "one lobby in the channel"
    assert results == [lobbies[0].id, lobbies[0].id], "both pages follow it"
    assert hub.peers(lobbies[0].id) == frozenset(tabs)
    assert all(any(m["type"] == "state" for m in tab.sent) for tab in tabs)
