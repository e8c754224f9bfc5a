"""The hard robot: search over the cards it cannot see.

Each sample is a full deal consistent with everything public (cards played, cantes shown,
suits a seat has shown it lacks, the pairs a side that kept quiet cannot hold, the turned
card, hand sizes, the stock), built with ``determinize``. Every candidate play is tried on
the same samples and played out by the heuristic policy, the last tricks by the exact
solver (``exact.ExactSolver``); the best average result wins. Habanero once the stock is
empty is solved exactly, and capote is announced only when the exact search proves it.

``READING`` also weighs each deal by how well it explains the other seats' plays and by
the learned card-location model; measured, it played no better (see ``Style``), so the
robots at the tables do not use it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Protocol

from bot.engine.actions import Action, Kind
from bot.engine.cards import HIGHER, POINTS, card, mask_of
from bot.engine.deal import Deal
from bot.engine.events import Phase
from bot.engine.options import Variant
from bot.engine.view import SeatView

from .declarations import bidding, wanted_declaration
from .endings import capote_sweeps, exact_play
from .exact import ExactSolver
from .heuristic import normal_card
from .inference import PlayModel
from .knowledge import Knowledge, infer, sample_world, silences
from .locations import CardModel
from .playouts import MARGIN_WEIGHT, Exact, outcome_value, playout
from .solver import Deadline

if TYPE_CHECKING:  # numpy: loaded only when a search plays with the network
    from .policy import PolicyNet

__all__ = ["MARGIN_WEIGHT", "Exact", "outcome_value", "playout"]  # their home was here

MIN_WORLDS: Final = 16
"""Sampled deals before a candidate may be dropped as clearly worse."""
PRUNE_SIGMAS: Final = 3.0
PRUNE_MARGIN: Final = 0.02

_PLAY: Final = Kind.PLAY


@dataclass(frozen=True, slots=True)
class Style:
    """How the hard robot searches. ``weigh_plays``: count each sampled deal by how well
    it explains the other seats' plays (``inference.PlayModel``); ``weigh_locations``:
    by the learned card-location model (``locations.CardModel``). ``exact_ends``: the
    playouts end with the exact solver's cards once nothing is left to draw and at most
    ``EXACT_TRICKS`` of the variant are left. ``max_worlds``: the most sampled deals a
    search plays out (the match benchmark lowers it to play as a search does with the
    small share of a core it gets under load). The match benchmark keeps ``BASELINE``,
    the search before these, to measure against, and ``READING``, the weighing on.

    Measured on duplicate pairs deals at 0.1 s against ``BASELINE``
    (``benchmarks/robots.py``): the exact ends 50.2% (200 deals), and with the weighing
    too 52.5% (600 deals); the weighing alone 45.2% (300 deals). Among many busy tables
    (7 deals a search) the exact ends are what holds hard above normal."""

    weigh_plays: bool = False
    weigh_locations: bool = False
    exact_ends: bool = True
    max_worlds: int = 2000
    policy: bool = False
    """The playouts' cards are the policy network's (``policy``), each seat choosing from
    its own view, a batch of sampled deals at a time; the heuristic's where the variant
    has no trained weights."""
    policy_follows: bool = True
    """With ``policy``: the network chooses the cards that follow in a trick too; without,
    only each trick's lead, the heuristic the rest (far fewer of the network's cards: a
    follower's choice is mostly forced by the rules)."""
    known_deal: Deal | None = None
    """The real deal, for a benchmark measuring what knowing every card is worth: every
    sampled deal is then a copy of it. Never set for a robot at a table."""


EXACT_TRICKS: Final = {
    Variant.HABANERO: 0,
    Variant.ARRASTRADO: 5,
    Variant.INDIVIDUAL: 4,
    Variant.PAIRS: 5,
}
"""Tricks left from which a playout ends exactly: a solve there costs about as much as a
few heuristic playouts of the same position (``benchmarks/solver.py``). None in habanero,
where the playouts start in the stock: with 6 there, the search beat the one without them
on only 45% of duplicate deals (``benchmarks/robots.py --variant habanero --a hard --b
hard-baseline``, 300 deals, before this was set to 0)."""


HARD: Final = Style()
HARD_2026_11: Final = HARD
"""The hard robot as it was before the policy network, kept by name for the matches."""
POLICY: Final = Style(policy=True)
"""The hard robot with the policy network in its playouts: measured against
``HARD_2026_11`` before it may become the tables' hard robot."""
POLICY_LEADS: Final = Style(policy=True, policy_follows=False)
"""``POLICY`` with the network choosing only the leads of the playouts' tricks."""
BASELINE: Final = Style(exact_ends=False)
READING: Final = Style(weigh_plays=True, weigh_locations=True)

