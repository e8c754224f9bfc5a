"""The policy network in the hard robot's playouts, and the search's values it learns."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bot.ai import policy
from bot.ai.features import FEATURES, parts, public_of_deal
from bot.ai.heuristic import playout_card
from bot.ai.policy import PolicyNet, play_out
from bot.ai.search import HARD, POLICY, Searched, hard_action
from bot.engine import Action, Deal, Kind, Variant, seat_view
from bot.engine.events import Phase

from .helpers import CountingClock
from .policy_helpers import heuristic_step, positions, random_net


@pytest.mark.parametrize("variant", list(Variant))
def test_network_playouts_finish_every_deal_with_legal_cards(variant: Variant) -> None:
    deals = [positions(variant, seed)[0] for seed in range(4)]
    play_out(deals, random_net())
    assert all(d.finished and d.result is not None for d in deals)


def test_a_batched_playout_plays_each_deal_as_alone() -> None:
    starts = [positions(Variant.INDIVIDUAL, seed)[0] for seed in range(3)]
    net = random_net()
    together = [d.copy() for d in starts]
    play_out(together, net)
    for start, done in zip(starts, together, strict=True):
        alone = start.copy()
        play_out([alone], net)
        assert alone.actions == done.actions


def asked_in(monkeypatch: pytest.MonkeyPatch, read: Callable[[Deal], int]) -> list[int]:
    """What ``read`` says of each deal the playouts ask the network to play, from now on."""
    asked: list[int] = []
    choose = policy.choose_in_deals

    def counting(net: PolicyNet, decisions: list[tuple[Deal, policy.Reader, int]]) -> list[int]:
        asked.extend(read(r) for r, _, _ in decisions)
        return choose(net, decisions)

    monkeypatch.setattr(policy, "choose_in_deals", counting)
    return asked


def test_with_leads_only_the_network_chooses_only_the_first_card_of_each_trick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    net = random_net()
    asked = asked_in(monkeypatch, lambda r: len(r.trick))  # the cards already in the trick
    start = positions(Variant.PAIRS, 2)[0]
    leads = start.copy()
    play_out([leads], net, follows=False)
    assert asked and set(asked) == {0}
    # the cards that followed are the heuristic's own, as its playouts play them
    copy = start.copy()
    for action in leads.actions[len(start.actions) :]:
        if action.kind is Kind.PLAY and copy.trick and copy.play_mask() & copy.play_mask() - 1:
            assert action.arg == playout_card(copy, copy.play_mask())
        copy.apply(action)
    asked.clear()
    play_out([start.copy()], net)
    assert set(asked) > {0}  # by default it follows too


def test_the_network_plays_no_card_once_habaneros_stock_is_gone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = asked_in(monkeypatch, lambda r: r.to_draw)  # the cards left to draw
    deals = [positions(Variant.HABANERO, seed)[0] for seed in range(3)]
    play_out(deals, random_net())
    assert all(d.finished for d in deals)
    assert asked and all(asked)  # never once the stock was gone: the hard robot solves those


def hard_position(variant: Variant = Variant.PAIRS, seed: int = 3) -> Deal:
    r = positions(variant, seed)[5]
    while r.phase is not Phase.PLAY or r.play_mask() & (r.play_mask() - 1) == 0:
        heuristic_step(r)
    return r


def test_the_search_tells_each_candidates_value_and_plays_the_best() -> None:
    r = hard_position()
    view = seat_view(r, r.turn)
    plain = hard_action(view, random.Random(5), 0.05, CountingClock(0.0005))
    considered: list[tuple[Action, float]] = []
    told = hard_action(view, random.Random(5), 0.05, CountingClock(0.0005), considered=considered)
    assert told == plain
    assert len(considered) >= 2
    best = max(v for _, v in considered)
    assert told == next(a for a, v in considered if v == best)


def test_the_policy_style_without_weights_plays_as_the_hard_robot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(policy, "net_for", lambda variant: None)
    for seed in range(3):
        view = seat_view(hard_position(seed=seed), hard_position(seed=seed).turn)
        hard = hard_action(view, random.Random(seed), 0.02, CountingClock(0.0005), style=HARD)
        net = hard_action(view, random.Random(seed), 0.02, CountingClock(0.0005), style=POLICY)
        assert hard == net


def test_the_policy_style_searches_a_counted_number_of_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    net = random_net()
    monkeypatch.setattr(policy, "net_for", lambda variant: net)
    for variant in (Variant.PAIRS, Variant.HABANERO):
        r = hard_position(variant)
        view = seat_view(r, r.turn)
        searched = Searched()
        style = dataclasses.replace(POLICY, max_worlds=9)
        considered: list[tuple[Action, float]] = []
        action = hard_action(view, random.Random(1), 1e9, lambda: 0.0, searched, style, considered)
        assert action in view.legal
        assert searched.worlds == 9
        again = hard_action(view, random.Random(1), 1e9, lambda: 0.0, None, style)
        assert again == action


def test_weights_of_another_feature_length_are_refused() -> None:
    arrays = {"w1": np.zeros((FEATURES + 1, 4), np.float32)}
    with pytest.raises(ValueError, match="features"):
        PolicyNet(arrays)  # pyright: ignore[reportArgumentType]


def test_the_policy_search_stops_on_its_deadline_with_whole_deals_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    net = random_net()
    monkeypatch.setattr(policy, "net_for", lambda variant: net)
    r = hard_position(Variant.HABANERO)
    view = seat_view(r, r.turn)
    answers = []
    for _ in range(2):
        searched = Searched()
        clock = CountingClock(0.001)
        considered: list[tuple[Action, float]] = []
        action = hard_action(view, random.Random(2), 0.05, clock, searched, POLICY, considered)
        assert action in view.legal
        assert 1 <= searched.worlds < 50
        assert searched.worlds == 1 or searched.worlds % 4 == 0
        assert clock.readings[-1] < 0.05 + 0.01  # stopped within a few readings of it
        answers.append((action, searched.worlds, considered))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("variant", list(Variant))
def test_the_playouts_scores_are_the_networks_on_the_whole_rows(variant: Variant) -> None:
    net = random_net(hidden=(64, 32))
    for seed in range(3):
        decisions = [
            (public_of_deal(r, seat), [c for c in range(40) if r.hands[seat] >> c & 1])
            for r in positions(variant, seed)
            for seat in range(r.n)
            if r.hands[seat]
        ]
        encoded = parts(decisions)
        np.testing.assert_allclose(
            net.scores_of(encoded), net.scores(encoded.rows()), rtol=1e-5, atol=1e-5
        )


def test_the_robots_play_a_network_only_in_the_variants_it_serves(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    arrays = {
        "w1": rng.normal(0, 0.1, (FEATURES, 8)).astype(np.float32),
        "b1": np.zeros(8, np.float32),
        "w2": rng.normal(0, 0.1, (8, 4)).astype(np.float32),
        "b2": np.zeros(4, np.float32),
        "w3": rng.normal(0, 0.1, (4, 1)).astype(np.float32),
        "b3": np.zeros(1, np.float32),
    }
    measured = tmp_path / "measured"
    measured.mkdir()
    np.savez(policy.weights_path("table", measured), serves=np.array(["pairs"]), **arrays)
    assert policy.net_for(Variant.PAIRS, measured) is not None
    assert policy.net_for(Variant.ARRASTRADO, measured) is None  # the same family, not measured
    assert policy.net_for(Variant.INDIVIDUAL, measured) is None
    assert policy.net_for(Variant.HABANERO, measured) is None  # no weights for its family
    unmeasured = tmp_path / "unmeasured"
    unmeasured.mkdir()
    np.savez(policy.weights_path("table", unmeasured), **arrays)  # serving none
    assert policy.net_for(Variant.PAIRS, unmeasured) is None
