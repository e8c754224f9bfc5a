"""Members' standings (experience, rounds, games, cantes, tutes) and their chips, as a
double-entry ledger.

Accounts. ``member`` (one per member and server, by user id), ``bank`` (one per server: the
house, which takes the rake and plays the robots' side of every payment) and ``table`` (the
chips a table holds: the stakes of the game in play and the plato pot).

Movements. Every change of a balance is a movement: one or more ledger rows that share a
``movement`` number and add up to zero. Only grants (kinds ``start``, ``daily``, ``admin``)
create chips: they are one row in a member's account with nothing on the other side. So at
any moment, per server::

    sum of the members' balances + the bank + what the tables hold == the chips granted

and :func:`audit` checks exactly that, plus that every other movement adds up to zero.

A balance is the sum of its rows; nothing is cached. A member's balance never goes below
zero: every function that takes chips from a member checks the balance inside the caller's
transaction, before writing anything, and raises :class:`InsufficientChips` (or, where the
rules limit a payment to what the payer has, pays what there is: ``cap=True`` and
:func:`settle_payments`). The bank has no such floor: it is the house and backs the robots,
so it may be in the red.

Writes take the ``aiosqlite.Connection`` that ``db.transaction()`` yields, so the table
service can put several of them and its own writes in one transaction. Reads take either the
:class:`Database` or that connection (to read inside the transaction). Times are passed in as
POSIX seconds (``now``) and dates as ``YYYY-MM-DD`` (``today``, in UTC): the bot's clock may
be simulated, so nothing here reads the clock.

What a table holds is attributed to the accounts that put it there, from the table's own
ledger rows (see :func:`table_state`), so a cancelled game gives everyone back exactly what
they put in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

import aiosqlite

from .db import Database

Source = Database | aiosqlite.Connection
Account = int | None
"""A member's user id, or None for the server's bank."""
Amounts = Mapping[int, int] | Mapping[Account, int]
"""Chips per account (a plain ``dict[int, int]`` when no bank is involved)."""

Board = Literal["chips", "xp", "games", "rounds"]
BOARDS: Final[tuple[Board, ...]] = get_args(Board)

GRANT_KINDS: Final = ("start", "daily", "admin")
# Movements in and out of a table; transfer() refuses these kinds so the table's own
# accounting (table_state) cannot be fooled.
TABLE_KINDS: Final = ("stake", "payout", "rake", "refund", "forfeit", "plato")
TRANSFER_KIND: Final = "transfer"

_MEMBER, _BANK, _TABLE = "member", "bank", "table"


# ---------------------------------------------------------------------------- errors


class LedgerError(Exception):
    """A movement that would break the ledger's rules; nothing was written."""


class InsufficientChips(LedgerError):
    """A member does not have the chips a movement takes from them."""

    def __init__(self, user_id: int, needed: int, available: int) -> None:
        super().__init__(f"member {user_id} needs {needed} chips but has {available}")
        self.user_id = user_id
        self.needed = needed
        self.available = available


class UnknownMember(LedgerError):
    """The member has never been seen in this server: call :func:`ensure_member` first."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__(f"member {user_id} is unknown in server {guild_id}")
        self.guild_id = guild_id
        self.user_id = user_id


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class MemberStats:
    """One member's standing in one server. ``rank`` is by chips (ties share a rank) among
    ``members`` members."""

    user_id: int
    balance: int
    rank: int
    members: int
    xp: int
    rounds_won: int
    rounds_played: int
    games_won: int
    games_played: int
    cantes: int
    tutes: int
    last_daily: str | None


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    value: int


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
    """The conservation check of one server's chips."""

    members: int
    bank: int
    tables: int
    granted: int
    negative_members: tuple[int, ...]
    unbalanced_movements: tuple[int, ...]

    @property
    def balanced(self) -> bool:
        return (
            self.members + self.bank + self.tables == self.granted
            and not self.negative_members
            and not self.unbalanced_movements
        )


# ---------------------------------------------------------------------------- helpers


