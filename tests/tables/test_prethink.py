"""A robot thinks while it waits: its decision starts when its table's clock is set for it,
and the clock's ring plays that decision if nothing moved in between; anything that moved
throws it away. Either way the game played is the one it would have been.

Time is simulated (``_sim``): a robot's wait here is longer than what passes at once, so it
lasts until the test moves the clock. Nothing waits on the wall clock.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai import Level
from bot.engine import Action, Kind, SeatView, Variant, seat_view
from bot.storage import tables as repo
from bot.tables.model import Status, Table
from bot.tables.robots import Robot, Robots
from tests.runtime import seeds
from tests.tables import _sim
from tests.tables._sim import (
    INSTANT,
    Env,
    SimTime,
    act,
    member_on_turn,
    new_env,
    plain_robot,
    play_out,
)

env = _sim.env
"""A database file, simulated time, a recording presenter and the service on them."""
same_deals = _sim.same_deals
"""Every run deals the same cards (every test here)."""

DELAY = 2 * INSTANT
"""The robots' wait: it lasts until the test moves the clock to its end."""


class Recording:
    """A deterministic robot (``plain_robot``, from the rng it is given) that notes each
    decision: the simulated time it was asked at, the view and its answer. It runs on a
    worker thread."""

    def __init__(self, time: SimTime, choose: Robot = plain_robot) -> None:
        self.time = time
        self.choose = choose
        self.calls: list[tuple[float, SeatView, Action | None]] = []
        self.failing = 0
        """How many of its next decisions raise."""
        self.gate: threading.Event | None = None
        """Set: each decision waits for it (the test holds a search under way)."""

    def __call__(
        self, view: SeatView, level: Level, rng: random.Random, budget: float
    ) -> Action | None:
        asked = self.time.now
        if self.gate is not None:
            assert self.gate.wait(60), "the test never let the robot go on"
        if self.failing:
            self.failing -= 1
            self.calls.append((asked, view, None))
            raise RuntimeError("the robot failed")
        answer = self.choose(view, level, rng, budget)
        self.calls.append((asked, view, answer))
        return answer


def robots_of(env: Env) -> Robots:
    return env.service.robots


def robot_clock(env: Env, table: Table) -> tuple[int, float] | None:
    """The robot the table's clock waits for and when it rings (None: it waits for a
    member, or the game is over)."""
    deal = table.deal
    if table.status is not Status.PLAYING or deal is None:
        return None
    seat = robots_of(env).to_act(table, deal)
    if seat is None:
        return None
    timer = env.service.clocks.timers[table.id]
    when, _ = env.time.parked[timer]
    return seat, when


async def early_decision(env: Env, table: Table) -> asyncio.Task[object]:
    """The decision the robot started when its wait began, once it is made."""
    early = robots_of(env).early.get(table.id)
    assert early is not None, "the robot did not start deciding when its wait began"
    await asyncio.wait([early.task])
    return early.task


async def ring(env: Env, when: float) -> None:
    """Move the clock to the robot's ring, and let the robots play."""
    env.time.advance(when - env.time.now)
    await env.time.quiet(env.service)


async def play_to_the_end(env: Env, table: Table) -> None:
    """The member plays their first card on each turn, the robots theirs on each ring."""
    for _ in range(1000):
        await env.time.quiet(env.service)
        if table.status is not Status.PLAYING:
            assert table.status is Status.FINISHED
            return
        waits = robot_clock(env, table)
        if waits is None:
            user, action = member_on_turn(table)
            await act(env.service, table, user, action)
        else:
            await ring(env, waits[1])
    raise AssertionError("the game never ended")


async def waiting_robots(env: Env, robot: Recording, **details: object) -> Table:
    """A table of ``details`` (``Env.open``) whose robots wait ``DELAY`` before they act,
    started: its clock set for a robot or a member."""
    env.plays = robot
    env.service.robot_delay = DELAY
    return await env.open(start=True, **details)  # type: ignore[arg-type]


async def robot_turns(env: Env, table: Table) -> AsyncIterator[tuple[int, float]]:
    """Each time the table's clock is set for a robot, while it plays: the robot's seat and
    when the clock rings (the member plays its turns in between)."""
    for _ in range(1000):
        await env.time.quiet(env.service)
        if table.status is not Status.PLAYING:
            return
        waits = robot_clock(env, table)
        if waits is None:
            user, action = member_on_turn(table)
            await act(env.service, table, user, action)
            continue
        yield waits


async def robots_next(env: Env, robot: Recording, **details: object) -> Table:
    """``waiting_robots``, played on (the member plays first if on turn) until the clock
    is set for a robot."""
    table = await waiting_robots(env, robot, **details)
    await env.time.quiet(env.service)
    if robot_clock(env, table) is None:
        user, action = member_on_turn(table)
        await act(env.service, table, user, action)
        await env.time.quiet(env.service)
    return table


