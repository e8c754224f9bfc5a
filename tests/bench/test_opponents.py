"""The OpenSpiel game of a deal (``benchmarks/opponents/tute_game.py``): it plays a deal to
the end as our engine does, and a seat's information state hides what the seat cannot
see. Skipped where OpenSpiel (the ``bench`` extra) is not installed."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from benchmarks.opponents.tute_game import (  # noqa: E402
    NUM_ACTIONS,
    TuteGame,
    TuteState,
    action_id,
    action_of,
    deal_returns,
)
from bot.engine import Action, Deal, End, Kind, Variant, parse_options, seat_view, shuffle_deal  # noqa: E402
from bot.engine.actions import MAX_BID, MIN_BID  # noqa: E402
from bot.engine.cards import cards_of, mask_of  # noqa: E402
from bot.engine.view import determinize  # noqa: E402

VARIANTS = ["pairs", "habanero"]


def random_state(game: TuteGame, rng: random.Random, actions: int) -> TuteState:
    """The game's first state after up to ``actions`` random legal actions."""
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_action_numbers_round_trip() -> None:
    for seat in range(4):
        plays = [Action.play(seat, c) for c in range(40)]
        sings = [Action.sing(seat, suit) for suit in range(4)]
        simple = [
            Action.simple(seat, kind)
            for kind in (Kind.TUTE, Kind.EXCHANGE, Kind.CAPOTE, Kind.CLAIM, Kind.RESIGN, Kind.PASS)
        ]
        bids = [Action.bid(seat, p) for p in range(MIN_BID, MAX_BID + 1)]
        every = plays + sings + simple + bids
        numbers = [action_id(a) for a in every]
        assert sorted(numbers) == list(range(NUM_ACTIONS))
        assert [action_of(seat, n) for n in numbers] == every


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_ends_as_our_engine_says(variant: str, seed: int) -> None:
    game = pyspiel.load_game("python_tute", {"variant": variant, "seed": seed, "dealer": seed % 2})
    assert isinstance(game, TuteGame)
    state = game.new_initial_state()
    rng = random.Random(f"play-{variant}-{seed}")
    moves = 0
    while not state.is_terminal():
        r = state.deal
        player = state.current_player()
        assert player == r.turn
        ours = sorted(action_id(a) for a in r.legal_actions() if a.seat == player)
        assert state.legal_actions() == ours
        assert ours
        state.apply_action(rng.choice(ours))
        moves += 1
    assert len(state.history()) == moves
    # the same actions, the off-turn declarations included, on our engine alone
    replayed = Deal(game.dealt)
    for action in state.deal.actions:
        replayed.apply(action)
    result = replayed.result
    assert replayed.finished and result == state.deal.result
    assert result is not None
    returns = state.returns()
    assert returns == deal_returns(replayed)
    assert sum(returns) == pytest.approx(0.0)
    mean = sum(result.scores) / len(result.scores)
    for side, seats in enumerate(result.sides):
        margin = (result.scores[side] - mean) / 500
        win = 0.0 if result.winner is None else 1.0 if side == result.winner else -1.0
        for seat in seats:
            assert returns[seat] == pytest.approx(win + margin)


def test_a_habanero_deal_with_a_carry_counts_it() -> None:
    options = parse_options(Variant.HABANERO, {})
    dealt = shuffle_deal(Variant.HABANERO, options, 1, random.Random("carry"), (90, 20))
    game = TuteGame.of_deal(dealt, seed=4)
    first = game.new_initial_state()
    assert "carry (90, 20)" in first.information_state_string(0)
    state = random_state(game, random.Random(5), 1000)
    assert state.is_terminal()
    result = state.deal.result
    assert result is not None
    if result.end is End.CARDS:  # a capote or a resignation scores no points
        assert result.scores[0] >= 90 and result.scores[1] >= 20
    assert state.returns() == deal_returns(state.deal)


@pytest.mark.parametrize("variant", VARIANTS)
def test_resampling_keeps_what_the_player_saw(variant: str) -> None:
    game = TuteGame({"variant": variant, "seed": 7})
    rng = random.Random(f"resample-{variant}")
    for actions in (0, 5, 13, 22):
        state = random_state(game, rng, actions)
        if state.is_terminal():
            continue
        r = state.deal
        hands, history = list(r.hands), list(r.actions)
        stock = list(r.stock)
        differs = False
        for player in range(game.num_players()):
            key = state.information_state_string(player)
            for _ in range(4):
                world = state.resample_from_infostate(
                    player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
                )
                w = world.deal
                assert w.hands[player] == hands[player]
                assert w.actions == history
                assert world.current_player() == state.current_player()
                assert world.information_state_string(player) == key
                if player == state.current_player():
                    assert world.legal_actions() == state.legal_actions()
                # the same cards, placed elsewhere among the others and the stock
                mine = [h for s, h in enumerate(w.hands) if s != player]
                theirs = [h for s, h in enumerate(hands) if s != player]
                assert sum(mine) | mask_of(w.stock) == sum(theirs) | mask_of(r.stock)
                assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in hands]
                differs |= w.hands != hands
                # the world plays on to the end
                random_state_from(world, rng)
        assert differs
        assert r.hands == hands and r.actions == history  # the state itself is unchanged
        assert r.stock == stock


def random_state_from(state: TuteState, rng: random.Random) -> None:
    state = state.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("variant", VARIANTS)
def test_information_state_hides_the_cards_a_seat_cannot_see(variant: str) -> None:
    game = TuteGame({"variant": variant, "seed": 11})
    rng = random.Random(f"hide-{variant}")
    for actions in (0, 6, 17):
        state = random_state(game, rng, actions)
        r = state.deal
        viewer = 0
        view = seat_view(r, viewer)
        # the others' cards and the stock, dealt again among them by hand; a card the
        # viewer has seen (sung, or the turned card drawn) stays where it is
        shown = {c: s for s, c in view.shown if s != viewer}
        pool = [c for s, h in enumerate(r.hands) if s != viewer for c in cards_of(h)]
        pool = [c for c in pool if c not in shown] + list(reversed(r.stock))
        shuffled = pool[:]
        while shuffled == pool:
            rng.shuffle(shuffled)
        hands: list[list[int]] = [cards_of(r.hands[viewer])]
        i = 0
        for seat in range(1, r.n):
            kept = [c for c, s in shown.items() if s == seat]
            size = r.hands[seat].bit_count() - len(kept)
            hands.append(kept + shuffled[i : i + size])
            i += size
        other = game.state_at(determinize(view, hands, shuffled[i:]))
        assert other.deal.hands != r.hands
        assert other.information_state_string(viewer) == state.information_state_string(viewer)
        changed = [s for s in range(1, r.n) if other.deal.hands[s] != r.hands[s]]
        assert changed
        for seat in changed:
            assert other.information_state_string(seat) != state.information_state_string(seat)
