"""Where the robots think: worker processes (one per core) or threads, a fair share of the
budget when more searches wait than there are workers, and nothing but a seat's own view
crossing to a worker."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from bot.ai import Level
from bot.engine import Deal, Options, Variant, seat_view
from bot.engine.dealing import DealtCards, shuffle_deal
from bot.metrics import Metrics
from bot.tables.robots import Robots, default_robot, searched_robot
from bot.tables.thinking import MIN_BUDGET, Thinking

if TYPE_CHECKING:
    from bot.tables.service import TableService


def a_deal(variant: Variant, seed: int) -> Deal:
    return Deal(shuffle_deal(variant, Options(), 0, random.Random(seed)))


def test_each_search_gets_the_whole_budget_while_a_worker_is_free() -> None:
    thinking = Thinking(processes=2)
    assert thinking.budget(0.4) == 0.4
    thinking.waiting = 1
    assert thinking.budget(0.4) == 0.4  # the second worker is free
    thinking.waiting = 3
    assert thinking.budget(0.4) == pytest.approx(0.2)  # 4 searches on 2 workers: half each
    thinking.waiting = 1000
    assert thinking.budget(0.4) == MIN_BUDGET  # never nothing
    assert thinking.budget(0.0) == 0.0  # a bot that stops thinks 0 s
    assert thinking.budget(0.01) == 0.01


def test_threads_when_no_processes_are_wanted() -> None:
    thinking = Thinking(processes=0)
    assert not thinking.in_processes
    assert thinking.workers == (os.cpu_count() or 1)


@pytest.mark.parametrize("variant", list(Variant))
async def test_a_hard_robot_on_threads_chooses_a_legal_action(variant: Variant) -> None:
    thinking = Thinking(processes=0)
    for seed in range(3):
        deal = a_deal(variant, seed)
        view = seat_view(deal, deal.turn)
        action = await thinking.run(default_robot, view, Level.HARD, random.Random(seed), 0.0)
        assert action is None or action in view.legal
    assert thinking.waiting == 0


def hidden_moved(dealt: DealtCards, seat: int, rng: random.Random) -> DealtCards:
    """The same deal, but the cards ``seat`` cannot see dealt again among the others (the
    stock and the other hands, each keeping its size). The trumps stay where they lie: who
    holds the trump seven (or two) shows when it is exchanged for the turned card."""
    trumps = dealt.turned // 10
    kept = {c for h in dealt.hands for c in h if c // 10 == trumps}
    kept |= {c for c in dealt.stock if c // 10 == trumps} | {dealt.turned}
    pool = [c for s, h in enumerate(dealt.hands) if s != seat for c in h if c not in kept]
    pool += [c for c in dealt.stock if c not in kept]
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for s, hand in enumerate(dealt.hands):
        if s == seat:
            hands.append(hand)
            continue
        size = sum(1 for c in hand if c not in kept)
        hands.append(tuple(pool[:size]) + tuple(c for c in hand if c in kept))
        del pool[:size]
    rest = iter(pool)
    stock = tuple(c if c in kept else next(rest) for c in dealt.stock)
    return replace(dealt, hands=tuple(hands), stock=stock)


@pytest.mark.parametrize("variant", list(Variant))
def test_what_crosses_to_a_worker_is_the_same_wherever_the_hidden_cards_lie(
    variant: Variant,
) -> None:
    """A seat's view, as it is pickled for a worker, does not change when the cards it cannot
    see change places: no hidden card travels."""
    rng = random.Random(7)
    for seed in range(5):
        dealt = shuffle_deal(variant, Options(), seed % variant.players, random.Random(seed))
        moved = hidden_moved(dealt, 0, rng)
        assert moved.hands != dealt.hands or variant.players == 1
        one = seat_view(Deal(dealt), 0)
        other = seat_view(Deal(moved), 0)
        assert pickle.loads(pickle.dumps(one)) == pickle.loads(pickle.dumps(other))


@pytest.mark.e2e
@pytest.mark.parametrize("variant", list(Variant))
async def test_a_hard_robot_in_a_worker_process_chooses_a_legal_action(variant: Variant) -> None:
    """The real pool: the search runs in another process and its choice is legal."""
    thinking = Thinking(processes=1)
    try:
        assert thinking.in_processes
        assert await thinking.run(os.getpid) != os.getpid(), "it ran in a worker process"
        for seed in range(3):
            deal = a_deal(variant, seed)
            view = seat_view(deal, deal.turn)
            action = await thinking.run(default_robot, view, Level.HARD, random.Random(1), 0.01)
            assert action is not None and action in view.legal
    finally:
        thinking.close()


@pytest.mark.e2e
async def test_searches_queued_on_busy_workers_get_a_share_and_all_finish() -> None:
    thinking = Thinking(processes=1)
    try:
        deal = a_deal(Variant.PAIRS, 3)
        view = seat_view(deal, deal.turn)
        budgets = [thinking.budget(0.2)]
        runs = []
        for i in range(4):
            budget = thinking.budget(0.2)
            budgets.append(budget)
            runs.append(
                asyncio.ensure_future(
                    thinking.run(default_robot, view, Level.HARD, random.Random(i), budget)
                )
            )
            await asyncio.sleep(0)
        actions = await asyncio.gather(*runs)
        assert all(a in view.legal for a in actions)
        assert budgets[0] == 0.2 and budgets[-1] < 0.2, budgets  # the later ones share
        assert thinking.waiting == 0
    finally:
        thinking.close()


async def test_a_search_on_a_thread_counts_among_those_waiting() -> None:
    """Threads share the budget too: a search there counts while it runs."""
    thinking = Thinking(processes=0)
    seen = await thinking.in_thread(lambda: thinking.waiting)
    assert seen == 1 and thinking.waiting == 0


async def test_the_default_robots_searches_are_counted_with_their_sampled_deals() -> None:
    """What the load benchmark prints: searches of the default robots and their deals."""
    metrics = Metrics()
    service = SimpleNamespace(
        thinking=Thinking(processes=0), think_budget=0.05, robot=default_robot, metrics=metrics
    )
    robots = Robots(cast("TableService", service))
    deal = a_deal(Variant.PAIRS, 5)
    view = seat_view(deal, deal.turn)
    action = await robots._search(view, Level.HARD, "2", 0.0)  # pyright: ignore[reportPrivateUsage]
    assert action in view.legal
    assert service.thinking.searches == 1 and service.thinking.worlds > 0
    service.robot = lambda view, level, rng, budget: view.legal[0]  # a robot that does not say
    await robots._search(view, Level.HARD, "2", 0.0)  # pyright: ignore[reportPrivateUsage]
    assert service.thinking.searches == 1
    # the figures: both decisions timed, the deals of the one search that says
    registry = metrics.registry
    assert registry.get_sample_value("tute_robot_think_seconds_count") == 2
    assert registry.get_sample_value("tute_robot_sampled_deals_count") == 1
    assert registry.get_sample_value("tute_robot_sampled_deals_sum") == service.thinking.worlds


def test_a_search_that_waited_past_its_due_time_samples_one_deal_and_returns() -> None:
    """On a machine short of cores, a search that waited for a worker until its table
    wanted the choice does not think its whole budget too (10 s here)."""
    deal = a_deal(Variant.PAIRS, 5)
    view = seat_view(deal, deal.turn)
    action, worlds = searched_robot(view, Level.HARD, "2", 10.0, due=99.0, clock=lambda: 100.0)
    assert action in view.legal
    assert worlds == 1
