"""The chips ledger: every member's chips and the bank's, and what each table holds, as a
double-entry ledger.

Accounts. ``member`` (one per member and server, by user id), ``bank`` (one per server: the
house, which takes the rake and plays the robots' side of every payment), ``table`` (the
chips a table holds: the stakes of the game in play and the plato pot) and ``tournament``
(the entry fees a tournament holds until its prizes; see :mod:`bot.storage.entries`).

Movements. Every change of a balance is a movement: one or more ledger rows that share a
``movement`` number and add up to zero. Only grants (kinds ``start``, ``daily``, ``admin``)
create chips: they are one row in a member's account with nothing on the other side. So at
any moment, per server::

    members' balances + the bank + what the tables and tournaments hold == chips granted

and :func:`audit` checks exactly that, plus that every other movement adds up to zero.

A balance is the sum of its rows; nothing is cached. A member's balance never goes below
zero: every function that takes chips from a member checks the balance inside the caller's
transaction, before writing anything, and raises :class:`InsufficientChips` (or, where the
rules limit a payment to what the payer has, pays what there is: ``cap=True`` and
:func:`settle_payments`). The bank has no such floor: it is the house and backs the robots,
so it may be in the red.

A member's account is opened by :func:`bot.storage.members.ensure_member`, which gives the
starting chips; the members' records (experience, rounds, games, leaderboards) live there.

Writes take the ``Conn`` of ``db.transaction()`` (several writes, one
transaction); reads, the :class:`Database` or that connection. Times are passed in (``now``,
POSIX seconds; ``today``, ``YYYY-MM-DD`` UTC): nothing here reads the clock.

What a table holds is attributed to the accounts that put it there, from the table's own
ledger rows (see :func:`table_state`), so a cancelled game gives everyone back exactly what
they put in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from ._movements import (
    BANK,
    GRANT_KINDS,
    MEMBER,
    TABLE,
    TOURNAMENT,
    Account,
    Entry,
    InsufficientChips,
    LedgerError,
    not_negative,
    party,
    positive,
    post,
    require_member,
    table_entry,
)
from ._movements import UnknownMember as UnknownMember  # raised by grant and claim_daily
from ._sql import Source, fetchall, scalar
from .base import Conn, Database

Amounts = Mapping[int, int] | Mapping[Account, int]
"""Chips per account (a plain ``dict[int, int]`` when no bank is involved)."""

TRANSFER_KIND: Final = "transfer"
"""Payments between players (:func:`settle_payments`): no table holds them."""


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class TableState:
    """What a table holds and whose it is: ``stakes`` per member, ``forfeited`` stakes of
    members who left, and the plato ``pot`` per account that put chips into it since it was
    last emptied. ``held`` is their sum."""

    held: int
    stakes: Mapping[int, int] = field(default_factory=dict[int, int])
    forfeited: int = 0
    pot: Mapping[Account, int] = field(default_factory=dict[Account, int])

    @property
    def pot_total(self) -> int:
        return sum(self.pot.values())


@dataclass(frozen=True, slots=True)
class Audit:
    """The conservation check of one server's chips (``tournaments``: the entry fees the
    tournaments hold until they pay their prizes)."""

    members: int
    bank: int
    tables: int
    granted: int
    negative_members: tuple[int, ...]
    unbalanced_movements: tuple[int, ...]
    tournaments: int = 0

    @property
    def balanced(self) -> bool:
        return (
            self.members + self.bank + self.tables + self.tournaments == self.granted
            and not self.negative_members
            and not self.unbalanced_movements
        )


# ---------------------------------------------------------------------------- balances


async def balance(source: Source, guild_id: int, user_id: int) -> int:
    """A member's chips in this server (0 for a member never seen). Read inside a
    transaction, it holds the server's chips (:meth:`Conn.lock`) until the commit, so the
    balance stays true while the transaction spends it."""
    if not isinstance(source, Database):
        await source.lock(guild_id)
    return await scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND account = 'member' AND user_id = ?",
        (guild_id, user_id),
    )


# ---------------------------------------------------------------------------- grants


async def grant_starting_chips(
    conn: Conn, guild_id: int, user_id: int, amount: int, now: float
) -> None:
    """A new member's starting chips (a ``start`` grant): :func:`members.ensure_member
    <bot.storage.members.ensure_member>` gives them once, when it first sees the member."""
    not_negative("starting_chips", amount)
    if amount > 0:
        await post(conn, guild_id, now, [party(user_id, None, "start", amount)])


async def grant(
    conn: Conn,
    guild_id: int,
    user_id: int,
    amount: int,
    kind: Literal["daily", "admin"],
    now: float,
) -> int:
    """Create chips for a member (``daily``: positive; ``admin``: positive, or negative to
    take chips back, never below zero). Returns the new balance."""
    if kind not in ("daily", "admin"):
        raise LedgerError(f"grant kind must be 'daily' or 'admin', not {kind!r}")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
        raise LedgerError(f"a grant must be a non-zero whole number of chips, not {amount!r}")
    if kind == "daily":
        positive("amount", amount)
    await require_member(conn, guild_id, user_id)
    current = await balance(conn, guild_id, user_id)
    if current + amount < 0:
        raise InsufficientChips(user_id, -amount, current)
    await post(conn, guild_id, now, [party(user_id, None, kind, amount)])
    return current + amount


async def claim_daily(
    conn: Conn, guild_id: int, user_id: int, amount: int, today: str, now: float
) -> bool:
    """The daily grant, at most once per UTC day (``today``: ``YYYY-MM-DD``). False when the
    member already had today's. The member must exist."""
    dt.date.fromisoformat(today)  # refuses anything but a date
    not_negative("amount", amount)
    claimed = (
        await conn.execute(
            "UPDATE members SET last_daily = ? WHERE guild_id = ? AND user_id = ?"
            " AND (last_daily IS NULL OR last_daily < ?)",
            (today, guild_id, user_id, today),
        )
        == 1
    )
    if not claimed:
        await require_member(conn, guild_id, user_id)
        return False
    if amount > 0:
        await post(conn, guild_id, now, [party(user_id, None, "daily", amount)])
    return True


# ---------------------------------------------------------------------------- tables


async def table_state(source: Source, table_id: int) -> TableState:
    """What the table holds, attributed to whoever put it there.

    Replays the table's rows in order. A stake belongs to its member until they forfeit it;
    plato deposits belong to their payer until the pot is taken (always whole); whenever the
    table is emptied (a release, a refund) everything starts again from zero."""
    rows = await fetchall(
        source,
        "SELECT account, user_id, kind, amount FROM ledger WHERE table_id = ? AND kind <> ?"
        " ORDER BY id",
        (table_id, TRANSFER_KIND),
    )
    held = 0
    stakes: dict[int, int] = {}
    pot: dict[Account, int] = {}
    forfeited = 0
    for account, user_id, kind, amount in rows:
        if account == TABLE:
            held += amount
            if held == 0:
                stakes, pot, forfeited = {}, {}, 0
            continue
        if kind == "stake":
            stakes[user_id] = stakes.get(user_id, 0) - amount
        elif kind == "forfeit" and account == MEMBER:
            forfeited += stakes.pop(user_id, 0)
        elif kind == "plato":
            if amount < 0:
                pot[user_id] = pot.get(user_id, 0) - amount
            else:
                pot = {}
    return TableState(held=held, stakes=stakes, forfeited=forfeited, pot=pot)


async def table_results(source: Source, table_id: int) -> dict[int, int]:
    """What each member won (positive) or lost (negative) at a table, all its movements
    added up: stakes, payments, the plato, the payout."""
    rows = await fetchall(
        source,
        "SELECT user_id, SUM(amount) FROM ledger WHERE table_id = ? AND account = ?"
        " GROUP BY user_id ORDER BY user_id",
        (table_id, MEMBER),
    )
    return {int(user_id): int(total) for user_id, total in rows}


async def table_held(source: Source, table_id: int) -> int:
    """The chips a table holds: stakes and the plato pot."""
    return await scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE table_id = ? AND account = 'table'",
        (table_id,),
    )


async def table_pot(source: Source, table_id: int) -> int:
    """The chips in the table's plato pot."""
    return (await table_state(source, table_id)).pot_total


async def _check_funds(conn: Conn, guild_id: int, user_id: int, amount: int) -> int:
    available = await balance(conn, guild_id, user_id)
    if available < amount:
        raise InsufficientChips(user_id, amount, available)
    return available


async def hold_stakes(
    conn: Conn,
    guild_id: int,
    table_id: int,
    stakes: Mapping[int, int],
    now: float,
) -> None:
    """Every member in ``stakes`` puts that many chips into the table (one movement), or
    nobody does: :class:`InsufficientChips` names the first member short of chips."""
    for user_id, amount in stakes.items():
        positive("stake", amount)
        await _check_funds(conn, guild_id, user_id, amount)
    if not stakes:
        return
    entries = [party(user_id, table_id, "stake", -amount) for user_id, amount in stakes.items()]
    entries.append(table_entry(table_id, "stake", sum(stakes.values())))
    await post(conn, guild_id, now, entries)


async def forfeit_stake(conn: Conn, guild_id: int, table_id: int, user_id: int, now: float) -> int:
    """A member leaves mid-game: their stake stays in the table, no longer theirs. It goes to
    the winners with the rest when the table is released (the caller counts it in the
    payouts); if the game is cancelled instead, it goes to the bank. Returns the stake.

    No chips move, so the movement is one row of 0 chips in the leaver's account that marks
    the stake as forfeited."""
    stake = (await table_state(conn, table_id)).stakes.get(user_id, 0)
    if stake:
        await post(conn, guild_id, now, [party(user_id, table_id, "forfeit", 0)])
    return stake


async def _payable(conn: Conn, guild_id: int, payer: Account, amount: int, *, cap: bool) -> int:
    """What ``payer`` can pay of ``amount``: all of it (the bank always can), or, for a
    member short of chips, what they have with ``cap`` and :class:`InsufficientChips`
    without."""
    if payer is None:
        return amount
    available = await balance(conn, guild_id, payer)
    if available >= amount:
        return amount
    if not cap:
        raise InsufficientChips(payer, amount, available)
    return available


async def pot_deposit(
    conn: Conn,
    guild_id: int,
    table_id: int,
    payer: Account,
    amount: int,
    now: float,
    *,
    cap: bool = False,
) -> int:
    """``payer`` (a member, or the bank for a robot) puts ``amount`` into the plato pot.
    A member short of chips raises :class:`InsufficientChips`, or with ``cap`` puts in what
    they have. Returns what went in."""
    positive("amount", amount)
    amount = await _payable(conn, guild_id, payer, amount, cap=cap)
    if amount == 0:
        return 0
    entries = [party(payer, table_id, "plato", -amount), table_entry(table_id, "plato", amount)]
    await post(conn, guild_id, now, entries)
    return amount


async def pot_take(conn: Conn, guild_id: int, table_id: int, taker: Account, now: float) -> int:
    """``taker`` (a member, or the bank for a robot) takes the whole plato pot; returns it."""
    pot = await table_pot(conn, table_id)
    if pot > 0:
        entries = [table_entry(table_id, "plato", -pot), party(taker, table_id, "plato", pot)]
        await post(conn, guild_id, now, entries)
    return pot


async def release_table(
    conn: Conn,
    guild_id: int,
    table_id: int,
    payouts: Amounts,
    rake: int,
    now: float,
) -> None:
    """Pay out everything the table holds, as the game's settlement says: ``payouts`` to
    members (or to the bank, key None, for what robots win) and the bank's ``rake``. They
    must add up to exactly what the table holds (stakes, forfeited stakes and the pot)."""
    not_negative("rake", rake)
    for amount in payouts.values():
        not_negative("payout", amount)
    held = await table_held(conn, table_id)
    paid = sum(payouts.values()) + rake
    if paid != held:
        raise LedgerError(f"table {table_id} holds {held} chips but the settlement pays {paid}")
    if held == 0:
        return
    entries = [
        party(account, table_id, "payout", amount) for account, amount in payouts.items() if amount
    ]
    if rake:
        entries.append(Entry(BANK, None, table_id, "rake", rake))
    entries.append(table_entry(table_id, "payout", -held))
    await post(conn, guild_id, now, entries)


async def refund_table(conn: Conn, guild_id: int, table_id: int, now: float) -> dict[Account, int]:
    """A cancelled game: every stake goes back to its member and the plato pot to whoever
    put it in (the bank for the robots); forfeited stakes go to the bank. Returns what each
    account got back."""
    state = await table_state(conn, table_id)
    back: dict[Account, int] = {}
    for user_id, amount in state.stakes.items():
        back[user_id] = amount
    for account, amount in state.pot.items():
        back[account] = back.get(account, 0) + amount
    total = sum(back.values()) + state.forfeited
    if total != state.held:
        raise LedgerError(f"table {table_id} holds {state.held} chips but {total} are owned")
    if state.held == 0:
        return {}
    entries = [party(account, table_id, "refund", amount) for account, amount in back.items()]
    if state.forfeited:
        entries.append(Entry(BANK, None, table_id, "forfeit", state.forfeited))
    entries.append(table_entry(table_id, "refund", -state.held))
    await post(conn, guild_id, now, [e for e in entries if e.amount])
    return back


# ---------------------------------------------------------------------------- payments


async def settle_payments(
    conn: Conn,
    guild_id: int,
    table_id: int | None,
    deltas: Amounts,
    now: float,
) -> dict[Account, int]:
    """Payments between the players of a deal (arrastrado: round, cantes, tute, contracts),
    given as what each account wins (+) or pays (-), adding up to zero; robots' shares are
    summed into the bank's (None).

    The rules limit a payment to what the payer has: a member who owes more than their
    balance pays their whole balance, and the winners then share what was collected in
    proportion to what they were owed (largest remainders get the odd chips, so nothing is
    created or lost). The bank always pays in full. Returns the deltas actually applied."""
    if sum(deltas.values()) != 0:
        raise LedgerError(f"payments must add up to zero: {dict(deltas)}")
    paid: dict[Account, int] = {}
    for account, delta in deltas.items():
        if delta < 0:
            owed = -delta
            if account is not None:
                owed = min(owed, await balance(conn, guild_id, account))
            if owed:
                paid[account] = owed
    claims = {account: delta for account, delta in deltas.items() if delta > 0}
    collected = sum(paid.values())
    owed_total = sum(claims.values())
    received = _share(collected, claims, owed_total)
    applied: dict[Account, int] = {account: -amount for account, amount in paid.items()}
    applied.update({account: amount for account, amount in received.items() if amount})
    if applied:
        entries = [party(a, table_id, TRANSFER_KIND, amount) for a, amount in applied.items()]
        await post(conn, guild_id, now, entries)
    return applied


def _share(collected: int, claims: Mapping[Account, int], owed_total: int) -> dict[Account, int]:
    """Split ``collected`` among ``claims`` in proportion (largest remainder method)."""
    if collected >= owed_total:
        return dict(claims)
    shares = {account: claim * collected // owed_total for account, claim in claims.items()}
    left = collected - sum(shares.values())
    by_remainder = sorted(
        claims,
        key=lambda a: (-(claims[a] * collected % owed_total), a is None, a or 0),
    )
    for account in by_remainder[:left]:
        shares[account] += 1
    return shares


# ---------------------------------------------------------------------------- conservation


async def bank_balance(source: Source, guild_id: int) -> int:
    """The server's bank: rakes, forfeits on cancelled games, and the robots' side of every
    payment. It may be negative."""
    return await scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND account = 'bank'",
        (guild_id,),
    )


async def total_granted(source: Source, guild_id: int) -> int:
    """Every chip ever created in this server (starting chips, dailies, admin grants)."""
    return await scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND account = 'member'"
        f" AND kind IN ({', '.join('?' * len(GRANT_KINDS))})",
        (guild_id, *GRANT_KINDS),
    )


async def audit(source: Source, guild_id: int) -> Audit:
    """Check the server's chips: members + bank + tables + tournaments == granted, nobody
    below zero, every movement but a grant adding up to zero."""
    totals = await fetchall(
        source,
        "SELECT account, SUM(amount) FROM ledger WHERE guild_id = ? GROUP BY account",
        (guild_id,),
    )
    by_account = {account: int(total) for account, total in totals}
    negative = await fetchall(
        source,
        "SELECT user_id FROM ledger WHERE guild_id = ? AND account = 'member'"
        " GROUP BY user_id HAVING SUM(amount) < 0 ORDER BY user_id",
        (guild_id,),
    )
    unbalanced = await fetchall(
        source,
        "SELECT movement FROM ledger WHERE guild_id = ? AND movement IS NOT NULL"
        f" AND kind NOT IN ({', '.join('?' * len(GRANT_KINDS))})"
        " GROUP BY movement HAVING SUM(amount) <> 0 ORDER BY movement",
        (guild_id, *GRANT_KINDS),
    )
    return Audit(
        members=by_account.get(MEMBER, 0),
        bank=by_account.get(BANK, 0),
        tables=by_account.get(TABLE, 0),
        tournaments=by_account.get(TOURNAMENT, 0),
        granted=await total_granted(source, guild_id),
        negative_members=tuple(int(r[0]) for r in negative),
        unbalanced_movements=tuple(int(r[0]) for r in unbalanced),
    )
