"""The hard robot: exact habanero endgames, capote, and its time budget."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai import Level, Searched, choose_action
from bot.ai.exact import ExactSolver
from bot.engine import Action, Deal, Kind, Options, Variant, seat_view, shuffle_deal

from .helpers import CountingClock, ask


def best_score(r: Deal, side: int) -> int:
    """Plain minimax over the engine itself: the final score ``side`` can force."""
    if r.result is not None:
        return r.result.scores[side]
    values: list[int] = []
    for action in r.legal_actions():
        if action.kind is Kind.PLAY:
            after = r.copy()
            after.apply(action)
            values.append(best_score(after, side))
    return max(values) if r.side_of[r.turn] == side else min(values)


def habanero_endgame(seed: int, cards: int) -> Deal:
    """Normal robots play a habanero deal until the stock is empty and the seat on turn
    holds ``cards`` cards, leading on even seeds and answering a lead on odd ones."""
    rng = random.Random(seed)
    r = Deal(shuffle_deal(Variant.HABANERO, Options(), seed % 2, rng))
    while not (
        r.stock_left == 0 and r.hands[r.turn].bit_count() == cards and len(r.trick) == seed % 2
    ):
        other = 1 - r.turn
        action = ask(r, other, Level.NORMAL, rng, 0.0) if seat_view(r, other).legal else None
        if action is None:
            action = ask(r, r.turn, Level.NORMAL, rng, 0.0)
        assert action is not None
        r.apply(action)
    return r


def value_of(r: Deal, action: Action) -> int:
    after = r.copy()
    after.apply(action)
    return best_score(after, r.side_of[action.seat])


# Endgames (five cards each, both hands known) where the normal robot's heuristic loses
# points and the exact search must not: 70, 124 and 130 lead, 109 and 143 answer a lead.
@pytest.mark.parametrize("seed", [70, 109, 130, 143, 148])
def test_hard_solves_habanero_endgames_exactly(seed: int) -> None:
    r = habanero_endgame(seed, 5)
    assert r.capote_seat < 0
    view = seat_view(r, r.turn)
    optimum = best_score(r, r.side_of[r.turn])
    hard = choose_action(view, Level.HARD, random.Random(1), 0.3, clock=CountingClock())
    normal = choose_action(view, Level.NORMAL, random.Random(1))
    assert hard is not None and normal is not None
    assert value_of(r, hard) == optimum
    assert value_of(r, normal) < optimum


def forced_win(r: Deal, side: int, memo: dict[tuple[object, ...], bool] | None = None) -> bool:
    """Minimax over the engine itself: whether ``side`` wins the deal whatever the other
    side plays (memoised on the hands, the turn and the trick)."""
    if r.result is not None:
        return r.result.winner == side
    memo = {} if memo is None else memo
    key = (tuple(r.hands), r.turn, tuple(r.trick))
    found = memo.get(key)
    if found is not None:
        return found
    outcomes = (
        forced_win(_after(r, action), side, memo)
        for action in r.legal_actions()
        if action.kind is Kind.PLAY
    )
    result = any(outcomes) if r.side_of[r.turn] == side else all(outcomes)
    memo[key] = result
    return result


def _after(r: Deal, action: Action) -> Deal:
    after = r.copy()
    after.apply(action)
    return after


def after_last_draw(seed: int) -> Deal:
    """A habanero deal right after the last draw, where the winner of the last trick has
    been given every trump still out (cards neither seat has shown change places)."""
    rng = random.Random(seed)
    dealt = shuffle_deal(Variant.HABANERO, Options(), seed % 2, rng)
    r = Deal(dealt)
    while not r.capote_open:
        action = ask(r, r.turn, Level.EASY, rng, 0.0)
        assert action is not None
        r.apply(action)
    leader = r.turn
    fixed = {c for t in r.tricks for c in t.cards} | {dealt.turned}
    fixed |= {e.took for e in r.exchanges} | {e.gave for e in r.exchanges}
    fixed |= {c.suit * 10 + s for c in r.cantes for s in (6, 7)}
    theirs = [c for c in r.hand(1 - leader) if c // 10 == r.trump and c not in fixed]
    mine = [c for c in r.hand(leader) if c // 10 != r.trump and c not in fixed]
    swap = dict(zip(theirs, mine, strict=False)) | dict(zip(mine, theirs, strict=False))
    twin = dataclasses.replace(
        dealt,
        hands=tuple(tuple(swap.get(c, c) for c in h) for h in dealt.hands),
        stock=tuple(swap.get(c, c) for c in dealt.stock),
    )
    again = Deal(twin)
    for action in r.actions:
        again.apply(action)
    assert again.capote_open
    return again


def test_capote_is_announced_exactly_when_it_is_certain() -> None:
    announced = 0
    for seed in range(80):
        r = after_last_draw(seed)
        for seat in (r.turn, 1 - r.turn):
            view = seat_view(r, seat)
            trial = r.copy()
            trial.apply(Action.simple(seat, Kind.CAPOTE))
            certain = forced_win(trial, r.side_of[seat])
            for level in (Level.NORMAL, Level.HARD):
                action = choose_action(view, level, random.Random(seed), 0.2, clock=CountingClock())
                is_capote = action is not None and action.kind is Kind.CAPOTE
                assert is_capote == certain, (seed, seat, level)
            announced += certain
    assert announced >= 3


@pytest.mark.parametrize(("variant", "budget"), [(Variant.PAIRS, 0.4), (Variant.HABANERO, 0.2)])
def test_hard_keeps_to_its_budget(variant: Variant, budget: float) -> None:
    """Fresh deals are the slowest positions: every card is still to play. The robot's
    clock is a counter that moves a fortieth of the budget at every reading, so what is
    checked is the search, not the machine: it reads its clock as it goes and stops at the
    first reading past its deadline (85% of the budget), never later."""
    for seed in range(4):
        r = Deal(shuffle_deal(variant, Options(), seed % variant.players, random.Random(seed)))
        view = seat_view(r, r.turn)
        clock = CountingClock(budget / 40)
        action = choose_action(view, Level.HARD, random.Random(seed), budget, clock=clock)
        assert action is not None and action in view.legal
        spent = [t - clock.readings[0] for t in clock.readings]
        assert len(spent) > 20, "it searched"
        assert [t for t in spent if t > budget * 0.85] in ([], [spent[-1]])
        assert spent[-1] <= budget


def test_a_search_counts_the_deals_it_sampled() -> None:
    rng = random.Random(4)
    r = Deal(shuffle_deal(Variant.PAIRS, Options(), 0, rng, None))
    view = seat_view(r, r.turn)
    counted: list[int] = []
    for ticks in (20, 200):
        searched = Searched()
        choose_action(view, Level.HARD, random.Random(1), ticks * 0.001, CountingClock(), searched)
        counted.append(searched.worlds)
    assert 0 < counted[0] < counted[1]


def test_a_search_with_no_time_left_ends_its_playouts_without_the_exact_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search that starts with nothing of its budget left (its table wanted the choice
    before a worker was free for it) plays its one sampled deal out by the heuristic: the
    exact ends would cost it several times as much, and a busy machine's queue of
    searches drains by such quick ones. With time, the playouts end exactly."""
    solved: list[int] = []
    best_card = ExactSolver.best_card

    def counted(self: ExactSolver, r: Deal) -> int:
        solved.append(1)
        return best_card(self, r)

    monkeypatch.setattr(ExactSolver, "best_card", counted)
    views = []
    for seed in range(4):
        r = Deal(shuffle_deal(Variant.PAIRS, Options(), seed % 4, random.Random(seed)))
        views.append(seat_view(r, r.turn))
    for seed, view in enumerate(views):
        searched = Searched()
        action = choose_action(
            view, Level.HARD, random.Random(seed), 0.0, CountingClock(), searched
        )
        assert action is not None and action in view.legal
        assert searched.worlds == 1
    assert not solved
    choose_action(views[0], Level.HARD, random.Random(0), 0.05, CountingClock(), Searched())
    assert solved
