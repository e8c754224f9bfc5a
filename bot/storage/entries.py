"""The chips of tournaments with an entry fee, in the ledger: a member who signs up pays the
fee into the tournament's account; a member who withdraws, or everyone when it is called
off, gets back exactly what they paid; at its end the tournament pays out everything it
holds as prizes. Each is one movement that adds up to zero, so :func:`ledger.audit` still
holds with the tournaments' account counted (members + bank + tables + tournaments ==
granted).

Every row of these movements carries the tournament's id, the member's rows included, so
what a member paid into a tournament is read from its own rows. Writes take the
``Conn`` that ``db.transaction()`` yields; reads take the
:class:`Database` or that connection.
"""

from __future__ import annotations

from collections.abc import Mapping

from ._movements import (
    MEMBER,
    TOURNAMENT,
    Entry,
    InsufficientChips,
    LedgerError,
    not_negative,
    positive,
    post,
    tournament_entry,
)
from ._sql import Source, fetchall, scalar
from .base import Conn
from .ledger import balance

ENTRY, REFUND, PRIZE = "entry", "entry_refund", "prize"
"""The kinds of the rows these movements write."""


def _member(user_id: int, tournament_id: int, kind: str, amount: int) -> Entry:
    return Entry(MEMBER, user_id, None, kind, amount, tournament_id)


async def held(source: Source, tournament_id: int) -> int:
    """The chips the tournament holds (the entries not yet paid out or given back)."""
    return await scalar(
        source,
        "SELECT SUM(amount) FROM ledger WHERE tournament_id = ? AND account = ?",
        (tournament_id, TOURNAMENT),
    )


async def paid_in(source: Source, tournament_id: int) -> dict[int, int]:
    """What each member has in the tournament: their entries less what was given back
    (members at 0 left out). Prizes are not counted."""
    rows = await fetchall(
        source,
        "SELECT user_id, -SUM(amount) FROM ledger WHERE tournament_id = ? AND account = ?"
        " AND kind IN (?, ?) GROUP BY user_id ORDER BY user_id",
        (tournament_id, MEMBER, ENTRY, REFUND),
    )
    return {int(user): int(amount) for user, amount in rows if amount}


async def pay_entry(
    conn: Conn,
    guild_id: int,
    tournament_id: int,
    user_id: int,
    fee: int,
    now: float,
) -> None:
    """The member pays ``fee`` into the tournament; :class:`InsufficientChips` if they do
    not have it (nothing is written)."""
    positive("fee", fee)
    available = await balance(conn, guild_id, user_id)
    if available < fee:
        raise InsufficientChips(user_id, fee, available)
    await post(
        conn,
        guild_id,
        now,
        [_member(user_id, tournament_id, ENTRY, -fee), tournament_entry(tournament_id, ENTRY, fee)],
    )


async def refund_entries(
    conn: Conn,
    guild_id: int,
    tournament_id: int,
    now: float,
    *,
    user_id: int | None = None,
) -> dict[int, int]:
    """Give back what members paid in: ``user_id``'s alone (they withdrew), or everyone's
    (the tournament was called off). Returns what each got back."""
    owed = await paid_in(conn, tournament_id)
    if user_id is not None:
        owed = {user_id: owed[user_id]} if user_id in owed else {}
    if not owed:
        return {}
    if sum(owed.values()) > await held(conn, tournament_id):
        raise LedgerError(f"tournament {tournament_id} no longer holds the entries {owed}")
    entries = [_member(user, tournament_id, REFUND, amount) for user, amount in owed.items()]
    entries.append(tournament_entry(tournament_id, REFUND, -sum(owed.values())))
    await post(conn, guild_id, now, entries)
    return owed


async def pay_prizes(
    conn: Conn,
    guild_id: int,
    tournament_id: int,
    prizes: Mapping[int, int],
    now: float,
) -> None:
    """Pay out everything the tournament holds: ``prizes`` per member, which must add up to
    exactly that (:class:`LedgerError` otherwise, nothing written)."""
    for amount in prizes.values():
        not_negative("prize", amount)
    total = await held(conn, tournament_id)
    if sum(prizes.values()) != total:
        raise LedgerError(
            f"tournament {tournament_id} holds {total} chips but the prizes are {dict(prizes)}"
        )
    if total == 0:
        return
    entries = [_member(user, tournament_id, PRIZE, amount) for user, amount in prizes.items()]
    entries.append(tournament_entry(tournament_id, PRIZE, -total))
    await post(conn, guild_id, now, [e for e in entries if e.amount])
