"""Duplicate matches between robot levels.

Each deal is played once per seating with the same cards (habanero: the same sequence of
deals of one game to the target), robot A taking each side in turn, so the luck of the
cards cancels out. For each duplicate deal A beats B when it won more of its games than
B did with the same cards, or as many with a better total point margin (equal in both: a
half). Printed: that rate and A's rate of games won, each with a 95% Wilson interval, the
mean points per deal of each side (habanero: without the carry), and the decision times of
each level over the calls that had a choice to make.

A side is a robot level (easy, normal, hard) or a style of the hard robot's search
(``search.Style``): ``hard-baseline``, the search as it was before its playouts ended
exactly (``search.BASELINE``), kept to measure the hard robot against; ``hard-reading``,
the hard robot weighing each sampled deal by the plays and by the learned card-location
model (``search.READING``); ``hard-weighed``, that weighing without the exact ends;
``hard-2026-11``, the hard robot as it was before the policy network (today the tables'
hard); ``hard-policy``, the hard robot with the policy network in its playouts
(``search.POLICY``: the heuristic's playouts where no weights are installed);
``hard-policy-leads``, the network choosing only the leads of the playouts' tricks;
``network``, the policy network alone as a player (no search: its card from its seat's
view wherever it has a choice of cards, the normal robot's choices otherwise; what the
network learned, against ``normal``);
``hard-oracle``, hard-baseline searching the real deal alone (it cheats: what knowing
every card is worth). ``--worlds-a N`` caps side A's hard search at N sampled deals: how
it plays with the share of a core it gets among many busy tables
(``benchmarks/tables_load.py`` prints how many deals a search sees then).

Who plays B can be given in code instead: ``run_deal``'s ``b_answer`` answers for B's seats
(``benchmarks/opponents/match.py`` seats OpenSpiel's searches there), with the deals,
seatings and scoring as here.

Run: ``python benchmarks/robots.py [--deals N] [--variant habanero|pairs|...]
[--a hard --b normal] [--budget 0.4] [--budget-a S] [--budget-b S] [--processes 2]
[--seed 1] [--options JSON] [--worlds-a N] [--results FILE]``: ``--budget-a``/``--budget-b`` give
each side its own thinking time (the same level against itself at two budgets: does it grow
with time?). With ``--results FILE`` each finished duplicate deal is appended to ``FILE`` (a
JSON line: the match, the deal's seed, its tally) and a deal already there for the same match
is not played again: a long match is played over several runs, or several machines' files
joined with ``cat``, and a stopped run loses at most the deals being played. The thinking
times are seconds, so a run on a busier machine plays a little weaker: join only runs made
alike.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core a process: the network's too

import argparse
import dataclasses
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import Level, choose_action
from bot.ai.search import (
    BASELINE,
    HARD,
    HARD_2026_11,
    POLICY,
    POLICY_LEADS,
    READING,
    Style,
    hard_action,
)
from bot.engine import (
    Action,
    Deal,
    Game,
    Kind,
    Options,
    Variant,
    parse_options,
    seat_view,
    shuffle_deal,
)
from bot.engine.cards import mask_of
from bot.engine.variants import sides_of
from bot.engine.view import SeatView

MAX_DEALS_PER_GAME = 30

Policy = Callable[[SeatView, random.Random, float], "Action | None"]
Answer = Callable[[Deal, int, "Tally"], "Action | None"]
"""Who answers for a seat: its action now (or None), timing itself into the tally."""
Opponent = Callable[[int, int], Answer]
"""Who answers for B at seat ``seat`` in a game of duplicate deal ``deal_seed``, given
``(deal_seed, seat)``: a new answer for each game."""


def _level(level: Level) -> Policy:
    return lambda view, rng, budget: choose_action(view, level, rng, budget)


POLICIES: dict[str, Policy] = {level.value: _level(level) for level in Level}


def _network(view: SeatView, rng: random.Random, budget: float) -> Action | None:
    """The policy network alone as a player: each card it may choose among several, from
    its seat's view (``policy.choose_many``); everything else as the normal robot does."""
    from bot.ai.features import public_of_view
    from bot.ai.policy import choose_many, net_for

    action = choose_action(view, Level.NORMAL, rng, budget)
    net = net_for(view.variant)
    if net is None or action is None or action.kind is not Kind.PLAY:
        return action
    legal = mask_of(a.arg for a in view.legal if a.kind is Kind.PLAY)
    if not legal & legal - 1:
        return action
    return Action.play(view.seat, choose_many(net, [(public_of_view(view), legal)])[0])


