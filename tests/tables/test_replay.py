"""A finished deal's replay: its steps tell exactly what the referee reads in the deal's
record (each card played, who took each trick, the points, the result), for every variant;
and a replay is refused, in words, for a deal of another server or one not played to its
end."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import CODES, Options, RecordError, Variant, record_of
from bot.engine.referee import judge
from bot.i18n import LANGUAGES, t
from bot.storage import Database
from bot.storage import daily as daily_repo
from bot.storage import tables as repo
from bot.tables.daily import day_of
from bot.tables.errors import TableError
from bot.tables.model import Seat, Table
from bot.tables.replay import StepKind, deal_replay, steps_of
from tests.engine.test_properties import OPTION_SETS, play_random_game
from tests.migrated import open_migrated

GOLDEN = Path(__file__).parents[1] / "engine" / "golden"
FINISHED = sorted(p for p in GOLDEN.glob("*.json") if not p.stem.endswith(("_illegal", "_midway")))
GUILD = 7
ANA, LUIS = 11, 12
NOW = 1_800_000_000.0


def _golden(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def _tricks(steps: Any) -> list[dict[str, Any]]:
    return [
        {
            "leader": s.trick.leader,
            "cards": [CODES[card] for _, card in s.trick.cards],
            "winner": s.trick.winner,
        }
        for s in steps
        if s.trick is not None
    ]


@pytest.mark.parametrize("path", FINISHED, ids=lambda p: p.stem)
def test_the_steps_match_the_referee_on_every_golden_deal(path: Path) -> None:
    case = _golden(path)
    expected = case["expected"]
    steps = steps_of(case["record"])
    assert steps[0].kind is StepKind.DEALT and steps[-1].kind is StepKind.RESULT
    assert _tricks(steps) == expected["tricks"]
    result = steps[-1].result
    assert result is not None and result.to_json() == expected["result"]
    assert steps[-1].scores == steps[-2].scores, "the result adds nothing to the last step"
    # every hand as dealt, and emptied card by card as the tricks are played
    dealt = case["record"]["hands"]
    first = steps[0].hands
    assert sum(len(h) for h in first) >= sum(len(h) for h in dealt) - 1
    played = {c for s in steps if s.trick for _, c in s.trick.cards}
    for step in steps:
        if step.trick is not None:
            assert all(c not in hand for _, c in step.trick.cards for hand in step.hands)
    assert len(played) == sum(len(t["cards"]) for t in expected["tricks"])


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_the_steps_match_the_referee_on_seeded_games_of_each_variant(index: int) -> None:
    variant, options = OPTION_SETS[index]
    for seed in (11, 12):
        record = json.loads(json.dumps(record_of(play_random_game(variant, options, seed, False))))
        steps = steps_of(record)
        expected = judge(record)
        assert _tricks(steps) == expected["tricks"]
        result = steps[-1].result
        assert result is not None and result.to_json() == expected["result"]
        # the points so far never go down, and end where the result says
        for before, after in itertools.pairwise(steps):
            assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
        cantes = [c for s in steps for c in s.cantes]
        assert sum(c.points for c in cantes) == sum(result.cantes) or variant is Variant.PAIRS


def test_a_deal_not_played_to_its_end_has_no_replay() -> None:
    midway = next(GOLDEN.glob("*_midway.json"))
    with pytest.raises(RecordError):
        steps_of(_golden(midway)["record"])


# ------------------------------------------------------------------ from the database


@pytest.fixture
async def db(tmp_path: Path) -> Any:
    database = await open_migrated(tmp_path / "tute.db")
    yield database
    await database.close()


async def store_deal(
    db: Database,
    record: dict[str, Any],
    *,
    finished: bool,
    guild: int = GUILD,
    member: tuple[int, str] = (11, "Ana"),
    options: Options | None = None,
) -> int:
    """A table of server ``guild`` whose deal 0 is ``record``: the member (user id, name) in
    seat 0, robots in the others; ``options``: the table's (by default, the defaults)."""
    variant = Variant(record["variant"])
    seats = Options().seats_at(variant)
    user_id, name = member
    table = Table(
        id=0,
        guild_id=guild,
        channel_id=3,
        host_id=user_id,
        variant=variant,
        options=options or Options(),
        language="en",
        created_at=1.0,
        seats=[Seat(name, user_id), *(Seat.for_robot(n) for n in range(1, seats))],
    )
    async with db.transaction() as conn:
        table_id = await repo.create_table(
            conn,
            guild_id=guild,
            channel_id=3,
            host_id=user_id,
            variant=variant.value,
            status="finished",
            state=table.state_json(),
            now=1.0,
        )
        await repo.save_deal(
            conn,
            table_id=table_id,
            deal_no=0,
            guild_id=guild,
            record=json.dumps(record),
            players=[(0, user_id)],
            finished_at=2.0 if finished else None,
        )
    return table_id


