"""Chips, standings and experience of a table, as ledger and statistics operations that the
service runs inside the same transaction as the table's new state.

Only competitive tables move chips and count standings. Robots own no chips: the bank plays
their side of every payment, and of a member's once they have left (a robot took the seat).
A game's standings are counted once, when it ends: a cancelled game counts for nothing, and
a member who left has forfeited it (played and lost, nothing else).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.engine import Deal, End, Variant, arrastrado_payout, experience, parse_record, replay
from bot.engine.game import PLATO_STAKE, split_bet
from bot.engine.variants import sides_of
from bot.storage import Conn, Database, ledger, members
from bot.storage.settings import get_settings

from .model import STAND_IN_ROBOT, GameTally, Seat, Table
from .ratings import (
    FAMILY_OF,
    GameResult,
    Player,
    RatingRules,
    forfeit_places,
    places_of,
    record_game,
)

Op = Callable[[Conn, Table, float], Awaitable[None]]


@dataclass(slots=True)
class Settlement:
    """Operations to run, in order, in the table's save transaction."""

    ops: list[Op] = field(default_factory=list[Op])

    def merge(self, other: Settlement) -> Settlement:
        return Settlement([*self.ops, *other.ops])

    async def apply(self, conn: Conn, table: Table, now: float) -> None:
        for op in self.ops:
            await op(conn, table, now)


def members_of(table: Table) -> dict[int, int]:
    """seat -> user id of every member who sat in this game (leavers included)."""
    return {i: s.user_id for i, s in enumerate(table.seats) if s is not None and s.user_id}


async def chips_of(db: Database, guild_id: int, user_id: int, now: float) -> int:
    """A member's chips; a member seen for the first time gets the starting chips."""
    settings = await get_settings(db, guild_id)
    async with db.transaction() as conn:
        await members.ensure_member(conn, guild_id, user_id, settings.starting_chips, now)
    return await ledger.balance(db, guild_id, user_id)


async def _ensure(conn: Conn, table: Table, now: float) -> None:
    settings = await get_settings(conn, table.guild_id)
    for user_id in members_of(table).values():
        await members.ensure_member(conn, table.guild_id, user_id, settings.starting_chips, now)


def stake_table(table: Table, *, deal_only: bool = False) -> Settlement:
    """At the start every member stakes the bet (all or nobody). At each deal of an
    arrastrado table with the plato, when the pot is empty every player puts 100 in (the bank
    for robots; a member short of chips puts in what they have)."""
    settlement = Settlement()
    if not table.options.competitive:
        return settlement
    bet = table.options.bet
    if not deal_only:
        settlement.ops.append(_ensure)
        if bet > 0:
            for user_id in members_of(table).values():
                table.stakes[user_id] = bet

            async def hold(conn: Conn, t: Table, now: float) -> None:
                await ledger.hold_stakes(conn, t.guild_id, t.id, dict(t.stakes), now)

            settlement.ops.append(hold)
    if table.options.plato:

        async def fill(conn: Conn, t: Table, now: float) -> None:
            if await ledger.table_pot(conn, t.id) > 0:
                return
            seats = members_of(t)
            out = t.deal.dealt.seating.out if t.deal is not None else -1
            for seat in range(t.players):
                if seat == out:  # a dealer who sits the deal out puts nothing in
                    continue
                payer = seats.get(seat) if not _robot(t, seat) else None
                await ledger.pot_deposit(conn, t.guild_id, t.id, payer, PLATO_STAKE, now, cap=True)

        settlement.ops.append(fill)
    return settlement


def _robot(table: Table, seat: int) -> bool:
    """A seat that plays with the bank's chips: a robot's, or a member's who left."""
    occupant = table.seats[seat]
    return occupant is None or occupant.user_id is None or occupant.left


def settle_deal(table: Table, deal: Deal) -> Settlement:
    """After a deal: arrastrado payments (and the plato). Its rounds, cantes and tutes are
    counted with the game's, when the game ends."""
    settlement = Settlement()
    if table.options.competitive and table.variant is Variant.ARRASTRADO:
        settlement.ops.append(_arrastrado(result_seats=members_of(table), deal=deal))
    return settlement