POLICIES["network"] = _network
STYLES = {
    "hard": HARD,
    "hard-baseline": BASELINE,
    "hard-reading": READING,
    "hard-weighed": replace(READING, exact_ends=False),
    "hard-2026-11": HARD_2026_11,
    "hard-policy": POLICY,
    "hard-policy-leads": POLICY_LEADS,
}
"""The hard robot and its search without what it gained since ``BASELINE``, or with one
part only: the parts measured one by one."""


def _styled(style: Style) -> Policy:
    return lambda view, rng, budget: hard_action(view, rng, budget, style=style)


POLICIES.update((name, _styled(style)) for name, style in STYLES.items() if name != "hard")

ORACLE = "hard-oracle"
"""hard-baseline searching the real deal alone: what knowing every card is worth, the
most that reading the table could give."""


def capped(name: str, worlds: int) -> str:
    """A policy name for ``name`` with its hard search capped at ``worlds`` sampled deals
    (registered in ``POLICIES``; easy and normal do not search, and stay as they are)."""
    if worlds <= 0 or name not in STYLES:
        return name
    key = f"{name}@{worlds}"
    POLICIES[key] = _styled(replace(STYLES[name], max_worlds=worlds))
    return key


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    deals: int = 0
    points_a: float = 0.0
    points_b: float = 0.0
    both: int = 0
    split: int = 0
    neither: int = 0
    duplicate: float = 0.0
    """Duplicate deals A did better on: won more of its games, or as many with a better
    total point margin (a tie in both counts a half)."""
    boards: int = 0
    times: dict[str, list[float]] = field(default_factory=dict[str, list[float]])
    simulations: dict[str, list[int]] = field(default_factory=dict[str, list[int]])
    """Simulations a decision, by side and name, of the searches that count theirs (none
    of our robots: OpenSpiel's in ``benchmarks/opponents/match.py``)."""

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.deals += other.deals
        self.points_a += other.points_a
        self.points_b += other.points_b
        self.both += other.both
        self.split += other.split
        self.neither += other.neither
        self.duplicate += other.duplicate
        self.boards += other.boards
        for level, times in other.times.items():
            self.times.setdefault(level, []).extend(times)
        for name, counts in other.simulations.items():
            self.simulations.setdefault(name, []).extend(counts)


@dataclass(frozen=True)
class Match:
    variant: Variant
    options: Options
    a: str
    b: str
    budget_a: float
    budget_b: float
    seed: int


def seatings(variant: Variant, options: Options) -> list[tuple[int, ...]]:
    """The seats robot A takes in each run of a deal: one side each time (each seat at a
    four-seat arrastrado table)."""
    return list(sides_of(variant, options.seats_at(variant)))


def policy_answer(name: str, rng: random.Random, side: tuple[str, float]) -> Answer:
    """The robot ``name`` (a key of ``POLICIES``) answering for a seat, on ``side``'s budget."""
    return lambda r, seat, tally: _ask(r, seat, name, rng, side, tally)


def play_game(
    match: Match,
    deal_seed: int,
    a_seats: tuple[int, ...],
    tally: Tally,
    b_answer: Opponent | None = None,
) -> tuple[bool, int]:
    """One game (a round in RULES.md's sense) from the seeded deals: whether A won it, and
    A's final score minus the best other side's. B's seats are ``match.b``'s robot, or
    ``b_answer``'s where given."""
    variant = match.variant
    seats = match.options.seats_at(variant)
    game = Game(variant, match.options, dealer=deal_seed % seats)
    rngs = [random.Random(f"robot-{deal_seed}-{seat}") for seat in range(seats)]
    answers = [
        policy_answer(match.a, rngs[seat], ("A", match.budget_a))
        if seat in a_seats
        else b_answer(deal_seed, seat)
        if b_answer is not None
        else policy_answer(match.b, rngs[seat], ("B", match.budget_b))
        for seat in range(seats)
    ]
    a_game_sides = {i for i, side in enumerate(sides_of(variant, seats)) if side[0] in a_seats}
    deals = 0
    margin = 0
    while not game.finished:
        deal_rng = random.Random(f"deal-{deal_seed}-{deals}")
        carry = game.carry
        r = Deal(shuffle_deal(variant, match.options, game.dealer, deal_rng, carry))
        play_deal(r, answers, tally)
        result = game.end_deal(r)
        deals += 1
        tally.deals += 1
        a_sides = {i for i, side in enumerate(result.sides) if side[0] in a_seats}
        if not a_sides:  # A dealt and sat this deal out
            continue
        a_best = max(result.scores[x] for x in a_sides)
        b_best = max(x for i, x in enumerate(result.scores) if i not in a_sides)
        margin = a_best - b_best
        for side, score in enumerate(result.scores):
            own = score - (carry[side] if carry is not None else 0)
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


