"""Our hard robot against OpenSpiel's ISMCTS or MCTS, on duplicate deals, at equal time.

The deals, their seeds and the scoring are ``benchmarks/robots.py``'s, whose ``run_deal``
plays them with OpenSpiel answering for B's seats: each deal is played once per seating
with the same cards (habanero: the same sequence of deals of one game to the target), our
robot (A) taking each side in turn; A beats B on a duplicate deal when it won more of its
games with the same cards, or as many with a better total point margin.

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
[--uct-c 2] [--rollouts 1] [--results FILE]`` (``FILE`` keeps the deals played, as in
``benchmarks/robots.py``).
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np  # pyright: ignore[reportMissingImports]
from open_spiel.python.algorithms import (  # pyright: ignore[reportMissingImports]
    ismcts,
    mcts,
)

from benchmarks.opponents.tute_game import TuteGame, action_of
from benchmarks.robots import Match, Tally, match_key, play_all, report, run_deal
from bot.ai.declarations import wanted_declaration
from bot.engine import Action, Deal, DealtCards, Options, Variant, parse_options, seat_view

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


class _Stopwatch:
    """A search's deadline, read before each simulation: past it (and after
    ``MIN_SIMULATIONS``), the search stops."""

    def __init__(self, budget: float, clock: Callable[[], float]) -> None:
        self.budget = budget
        self.clock = clock
        self.simulations = 0
        self._deadline = 0.0

    def start(self) -> None:
        self.simulations = 0
        self._deadline = self.clock() + self.budget

    def tick(self) -> None:
        """One more simulation, or ``_OutOfTime`` once the deadline has passed."""
        if self.simulations >= MIN_SIMULATIONS and self.clock() >= self._deadline:
            raise _OutOfTime
        self.simulations += 1


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
        self.watch = _Stopwatch(budget, clock)

    def run_search(self, state: Any) -> Any:
        self.watch.start()
        try:
            return super().run_search(state)
        except _OutOfTime:
            return self.get_final_policy(state, self._root_node)

    def sample_root_state(self, state: Any) -> Any:
        self.watch.tick()
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
        self.watch = _Stopwatch(budget, clock)
        self._root: Any = None

    def mcts_search(self, state: Any) -> Any:
        self.watch.start()
        try:
            return super().mcts_search(state)
        except _OutOfTime:
            return self._root

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self._root = root
        self.watch.tick()
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

    @property
    def match(self) -> Match:
        """``robots.py``'s match: our hard robot (A) against the search named (B)."""
        return Match(
            self.variant, self.options, "hard", self.opponent, self.budget, self.budget_b, self.seed
        )


class OpenSpielSeat:
    """A seat of B played by OpenSpiel in one game of duplicate deal ``deal_seed`` (a
    ``robots.Answer``): its search on its turn, our robots' rule off turn. Each new deal
    gets its own OpenSpiel game, and the search its own bot."""

    def __init__(self, duel: Duel, deal_seed: int, seat: int) -> None:
        self.duel = duel
        self.seed = f"openspiel-{deal_seed}-{seat}"
        self.random_state = np.random.RandomState(random.Random(self.seed).getrandbits(32))
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

    def __call__(self, r: Deal, seat: int, tally: Tally) -> Action | None:
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
        name = f"B {self.duel.opponent}"
        tally.times.setdefault(name, []).append(elapsed)
        tally.simulations.setdefault(name, []).append(bot.watch.simulations)
        action = action_of(seat, number)
        if action not in legal:
            raise RuntimeError(f"OpenSpiel chose {action}, not a legal action")
        return action


def describe(duel: Duel, tally: Tally, deals: int, elapsed: float) -> str:
    """``robots.report``'s lines, under a first line that names OpenSpiel's search."""
    lines = report(duel.match, tally, deals, elapsed).split("\n")
    lines[0] = (
        f"{duel.variant.value} {json.dumps(duel.options.to_dict())}: "
        f"our hard robot at {duel.budget:g} s (A) vs OpenSpiel's {OPPONENTS[duel.opponent]}, "
        f"random rollouts, uct_c {duel.uct_c:g}, stopping at {duel.budget_b:g} s (B), "
        f"{deals} duplicate deals, {tally.games} games, {tally.deals} deals played, "
        f"{elapsed:.0f} s"
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
    parser.add_argument(
        "--results", type=Path, default=None, help="deals played, kept (JSON lines)"
    )
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
    jobs = [(duel.match, args.seed + i) for i in range(args.deals)]
    # module-level function and class, partially applied: the pool can pickle them
    play = functools.partial(run_deal, b_answer=functools.partial(OpenSpielSeat, duel))
    play_all(
        jobs,
        play,
        args.processes,
        lambda tally, done, spent: describe(duel, tally, done, spent),
        args.results,
        match_key(duel),
    )


if __name__ == "__main__":
    main()
