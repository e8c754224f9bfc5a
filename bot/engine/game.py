"""A game over several rounds, and the pure settlement of chips and experience.

A "round" is what RULES.md's option ``rounds`` counts: one deal in arrastrado, individual
and pairs; in habanero one game to the target, which may take several deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .deal import Deal
from .dealing import DealtCards, Shuffler, shuffle_deal
from .events import End, Result
from .options import NextDealer, Options, Variant
from .variants import sides_of

BANK_RAKE_PERCENT = 25
PLATO_STAKE = 100


@dataclass(slots=True)
class Game:
    """Rounds won per side, the dealer, the habanero carry, and the plato pot."""

    variant: Variant
    options: Options = field(default_factory=Options)
    dealer: int = 0
    rounds_won: list[int] = field(default_factory=list[int])
    carry: tuple[int, int] | None = None
    results: list[Result] = field(default_factory=list[Result])
    deals_in_round: int = 0
    pot: int = 0

    def __post_init__(self) -> None:
        if not self.rounds_won:
            self.rounds_won = [0] * len(sides_of(self.variant, self.players))

    @property
    def players(self) -> int:
        """The seats at the table (arrastrado with four: one sits out each deal)."""
        return self.options.seats_at(self.variant)

    @property
    def winner(self) -> int | None:
        """The side that has won the game, or None while it goes on."""
        for side, won in enumerate(self.rounds_won):
            if won >= self.options.rounds:
                return side
        return None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def deal_for(self, rng: Shuffler) -> DealtCards:
        """Shuffle and deal the next deal (the dealer is already set)."""
        if self.finished:
            raise ValueError("the game is over")
        return shuffle_deal(self.variant, self.options, self.dealer, rng, self.carry)

    def end_deal(self, deal: Deal) -> Result:
        """Score a finished deal: count the round, carry habanero points, rotate the dealer."""
        result = deal.result
        if result is None:
            raise ValueError("the deal is not over")
        self.results.append(result)
        self.deals_in_round += 1
        if result.winner is None:
            # habanero: nobody reached the target; the scores go on to the next deal
            self.carry = (result.scores[0], result.scores[1])
        else:
            self.rounds_won[self.side_of_result(result)] += 2 if result.double else 1
            self.carry = None
            self.deals_in_round = 0
        self.dealer = self.next_dealer(result)
        return result

    def side_of_result(self, result: Result) -> int:
        """The game's side (``sides_of`` the table) of the deal's winning side."""
        assert result.winner is not None
        seat = result.sides[result.winner][0]
        sides = sides_of(self.variant, self.players)
        return next(i for i, side in enumerate(sides) if seat in side)

    def next_dealer(self, result: Result) -> int:
        """The next seat, or with ``next_dealer: last_ten`` (habanero) the player who took
        the last ten of this deal (the next seat where no trick decided it)."""
        last = result.last_trick
        if self.options.next_dealer is NextDealer.LAST_TEN and last is not None:
            return result.sides[last][0]
        return (self.dealer + 1) % self.players


def first_dealer(seed: int | str, seats: int) -> int:
    """The first dealer of a table of ``seats``, drawn at random from the table's ``seed``
    (RULES.md): the same seed always draws the same seat."""
    return random.Random(f"{seed}:first dealer").randrange(seats)


# ---------------------------------------------------------------------- settlement


@dataclass(frozen=True, slots=True)
class Payout:
    """Chip movements: ``seats`` per seat (+ receives, - pays), ``bank`` the bank's take,
    ``pot`` the change of the plato pot. They always add up to zero."""

    seats: tuple[int, ...]
    bank: int = 0
    pot: int = 0


@dataclass(frozen=True, slots=True)
class BetSplit:
    """How a finished game's stakes are paid out: ``share`` to each taker, ``bank`` to the
    bank. ``share * takers + bank`` is always what was staked."""

    share: int
    bank: int


def split_bet(staked: int, takers: int) -> BetSplit:
    """The stakes of a finished game (forfeited ones included) go to the ``takers``, the
    winning side's members still seated, less the bank's 25%. What cannot be shared evenly,
    and everything when there is no taker (robots won), goes to the bank."""
    if staked < 0 or takers < 0:
        raise ValueError(f"cannot split {staked} chips among {takers} takers")
    if not takers:
        return BetSplit(share=0, bank=staked)
    rake = staked * BANK_RAKE_PERCENT // 100
    share = (staked - rake) // takers
    return BetSplit(share=share, bank=staked - share * takers)


def arrastrado_payout(result: Result, pot: int = 0, seats: int | None = None) -> Payout:
    """Arrastrado payments of one deal (seeds/001), per seat of a table of ``seats`` (by
    default one per side; with four, the dealer who sat out pays and takes nothing): the
    winner takes 100 from each opponent, 200 with 101 points or more; a tute 200 from each;
    every cante its 20 or 40 from each opponent; with the plato, a contract made takes 200
    from each and the pot, a contract failed pays 200 to each and as much again as the pot
    holds into it."""
    players = [side[0] for side in result.sides]
    deltas = [0] * (seats or len(players))

    def pay(payer: int, payee: int, amount: int) -> None:
        deltas[payer] -= amount
        deltas[payee] += amount

    for side, seat in enumerate(players):
        for other in players:
            if other != seat and result.cantes[side]:
                pay(other, seat, result.cantes[side])
    pot_change = 0
    contract = result.contract
    if contract is not None:
        made = bool(result.contract_made)  # a tute by the bidder makes it (``Deal``)
        for other in players:
            if other != contract.seat:
                if made:
                    pay(other, contract.seat, 200)
                else:
                    pay(contract.seat, other, 200)
        if made:
            deltas[contract.seat] += pot
            pot_change = -pot
        else:
            deltas[contract.seat] -= pot
            pot_change = pot
    elif result.winner is not None:
        winner = players[result.winner]
        big = result.end is End.TUTE or result.scores[result.winner] >= 101
        amount = 200 if big else 100
        for other in players:
            if other != winner:
                pay(other, winner, amount)
    return Payout(tuple(deltas), pot=pot_change)


def experience(
    variant: Variant, options: Options, winner: int, sides: tuple[tuple[int, ...], ...]
) -> tuple[int, ...]:
    """Experience per seat for a finished competitive game: the winner 10 x players (shared
    by a pair), each loser 5, and everybody +10 per round beyond the first. ``sides``: the
    game's sides, every seat at the table in one."""
    del variant
    n = sum(len(side) for side in sides)
    if not options.competitive:
        return (0,) * n
    bonus = 10 * (options.rounds - 1)
    xp = [5 + bonus] * n
    winners = sides[winner]
    for seat in winners:
        xp[seat] = 10 * n // len(winners) + bonus
    return tuple(xp)
