"""Our hard robot against OpenSpiel's ISMCTS or MCTS, on duplicate deals, at equal time.

The deals, their seeds and the scoring are ``benchmarks/robots.py``'s: each deal is played
once per seating with the same cards (habanero: the same sequence of deals of one game to
the target), our robot (A) taking each side in turn; A beats B on a duplicate deal when it
won more of its games with the same cards, or as many with a better total point margin.

B is one of OpenSpiel's searches over ``tute_game``'s OpenSpiel game of the deal being
played (a new game for each deal of a habanero game, with the carry in its cards), with
OpenSpiel's random rollouts to evaluate a leaf:

- ``ismcts``: ``ISMCTSBot`` (information set MCTS): each simulation deals the cards the seat
  cannot see again, uniformly among the deals that agree with the voids the rules reveal.
- ``mcts``: ``MCTSBot``, searching the true deal: it sees every hand, so it cheats. A
  yardstick from above, not a fair opponent; the output says so.

Both get the same thinking time per decision as ours: our hard robot searches for 85% of
its ``--budget``, and OpenSpiel's loop of simulations stops at that deadline too (after two
simulations at the least); ``--budget-b`` gives B another deadline, in seconds. A
seat of B decides only on its turn (a play, a bid, or a declaration of its own); off turn
it declares by our robots' rule (``wanted_declaration``), as inside the game OpenSpiel
searches. A decision with one legal action is not searched, nor timed (ours are timed when
the view has more than one). Printed: ``robots.py``'s lines, B's simulations a decision,
and both sides' decision times (p50, p99), so that equal time can be checked.

Run (from the repository root, with the ``bench`` extra: ``pip install -e '.[bench]'``):
``python -m benchmarks.opponents.match --variant pairs --deals 100 --budget 0.1
--processes 16 --opponent ismcts|mcts [--seed 1] [--options JSON] [--budget-b S]
[--uct-c 2] [--rollouts 1]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any, Final

import numpy as np  # pyright: ignore[reportMissingImports]
from open_spiel.python.algorithms import (  # pyright: ignore[reportMissingImports]
    ismcts,
    mcts,
)

from benchmarks.opponents.tute_game import TuteGame, action_of
from benchmarks.robots import MAX_DEALS_PER_GAME, Match, Tally, percentile, report, seatings
from bot.ai import Level, choose_action
from bot.ai.declarations import wanted_declaration
from bot.engine import (
    Action,
    Deal,
    DealtCards,
    Game,
    Options,
    Variant,
    parse_options,
    seat_view,
    shuffle_deal,
)
from bot.engine.variants import sides_of

OPPONENTS: Final = {
    "ismcts": "ISMCTS (information set MCTS)",
    "mcts": "MCTS on the true deal (it sees every hand: it cheats)",
}
OUR_SHARE: Final = 0.85
"""The part of its budget our hard robot searches for (its deadline in
``bot.ai.search.hard_action``): OpenSpiel's deadline is that part of the budget too, so
that both think as long a decision (the printed decision times show it)."""
MIN_SIMULATIONS: Final = 2
"""OpenSpiel's searches need two to have a child of the root to choose."""


class _OutOfTime(Exception):
    """The deadline of a search has passed: stop before the next simulation."""


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS, simulating until ``budget`` seconds have passed instead of a
    number of simulations."""

    def __init__(
        self,
        game: Any,
        evaluator: Any,
        uct_c: float,
        budget: float,
        random_state: np.random.RandomState,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(game, evaluator, uct_c, sys.maxsize, random_state=random_state)
        self.budget = budget
        self.clock = clock
        self.simulations = 0
        self._deadline = 0.0

    def run_search(self, state: Any) -> Any:
        self.simulations = 0
        self._deadline = self.clock() + self.budget
        try:
            return super().run_search(state)
        except _OutOfTime:
            return self.get_final_policy(state, self._root_node)

    def sample_root_state(self, state: Any) -> Any:
        if self.simulations >= MIN_SIMULATIONS and self.clock() >= self._deadline:
            raise _OutOfTime
        self.simulations += 1
        return super().sample_root_state(state)


class TimedMCTSBot(mcts.MCTSBot):
    """OpenSpiel's MCTS, simulating until ``budget`` seconds have passed instead of a number
    of simulations."""

    def __init__(
        self,
        game: Any,
        evaluator: Any,
        uct_c: float,
        budget: float,
        random_state: np.random.RandomState,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(game, uct_c, sys.maxsize, evaluator, random_state=random_state)
        self.budget = budget
        self.clock = clock
        self.simulations = 0
        self._deadline = 0.0
        self._root: Any = None

    def mcts_search(self, state: Any) -> Any:
        self.simulations = 0
        self._deadline = self.clock() + self.budget
        try:
            return super().mcts_search(state)
        except _OutOfTime:
            return self._root

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self._root = root
        if self.simulations >= MIN_SIMULATIONS and self.clock() >= self._deadline:
            raise _OutOfTime
        self.simulations += 1
        return super()._apply_tree_policy(root, state)


@dataclass(frozen=True)
class Duel:
    variant: Variant
    options: Options
    opponent: str
    budget: float
    """Our robot's seconds a decision."""
    budget_b: float
    """OpenSpiel's deadline a decision, in seconds."""
    seed: int
    uct_c: float = 2.0
    rollouts: int = 1