async def test_a_robot_decides_as_its_wait_begins_and_plays_that_decision_on_time(
    env: Env,
) -> None:
    """Each time a robot's wait begins, its decision is made at once (before the clock has
    moved); when the clock rings, that decision is played, not made again: the robot is
    asked once for each view of a whole game."""
    service, time = env.service, env.time
    robot = Recording(time)
    table = await waiting_robots(env, robot)
    rings = 0
    async for seat, when in robot_turns(env, table):
        deal = table.deal
        assert deal is not None
        task = await early_decision(env, table)
        asked, view, answer = robot.calls[-1]
        assert task.result() == answer
        assert view == seat_view(deal, seat), "from the robot's view as its wait began"
        assert asked == time.now < when, "decided before its wait was over"
        asked_before, done = len(robot.calls), len(deal.actions)
        await ring(env, when)
        rings += 1
        if answer is not None:
            assert deal.actions[done] == answer, "the decision made early is played"
        if len(robot.calls) > asked_before:
            assert robot.calls[asked_before][1] != view, "the robot was asked again"
    assert table.status is Status.FINISHED
    assert rings > 10
    again = [view for view, n in Counter(call[1] for call in robot.calls).items() if n > 1]
    assert not again, "a robot was asked twice for the same moment"
    assert service.thinking.waiting == 0


async def test_an_early_decision_counts_among_the_searches_waiting(env: Env) -> None:
    """A decision under way before the ring counts among the searches waiting, as any
    other, so that the budgets of the others are shared fairly."""
    service, time = env.service, env.time
    robot = Recording(time)
    robot.gate = threading.Event()
    try:
        table = await robots_next(env, robot, variant=Variant.PAIRS)
        waits = robot_clock(env, table)
        assert waits is not None
        early = robots_of(env).early.get(table.id)
        assert early is not None
        for _ in range(100):
            if service.thinking.waiting:
                break
            await asyncio.sleep(0)
        assert service.thinking.waiting == 1, "the robot's search before its ring"
    finally:
        robot.gate.set()
    await asyncio.wait([early.task])
    assert service.thinking.waiting == 0
    await ring(env, waits[1])
    assert len(Counter(call[1] for call in robot.calls)) == len(robot.calls)


async def test_a_table_cancelled_while_its_robot_thinks_plays_nothing_more(env: Env) -> None:
    """The only member votes to cancel while a robot is deciding: the table ends, the
    decision is dropped, and nothing it chose is played."""
    service, time = env.service, env.time
    robot = Recording(time)
    robot.gate = threading.Event()
    try:
        table = await robots_next(env, robot, bet=_sim.BET)
        deal = table.deal
        assert deal is not None
        done = list(deal.actions)
        early = robots_of(env).early.get(table.id)
        assert early is not None and not early.task.done(), "a decision under way"
        await service.vote_cancel(table.id, table.host_id)
        assert table.status is Status.CANCELLED
        assert table.id not in robots_of(env).early
    finally:
        robot.gate.set()
    await asyncio.wait([early.task])
    assert early.task.cancelled()
    time.advance(DELAY * 10)
    await time.quiet(service)
    assert deal.actions == done, "a robot played at a cancelled table"
    assert table.id not in service.tables
    await _sim.check_chips(env.db)
    assert service.thinking.waiting == 0


async def test_the_bot_that_stops_drops_the_decisions_under_way(env: Env) -> None:
    """``suspend`` (the bot stops) drops every decision started ahead of a clock: no clock
    rings for them any more, and the robot decides when the bot is back."""
    service, time = env.service, env.time
    robot = Recording(time)
    robot.gate = threading.Event()
    try:
        table = await robots_next(env, robot)
        assert robot_clock(env, table) is not None
        early = robots_of(env).early.get(table.id)
        assert early is not None and not early.task.done()
        await service.suspend()
        assert not robots_of(env).early
    finally:
        robot.gate.set()
    await asyncio.wait([early.task])
    assert early.task.cancelled()
    assert service.thinking.waiting == 0


def _cante(table: Table) -> Action | None:
    """A cante the member (seat 0) may sing now."""
    deal = table.deal
    assert deal is not None
    return next(
        (a for a in deal.legal_actions() if a.seat == 0 and a.kind in (Kind.SING, Kind.TUTE)),
        None,
    )


def _plays(view: SeatView) -> list[Action]:
    return [a for a in view.legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]


def by_cantes(view: SeatView, level: str, rng: random.Random, budget: float) -> Action | None:
    """A robot whose card on turn changes with each cante sung: what it decided before a
    cante is told apart from what it decides after."""
    plays = _plays(view)
    if view.turn != view.seat or not plays:
        return None
    return plays[len(view.cantes) % len(plays)]


