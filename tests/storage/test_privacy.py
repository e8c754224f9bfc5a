"""Erasing a member's data on their request (``/tute privacy erase``), on both engines: a
member who played every kind of game there is, in two servers, is erased; afterwards no row
of any table holds their id or their name (every column, every JSON text), each server's
chips still add up, and the others' standings, ratings, chips and finished games' scores are
what they were. A member who still plays is refused, with nothing changed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine import Variant
from bot.storage import Database, ledger, members, places, privacy, reviews
from bot.storage import ratings as stored_ratings
from bot.storage import tables as stored_tables
from bot.storage.seasons import running_season
from bot.storage.settings import get_settings
from bot.tables import ratings
from bot.tables.competition import seasons
from bot.tables.competition.tournament import Format
from bot.tables.model import Status
from bot.tables.persistence import table_of
from bot.tables.privacy import Privacy
from bot.tables.ratings import Family
from bot.tables.replay import deal_replay

from ._member_data import (
    DM_CHANNEL,
    ERASED,
    ERASED_NAME,
    GUILD,
    OTHER_GUILD,
    OTHERS,
    World,
    name_of,
    opened,
    quick,
    seed_everything,
)

GUILDS = (GUILD, OTHER_GUILD)
FORMER = {"en": "a former player", "es": "un antiguo jugador"}


def former_name(lang: str) -> str:
    return FORMER[lang]


@pytest.fixture
async def world(db: Database) -> AsyncIterator[World]:
    built = World(db)
    try:
        yield built
    finally:
        await built.stop()


async def every_row(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the schema (the engines' bookkeeping aside)."""
    if db.dialect == "postgres":
        sql = (
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_version'"
        )
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    names = sorted(str(row[0]) for row in await db.fetchall(sql))
    assert {"members", "ledger", "tables", "tournaments", "erasures"} <= set(names)
    return {name: [tuple(r) for r in await db.fetchall(f"SELECT * FROM {name}")] for name in names}


def strings_in(value: Any) -> list[str]:
    """A cell as text, and every string and key inside it when it is JSON."""
    text = str(value)
    found = [text]
    try:
        parsed = json.loads(text) if isinstance(value, str) else None
    except ValueError:
        parsed = None

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            for key, inner in item.items():  # pyright: ignore[reportUnknownVariableType]
                found.append(str(key))  # pyright: ignore[reportUnknownArgumentType]
                walk(inner)
        elif isinstance(item, list):
            for inner in item:  # pyright: ignore[reportUnknownVariableType]
                walk(inner)
        elif item is not None:
            found.append(str(item))

    walk(parsed)
    return found


def traces(rows: dict[str, list[tuple[Any, ...]]], user_id: int, name: str) -> list[str]:
    """Where the rows still hold the member's id or name."""
    escaped = json.dumps(name)[1:-1]
    return [
        f"{table}: {row}"
        for table, table_rows in rows.items()
        for row in table_rows
        if any(
            str(user_id) in text or name in text or escaped in text
            for cell in row
            for text in strings_in(cell)
        )
    ]


async def stakes_of_the_others(db: Database) -> dict[str, Any]:
    """What the other members have: standings, chips, ratings, settings."""
    seen: dict[str, Any] = {}
    for guild in GUILDS:
        for user in OTHERS:
            stats = await members.member_stats(db, guild, user)
            if stats is not None:
                seen[f"{guild}/{user}/stats"] = (
                    stats.balance,
                    stats.xp,
                    stats.rounds_won,
                    stats.rounds_played,
                    stats.games_won,
                    stats.games_played,
                    stats.cantes,
                    stats.tutes,
                )
            seen[f"{guild}/{user}/ratings"] = await stored_ratings.member_ratings(db, guild, user)
            seen[f"{guild}/{user}/notify"] = await members.notify_turn(db, guild, user)
    return seen


