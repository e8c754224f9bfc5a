"""What the robots declare and bid: tute, a claim that holds, the exchange, the cantes (the
40 first), and the plato auction's bid. Capote and resigning are decided by the search."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.engine.actions import Action, Kind
from bot.engine.cards import PAIR_MASK, POINTS, mask_of
from bot.engine.deal import Deal
from bot.engine.options import Scoring
from bot.engine.view import SeatView


def wanted_declaration(view: SeatView) -> Action | None:
    """The declaration every robot makes when it may: tute, a claim that holds, the
    exchange, then a cante (the 40 first). Capote, resigning and bidding are decided
    elsewhere."""
    claim_holds = view.scores[view.my_side] >= view.options.target
    return _declaration(view.legal, view.options.scoring, view.trump, lambda _seat: claim_holds)


def playout_declaration(r: Deal, acts: list[Action]) -> Action | None:
    """The same policy inside a playout, from the full state, for whichever seat may
    declare."""
    target = r.options.target
    return _declaration(
        acts, r.options.scoring, r.trump, lambda seat: r.side_score(r.side_of[seat]) >= target
    )


def declare_in_playout(r: Deal) -> bool:
    """Inside a playout, while a side may sing: make the declaration the policy wants now
    (``playout_declaration``), if any, and say whether one was made."""
    acts = r.legal_actions()
    if acts[-1].kind is Kind.PLAY:
        return False
    declaration = playout_declaration(r, acts)
    if declaration is None:
        return False
    r.apply(declaration)
    return True


def _declaration(
    acts: Sequence[Action], scoring: Scoring, trump: int, claim_holds: Callable[[int], bool]
) -> Action | None:
    singing = scoring is not Scoring.SIXTY_FIVE  # there a cante raises the side's bar instead
    sings: list[Action] = []
    exchange: Action | None = None
    for a in acts:
        kind = a.kind
        if kind is Kind.PLAY:
            continue
        if kind is Kind.TUTE:
            return a
        if kind is Kind.CLAIM and claim_holds(a.seat):
            return a
        if kind is Kind.EXCHANGE:
            exchange = a
        elif kind is Kind.SING and singing:
            sings.append(a)
    if exchange is not None:
        return exchange
    if sings:
        return max(sings, key=lambda a: (a.arg == trump, -a.arg))
    return None


def bidding(view: SeatView) -> bool:
    """It is this seat's turn in the plato auction (it may bid or pass)."""
    return any(a.kind is Kind.PASS for a in view.legal)


def hand_strength(hand: Sequence[int], trump: int, n: int) -> float:
    """A rough count of the points a hand should take in arrastrado."""
    mask = mask_of(hand)
    value = 0.0
    for c in hand:
        value += POINTS[c]
        if c // 10 == trump:
            value += 7.0 + c % 10  # its strength in the suit
        elif c % 10 == 9:  # an ace
            value += 6.0
    for suit in range(4):
        if mask & PAIR_MASK[suit] == PAIR_MASK[suit]:
            value += 40.0 if suit == trump else 20.0
    return value * 3.0 / n


EXPECTED_PER_STRENGTH: Final = 0.58
"""Points an arrastrado hand takes, per unit of ``hand_strength``, on average over the
robots' own play (``python benchmarks/plato_bids.py`` measures it)."""
BID_MARGIN: Final = 3
"""How far the expected points must reach past a contract for the normal robot to bid it:
there about half the contracts are made (the same benchmark)."""


def expected_points(hand: Sequence[int], trump: int, n: int) -> float:
    """The points an arrastrado hand is expected to take, from ``hand_strength``."""
    return hand_strength(hand, trump, n) * EXPECTED_PER_STRENGTH


def normal_bid(view: SeatView) -> Action:
    """Bid the lowest contract the hand is expected to make, else pass: outbid past what
    its hand makes, it passes (it never over-bids its hand)."""
    passing = next(a for a in view.legal if a.kind is Kind.PASS)
    bids = [a for a in view.legal if a.kind is Kind.BID]
    if not bids:
        return passing
    lowest = min(bids, key=lambda a: a.arg)
    playing = len(view.seating.sides)
    if expected_points(view.hand, view.trump, playing) >= lowest.arg + BID_MARGIN:
        return lowest
    return passing