def play_deal(r: Deal, answers: Sequence[Answer], tally: Tally) -> None:
    """Ask ``answers[seat]`` for each seat until the deal ends: seats off turn may declare
    first."""
    steps = 0
    while not r.finished:
        steps += 1
        if steps > 1000:
            raise RuntimeError("a deal did not end")
        acted = False
        off_turn = sorted({a.seat for a in r.legal_actions() if a.seat != r.turn})
        for seat in off_turn:
            action = answers[seat](r, seat, tally)
            if action is not None:
                r.apply(action)
                acted = True
                break
        if acted:
            continue
        action = answers[r.turn](r, r.turn, tally)
        if action is None:
            raise RuntimeError(f"seat {r.turn} is on turn and did nothing")
        r.apply(action)


def _ask(
    r: Deal,
    seat: int,
    level: str,
    rng: random.Random,
    side: tuple[str, float],
    tally: Tally,
) -> Action | None:
    view = seat_view(r, seat)
    name, budget = side
    start = time.perf_counter()
    if level == ORACLE:  # it needs the real deal: a policy of its own for this decision
        action = _styled(replace(BASELINE, known_deal=r.copy()))(view, rng, budget)
    else:
        action = POLICIES[level](view, rng, budget)
    elapsed = time.perf_counter() - start
    if len(view.legal) > 1:
        tally.times.setdefault(f"{name} {level}", []).append(elapsed)
    if action is not None and action not in view.legal:
        raise RuntimeError(f"{level} chose {action}, not a legal action")
    return action