async def scores(db: Database) -> dict[int, tuple[Any, ...]]:
    """Each table's result as its state keeps it, and the chips each account won there."""
    out: dict[int, tuple[Any, ...]] = {}
    for table_id, status, state in await db.fetchall("SELECT id, status, state FROM tables"):
        data = json.loads(state)
        summary = data.get("summary") or {}
        out[int(table_id)] = (
            status,
            summary.get("result"),
            summary.get("rounds_won"),
            data.get("game"),
            data.get("winner"),
            sorted(data.get("stakes", {}).values()),
            await ledger.table_results(db, int(table_id)),
        )
    return out


async def season_board(db: Database) -> dict[str, list[tuple[int, float]]]:
    season = await running_season(db, GUILD)
    assert season is not None
    found = await seasons.season_ratings(db, season)
    return {
        family.value: [(u, r.mu) for u, r in seasons.board(found, family, 1)] for family in Family
    }


async def rebuilt(db: Database) -> dict[tuple[int, str], tuple[float, float, int]]:
    rules = ratings.RatingRules.of(await get_settings(db, GUILD))
    async with db.transaction() as conn:
        await ratings.rebuild(conn, GUILD, rules)
    rows = await db.fetchall(
        "SELECT user_id, family, mu, sigma, games FROM ratings WHERE guild_id = ?", (GUILD,)
    )
    return {(int(u), str(f)): (float(m), float(s), int(g)) for u, f, m, s, g in rows}