@dataclass
class Score:
    """A ``Tally`` and OpenSpiel's simulations a decision."""

    tally: Tally = field(default_factory=Tally)
    simulations: list[int] = field(default_factory=list[int])

    def add(self, other: Score) -> None:
        self.tally.add(other.tally)
        self.simulations += other.simulations


Answer = Callable[[Deal, int, Score], Action | None]
"""Who answers for a seat: the action it takes now, or None."""


def ours(duel: Duel, rng: random.Random) -> Answer:
    """Our hard robot, from the seat's view."""

    def answer(r: Deal, seat: int, score: Score) -> Action | None:
        view = seat_view(r, seat)
        start = time.perf_counter()
        action = choose_action(view, Level.HARD, rng, duel.budget)
        elapsed = time.perf_counter() - start
        if len(view.legal) > 1:
            score.tally.times.setdefault("A hard", []).append(elapsed)
        if action is not None and action not in view.legal:
            raise RuntimeError(f"hard chose {action}, not a legal action")
        return action

    return answer


class OpenSpielSeat:
    """A seat played by OpenSpiel: its search on its turn, our robots' rule off turn. Each
    new deal gets its own OpenSpiel game, and the search its own bot."""

    def __init__(self, duel: Duel, seed: str) -> None:
        self.duel = duel
        self.seed = seed
        self.random_state = np.random.RandomState(random.Random(seed).getrandbits(32))
        self.evaluator = mcts.RandomRolloutEvaluator(duel.rollouts, self.random_state)
        self.deals = 0
        self.dealt: DealtCards | None = None
        self.game: TuteGame | None = None
        self.bot: TimedISMCTSBot | TimedMCTSBot | None = None

    def _search(self, r: Deal) -> tuple[TuteGame, TimedISMCTSBot | TimedMCTSBot]:
        game, bot = self.game, self.bot
        if game is None or bot is None or self.dealt is not r.dealt:
            duel = self.duel
            self.dealt = r.dealt
            game = self.game = TuteGame.of_deal(r.dealt)
            game.rng = random.Random(f"resample-{self.seed}-{self.deals}")
            self.deals += 1
            kind = TimedISMCTSBot if duel.opponent == "ismcts" else TimedMCTSBot
            bot = self.bot = kind(
                game, self.evaluator, duel.uct_c, duel.budget_b, self.random_state
            )
        return game, bot

    def __call__(self, r: Deal, seat: int, score: Score) -> Action | None:
        if seat != r.turn:
            return wanted_declaration(seat_view(r, seat))
        legal = [a for a in r.legal_actions() if a.seat == seat]
        if len(legal) == 1:
            return legal[0]
        game, bot = self._search(r)
        state = game.state_at(r)
        start = time.perf_counter()
        number = int(bot.step(state))
        elapsed = time.perf_counter() - start
        score.tally.times.setdefault(f"B {self.duel.opponent}", []).append(elapsed)
        score.simulations.append(bot.simulations)
        action = action_of(seat, number)
        if action not in legal:
            raise RuntimeError(f"OpenSpiel chose {action}, not a legal action")
        return action


def play_deal(r: Deal, answers: Sequence[Answer], score: Score) -> None:
    """``robots.play_deal`` with ``answers[seat]`` answering for each seat: seats off turn
    may declare first."""
    steps = 0
    while not r.finished:
        steps += 1
        if steps > 1000:
            raise RuntimeError("a deal did not end")
        acted = False
        off_turn = sorted({a.seat for a in r.legal_actions() if a.seat != r.turn})
        for seat in off_turn:
            action = answers[seat](r, seat, score)
            if action is not None:
                r.apply(action)
                acted = True
                break
        if acted:
            continue
        action = answers[r.turn](r, r.turn, score)
        if action is None:
            raise RuntimeError(f"seat {r.turn} is on turn and did nothing")
        r.apply(action)