def run_deal(job: tuple[Match, int], b_answer: Opponent | None = None) -> Tally:
    """One duplicate deal: a game per seating, B's seats answered as ``play_game`` says.
    With ``b_answer``, pass ``functools.partial(run_deal, b_answer=...)`` to a pool: it
    pickles where ``b_answer`` does (a module-level function or class, partially applied)."""
    match, deal_seed = job
    tally = Tally()
    games = [
        play_game(match, deal_seed, seats, tally, b_answer)
        for seats in seatings(match.variant, match.options)
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
    return tally


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(match: Match, tally: Tally, deals: int, elapsed: float) -> str:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games if tally.games else 0.0
    d_low, d_high = wilson(tally.duplicate, tally.boards)
    d_rate = tally.duplicate / tally.boards if tally.boards else 0.0
    lines = [
        f"{match.variant.value} {json.dumps(match.options.to_dict())}: "
        f"{match.a} at {match.budget_a:g} s (A) vs {match.b} at "
        f"{match.budget_b:g} s (B), {deals} duplicate deals, "
        f"{tally.games} games, {tally.deals} deals played, {elapsed:.0f} s",
        f"  A beats B on {tally.duplicate:g}/{tally.boards} duplicate deals = {d_rate:.1%}"
        f"  (95% Wilson {d_low:.1%} - {d_high:.1%})",
        f"  A wins {tally.wins}/{tally.games} games = {rate:.1%}  (95% Wilson {low:.1%} - {high:.1%})",
        f"  duplicate deals: A won every game {tally.both}, some {tally.split}, none {tally.neither}",
        f"  mean points per deal: A {tally.points_a / max(1, tally.deals):.1f}, "
        f"B {tally.points_b / max(1, tally.deals):.1f}",
    ]
    for level, times in sorted(tally.times.items()):
        lines.append(
            f"  {level:<8} decisions {len(times):>7}: p50 {percentile(times, 0.5) * 1000:7.1f} ms"
            f"  p99 {percentile(times, 0.99) * 1000:7.1f} ms  max {max(times) * 1000:7.1f} ms"
        )
    for name, counts in sorted(tally.simulations.items()):
        if counts:
            lines.append(
                f"  {name} simulations a decision: mean {sum(counts) / len(counts):.0f}, "
                f"p50 {percentile([float(c) for c in counts], 0.5):.0f}, min {min(counts)}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals")
    parser.add_argument("--variant", default="pairs", choices=[v.value for v in Variant])
    parser.add_argument("--a", default="hard", choices=[*POLICIES, ORACLE])
    parser.add_argument("--b", default="normal", choices=[*POLICIES, ORACLE])
    parser.add_argument("--budget", type=float, default=0.4, help="seconds per hard decision")
    parser.add_argument("--budget-a", type=float, default=None, help="A's own (default --budget)")
    parser.add_argument("--budget-b", type=float, default=None, help="B's own (default --budget)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--options", default="{}", help='table options as JSON, e.g. {"deck": 36}')
    parser.add_argument("--worlds-a", type=int, default=0, help="cap A's search (sampled deals)")
    parser.add_argument(
        "--results", type=Path, default=None, help="deals played, kept (JSON lines)"
    )
    args = parser.parse_args()
    variant = Variant(args.variant)
    match = Match(
        variant,
        parse_options(variant, json.loads(args.options)),
        capped(args.a, args.worlds_a),
        args.b,
        args.budget if args.budget_a is None else args.budget_a,
        args.budget if args.budget_b is None else args.budget_b,
        args.seed,
    )
    jobs = [(match, args.seed + i) for i in range(args.deals)]
    play_all(
        jobs,
        run_deal,
        args.processes,
        lambda tally, done, spent: report(match, tally, done, spent),
        args.results,
    )


def match_key(match: object) -> str:
    """What names a match in a results file: every field that changes how it is played."""
    return repr(match)


def played_before(text: str, key: str) -> dict[int, Tally]:
    """The deals of match ``key`` already in a results file's ``text``, by seed."""
    found: dict[int, Tally] = {}
    for line in text.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a stopped run: its deal is played again
        if row.get("match") == key:
            found[int(row["deal"])] = Tally(**row["tally"])
    return found


def _keyed(play: Callable[[tuple[Match, int]], Tally], job: tuple[Match, int]) -> tuple[int, Tally]:
    return job[1], play(job)


def play_all(
    jobs: list[tuple[Match, int]],
    play: Callable[[tuple[Match, int]], Tally],
    processes: int,
    describe: Callable[[Tally, int, float], str],
    results: Path | None = None,
    key: str | None = None,
) -> Tally:
    """Play the duplicate deals of ``jobs`` on ``processes`` workers, printing what
    ``describe`` says of the tally every 50 deals and at the end. With ``results``, the
    deals found there for this match (``key``, by default the jobs' ``match_key``) count
    without being played, and each deal played is appended as it ends."""
    key = key if key is not None else match_key(jobs[0][0]) if jobs else ""
    text = results.read_text(encoding="utf-8") if results is not None and results.exists() else ""
    before = played_before(text, key)
    total = Tally()
    for _, seed in jobs:
        if seed in before:
            total.add(before[seed])
    todo = [job for job in jobs if job[1] not in before]
    done = len(jobs) - len(todo)
    if done:
        print(f"{done} deals found in {results}, {len(todo)} to play", flush=True)
    if results is not None and text and not text.endswith("\n"):
        with results.open("a", encoding="utf-8") as f:
            f.write("\n")  # after a line cut short, the next deal on a line of its own
    start = time.perf_counter()
    with Pool(processes) as pool:
        for seed, tally in pool.imap_unordered(functools.partial(_keyed, play), todo):
            total.add(tally)
            done += 1
            if results is not None:
                row = {"match": key, "deal": seed, "tally": dataclasses.asdict(tally)}
                with results.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
            if done % 50 == 0 and done < len(jobs):
                print(describe(total, done, time.perf_counter() - start), flush=True)
    print(describe(total, done, time.perf_counter() - start), flush=True)
    return total


if __name__ == "__main__":
    main()
