"""What must hold in a server's database at any moment, whatever happened before (games,
cancels, leaves, restarts, a kill): checked from the file alone.

- The chips add up: members + bank + tables == chips granted; nobody below zero.
- Every table's action log has each action once, numbered 0, 1, 2... per deal.
- Every finished deal has its record, and the record holds exactly the logged actions.
- A table in play holds the stakes of its game (those who left have forfeited theirs) and
  its plato pot; any other table holds nothing.
- The restore brings every open table back from its log.
- The standings are exactly what the finished games say (RULES.md): games, wins, rounds,
  cantes, tutes and experience; cancelled games count for nothing.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.engine import End, Result, Variant, parse_record, replay
from bot.engine.variants import sides_of
from bot.storage import Database, ledger
from bot.storage import tables as repo
from bot.storage.settings import get_settings
from bot.tables.model import Status, Table
from bot.tables.ratings import GameResult, RatingRules, rebuild
from bot.tables.service import TableService
from tests.runtime import table_runtime

from ._play import Clock, NullPresenter, Timers, instant_robot

STAT_NAMES = (
    "xp",
    "games_played",
    "games_won",
    "rounds_played",
    "rounds_won",
    "cantes",
    "tutes",
)


@dataclass
class Stored:
    """One table as the database has it: its row, its deals and its log."""

    table: Table
    results: dict[int, Result] = field(default_factory=dict[int, Result])
    """deal_no -> result of every finished deal."""
    singers: dict[int, list[int]] = field(default_factory=dict[int, list[int]])
    """deal_no -> the seat of each cante sung in that finished deal."""
    open_deal: int | None = None
    actions: dict[int, list[str]] = field(default_factory=dict[int, list[str]])


def side_of(variant: Variant, seat: int) -> int:
    return seat % 2 if variant is Variant.PAIRS else seat


async def load(db: Database) -> list[Stored]:
    """Every table, with the results of its finished deals (from their records, replayed)."""
    found: list[Stored] = []
    for row in await db.fetchall(
        "SELECT id, guild_id, channel_id, host_id, variant, status, state FROM tables ORDER BY id"
    ):
        table = Table.from_state(
            table_id=row[0],
            guild_id=row[1],
            channel_id=row[2],
            host_id=row[3],
            variant=row[4],
            status=row[5],
            state=row[6],
        )
        stored = Stored(table)
        for deal_no, seq, action in await db.fetchall(
            "SELECT deal_no, seq, action FROM actions WHERE table_id = ? ORDER BY deal_no, seq",
            (table.id,),
        ):
            logged = stored.actions.setdefault(deal_no, [])
            assert seq == len(logged), f"table {table.id} deal {deal_no}: seq {seq} out of order"
            logged.append(action)
        for deal_no, record, finished_at in await db.fetchall(
            "SELECT deal_no, record, finished_at FROM deals WHERE table_id = ? ORDER BY deal_no",
            (table.id,),
        ):
            data = json.loads(record)
            logged = [json.loads(a) for a in stored.actions.get(deal_no, [])]
            if finished_at is None:
                assert stored.open_deal is None, f"table {table.id}: two deals in play"
                stored.open_deal = deal_no
                continue
            assert data["actions"] == logged, (
                f"table {table.id} deal {deal_no}: the record and the log disagree"
            )
            played = replay(parse_record(data))
            assert played.error is None and played.deal.result is not None, (
                f"table {table.id} deal {deal_no}: a finished record that does not finish"
            )
            stored.results[deal_no] = played.deal.result
            stored.singers[deal_no] = [c.seat for c in played.deal.cantes]
        found.append(stored)
    return found


def check_deals(stored: Stored) -> None:
    """Each deal of a game has its record: finished ones complete, the one in play open."""
    table = stored.table
    if table.game is None:  # never started
        assert not stored.results and stored.open_deal is None and not stored.actions
        return
    last = table.deal_no
    finished = list(range(last + 1 if table.status is Status.FINISHED else last))
    assert sorted(stored.results) == finished, (
        f"table {table.id} ({table.status.value}, deal {last}): finished deals "
        f"{sorted(stored.results)}"
    )
    if table.status is Status.PLAYING:
        assert stored.open_deal == last, f"table {table.id}: deal {last} has no record"
    assert all(d <= last for d in stored.actions), f"table {table.id}: actions of a later deal"


async def check_held(db: Database, stored: Stored) -> None:
    """A table in play holds its stakes (forfeited ones too) and its pot; no other table
    holds anything."""
    table = stored.table
    state = await ledger.table_state(db, table.id)
    assert state.held == await ledger.table_held(db, table.id)
    if table.status is not Status.PLAYING or not table.options.competitive:
        assert state.held == 0, f"table {table.id} ({table.status.value}) holds {state.held}"
        return
    bet = table.options.bet
    members = {s.user_id: s for s in table.seats if s is not None and s.user_id}
    if bet:
        assert set(table.stakes) == set(members), f"table {table.id}: stakes {table.stakes}"
    stays = {u: bet for u, s in members.items() if not s.left and bet}
    gone = sum(bet for s in members.values() if s.left)
    assert dict(state.stakes) == stays, f"table {table.id}: {state} but {stays} stay"
    assert state.forfeited == gone, f"table {table.id}: {state} but {gone} forfeited"
    assert state.held == sum(stays.values()) + gone + state.pot_total
    if not table.options.plato:
        assert state.pot_total == 0


async def check_ledger(db: Database, guild_id: int) -> ledger.Audit:
    audit = await ledger.audit(db, guild_id)
    assert audit.balanced, audit
    assert not audit.negative_members
    return audit


def expected_stats(found: list[Stored], guild_id: int) -> dict[int, Counter[str]]:
    """Standings as RULES.md has them, from the finished games alone.

    A game counts once it is over: the winner side's members get 10 x players experience
    (a pair shares it), every other member 5, everybody 10 more per round beyond the first;
    each deal that decided a round counts as a round played (not for a dealer who sat it
    out), a round won (two for a double) for the winning side; each cante and tute counts for its singer. A member who left
    forfeited: the game counts as played and lost, nothing else. A cancelled game, or a
    game that is not competitive, counts for nothing."""
    stats: dict[int, Counter[str]] = {}
    for stored in found:
        table = stored.table
        if (
            table.guild_id != guild_id
            or table.status is not Status.FINISHED
            or not table.options.competitive
        ):
            continue
        winner = table.winner
        assert winner is not None
        players = table.players  # everyone at the table (a four-seat arrastrado: four)
        winners = [s for s in range(players) if side_of(table.variant, s) == winner]
        bonus = 10 * (table.options.rounds - 1)
        for seat, occupant in enumerate(table.seats):
            if occupant is None or occupant.user_id is None:
                continue
            counts = stats.setdefault(occupant.user_id, Counter[str]())
            counts["games_played"] += 1
            if occupant.left:
                counts["xp"] += 5 + bonus
                continue
            side = side_of(table.variant, seat)
            if side == winner:
                counts["games_won"] += 1
                counts["xp"] += 10 * players // len(winners) + bonus
            else:
                counts["xp"] += 5 + bonus
            for result in stored.results.values():
                if not any(seat in s for s in result.sides):
                    continue  # dealt and sat the deal out (a four-seat arrastrado)
                if result.winner is not None:
                    counts["rounds_played"] += 1
                    if seat in result.sides[result.winner]:
                        counts["rounds_won"] += 2 if result.double else 1
                if result.end is End.TUTE and result.by_seat == seat:
                    counts["tutes"] += 1
            counts["cantes"] += sum(s.count(seat) for s in stored.singers.values())
    return stats


async def check_stats(db: Database, found: list[Stored], guild_id: int) -> None:
    expected = expected_stats(found, guild_id)
    for row in await db.fetchall(
        f"SELECT user_id, {', '.join(STAT_NAMES)} FROM members WHERE guild_id = ?",
        (guild_id,),
    ):
        user_id, *values = tuple(row)
        actual = {name: value for name, value in zip(STAT_NAMES, values, strict=True) if value}
        want = {
            name: value for name, value in expected.pop(user_id, Counter[str]()).items() if value
        }
        assert actual == want, f"member {user_id}: standings {actual}, the games say {want}"
    assert not expected, f"members with games but no standings: {sorted(expected)}"


async def check_restore(db: Database) -> list[Table]:
    """A fresh service brings back every open table, each deal rebuilt from its log (an
    illegal action in a log would stop it); nothing is written and no robot moves (its
    clocks wait for ever, and its time is long before any deadline)."""
    timers = Timers(park_all=True)
    service = TableService(
        db,
        (NullPresenter(),),
        table_runtime(Clock(0.0), sleep=timers.sleep, robot=instant_robot),
        robot_delay=1.0,
    )
    restored = await service.restore()
    try:
        rows = await repo.open_tables(db)
        assert [t.id for t in restored] == [r.id for r in rows]
        for table in restored:
            if table.status is Status.PLAYING:
                assert table.deal is not None
                logged = await repo.deal_actions(db, table.id, table.deal_no)
                assert len(table.deal.actions) == len(logged)
                assert not table.deal.finished, f"table {table.id}: a finished deal in play"
    finally:
        await timers.stop()
    return restored


async def check_all(db: Database, guild_id: int) -> list[Stored]:
    """Everything above; returns the tables as stored."""
    await check_ledger(db, guild_id)
    found = await load(db)
    for stored in found:
        check_deals(stored)
        await check_held(db, stored)
    await check_stats(db, found, guild_id)
    await check_ratings(db, found, guild_id)
    await check_restore(db)
    return found


async def check_ratings(db: Database, found: list[Stored], guild_id: int) -> None:
    """Every finished competitive game is kept for the ratings, once, with its members;
    nothing else is; and the ratings kept game by game are what a rebuild from those
    games gives (the server's robot weight is the default: members alone are not rated)."""
    kept = {
        int(r[0]): GameResult.from_json(str(r[1]), str(r[2]))
        for r in await db.fetchall(
            "SELECT table_id, family, result FROM rated_games WHERE guild_id = ?", (guild_id,)
        )
    }
    finished = {
        s.table.id: s.table
        for s in found
        if s.table.guild_id == guild_id
        and s.table.status is Status.FINISHED
        and s.table.options.competitive
    }
    assert set(kept) == set(finished), "the games kept for the ratings are the finished ones"
    for table_id, result in kept.items():
        table = finished[table_id]
        sat = {s.user_id for s in table.seats if s is not None and s.user_id}
        assert set(result.members) == sat, f"table {table_id}: kept with the wrong members"
        winner = table.winner or 0
        sides = sides_of(table.variant, table.players)

        if _forfeited(table, sides[winner]):  # placed after every side that did not forfeit
            assert all(
                result.places[i] < result.places[winner]
                for i, side in enumerate(sides)
                if not _forfeited(table, side)
            ), f"table {table_id}: the winners forfeited"
        else:
            assert result.places[winner] == 0, f"table {table_id}: the winners come first"
    query = "SELECT user_id, family, mu, sigma, games FROM ratings WHERE guild_id = ?"
    before = {(r[0], r[1]): tuple(r)[2:] for r in await db.fetchall(query, (guild_id,))}
    settings = await get_settings(db, guild_id)
    async with db.transaction() as conn:
        await rebuild(conn, guild_id, RatingRules.of(settings))
    after = {(r[0], r[1]): tuple(r)[2:] for r in await db.fetchall(query, (guild_id,))}
    assert set(after) == set(before), "a rebuild rates the same members"
    for key, value in before.items():
        assert after[key] == pytest.approx(value), f"member {key}: rebuilt to another rating"
    rated_games = [r for r in kept.values() if len(set(r.members)) >= 2]
    assert bool(before) == bool(rated_games)


async def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the file."""
    names = [
        row[0]
        for row in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )
    ]
    return {
        name: sorted((tuple(row) for row in await db.fetchall(f"SELECT * FROM {name}")), key=repr)
        for name in names
    }


def _forfeited(table: Table, side: tuple[int, ...]) -> bool:
    """Every member of the side left the game (robots alone are no forfeit)."""
    members = [m for n in side if (m := table.seats[n]) is not None and m.user_id]
    return bool(members) and all(m.left for m in members)