async def test_an_erased_member_is_nowhere_and_everyone_else_keeps_everything(
    world: World,
) -> None:
    db = world.db
    await seed_everything(world)
    await world.settle()
    played = await db.fetchone(
        "SELECT d.guild_id, d.table_id, d.deal_no FROM deals d JOIN deal_players p"
        " ON p.table_id = d.table_id AND p.deal_no = d.deal_no WHERE p.user_id = ?",
        (ERASED,),
    )
    assert played is not None
    await reviews.keep(db, int(played[0]), int(played[1]), int(played[2]), ERASED, "{}", 1.0)
    before = await every_row(db)
    assert len(traces(before, ERASED, ERASED_NAME)) > 20, "they are everywhere before"
    kept = await privacy.member_data(db, ERASED)
    assert [s.guild_id for s in kept.servers] == [GUILD, OTHER_GUILD]
    first = kept.servers[0]
    assert (first.standing, first.daily, first.preferences, first.ratings) == (True, 1, 1, 3)
    reviewed = next(s for s in kept.servers if s.guild_id == int(played[0]))
    assert reviewed.reviews == 1 and sum(s.reviews for s in kept.servers) == 1
    assert first.chips == await ledger.balance(db, GUILD, ERASED) and first.ledger_rows > 5
    assert kept.tables >= 7 and kept.tournaments == 1 and kept.rated_games >= 4
    rated_before = await rebuilt(db)  # (a rebuild keeps no rating before the last game)
    audits = [await ledger.audit(db, g) for g in GUILDS]
    others = await stakes_of_the_others(db)
    games = await scores(db)
    records = await db.fetchall("SELECT table_id, deal_no, record FROM deals ORDER BY 1, 2")
    board_before = await season_board(db)
    assert any(u == ERASED for rows in board_before.values() for u, _ in rows)
    chips = sum([await ledger.balance(db, g, ERASED) for g in GUILDS])

    erased = await privacy.erase_member(db, ERASED, former_name)

    assert erased.servers == {GUILD, OTHER_GUILD}
    assert (erased.standings, erased.preferences, erased.daily) == (2, 1, 1)
    assert erased.reviews == 1  # their review of a deal they played
    assert erased.ratings == 4 and erased.chips == chips
    assert (erased.tables, erased.tournaments) == (kept.tables, kept.tournaments)
    after = await every_row(db)
    assert traces(after, ERASED, ERASED_NAME) == []
    assert (await privacy.member_data(db, ERASED)).empty
    # every server's chips still add up, to the same totals
    for guild, audit in zip(GUILDS, audits, strict=True):
        now = await ledger.audit(db, guild)
        assert now.balanced and now == audit
    # the others keep their standings, ratings, chips and settings, and every game its score
    assert await stakes_of_the_others(db) == others
    (pseudonym,) = {
        int(r[0]) for r in await db.fetchall("SELECT user_id FROM deal_players WHERE user_id < 0")
    }
    assert privacy.is_pseudonym(pseudonym)
    renamed = {
        table_id: (*score[:-1], {pseudonym if u == ERASED else u: v for u, v in score[-1].items()})
        for table_id, score in games.items()
    }
    assert await scores(db) == renamed
    assert await db.fetchall("SELECT table_id, deal_no, record FROM deals ORDER BY 1, 2") == records
    # in the records that stay they are a former player, in each record's language
    for table_id, state in await db.fetchall(
        "SELECT id, state FROM tables WHERE id IN"
        " (SELECT table_id FROM deal_players WHERE user_id = ?)",
        (pseudonym,),
    ):
        data = json.loads(state)
        lang = data["language"]
        seat = next(s for s in data["seats"] if s and s["user_id"] == pseudonym)
        assert seat["name"] == FORMER[lang], table_id
        assert seat["account_created"] is None and seat["joined_server"] is None
        if data["summary"] is not None:  # a game played to its end
            assert FORMER[lang] in data["summary"]["names"]
    spanish = {json.loads(s)["language"] for (s,) in await db.fetchall("SELECT state FROM tables")}
    assert spanish == {"en", "es"}
    (tournament,) = await db.fetchall("SELECT state FROM tournaments")
    entrants = json.loads(tournament[0])["entrants"]
    assert [pseudonym, "a former player"] in entrants
    assert [[u, n] for u, n in entrants if u != pseudonym] == [[u, name_of(u)] for u in OTHERS]
    # where their hand was sent (their DMs) is forgotten; the others' stays
    (row,) = await db.fetchall("SELECT table_id FROM table_places")
    place = await places.load(db, int(row[0]))
    assert place is not None
    hands = json.loads(place.hands)
    assert hands["0"]["channel"] == DM_CHANNEL and hands["0"]["user"] == OTHERS[0]
    assert hands["1"]["user"] == pseudonym and hands["1"]["channel"] is None
    # the daily deal's table played in their DMs: its channel is forgotten too
    daily = [json.loads(s) for (s,) in await db.fetchall("SELECT state FROM tables")]
    assert (
        await db.fetchall("SELECT channel_id FROM tables WHERE channel_id = ?", (DM_CHANNEL,)) == []
    )
    assert any(d.get("daily") for d in daily)
    # ratings rebuilt from the kept games, and the season's board: the same for the others,
    # without the former player
    assert await rebuilt(db) == {k: v for k, v in rated_before.items() if k[0] != ERASED}
    board_after = await season_board(db)
    assert board_after == {
        family: [(u, mu) for u, mu in rows if u != ERASED] for family, rows in board_before.items()
    }
    # every table and tournament still reads back, and a replay of their first game with
    # another member who sat there names them a former player
    for table_id in games:
        row = await stored_tables.load_table(db, table_id)
        assert row is not None and table_of(row).id == table_id
    for (tournament_id,) in await db.fetchall("SELECT id FROM tournaments"):
        assert (await world.tournaments.load(int(tournament_id))).entrant_ids()[1] == pseudonym
    first = min(games)
    shown = await deal_replay(db, GUILD, first, 0, user_id=OTHERS[0], now=world.clock())
    assert [s.name for s in shown.seats] == ["a former player", name_of(OTHERS[0])]
    # a rematch of it invites nobody in their place
    view, _ = await world.tables.rematch(first, OTHERS[0], name_of(OTHERS[0]))
    lobby = world.tables.get(view.id)
    assert lobby.invited == [] and lobby.humans() == [OTHERS[0]]
    await world.tables.close(view.id, OTHERS[0])
    # a second erasure finds nothing left
    again = await privacy.erase_member(db, ERASED, former_name)
    assert (again.standings, again.tables, again.ledger_rows, again.servers) == (0, 0, 0, set())


