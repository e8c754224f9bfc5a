"""Tournaments with an entry fee, through the table service on a real SQLite file: the fee
paid at sign-up and given back on leaving or a call-off, the prizes paid at the end, and
every chip of the server accounted for (``ledger.audit``) while tournaments with stakes
and their games run side by side."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import entries, ledger
from bot.storage import tournaments as stored
from bot.tables.competition.tournament import Format, prizes
from bot.tables.competition.tournaments import TournamentStatus
from bot.tables.errors import SaveFailed, TableError

from ._play import GUILD, Clock
from .test_tournaments import HOST, MEMBERS, House, build, open_tournament, play_to_end, stop

STARTING = 1000  # the server's default starting chips


@pytest.fixture
async def house(tmp_path: Path) -> AsyncIterator[House]:
    built = await build(tmp_path / "tute.sqlite3", Clock())
    yield built
    await stop(built)


async def chips(house: House, *users: int) -> list[int]:
    return [await ledger.balance(house.db, GUILD, u) for u in users]


async def balanced(house: House) -> ledger.Audit:
    audit = await ledger.audit(house.db, GUILD)
    assert audit.balanced, audit
    return audit


async def test_two_tournaments_with_stakes_conserve_every_chip(house: House) -> None:
    knockout = await open_tournament(house, Format.KNOCKOUT, MEMBERS, entry=100)
    swiss = await open_tournament(
        house, Format.SWISS, MEMBERS[:6], swiss_rounds=2, entry=250
    )  # the same members in both
    assert await chips(house, MEMBERS[0], MEMBERS[7]) == [650, 900]
    audit = await balanced(house)
    assert audit.tournaments == 8 * 100 + 6 * 250

    await house.tournaments.start(knockout.id, house.tournaments.clock(), by=HOST)
    await house.tournaments.start(swiss.id, house.tournaments.clock(), by=HOST)
    rng = random.Random(7)
    await play_to_end(house, knockout.id, rng, moves=60)
    await balanced(house)  # half way: the entries still held
    done = [await play_to_end(house, t.id, rng) for t in (knockout, swiss)]

    for tour, pot in zip(done, (800, 1500), strict=True):
        assert tour.status is TournamentStatus.FINISHED and tour.draw is not None
        assert tour.prizes == prizes(pot, tour.draw.places())
        assert sum(tour.prizes.values()) == pot
        assert tour.winner is not None and tour.prizes[tour.winner] >= max(tour.prizes.values())
        assert await entries.held(house.db, tour.id) == 0
    ko, sw = done
    assert len(ko.prizes) == 3 + 1  # 50/30/20, the semi-final losers share the third
    expected = {
        u: STARTING - 100 * (u in MEMBERS) - 250 * (u in MEMBERS[:6]) + ko.prizes.get(u, 0)
        for u in MEMBERS
    }
    for u, won in sw.prizes.items():
        expected[u] += won
    assert dict(zip(MEMBERS, await chips(house, *MEMBERS), strict=True)) == expected
    audit = await balanced(house)
    assert (audit.tournaments, audit.members) == (0, 8 * STARTING)


async def test_leaving_and_calling_off_give_the_entries_back(house: House) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, [100, 101, 102], entry=300)
    await house.tournaments.withdraw(t.id, 101)
    assert await chips(house, 100, 101, 102) == [700, 1000, 700]
    await house.tournaments.sign_up(t.id, 101, "user101")  # and back in: pays again
    assert await chips(house, 101) == [700]

    await house.tournaments.cancel(t.id, HOST)
    assert await chips(house, 100, 101, 102) == [1000, 1000, 1000]
    assert await entries.held(house.db, t.id) == 0

    lonely = await open_tournament(house, Format.KNOCKOUT, [103], entry=50)
    lonely.deadline = 0.0
    (called_off,) = await house.tournaments.start_due(house.tournaments.clock())
    assert called_off.status is TournamentStatus.CANCELLED
    assert await chips(house, 103) == [1000]
    await balanced(house)


async def test_a_member_short_of_the_fee_is_refused_and_pays_nothing(house: House) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, [100], entry=600)
    await house.tournaments.sign_up(t.id, 101, "user101")
    other = await open_tournament(house, Format.KNOCKOUT, [], entry=600)

    with pytest.raises(TableError) as refused:
        await house.tournaments.sign_up(other.id, 100, "user100")  # 400 left
    assert refused.value.key == "tournament_chips"
    assert refused.value.params == {"fee": 600, "chips": 400}
    assert house.tournaments.get(other.id).entrant_ids() == []
    assert await chips(house, 100) == [400]
    await balanced(house)


async def test_a_failed_save_takes_no_fee_and_gives_no_prize(
    house: House, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await open_tournament(house, Format.KNOCKOUT, [100], entry=100)
    real = stored.save_tournament

    async def full_disk(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(stored, "save_tournament", full_disk)
    with pytest.raises(SaveFailed):
        await house.tournaments.sign_up(t.id, 101, "user101")
    assert house.tournaments.get(t.id).entrant_ids() == [100]
    assert await chips(house, 101) == [0], "not even the starting chips: nothing was kept"
    monkeypatch.setattr(stored, "save_tournament", real)
    await house.tournaments.sign_up(t.id, 101, "user101")
    await house.tournaments.start(t.id, house.tournaments.clock(), by=HOST)

    # the last game ends while the disk is full: the tournament is not finished, and the
    # prizes are not paid; at the next start it finishes and pays them
    monkeypatch.setattr(stored, "save_tournament", full_disk)
    rng = random.Random(9)
    with pytest.raises(AssertionError, match="stands still"):
        await play_to_end(house, t.id, rng)
    assert house.tournaments.get(t.id).status is TournamentStatus.RUNNING
    assert await entries.held(house.db, t.id) == 200
    await balanced(house)
    monkeypatch.setattr(stored, "save_tournament", real)
    await house.tournaments.restore()
    assert t.id not in house.tournaments.tournaments
    done = await house.tournaments.load(t.id)
    assert done.status is TournamentStatus.FINISHED and done.prizes == {done.winner: 200}
    assert await entries.held(house.db, t.id) == 0
    await balanced(house)