async def _fetchone(source: Source, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
    if isinstance(source, Database):
        return await source.fetchone(sql, params)
    async with source.execute(sql, tuple(params)) as cursor:
        return await cursor.fetchone()


async def _fetchall(source: Source, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
    if isinstance(source, Database):
        return await source.fetchall(sql, params)
    async with source.execute(sql, tuple(params)) as cursor:
        return list(await cursor.fetchall())


async def _scalar(source: Source, sql: str, params: Sequence[Any] = ()) -> int:
    row = await _fetchone(source, sql, params)
    return int(row[0]) if row is not None and row[0] is not None else 0


def _positive(name: str, amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise LedgerError(f"{name} must be a positive whole number of chips, not {amount!r}")


def _not_negative(name: str, amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise LedgerError(f"{name} must be a whole number of chips, not {amount!r}")


@dataclass(frozen=True, slots=True)
class _Entry:
    account: str
    user_id: int | None
    table_id: int | None
    kind: str
    amount: int


def _party(account: Account, table_id: int | None, kind: str, amount: int) -> _Entry:
    """A row in a member's account (user id) or the bank's (None)."""
    if account is None:
        return _Entry(_BANK, None, table_id, kind, amount)
    return _Entry(_MEMBER, account, table_id, kind, amount)


async def _post(
    conn: aiosqlite.Connection, guild_id: int, now: float, entries: list[_Entry]
) -> int:
    """Write one movement; returns its number. Everything but a grant must add up to zero."""
    grant = all(e.kind in GRANT_KINDS for e in entries)
    if not grant and sum(e.amount for e in entries) != 0:
        raise LedgerError(f"a movement must add up to zero: {entries}")
    # The movement is numbered after its first row: the next AUTOINCREMENT id.
    movement = 1 + await _scalar(conn, "SELECT seq FROM sqlite_sequence WHERE name = 'ledger'")
    await conn.executemany(
        "INSERT INTO ledger (guild_id, account, user_id, table_id, kind, amount, created_at,"
        " movement) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (guild_id, e.account, e.user_id, e.table_id, e.kind, e.amount, now, movement)
            for e in entries
        ],
    )
    return movement


async def _require_member(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> None:
    row = await _fetchone(
        conn, "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    if row is None:
        raise UnknownMember(guild_id, user_id)


async def _check_funds(conn: aiosqlite.Connection, guild_id: int, user_id: int, amount: int) -> int:
    available = await balance(conn, guild_id, user_id)
    if available < amount:
        raise InsufficientChips(user_id, amount, available)
    return available


# ---------------------------------------------------------------------------- members


async def ensure_member(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, starting_chips: int, now: float
) -> bool:
    """Make sure the member exists in this server; the first time, they get the server's
    starting chips (a ``start`` grant). True when the member is new."""
    _not_negative("starting_chips", starting_chips)
    cursor = await conn.execute(
        "INSERT INTO members (guild_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (guild_id, user_id),
    )
    new = cursor.rowcount == 1
    await cursor.close()
    if new and starting_chips > 0:
        await _post(conn, guild_id, now, [_party(user_id, None, "start", starting_chips)])
    return new


async def is_member(source: Source, guild_id: int, user_id: int) -> bool:
    row = await _fetchone(
        source, "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return row is not None


async def balance(source: Source, guild_id: int, user_id: int) -> int:
    """A member's chips in this server (0 for a member never seen)."""
    return await _scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND account = 'member' AND user_id = ?",
        (guild_id, user_id),
    )


async def add_stats(
    conn: aiosqlite.Connection,
    guild_id: int,
    user_id: int,
    *,
    xp: int = 0,
    rounds_won: int = 0,
    rounds_played: int = 0,
    games_won: int = 0,
    games_played: int = 0,
    cantes: int = 0,
    tutes: int = 0,
) -> None:
    """Add to a member's counters (never subtract)."""
    counts = {
        "xp": xp,
        "rounds_won": rounds_won,
        "rounds_played": rounds_played,
        "games_won": games_won,
        "games_played": games_played,
        "cantes": cantes,
        "tutes": tutes,
    }
    for name, value in counts.items():
        _not_negative(name, value)
    cursor = await conn.execute(
        "UPDATE members SET xp = xp + ?, rounds_won = rounds_won + ?,"
        " rounds_played = rounds_played + ?, games_won = games_won + ?,"
        " games_played = games_played + ?, cantes = cantes + ?, tutes = tutes + ?"
        " WHERE guild_id = ? AND user_id = ?",
        (*counts.values(), guild_id, user_id),
    )
    updated = cursor.rowcount
    await cursor.close()
    if updated != 1:
        raise UnknownMember(guild_id, user_id)


# ---------------------------------------------------------------------------- grants


async def grant(
    conn: aiosqlite.Connection,
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
        _positive("amount", amount)
    await _require_member(conn, guild_id, user_id)
    current = await balance(conn, guild_id, user_id)
    if current + amount < 0:
        raise InsufficientChips(user_id, -amount, current)
    await _post(conn, guild_id, now, [_party(user_id, None, kind, amount)])
    return current + amount


async def claim_daily(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, amount: int, today: str, now: float
) -> bool:
    """The daily grant, at most once per UTC day (``today``: ``YYYY-MM-DD``). False when the
    member already had today's. The member must exist."""
    dt.date.fromisoformat(today)  # refuses anything but a date
    _not_negative("amount", amount)
    cursor = await conn.execute(
        "UPDATE members SET last_daily = ? WHERE guild_id = ? AND user_id = ?"
        " AND (last_daily IS NULL OR last_daily < ?)",
        (today, guild_id, user_id, today),
    )
    claimed = cursor.rowcount == 1
    await cursor.close()
    if not claimed:
        await _require_member(conn, guild_id, user_id)
        return False
    if amount > 0:
        await _post(conn, guild_id, now, [_party(user_id, None, "daily", amount)])
    return True


async def last_daily(source: Source, guild_id: int, user_id: int) -> str | None:
    row = await _fetchone(
        source,
        "SELECT last_daily FROM members WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return row[0] if row is not None else None


# ---------------------------------------------------------------------------- tables


async def table_state(source: Source, table_id: int) -> TableState:
    """What the table holds, attributed to whoever put it there.

    Replays the table's rows in order. A stake belongs to its member until they forfeit it;
    plato deposits belong to their payer until the pot is taken (always whole); whenever the
    table is emptied (a release, a refund) everything starts again from zero."""
    rows = await _fetchall(
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
        if account == _TABLE:
            held += amount
            if held == 0:
                stakes, pot, forfeited = {}, {}, 0
            continue
        if kind == "stake":
            stakes[user_id] = stakes.get(user_id, 0) - amount
        elif kind == "forfeit" and account == _MEMBER:
            forfeited += stakes.pop(user_id, 0)
        elif kind == "plato":
            if amount < 0:
                pot[user_id] = pot.get(user_id, 0) - amount
            else:
                pot = {}
    return TableState(held=held, stakes=stakes, forfeited=forfeited, pot=pot)


async def table_held(source: Source, table_id: int) -> int:
    """The chips a table holds: stakes and the plato pot."""
    return await _scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE table_id = ? AND account = 'table'",
        (table_id,),
    )


async def table_pot(source: Source, table_id: int) -> int:
    """The chips in the table's plato pot."""
    return (await table_state(source, table_id)).pot_total


async def hold_stakes(
    conn: aiosqlite.Connection,
    guild_id: int,
    table_id: int,
    stakes: Mapping[int, int],
    now: float,
) -> None:
    """Every member in ``stakes`` puts that many chips into the table (one movement), or
    nobody does: :class:`InsufficientChips` names the first member short of chips."""
    for user_id, amount in stakes.items():
        _positive("stake", amount)
        await _check_funds(conn, guild_id, user_id, amount)
    if not stakes:
        return
    entries = [_party(user_id, table_id, "stake", -amount) for user_id, amount in stakes.items()]
    entries.append(_Entry(_TABLE, None, table_id, "stake", sum(stakes.values())))
    await _post(conn, guild_id, now, entries)


async def hold_stake(
    conn: aiosqlite.Connection, guild_id: int, table_id: int, user_id: int, amount: int, now: float
) -> None:
    """A member puts ``amount`` into the table as their stake."""
    await hold_stakes(conn, guild_id, table_id, {user_id: amount}, now)


async def forfeit_stake(
    conn: aiosqlite.Connection, guild_id: int, table_id: int, user_id: int, now: float
) -> int:
    """A member leaves mid-game: their stake stays in the table, no longer theirs. It goes to
    the winners with the rest when the table is released (the caller counts it in the
    payouts); if the game is cancelled instead, it goes to the bank. Returns the stake.

    No chips move, so the movement is one row of 0 chips in the leaver's account that marks
    the stake as forfeited."""
    stake = (await table_state(conn, table_id)).stakes.get(user_id, 0)
    if stake:
        await _post(conn, guild_id, now, [_party(user_id, table_id, "forfeit", 0)])
    return stake


async def _payable(
    conn: aiosqlite.Connection, guild_id: int, payer: Account, amount: int, *, cap: bool
) -> int:
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
    conn: aiosqlite.Connection,
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
    _positive("amount", amount)
    amount = await _payable(conn, guild_id, payer, amount, cap=cap)
    if amount == 0:
        return 0
    await _post(
        conn,
        guild_id,
        now,
        [
            _party(payer, table_id, "plato", -amount),
            _Entry(_TABLE, None, table_id, "plato", amount),
        ],
    )
    return amount


async def pot_take(
    conn: aiosqlite.Connection, guild_id: int, table_id: int, taker: Account, now: float
) -> int:
    """``taker`` (a member, or the bank for a robot) takes the whole plato pot; returns it."""
    pot = await table_pot(conn, table_id)
    if pot > 0:
        await _post(
            conn,
            guild_id,
            now,
            [_Entry(_TABLE, None, table_id, "plato", -pot), _party(taker, table_id, "plato", pot)],
        )
    return pot


async def release_table(
    conn: aiosqlite.Connection,
    guild_id: int,
    table_id: int,
    payouts: Amounts,
    rake: int,
    now: float,
) -> None:
    """Pay out everything the table holds, as the game's settlement says: ``payouts`` to
    members (or to the bank, key None, for what robots win) and the bank's ``rake``. They
    must add up to exactly what the table holds (stakes, forfeited stakes and the pot)."""
    _not_negative("rake", rake)
    for amount in payouts.values():
        _not_negative("payout", amount)
    held = await table_held(conn, table_id)
    paid = sum(payouts.values()) + rake
    if paid != held:
        raise LedgerError(f"table {table_id} holds {held} chips but the settlement pays {paid}")
    if held == 0:
        return
    entries = [
        _party(account, table_id, "payout", amount) for account, amount in payouts.items() if amount
    ]
    if rake:
        entries.append(_Entry(_BANK, None, table_id, "rake", rake))
    entries.append(_Entry(_TABLE, None, table_id, "payout", -held))
    await _post(conn, guild_id, now, entries)


async def refund_table(
    conn: aiosqlite.Connection, guild_id: int, table_id: int, now: float
) -> dict[Account, int]:
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
    entries = [_party(account, table_id, "refund", amount) for account, amount in back.items()]
    if state.forfeited:
        entries.append(_Entry(_BANK, None, table_id, "forfeit", state.forfeited))
    entries.append(_Entry(_TABLE, None, table_id, "refund", -state.held))
    await _post(conn, guild_id, now, [e for e in entries if e.amount])
    return back


# ---------------------------------------------------------------------------- payments


async def transfer(
    conn: aiosqlite.Connection,
    guild_id: int,
    from_user: Account,
    to_user: Account,
    amount: int,
    kind: str,
    table_id: int | None,
    now: float,
    *,
    cap: bool = False,
) -> int:
    """Move chips between two members, or a member and the bank (None). A member short of
    chips raises :class:`InsufficientChips`, or with ``cap`` pays what they have. Returns
    what moved. ``kind`` is ``transfer`` or another kind of your own; grants and the table
    kinds have their own functions."""
    if kind in GRANT_KINDS or kind in TABLE_KINDS:
        raise LedgerError(f"{kind!r} movements have their own function")
    if from_user == to_user:
        raise LedgerError("a transfer needs two different accounts")
    _positive("amount", amount)
    amount = await _payable(conn, guild_id, from_user, amount, cap=cap)
    if amount == 0:
        return 0
    await _post(
        conn,
        guild_id,
        now,
        [_party(from_user, table_id, kind, -amount), _party(to_user, table_id, kind, amount)],
    )
    return amount


async def settle_payments(
    conn: aiosqlite.Connection,
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
        await _post(
            conn,
            guild_id,
            now,
            [
                _party(account, table_id, TRANSFER_KIND, amount)
                for account, amount in applied.items()
            ],
        )
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


# ---------------------------------------------------------------------------- standings


_BALANCES = (
    "SELECT m.user_id AS user_id, COALESCE(SUM(l.amount), 0) AS value FROM members m"
    " LEFT JOIN ledger l ON l.guild_id = m.guild_id AND l.account = 'member'"
    " AND l.user_id = m.user_id WHERE m.guild_id = ? GROUP BY m.user_id"
)
_COUNTERS: Final[dict[Board, str]] = {"xp": "xp", "games": "games_won", "rounds": "rounds_won"}


def _board_values(by: Board) -> str:
    """SELECT user_id, value of every member on the board ``by`` (one ``?``: the server)."""
    if by == "chips":
        return _BALANCES
    if by not in _COUNTERS:
        raise ValueError(f"unknown leaderboard {by!r}; choose one of {', '.join(BOARDS)}")
    column = _COUNTERS[by]
    # Counters start at zero; a board of them lists the members who have scored any.
    return f"SELECT user_id, {column} AS value FROM members WHERE guild_id = ? AND {column} > 0"


async def leaderboard(
    source: Source, guild_id: int, by: Board, offset: int = 0, limit: int = 10
) -> list[LeaderboardEntry]:
    """A page of the server's standings by chips, experience, games won or rounds won, best
    first (ties share a rank and are listed by user id)."""
    if offset < 0 or limit < 0:
        raise ValueError("offset and limit must not be negative")
    rows = await _fetchall(
        source,
        f"SELECT RANK() OVER (ORDER BY value DESC), user_id, value FROM ({_board_values(by)})"
        " ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
        (guild_id, limit, offset),
    )
    return [LeaderboardEntry(int(rank), int(user), int(value)) for rank, user, value in rows]


async def leaderboard_size(source: Source, guild_id: int, by: Board) -> int:
    """How many members the board ``by`` lists."""
    return await _scalar(source, f"SELECT COUNT(*) FROM ({_board_values(by)})", (guild_id,))


async def finished_records(source: Source, table_id: int, before: int) -> list[str]:
    """The game records (JSON) of a table's finished deals numbered below ``before``, in
    order: a game's rounds, cantes and tutes are counted from them when the game ends, so
    that a cancelled game counts for nothing."""
    rows = await _fetchall(
        source,
        "SELECT record FROM deals WHERE table_id = ? AND deal_no < ?"
        " AND finished_at IS NOT NULL ORDER BY deal_no",
        (table_id, before),
    )
    return [str(r[0]) for r in rows]


async def member_stats(source: Source, guild_id: int, user_id: int) -> MemberStats | None:
    """A member's standing in this server, or None for a member never seen here."""
    row = await _fetchone(
        source,
        "SELECT xp, rounds_won, rounds_played, games_won, games_played, cantes, tutes,"
        " last_daily FROM members WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        return None
    chips = await balance(source, guild_id, user_id)
    ranking = await _fetchone(
        source,
        f"SELECT COUNT(*), SUM(value > ?) FROM ({_BALANCES})",
        (chips, guild_id),
    )
    assert ranking is not None
    members, above = int(ranking[0]), int(ranking[1] or 0)
    xp, rounds_won, rounds_played, games_won, games_played, cantes, tutes, daily = tuple(row)
    return MemberStats(
        user_id=user_id,
        balance=chips,
        rank=above + 1,
        members=members,
        xp=xp,
        rounds_won=rounds_won,
        rounds_played=rounds_played,
        games_won=games_won,
        games_played=games_played,
        cantes=cantes,
        tutes=tutes,
        last_daily=daily,
    )


# ---------------------------------------------------------------------------- conservation


async def bank_balance(source: Source, guild_id: int) -> int:
    """The server's bank: rakes, forfeits on cancelled games, and the robots' side of every
    payment. It may be negative."""
    return await _scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND account = 'bank'",
        (guild_id,),
    )


async def total_granted(source: Source, guild_id: int) -> int:
    """Every chip ever created in this server (starting chips, dailies, admin grants)."""
    return await _scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE guild_id = ? AND account = 'member'"
        f" AND kind IN ({', '.join('?' * len(GRANT_KINDS))})",
        (guild_id, *GRANT_KINDS),
    )


async def audit(source: Source, guild_id: int) -> Audit:
    """Check the server's chips: members + bank + tables == granted, nobody below zero, every
    movement but a grant adding up to zero."""
    totals = await _fetchall(
        source,
        "SELECT account, SUM(amount) FROM ledger WHERE guild_id = ? GROUP BY account",
        (guild_id,),
    )
    by_account = {account: int(total) for account, total in totals}
    negative = await _fetchall(
        source,
        "SELECT user_id FROM ledger WHERE guild_id = ? AND account = 'member'"
        " GROUP BY user_id HAVING SUM(amount) < 0 ORDER BY user_id",
        (guild_id,),
    )
    unbalanced = await _fetchall(
        source,
        "SELECT movement FROM ledger WHERE guild_id = ? AND movement IS NOT NULL"
        f" AND kind NOT IN ({', '.join('?' * len(GRANT_KINDS))})"
        " GROUP BY movement HAVING SUM(amount) <> 0 ORDER BY movement",
        (guild_id, *GRANT_KINDS),
    )
    return Audit(
        members=by_account.get(_MEMBER, 0),
        bank=by_account.get(_BANK, 0),
        tables=by_account.get(_TABLE, 0),
        granted=await total_granted(source, guild_id),
        negative_members=tuple(int(r[0]) for r in negative),
        unbalanced_movements=tuple(int(r[0]) for r in unbalanced),
    )