def _deal_stats(deal: Deal, seat: int) -> Counter[str]:
    """What one finished deal counts for the member in ``seat``."""
    result = deal.result
    assert result is not None
    counts = Counter[str]()
    if deal.side_of[seat] < 0:  # dealt and sat it out (arrastrado, four at the table)
        return counts
    if result.winner is not None:  # a habanero deal short of the target is no round yet
        counts["rounds_played"] = 1
        if deal.side_of[seat] == result.winner:
            counts["rounds_won"] = 2 if result.double else 1
    counts["cantes"] = sum(1 for c in deal.cantes if c.seat == seat)
    if result.end is End.TUTE and result.by_seat == seat:
        counts["tutes"] = 1
    return counts


async def _game_deals(conn: Conn, table: Table, last: Deal) -> list[Deal]:
    """Every deal of the game, finished: the earlier ones replayed from their records."""
    deals: list[Deal] = []
    for record in await members.finished_records(conn, table.id, table.deal_no):
        deals.append(replay(parse_record(json.loads(record))).deal)
    deals.append(last)
    return deals


def _arrastrado(result_seats: dict[int, int], deal: Deal) -> Op:
    result = deal.result
    assert result is not None

    async def pay(conn: Conn, t: Table, now: float) -> None:
        pot = await ledger.table_pot(conn, t.id)
        payout = arrastrado_payout(result, pot=pot, seats=t.players)
        deltas: dict[int | None, int] = {}
        seats = list(payout.seats)
        contract = result.contract
        if contract is not None and payout.pot:
            contractor = None if _robot(t, contract.seat) else result_seats.get(contract.seat)
            if payout.pot < 0:  # made: the contractor takes the pot
                await ledger.pot_take(conn, t.guild_id, t.id, contractor, now)
            else:  # failed: as much again into the pot
                await ledger.pot_deposit(
                    conn, t.guild_id, t.id, contractor, payout.pot, now, cap=True
                )
            seats[contract.seat] += payout.pot
        for seat, delta in enumerate(seats):
            account = None if _robot(t, seat) else result_seats.get(seat)
            deltas[account] = deltas.get(account, 0) + delta
        deltas = {a: d for a, d in deltas.items() if d}
        if deltas:
            await ledger.settle_payments(conn, t.guild_id, t.id, deltas, now)

    return pay


def settle_game(table: Table) -> Settlement:
    """The end of the game (its last deal is ``table.deal``): the stakes (less the bank's
    25%) to the winning side's members still seated, the plato pot back to whoever put it
    in; the game's standings. A member who left counts the game as played and lost."""
    settlement = Settlement()
    if not table.options.competitive or table.winner is None:
        return settlement
    last = table.deal
    assert last is not None and last.result is not None
    winners = sides_of(table.variant, table.players)[table.winner]
    seats = members_of(table)
    xp = game_xp(table)

    async def finish(conn: Conn, t: Table, now: float) -> None:
        state = await ledger.table_state(conn, t.id)
        takers = [seats[s] for s in winners if s in seats and not t.seats[s].left]  # type: ignore[union-attr]
        split = split_bet(sum(state.stakes.values()) + state.forfeited, len(takers))
        payouts: dict[int | None, int] = dict.fromkeys(takers, split.share)
        for account, amount in state.pot.items():
            payouts[account] = payouts.get(account, 0) + amount
        if state.held:
            await ledger.release_table(conn, t.guild_id, t.id, payouts, split.bank, now)
        # what the game gave each member, for its result: read in the same transaction
        chips = await ledger.table_results(conn, t.id)
        before = await members.chip_ranks(conn, t.guild_id, chips)
        after = await members.chip_ranks(conn, t.guild_id)
        settings = await get_settings(conn, t.guild_id)
        rules = RatingRules.of(settings)
        result = game_result(
            t, lambda s: settings.old_enough(s.account_created, s.joined_server, now)
        )
        rated = await record_game(conn, t.guild_id, t.id, result, now, rules)
        t.tally = GameTally(
            chips={user_id: chips.get(user_id, 0) for user_id in seats.values()},
            xp={user_id: xp[seat] for seat, user_id in seats.items()},
            places={u: (before[u], after[u]) for u in seats.values() if u in before and u in after},
            ratings=rated,
        )
        deals = await _game_deals(conn, t, last)
        for seat, user_id in seats.items():
            if t.seats[seat].left:  # type: ignore[union-attr]
                await members.add_stats(conn, t.guild_id, user_id, xp=xp[seat], games_played=1)
                continue
            counts = sum((_deal_stats(deal, seat) for deal in deals), Counter[str]())
            await members.add_stats(
                conn,
                t.guild_id,
                user_id,
                xp=xp[seat],
                games_played=1,
                games_won=int(seat in winners),
                **counts,
            )

    settlement.ops.append(finish)
    return settlement


