"""A deal's review: the hard robot's judge of one member's decisions, from what their seat
could see. The same deal always gets the same review (in another process too); cards the
seat could not see change nothing; a deal in play, a daily deal still kept and a game
without spectators are refused as the replays are; a review is kept once computed."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.ai import Level, choose_action
from bot.engine import Deal, Kind, Options, Variant, record_of, seat_view, shuffle_deal
from bot.i18n import LANGUAGES, t
from bot.storage import Database
from bot.storage import daily as daily_repo
from bot.storage import reviews as kept
from bot.tables.daily import day_of
from bot.tables.errors import TableError
from bot.tables.replay import steps_of
from bot.tables.review import Mark, Review, Reviews, mark_of, moments, review_record, seed_of
from bot.tables.thinking import Thinking
from tests.migrated import open_migrated
from tests.tables.test_replay import ANA, GUILD, LUIS, NOW, store_deal

WORLDS = 2
"""Sampled deals a decision is judged on in these tests: the work of a review is counted,
so a tiny count is the same review on any machine, only cheaper."""


def played(variant: Variant, seed: int, dealt_hands: Any = None) -> tuple[Deal, int]:
    """A deal played to its end by normal robots (``dealt_hands`` replace the hands dealt),
    and the seat to play first."""
    options = Options()
    rng = random.Random(seed)
    dealt = shuffle_deal(variant, options, rng.randrange(options.seats_at(variant)), rng)
    if dealt_hands is not None:
        dealt = replace(dealt, hands=dealt_hands)
    r = Deal(dealt)
    first = r.turn
    robot = random.Random(seed)
    while not r.finished:
        for seat in sorted({a.seat for a in r.legal_actions()}, key=lambda s: s != r.turn):
            action = choose_action(seat_view(r, seat), Level.NORMAL, robot, 0.0)
            if action is not None:
                r.apply(action)
                break
    return r, first


def record_text(r: Deal) -> str:
    return json.dumps(record_of(r))


def test_the_marks_follow_the_documented_thresholds() -> None:
    assert [mark_of(c) for c in (0, 2.9, 3, 7.9, 8, 14.9, 15, 60)] == [
        Mark.GOOD,
        Mark.GOOD,
        Mark.INACCURACY,
        Mark.INACCURACY,
        Mark.MISTAKE,
        Mark.MISTAKE,
        Mark.BLUNDER,
        Mark.BLUNDER,
    ]


@pytest.mark.parametrize("variant", list(Variant))
def test_every_decision_of_the_seat_is_judged_and_points_to_its_replay_step(
    variant: Variant,
) -> None:
    r, seat = played(variant, 3)
    text = record_text(r)
    review = review_record(text, seat, worlds=WORLDS)
    steps = steps_of(json.loads(text))
    taken = [a for a in r.actions if a.seat == seat]
    assert 0 < len(review.decisions) <= len(taken)
    for d in review.decisions:
        assert r.actions[d.index] == d.made and d.made.seat == seat
        assert d.cost >= 0 and (d.cost == 0) == (d.best == d.made)
        assert 0 < d.step < len(steps)
        if d.made.kind is Kind.PLAY:  # the step shows the card played
            shown = steps[d.step]
            assert shown.trick is not None and (seat, d.made.arg) in shown.trick.cards
    assert 0 <= review.accuracy <= 100
    assert (
        review.costliest()
        == sorted([d for d in review.decisions if d.mark is not Mark.GOOD], key=lambda d: -d.cost)[
            :3
        ]
    )


def test_the_same_deal_gets_the_same_review_twice_and_in_another_process() -> None:
    r, seat = played(Variant.ARRASTRADO, 5)
    text = record_text(r)
    first = review_record(text, seat, worlds=WORLDS)
    assert review_record(text, seat, worlds=WORLDS) == first
    assert Review.from_json(json.loads(json.dumps(first.to_json()))) == first
    code = (
        "import json, sys\n"
        "from bot.tables.review import review_record\n"
        "text, seat = sys.stdin.read(), int(sys.argv[1])\n"
        f"print(json.dumps(review_record(text, seat, worlds={WORLDS}).to_json()))\n"
    )
    root = Path(__file__).parents[2]
    other = subprocess.run(
        [sys.executable, "-c", code, str(seat)],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    )
    assert json.loads(other.stdout) == first.to_json()


def test_cards_the_seat_could_not_see_change_none_of_its_marks() -> None:
    """The same deal with the other seats' hands dealt otherwise: every decision the seat
    saw alike is judged alike (the judge never reads a hidden card, nor the record's)."""
    variant = Variant.INDIVIDUAL
    r, seat = played(variant, 8)
    hands = [list(h) for h in r.dealt.hands]
    others = [s for s in range(len(hands)) if s != seat]
    turned = r.dealt.turned  # it stays where it was dealt: it is public
    pool = [c for s in others for c in hands[s] if c != turned]
    random.Random(1).shuffle(pool)
    for s in others:
        hands[s] = [c if c == turned else pool.pop() for c in hands[s]]
    swapped, _ = played(variant, 8, tuple(tuple(h) for h in hands))
    assert swapped.dealt.hands != r.dealt.hands and swapped.dealt.hands[seat] == r.dealt.hands[seat]
    a = review_record(record_text(r), seat, worlds=WORLDS)
    b = review_record(record_text(swapped), seat, worlds=WORLDS)
    views_a = {seed_of(m.view): m for m in moments(_parsed(r), seat)}
    views_b = {seed_of(m.view): m for m in moments(_parsed(swapped), seat)}
    alike = set(views_a) & set(views_b)
    assert alike, "the seat's first decision is seen alike in both deals"
    by_index_a = {d.index: d for d in a.decisions}
    by_index_b = {d.index: d for d in b.decisions}
    for key in alike:
        da, db = by_index_a[views_a[key].index], by_index_b[views_b[key].index]
        assert (da.made, da.best, da.cost, da.mark, da.hint) == (
            db.made,
            db.best,
            db.cost,
            db.mark,
            db.hint,
        )


def _parsed(r: Deal) -> Any:
    from bot.engine import parse_record

    return parse_record(json.loads(record_text(r)))


# ------------------------------------------------------------------ the service


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_migrated(tmp_path / "tute.db")
    yield database
    await database.close()


class CountedThinking(Thinking):
    """The robots' workers (threads here), counting the decisions judged on them, and the
    most judged at once."""

    def __init__(self) -> None:
        super().__init__(0)
        self.tasks = 0
        self.running = 0
        self.most = 0

    async def run(self, work: Any, *args: Any, **kwargs: Any) -> Any:
        self.tasks += 1
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await asyncio.sleep(0)  # another review may start meanwhile, if it may
            return await super().run(work, *args, **kwargs)
        finally:
            self.running -= 1


def reviews_on(db: Database, now: float = NOW) -> tuple[Reviews, CountedThinking]:
    thinking = CountedThinking()
    return Reviews(db, thinking, lambda: now, worlds=WORLDS), thinking


async def test_a_review_is_kept_once_computed_and_a_second_look_is_instant(db: Database) -> None:
    r, _ = played(Variant.INDIVIDUAL, 2)
    record = record_of(r)
    table_id = await store_deal(db, record, finished=True)  # Ana in seat 0
    reviews, thinking = reviews_on(db)
    first = await reviews.review(GUILD, table_id, 0, user_id=ANA)
    assert first == review_record(json.dumps(record), 0, table_id, 0, worlds=WORLDS)
    assert thinking.tasks == len(first.decisions) > 0 and reviews.computed == 1
    again = await reviews.review(GUILD, table_id, 0, user_id=ANA)
    assert again == first and thinking.tasks == len(first.decisions) and reviews.computed == 1
    # another process's service reads the one kept, without a search of its own
    other, other_thinking = reviews_on(db)
    assert await other.review(GUILD, table_id, 0, user_id=ANA) == first
    assert other_thinking.tasks == 0
    assert await kept.kept(db, table_id, 0, ANA) is not None


async def _refusal(reviews: Reviews, guild: int | None, table_id: int, user: int) -> str:
    with pytest.raises(TableError) as refused:
        await reviews.review(guild, table_id, 0, user_id=user)
    for lang in LANGUAGES:
        words = t(f"tables.errors.{refused.value.key}", lang, **refused.value.params)
        assert words and "{" not in words
    return refused.value.key


async def test_a_deal_in_play_is_never_reviewed(db: Database) -> None:
    r, _ = played(Variant.PAIRS, 1)
    table_id = await store_deal(db, record_of(r), finished=False)
    reviews, thinking = reviews_on(db)
    assert await _refusal(reviews, GUILD, table_id, ANA) == "replay_unfinished"
    assert thinking.tasks == 0


async def test_only_the_deals_own_players_review_it_and_as_its_replay_allows(
    db: Database,
) -> None:
    r, _ = played(Variant.PAIRS, 1)
    record = record_of(r)
    reviews, thinking = reviews_on(db)
    unwatched = await store_deal(db, record, finished=True, options=Options(spectators=False))
    assert await _refusal(reviews, GUILD, unwatched, LUIS) == "replay_private"
    watched = await store_deal(db, record, finished=True, options=Options(spectators=True))
    assert await _refusal(reviews, GUILD, watched, LUIS) == "review_not_played"
    assert await _refusal(reviews, GUILD + 1, watched, ANA) == "replay_elsewhere"
    assert thinking.tasks == 0
    assert (await reviews.review(None, watched, 0, user_id=ANA)).decisions  # from her DMs


async def test_a_daily_deal_still_kept_from_a_member_is_refused(db: Database) -> None:
    r, _ = played(Variant.PAIRS, 4)
    table_id = await store_deal(db, record_of(r), finished=True)
    day = day_of(NOW)
    assert await daily_repo.begin(db, GUILD, ANA, day, NOW)
    await daily_repo.seat(db, GUILD, ANA, day, table_id)
    reviews, thinking = reviews_on(db)
    assert await _refusal(reviews, GUILD, table_id, LUIS) == "daily_secret"
    assert thinking.tasks == 0
    assert (await reviews.review(GUILD, table_id, 0, user_id=ANA)).decisions


async def test_a_server_reviews_one_deal_at_a_time(db: Database) -> None:
    records = [record_of(played(Variant.INDIVIDUAL, seed)[0]) for seed in (2, 3)]
    here = [await store_deal(db, record, finished=True) for record in records]
    reviews, thinking = reviews_on(db)
    await asyncio.gather(*(reviews.review(GUILD, t, 0, user_id=ANA) for t in here))
    assert reviews.computed == 2 and thinking.tasks > 2 and thinking.most == 1
    assert not reviews._servers  # pyright: ignore[reportPrivateUsage]  (no lock left)