async def test_a_member_who_sings_while_a_robot_waits_makes_it_decide_again(
    env: Env,
) -> None:
    """A robot is about to lead while its partner, a member, may still sing: its decision is
    made while it waits. The member sings: that decision is thrown away, the robot decides
    again from what it sees now, and that is what it plays."""
    service, time = env.service, env.time
    robot = Recording(time, by_cantes)
    for _ in range(40):  # (the deals are pinned: the same table finds the cante every run)
        table = await waiting_robots(env, robot, variant=Variant.PAIRS, max_tables=50)
        async for seat, when in robot_turns(env, table):
            deal = table.deal
            assert deal is not None
            view = seat_view(deal, seat)
            stale_task = await early_decision(env, table)
            cante = _cante(table)
            if cante is None or seat == 0 or view.turn != seat or len(_plays(view)) < 2:
                await ring(env, when)
                continue
            stale = stale_task.result()
            assert isinstance(stale, Action)
            await act(service, table, table.host_id, cante)
            assert robots_of(env).early[table.id].task is not stale_task
            await time.quiet(service)
            waits = robot_clock(env, table)
            assert waits is not None and waits[0] == seat
            fresh_view, done = seat_view(deal, seat), len(deal.actions)
            await ring(env, waits[1])
            fresh = [answer for _, v, answer in robot.calls if v == fresh_view]
            assert len(fresh) == 1, "asked once, from what it sees once the member sang"
            assert fresh[0] is not None and fresh[0] != stale
            assert deal.actions[done] == fresh[0], "it plays what it decided after the cante"
            assert stale not in deal.actions[done - 1 :], "the decision before it was played"
            return
        await env.stop_clocks(service)
    raise AssertionError("no deal where a member could sing while a robot waited to lead")


async def test_a_failing_early_decision_is_made_again_on_time(
    env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """The robot's early decision fails: it is logged, the table carries on, and when the
    clock rings the robot decides again and plays; the game goes on to its end."""
    service, time = env.service, env.time
    robot = Recording(time)
    robot.failing = 1  # the robots' first decision: made early, while the first one waits
    with caplog.at_level(logging.ERROR):
        table = await robots_next(env, robot)
        waits = robot_clock(env, table)
        assert waits is not None
        seat, when = waits
        deal = table.deal
        assert deal is not None
        task = await early_decision(env, table)
        assert not task.cancelled() and task.exception() is None, "its failure is handled"
        assert "early decision failed" in caplog.text
        view, done = seat_view(deal, seat), len(deal.actions)
        assert [v for _, v, _ in robot.calls] == [view], "the decision that failed"
        await ring(env, when)
        assert "clock of table" not in caplog.text, "the robots' run failed"
    answers = [answer for _, v, answer in robot.calls if v == view]
    assert len(answers) == 2, "decided again on time"
    assert answers[1] is not None and deal.actions[done] == answers[1]
    assert table.id not in service.clocks.retries
    await play_to_the_end(env, table)
    assert service.thinking.waiting == 0


async def _a_whole_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: Variant
) -> list[list[str]]:
    """A game of one member (who plays their first card) and robots, dealt from the same
    seeds each time: every deal's actions, as logged."""
    seeds().draw_from(random.Random(20260101).getrandbits)
    environment = await new_env(tmp_path / "tute.db")
    try:
        environment.plays = Recording(environment.time)
        table = await environment.open(variant=variant, start=True)
        await play_out(environment, table)
        assert table.status is Status.FINISHED
        return [
            await repo.deal_actions(environment.db, table.id, deal_no)
            for deal_no in range(table.deal_no + 1)
        ]
    finally:
        await environment.close()


@pytest.mark.parametrize("variant", [Variant.INDIVIDUAL, Variant.PAIRS])
async def test_the_game_played_is_the_same_with_and_without_thinking_early(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: Variant
) -> None:
    """With a deterministic robot, the robots play the very same game whether they think
    while they wait or only once their wait is over."""
    used = 0
    early_answer = Robots._early_answer  # pyright: ignore[reportPrivateUsage]

    async def counted(self: Robots, task: asyncio.Task[object]) -> object:
        nonlocal used
        used += 1
        return await early_answer(self, task)  # type: ignore[arg-type]

    monkeypatch.setattr(Robots, "_early_answer", counted)
    early = await _a_whole_game(tmp_path / "early", monkeypatch, variant)
    assert used > 10, "the robots did not think early"
    monkeypatch.setattr(Robots, "think_ahead", lambda *args: None)
    on_time = await _a_whole_game(tmp_path / "on-time", monkeypatch, variant)
    assert used > 10
    assert early == on_time
    assert len(early) >= 1 and all(early)