def finished_record(variant: Variant) -> dict[str, Any]:
    path = next(p for p in FINISHED if f"_{variant.value}_" in p.stem)
    return _golden(path)["record"]


async def test_a_finished_deal_of_the_server_is_replayed_with_its_names(db: Database) -> None:
    record = finished_record(Variant.INDIVIDUAL)
    table_id = await store_deal(db, record, finished=True)
    replay = await deal_replay(db, GUILD, table_id, 0, user_id=ANA, now=NOW)
    assert replay.seats[0].name == "Ana" and replay.seats[0].user_id == 11
    assert [s.robot_no for s in replay.seats[1:]] == [1, 2, 3]
    assert replay.steps == steps_of(record)
    assert json.loads(replay.record) == record


@pytest.mark.parametrize(
    ("guild", "finished", "key"),
    [(GUILD + 1, True, "replay_elsewhere"), (GUILD, False, "replay_unfinished")],
)
async def test_another_servers_deal_or_one_in_play_is_refused_in_words(
    db: Database, guild: int, finished: bool, key: str
) -> None:
    table_id = await store_deal(db, finished_record(Variant.PAIRS), finished=finished)
    with pytest.raises(TableError) as refused:
        await deal_replay(db, guild, table_id, 0, user_id=LUIS, now=NOW)
    assert refused.value.key == key
    for lang in LANGUAGES:
        words = t(f"tables.errors.{key}", lang, **refused.value.params)
        assert words and "{" not in words
    with pytest.raises(TableError) as missing:
        await deal_replay(db, GUILD, table_id, 5, user_id=ANA, now=NOW)
    assert missing.value.key == "replay_none"


async def test_in_dms_only_the_members_own_deals_are_replayed(db: Database) -> None:
    table_id = await store_deal(db, finished_record(Variant.HABANERO), finished=True)
    replay = await deal_replay(db, None, table_id, 0, user_id=ANA, now=NOW)
    assert replay.seats[0].user_id == ANA
    with pytest.raises(TableError) as refused:
        await deal_replay(db, None, table_id, 0, user_id=LUIS, now=NOW)
    assert refused.value.key == "replay_elsewhere"


async def test_todays_daily_deal_stays_hidden_from_the_others_until_the_day_is_over(
    db: Database,
) -> None:
    table_id = await store_deal(db, finished_record(Variant.PAIRS), finished=True)
    day = day_of(NOW)
    assert await daily_repo.begin(db, GUILD, ANA, day, NOW)
    await daily_repo.seat(db, GUILD, ANA, day, table_id)
    with pytest.raises(TableError) as refused:
        await deal_replay(db, GUILD, table_id, 0, user_id=LUIS, now=NOW)
    assert refused.value.key == "daily_secret"
    assert "00:00 UTC" in t("tables.errors.daily_secret", "en")
    assert "00:00 UTC" in t("tables.errors.daily_secret", "es")
    mine = await deal_replay(db, GUILD, table_id, 0, user_id=ANA, now=NOW)
    tomorrow = await deal_replay(db, GUILD, table_id, 0, user_id=LUIS, now=NOW + 86_400)
    assert mine.steps == tomorrow.steps


async def test_a_game_without_spectators_is_replayed_by_its_players_alone(db: Database) -> None:
    record = finished_record(Variant.PAIRS)
    unwatched = await store_deal(db, record, finished=True, options=Options(spectators=False))
    assert (await deal_replay(db, GUILD, unwatched, 0, user_id=ANA, now=NOW)).steps
    with pytest.raises(TableError) as refused:
        await deal_replay(db, GUILD, unwatched, 0, user_id=LUIS, now=NOW)
    assert refused.value.key == "replay_private"
    for lang in LANGUAGES:
        assert "{" not in t("tables.errors.replay_private", lang)
    watched = await store_deal(db, record, finished=True, options=Options(spectators=True))
    assert (await deal_replay(db, GUILD, watched, 0, user_id=LUIS, now=NOW)).steps


async def test_a_daily_deal_is_the_servers_once_nobody_can_gain_by_it(db: Database) -> None:
    """A daily deal plays without spectators, but its cards are everyone's deal of the day:
    a member who finished theirs may compare; one still playing theirs may not."""
    table_id = await store_deal(
        db, finished_record(Variant.PAIRS), finished=True, options=Options(spectators=False)
    )
    day = day_of(NOW)
    for member in (ANA, LUIS):
        assert await daily_repo.begin(db, GUILD, member, day, NOW)
    await daily_repo.seat(db, GUILD, ANA, day, table_id)
    with pytest.raises(TableError) as refused:  # luis's copy still plays
        await deal_replay(db, GUILD, table_id, 0, user_id=LUIS, now=NOW + 86_400)
    assert refused.value.key == "daily_secret"
    luis = await daily_repo.get(db, GUILD, LUIS, day)
    assert luis is not None
    await daily_repo.finish(db, luis, None, NOW)
    assert (await deal_replay(db, GUILD, table_id, 0, user_id=LUIS, now=NOW)).steps