def play_game(
    duel: Duel, deal_seed: int, a_seats: tuple[int, ...], score: Score
) -> tuple[bool, int]:
    """``robots.play_game`` with our robot in ``a_seats`` and OpenSpiel in the others:
    whether A won the game, and A's final score minus the best other side's."""
    tally = score.tally
    variant = duel.variant
    seats = duel.options.seats_at(variant)
    game = Game(variant, duel.options, dealer=deal_seed % seats)
    answers = [
        ours(duel, random.Random(f"robot-{deal_seed}-{seat}"))
        if seat in a_seats
        else OpenSpielSeat(duel, f"openspiel-{deal_seed}-{seat}")
        for seat in range(seats)
    ]
    a_game_sides = {i for i, side in enumerate(sides_of(variant, seats)) if side[0] in a_seats}
    deals = 0
    margin = 0
    while not game.finished:
        deal_rng = random.Random(f"deal-{deal_seed}-{deals}")
        carry = game.carry
        r = Deal(shuffle_deal(variant, duel.options, game.dealer, deal_rng, carry))
        play_deal(r, answers, score)
        result = game.end_deal(r)
        deals += 1
        tally.deals += 1
        a_sides = {i for i, side in enumerate(result.sides) if side[0] in a_seats}
        if not a_sides:  # A dealt and sat this deal out
            continue
        a_best = max(result.scores[x] for x in a_sides)
        b_best = max(x for i, x in enumerate(result.scores) if i not in a_sides)
        margin = a_best - b_best
        for side, points in enumerate(result.scores):
            own = points - (carry[side] if carry is not None else 0)
            if side in a_sides:
                tally.points_a += own / len(a_sides)
            else:
                tally.points_b += own / (len(result.scores) - len(a_sides))
        if deals >= MAX_DEALS_PER_GAME and not game.finished:
            raise RuntimeError(f"deal {deal_seed}: no winner after {deals} deals")
    tally.games += 1
    won = game.winner in a_game_sides
    tally.wins += won
    return won, margin


def run_deal(job: tuple[Duel, int]) -> Score:
    """One duplicate deal: a game per seating, scored as ``robots.run_deal`` scores it."""
    duel, deal_seed = job
    score = Score()
    tally = score.tally
    games = [
        play_game(duel, deal_seed, seats, score) for seats in seatings(duel.variant, duel.options)
    ]
    won = [w for w, _ in games]
    wins = sum(won)
    margin = sum(m for _, m in games)
    expected = 1.0  # each side of the game takes A's place once
    if wins != expected:
        tally.duplicate += 1.0 if wins > expected else 0.0
    else:
        tally.duplicate += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    tally.boards += 1
    if all(won):
        tally.both += 1
    elif any(won):
        tally.split += 1
    else:
        tally.neither += 1
    return score


def describe(duel: Duel, score: Score, deals: int, elapsed: float) -> str:
    """``robots.report``'s lines, under a first line that names OpenSpiel's search."""
    tally = score.tally
    match = Match(
        duel.variant, duel.options, "hard", duel.opponent, duel.budget, duel.budget_b, duel.seed
    )
    lines = report(match, tally, deals, elapsed).split("\n")
    lines[0] = (
        f"{duel.variant.value} {json.dumps(duel.options.to_dict())}: "
        f"our hard robot at {duel.budget:g} s (A) vs OpenSpiel's {OPPONENTS[duel.opponent]}, "
        f"random rollouts, uct_c {duel.uct_c:g}, stopping at {duel.budget_b:g} s (B), "
        f"{deals} duplicate deals, {tally.games} games, {tally.deals} deals played, "
        f"{elapsed:.0f} s"
    )
    sims = score.simulations
    if sims:
        lines.append(
            f"  B {duel.opponent} simulations a decision: mean {sum(sims) / len(sims):.0f}, "
            f"p50 {percentile([float(s) for s in sims], 0.5):.0f}, min {min(sims)}"
        )
    if duel.opponent == "mcts":
        lines.append(
            "  note: B is OpenSpiel's MCTS on the true deal: it sees every hand (it cheats)"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals")
    parser.add_argument("--variant", default="pairs", choices=[v.value for v in Variant])
    parser.add_argument("--opponent", default="ismcts", choices=sorted(OPPONENTS))
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per decision")
    parser.add_argument(
        "--budget-b", type=float, default=None, help="OpenSpiel's deadline (default 85%% of it)"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--options", default="{}", help='table options as JSON, e.g. {"deck": 36}')
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts a leaf")
    args = parser.parse_args()
    variant = Variant(args.variant)
    duel = Duel(
        variant,
        parse_options(variant, json.loads(args.options)),
        args.opponent,
        args.budget,
        args.budget * OUR_SHARE if args.budget_b is None else args.budget_b,
        args.seed,
        args.uct_c,
        args.rollouts,
    )
    jobs = [(duel, args.seed + i) for i in range(args.deals)]
    total = Score()
    start = time.perf_counter()
    done = 0
    with Pool(args.processes) as pool:
        for score in pool.imap_unordered(run_deal, jobs):
            total.add(score)
            done += 1
            if done % 50 == 0 and done < args.deals:
                print(describe(duel, total, done, time.perf_counter() - start), flush=True)
    print(describe(duel, total, done, time.perf_counter() - start), flush=True)


if __name__ == "__main__":
    main()