FULL_WEIGHT_WORLDS: Final = 64
"""Sampled deals from which their weights count in full; with fewer, every weight leans
toward the same (a few weighed deals are worth fewer still: under load a search may see
only a handful)."""


class Evidence(Protocol):
    """What weighs a sampled deal: the log of its weight."""

    active: bool

    def log_weight(self, world: Deal) -> float: ...


def _evidence(view: SeatView, know: Knowledge, style: Style) -> list[Evidence]:
    found: list[Evidence] = []
    if style.weigh_plays:
        found.append(PlayModel(view))
    if style.weigh_locations:
        found.append(CardModel.for_view(view, know))
    return [e for e in found if e.active]


def tempered(logs: list[float], n: int) -> list[float]:
    """The weights of the first ``n`` deals from the logs, leaning toward equal below
    ``FULL_WEIGHT_WORLDS``."""
    if n == 0:
        return []
    first = logs[:n]
    top = max(first)
    if top == min(first):  # nothing weighed (the robots at the tables): all the same
        return [1.0] * n
    lean = min(1.0, n / FULL_WEIGHT_WORLDS)
    return [math.exp(lean * (x - top)) for x in first]


@dataclass(slots=True)
class Searched:
    """What a search did, for the figures: how many sampled deals it played out."""

    worlds: int = 0


# ------------------------------------------------------------------- sampling


def distinct_cards(cards: list[int], hand: int, gone: int, special: int = 0) -> dict[int, int]:
    """Each card mapped to the weakest card it is equivalent to: same suit, same points,
    and every card ranked between them is in the hand or out of play (``special`` cards,
    such as a trump 7 that may be exchanged, are equivalent to none)."""
    out: dict[int, int] = {}
    previous = -1
    for c in sorted(cards):
        if (
            previous >= 0
            and not (special >> c | special >> previous) & 1
            and previous // 10 == c // 10
            and POINTS[previous] == POINTS[c]
            and not (HIGHER[previous] & ~HIGHER[c - 1] & ~(1 << c)) & ~(hand | gone)
        ):
            out[c] = out[previous]
        else:
            out[c] = c
        previous = c
    return out


def sample_values(
    view: SeatView,
    know: Knowledge,
    candidates: list[Action],
    rng: random.Random,
    deadline: Deadline,
    searched: Searched | None = None,
    style: Style = HARD,
) -> list[float]:
    """The mean playout value of each candidate over the same sampled deals, each deal
    counted by its weight (``style.weigh_plays``, ``style.weigh_locations``). A candidate clearly worse than the best
    on the deals so far is dropped (its value becomes minus infinity), leaving the time to
    the close ones; the search stops when one is left."""
    side = view.my_side
    values: list[list[float]] = [[] for _ in candidates]
    logs: list[float] = []
    evidence = _evidence(view, know, style)
    exact = None
    if style.exact_ends and EXACT_TRICKS[view.variant]:
        exact = Exact(EXACT_TRICKS[view.variant], ExactSolver(deadline))
    passed = deadline.passed if exact is None else lambda: exact.passed(deadline)
    known = style.known_deal
    net = None
    if style.policy:
        from .policy import net_for  # numpy: only for the network's playouts

        net = net_for(view.variant)
    if net is not None:
        worlds, active = _policy_worlds(
            view, know, candidates, rng, passed, style, net, exact, (values, logs, evidence)
        )
        return _means(values, logs, worlds, active, searched)
    active = list(range(len(candidates)))
    worlds = 0
    while worlds < style.max_worlds:
        world = sample_world(view, know, rng) if known is None else known.copy()
        logs.append(sum(e.log_weight(world) for e in evidence))
        done = 0
        for i in active:
            r = world.copy()
            r.apply(candidates[i])
            playout(r, exact)
            values[i].append(outcome_value(r, side))
            done += 1
            if worlds and done < len(active) and passed():
                break
        if done < len(active):  # out of time halfway: that deal counts for none
            for i in active[:done]:
                values[i].pop()
            logs.pop()
            break
        worlds += 1
        if passed():
            break
        if worlds >= MIN_WORLDS and worlds % 4 == 0:
            active = survivors(values, tempered(logs, worlds), active)
            if len(active) == 1:
                break
    return _means(values, logs, worlds, active, searched)