async def test_the_reviews_a_member_asked_for_are_counted_where_they_played(
    world: World,
) -> None:
    """A deal's review is kept in the server of its table, counted there (in a server where
    nothing else of the member's is kept too), and erased with the rest."""
    db = world.db
    table_id = await world.game(GUILD, [OTHERS[0], ERASED])
    other_table = await world.game(GUILD, [OTHERS[0], ERASED])
    await reviews.keep(db, GUILD, table_id, 0, ERASED, "{}", 1.0)
    await reviews.keep(db, GUILD, table_id, 0, OTHERS[0], "{}", 1.0)
    # one filed under another server (a table played in DMs files its reviews under that
    # conversation), where the member keeps nothing else
    await reviews.keep(db, OTHER_GUILD, other_table, 0, ERASED, "{}", 1.0)
    kept = await privacy.member_data(db, ERASED)
    by_server = {s.guild_id: s for s in kept.servers}
    assert set(by_server) == {GUILD, OTHER_GUILD}
    assert (by_server[GUILD].reviews, by_server[OTHER_GUILD].reviews) == (1, 1)
    assert not by_server[OTHER_GUILD].standing and by_server[OTHER_GUILD].ledger_rows == 0

    erased = await privacy.erase_member(db, ERASED, former_name)

    assert erased.reviews == 2 and OTHER_GUILD in erased.servers
    assert (await privacy.member_data(db, ERASED)).empty
    assert await reviews.kept(db, table_id, 0, OTHERS[0]) == "{}", "the others' stay"


async def test_a_member_still_playing_is_refused_and_nothing_changes(world: World) -> None:
    db = world.db
    await world.game(GUILD, [OTHERS[0], ERASED], bet=10)
    lobby = await opened(
        world.tables,
        guild_id=GUILD,
        channel_id=30,
        host_id=OTHERS[1],
        host_name=name_of(OTHERS[1]),
        variant=Variant.HABANERO,
        options=quick(),
        language="en",
    )
    await world.tables.join(lobby.id, ERASED, ERASED_NAME)
    before = await every_row(db)

    with pytest.raises(privacy.MemberBusy) as at_table:
        await privacy.erase_member(db, ERASED, former_name)
    assert (at_table.value.kind, at_table.value.number) == ("table", lobby.id)
    assert await every_row(db) == before

    await world.tables.leave(lobby.id, ERASED, lobby=True)
    t = await world.tournaments.create(
        guild_id=GUILD,
        channel_id=30,
        host_id=OTHERS[1],
        variant=Variant.HABANERO,
        options=quick(),
        format=Format.KNOCKOUT,
        deadline=world.clock() + 600,
        swiss_rounds=2,
        max_entrants=8,
        entry=0,
    )
    await world.tournaments.sign_up(t.id, ERASED, ERASED_NAME)
    before = await every_row(db)
    with pytest.raises(privacy.MemberBusy) as in_tournament:
        await privacy.erase_member(db, ERASED, former_name)
    assert (in_tournament.value.kind, in_tournament.value.number) == ("tournament", t.id)
    assert await every_row(db) == before

    await world.tournaments.withdraw(t.id, ERASED)
    # invited to a table they never sat at: the service takes the invitation back first
    invited = await opened(
        world.tables,
        guild_id=GUILD,
        channel_id=30,
        host_id=OTHERS[2],
        host_name=name_of(OTHERS[2]),
        variant=Variant.HABANERO,
        options=quick(),
        language="en",
        invited=[ERASED, OTHERS[0]],
    )
    service = Privacy(db, world.clock, world.tables.notes.forget)
    await service.erase(ERASED, service.confirmation(ERASED), former_name)
    assert invited.status is Status.LOBBY and invited.invited == [OTHERS[0]]
    assert traces(await every_row(db), ERASED, ERASED_NAME) == []