def game_result(table: Table, old_enough: Callable[[Seat], bool]) -> GameResult:
    """The finished game as the ratings read it: every member who sat, unrated where not
    ``old_enough`` (the fair-play minimums), robots at their level (a member away was stood
    in for). A member who left forfeited the game: a side that all its members left is
    placed after every other; one who left a partner who stayed plays in that side as the
    robot that took the seat, and is placed last on their own."""
    assert table.winner is not None and table.game is not None

    def member(n: int) -> Seat | None:
        seat = table.seats[n]
        return seat if seat is not None and seat.user_id else None

    def robot(n: int) -> Player:
        seat = table.seats[n]
        return Player(robot=seat.robot if seat is not None and seat.robot else STAND_IN_ROBOT)

    def player(seat: Seat) -> Player:
        return Player(user_id=seat.user_id, rated=old_enough(seat))

    sides: list[tuple[Player, ...]] = []
    forfeited: list[bool] = []
    gone: list[Player] = []
    for side in sides_of(table.variant, table.players):
        left = [n for n in side if (m := member(n)) is not None and m.left]
        stayed = [n for n in side if (m := member(n)) is not None and not m.left]
        apart = left if stayed else []  # their partner stayed: they lost on their own
        sides.append(
            tuple(robot(n) if n in apart or (m := member(n)) is None else player(m) for n in side)
        )
        forfeited.append(bool(left) and not stayed)
        gone += [player(m) for n in apart if (m := member(n)) is not None]
    places = list(places_of(table.game.rounds_won, table.winner))
    last = max(places) + 1
    for one in gone:
        sides.append((one,))
        forfeited.append(True)
        places.append(last)
    return GameResult(FAMILY_OF[table.variant], tuple(sides), forfeit_places(places, forfeited))


def game_xp(table: Table) -> tuple[int, ...]:
    """Experience per seat for a finished competitive game; a member who left has
    forfeited it, and gets a loser's."""
    assert table.winner is not None
    sides = sides_of(table.variant, table.players)
    xp = experience(table.variant, table.options, table.winner, sides)
    loser_xp = min(xp)  # there is always a losing side
    return tuple(
        loser_xp if seat is not None and seat.left else xp[i] for i, seat in enumerate(table.seats)
    )


def settle_forfeit(table: Table, user_id: int) -> Settlement:
    """A member leaves mid-game: their stake stays in the table for the winners."""
    settlement = Settlement()
    if not table.options.competitive or user_id not in table.stakes:
        return settlement

    async def forfeit(conn: Conn, t: Table, now: float) -> None:
        await ledger.forfeit_stake(conn, t.guild_id, t.id, user_id, now)

    settlement.ops.append(forfeit)
    return settlement


def settle_refund(table: Table) -> Settlement:
    """A cancelled game: every stake back to its member, the pot to whoever put it in, the
    stakes of those who left to the bank. Nothing is scored."""
    settlement = Settlement()
    if not table.options.competitive:
        return settlement

    async def refund(conn: Conn, t: Table, now: float) -> None:
        await ledger.refund_table(conn, t.guild_id, t.id, now)

    settlement.ops.append(refund)
    return settlement


async def refund_damaged(conn: Conn, guild_id: int, table_id: int, now: float) -> dict[int, int]:
    """A table that cannot be played on (it could not be restored): whatever it holds goes
    back as in a cancelled game, from the ledger alone. Returns member -> chips back."""
    back = await ledger.refund_table(conn, guild_id, table_id, now)
    return {account: amount for account, amount in back.items() if account is not None}