def _means(
    values: list[list[float]],
    logs: list[float],
    worlds: int,
    active: list[int],
    searched: Searched | None,
) -> list[float]:
    """Each candidate's weighted mean over its deals (minus infinity once dropped)."""
    if searched is not None:
        searched.worlds += worlds
    alive = set(active)
    weights = tempered(logs, len(values[active[0]]))
    total = sum(weights)
    return [
        sum(w * x for w, x in zip(weights, v, strict=False)) / total if i in alive else -math.inf
        for i, v in enumerate(values)
    ]


def _policy_worlds(
    view: SeatView,
    know: Knowledge,
    candidates: list[Action],
    rng: random.Random,
    passed: Callable[[], bool],
    style: Style,
    net: PolicyNet,
    exact: Exact | None,
    into: tuple[list[list[float]], list[float], list[Evidence]],
) -> tuple[int, list[int]]:
    """``sample_values``'s loop with the network's playouts: the sampled deals are played
    out a batch at a time (one first, then ``POLICY_BATCH``), every candidate of every deal
    of the batch together, the dropping of clearly worse candidates as there. Returns the
    deals counted and the candidates left; a batch cut short by the deadline counts for
    none (the first deal is always played out)."""
    from .policy import POLICY_BATCH, play_out

    values, logs, evidence = into
    side = view.my_side
    ends = None if exact is None else (exact.tricks, lambda r: playout(r, exact))
    worlds = 0
    active = list(range(len(candidates)))
    while worlds < style.max_worlds:
        size = min(POLICY_BATCH - worlds % POLICY_BATCH if worlds else 1, style.max_worlds - worlds)
        batch = [sample_world(view, know, rng) for _ in range(size)]
        logs.extend(sum(e.log_weight(w) for e in evidence) for w in batch)
        played: list[list[Deal]] = []
        for i in active:
            row: list[Deal] = []
            for world in batch:
                r = world.copy()
                r.apply(candidates[i])
                row.append(r)
            played.append(row)
        deals = [r for row in played for r in row]
        if not play_out(deals, net, ends, passed if worlds else None, style.policy_follows):
            del logs[-size:]  # out of time halfway: that batch counts for none
            break
        for i, row in zip(active, played, strict=True):
            values[i].extend(outcome_value(r, side) for r in row)
        worlds += size
        if passed():
            break
        if worlds >= MIN_WORLDS and worlds % 4 == 0:
            active = survivors(values, tempered(logs, worlds), active)
            if len(active) == 1:
                break
    return worlds, active


def survivors(values: list[list[float]], weights: list[float], active: list[int]) -> list[int]:
    """The candidates not clearly worse than the best: the weighted mean loss to it on the
    same deals stays within three standard errors (of the deals' effective number)."""
    n = len(values[active[0]])
    w = weights[:n]
    total = sum(w)
    effective = total * total / sum(x * x for x in w)
    best = max(active, key=lambda i: sum(a * b for a, b in zip(w, values[i], strict=True)))
    top = values[best]
    keep: list[int] = []
    for i in active:
        if i == best:
            keep.append(i)
            continue
        diffs = [top[k] - values[i][k] for k in range(n)]
        mean = sum(a * b for a, b in zip(w, diffs, strict=True)) / total
        spread = math.sqrt(sum(a * (d - mean) ** 2 for a, d in zip(w, diffs, strict=True)) / total)
        close = effective < 2 or mean <= PRUNE_MARGIN
        if close or mean <= PRUNE_SIGMAS * spread / math.sqrt(effective - 1):
            keep.append(i)
    return keep


def _capote(view: SeatView, know: Knowledge, deadline: Deadline) -> Action | None:
    announce = next((a for a in view.legal if a.kind is Kind.CAPOTE), None)
    if announce is None or know.unseen or know.stock_hidden:
        return None
    return announce if capote_sweeps(view, know, deadline) else None


def hard_bid(
    view: SeatView, rng: random.Random, deadline: Deadline, searched: Searched | None = None
) -> Action:
    """Plato auction: bid the lowest contract when the playouts make it often enough."""
    passing = next(a for a in view.legal if a.kind is Kind.PASS)
    bids = [a for a in view.legal if a.kind is Kind.BID]
    if not bids:
        return passing
    lowest = min(bids, key=lambda a: a.arg)
    know = infer(view)
    side = view.my_side
    made = worlds = 0
    while worlds < 200:
        r = sample_world(view, know, rng)
        while r.phase is Phase.AUCTION:
            r.apply(Action.simple(r.turn, Kind.PASS))
        playout(r)
        result = r.result
        assert result is not None
        made += result.scores[side] >= lowest.arg
        worlds += 1
        if deadline.passed():
            break
    if searched is not None:
        searched.worlds += worlds
    return lowest if worlds >= 8 and made >= 0.6 * worlds else passing


def _auction_action(
    view: SeatView, rng: random.Random, deadline: Deadline, searched: Searched | None
) -> Action | None:
    """In the plato auction: the turned card taken (arrastrado without the automatic
    exchange), else a bid or a pass on this seat's turn."""
    declaration = wanted_declaration(view)
    if declaration is not None or not bidding(view):
        return declaration
    return hard_bid(view, rng, deadline, searched)


def alike(view: SeatView, played: int, cards: list[int]) -> dict[int, int]:
    """``distinct_cards`` of ``cards`` at ``view``, with ``played`` the cards gone: the
    table card is gone too, and habanero's trump 7 and 2 are alike to none while the 7 may
    still be exchanged."""
    gone = played | (1 << view.table_card if view.table_card is not None else 0)
    special = 0
    if view.variant is Variant.HABANERO and view.stock_left and view.options.exchange:
        special = 1 << card(7, view.trump) | 1 << card(2, view.trump)
    return distinct_cards(cards, mask_of(view.hand), gone, special)


def _candidates(view: SeatView, know: Knowledge, plays: list[Action]) -> list[Action]:
    """The plays worth searching: one card for each set of cards that play alike, the
    normal robot's choice first (it wins ties)."""
    cards = alike(view, know.played, [a.arg for a in plays])
    preferred = normal_card(view, know)
    first = Action.play(view.seat, cards.get(preferred, preferred))
    others = dict.fromkeys(c for c in cards.values() if c != first.arg)
    return [first] + [Action.play(view.seat, c) for c in others]


def _in_time(style: Style, budget: float) -> Style:
    """``style`` for a search of ``budget`` seconds: with no time at all (its table wanted
    the choice before a worker was free), its one sampled deal is played out by the
    heuristic alone, as quick as before the exact ends, which cost several times the rest
    of such a search."""
    return replace(style, exact_ends=False) if budget <= 0 and style.exact_ends else style


def hard_action(
    view: SeatView,
    rng: random.Random,
    budget: float,
    clock: Callable[[], float] = time.perf_counter,
    searched: Searched | None = None,
    style: Style = HARD,
    considered: list[tuple[Action, float]] | None = None,
) -> Action | None:
    """The hard robot's action: declarations by rule (capote only when proven), then the
    play with the best average over sampled deals, or the exact best once habanero's
    stock is empty. Thinks for at most about ``budget`` seconds of ``clock``. It samples deals
    that agree with the silences too (``silences``), and counts them in ``searched``. When
    it searched among several plays, each candidate and its value (minus infinity for one
    dropped as clearly worse) are added to ``considered`` (the policy network's data)."""
    start = clock()
    deadline = Deadline(start + max(0.0, budget) * 0.85, clock)
    legal = view.legal
    if not legal:
        return None
    if view.phase is Phase.AUCTION:
        return _auction_action(view, rng, deadline, searched)
    know = silences(view, infer(view))
    if view.variant is Variant.HABANERO:
        announce = _capote(view, know, Deadline(start + max(0.0, budget) * 0.4, clock))
        if announce is not None:
            return announce
    declaration = wanted_declaration(view)
    if declaration is not None:
        return declaration
    plays = [a for a in legal if a.kind is _PLAY]
    if not plays:
        return None
    resign = None
    if view.options.rounds > 1:  # resigning saves the second round of a win over 101
        resign = next((a for a in legal if a.kind is Kind.RESIGN), None)
    if len(plays) == 1 and resign is None:
        return plays[0]
    if view.variant is Variant.HABANERO and not know.unseen and not know.stock_hidden:
        c = exact_play(view, know, Deadline(start + max(0.0, budget) * 0.9, clock))
        if c is not None:
            return Action.play(view.seat, c)
    candidates = _candidates(view, know, plays)
    if len(candidates) == 1 and resign is None:
        return candidates[0]
    style = _in_time(style, budget)
    means = sample_values(view, know, candidates, rng, deadline, searched=searched, style=style)
    if considered is not None:
        considered.extend(zip(candidates, means, strict=True))
    return _best(candidates, means, resign)


def _best(candidates: list[Action], means: list[float], resign: Action | None) -> Action:
    """The candidate of the best mean (the first of equals), or ``resign`` when even the
    best loses the game."""
    best = 0
    for i in range(1, len(candidates)):
        if means[i] > means[best] + 1e-9:
            best = i
    if resign is not None and means[best] < -1.05:
        return resign
    return candidates[best]
