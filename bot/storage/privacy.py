"""What the bot keeps about one member, read back (:func:`member_data`) and erased on their
request (:func:`erase_member`, ``/tute privacy erase``), in every server at once.

Where a member's data lives
===========================

By their Discord user id (``user_id`` unless said), in every server (``guild_id``):

============================ =========================================================
``members``                  their standing in a server: experience, rounds and games
                             won and played, cantes, tutes, the day of their last daily
                             grant (one row per server).
``member_preferences``       their switches in a server (``notify_turn``).
``ratings``                  their skill rating per family of variants, with the one
                             before their last rated game (the history behind it is
                             ``rated_games``).
``rated_games.result``       JSON: every kept competitive game, who sat on which side
                             (``{"user": id}``) and the places; the ratings and the
                             seasons' boards are replayed from it.
``daily_deals``              their daily deal of each day: its score, tricks, cantes,
                             hints (the daily boards and streaks read it).
``ledger``                   their chips: every grant, stake, payment, payout, refund,
                             entry fee and prize, as rows of their account
                             (``account = 'member'``).
``deal_players``             who sat in which seat of every deal stored.
``reviews``                  the review of their decisions in a finished deal (JSON:
                             marks, costs, better choices; no name), once asked; kept
                             until they erase it, or the server's data goes.
``tables``                   ``host_id``; ``channel_id`` (a daily deal's table plays in
                             the member's DMs); ``state``, JSON: the seats (``name``,
                             ``user_id``, when their account was made and when they
                             joined the server), the log (``who``: name and id), the
                             last deal's summary (``names``, by seat), ``stakes`` (by
                             id), ``invited``, ``cancel_votes``.
``table_places.hands``       JSON: where each player's hand is (``user``, the DM
                             ``channel`` and ``message``).
``tournaments``              ``host_id``; ``state``, JSON: ``entrants`` (``[id,
                             name]``), the draw (ids), ``prizes`` (by id).
============================ =========================================================

``guild_id`` is a server's id, or, for a table played in a DM or a group DM (the app
installed to a user), that conversation's channel id (``bot.tables.audience.place_of``):
the member's chips and standing there are filed under it like a server's.

Nothing of a member is in ``actions`` and ``deals.record`` (seats only),
``guild_settings``, ``seasons``, ``tournament_places``, ``shard_leases``, ``daily_key`` or
``erasures``. Names are kept as the member showed them when they sat down or signed up:
only in ``tables.state`` and ``tournaments.state``.

Erasing a member
================

In one transaction, across every server: their rows in ``members``,
``member_preferences``, ``ratings``, ``daily_deals`` and ``reviews`` are deleted. What others' records
need of them stays, under a pseudonymous id (minus the number of the erasure, kept in
``erasures``: never a Discord id) and the name "a former player" in each record's own
language: their seats, log lines and summaries in finished tables, their place in
finished tournaments, in ``deal_players`` and in ``rated_games``. Their ledger rows are
reassigned to the pseudonymous id, so each server's chips still add up (:func:`ledger.audit
<bot.storage.ledger.audit>`: their chips stay in the members' total, in an account nobody
holds, on no board since it has no ``members`` row) and every finished game keeps its
scores and payments. The DM channel of a daily deal's table, and of their hands, is
forgotten; the ids a conversation's tables are filed under (above) stay, on rows that name
the member no more.

A member seated at a table in its lobby or in play (or who left one still in play: its
state still names them), who hosts one, or who is in a tournament not over (signed up,
playing or knocked out, or hosting it) is refused (:class:`MemberBusy`): those records
are still being written, so the member leaves (or waits for the end) and asks again.
Open tables are never rewritten here (the table service saves them from memory): one that
names the member without seating them (an invitation, a lobby they joined and left) is
made to forget them by the service first (``Notes.forget``, for the tables its process
holds; with several processes, another process's open table still names them).

Every read here scans the tables' and tournaments' states for the member's id (a LIKE
over their text, on both engines): an erasure is rare, and its cost is one pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ._scrub import FormerName, Scrub, mentions, parse
from ._sql import Source, fetchall, scalar
from .base import Conn, Database
from .tables import OPEN_STATUSES
from .tournaments import ACTIVE_STATUSES

ERASURE_LOCK: Final = 0x7475746500000002
"""The advisory lock key every erasure holds first ("tute", 2): never a Discord id."""


def is_pseudonym(user_id: int) -> bool:
    """Whether an id names a former player (an erased member) rather than a Discord user."""
    return user_id < 0


class MemberBusy(Exception):
    """The member still plays: at a table not over (``kind`` "table") or in a tournament
    not over ("tournament"), ``number`` its id. Nothing was erased."""

    def __init__(self, kind: str, number: int) -> None:
        super().__init__(f"member is still in {kind} {number}")
        self.kind = kind
        self.number = number


# ---------------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class ServerData:
    """What one server keeps about the member."""

    guild_id: int
    standing: bool
    """Their row of experience, rounds and games."""
    games_played: int
    chips: int
    ledger_rows: int
    ratings: int
    """Families of variants they are rated in."""
    daily: int
    """Daily deals kept."""
    preferences: int
    reviews: int
    """Reviews of their decisions in finished deals, kept once asked."""


@dataclass(frozen=True, slots=True)
class MemberData:
    """What the bot keeps about a member: per server, and in the records of games and
    tournaments (every server together)."""

    servers: tuple[ServerData, ...]
    tables: int
    """Tables whose saved state names them (finished or not)."""
    deals: int
    """Deals they sat in, as stored."""
    tournaments: int
    rated_games: int

    @property
    def empty(self) -> bool:
        return not self.servers and not (
            self.tables or self.deals or self.tournaments or self.rated_games
        )


DELETED: Final = (
    ("members", "standings"),
    ("member_preferences", "preferences"),
    ("ratings", "ratings"),
    ("daily_deals", "daily"),
    ("reviews", "reviews"),
)
"""The tables whose rows of a member (by server) an erasure deletes, each with what it
counts as (:class:`Erased`); the ledger's rows move to the stand-in id instead."""


def _like(user_id: int) -> str:
    return f"%{user_id}%"


async def member_data(source: Source, user_id: int) -> MemberData:
    """Everything :func:`erase_member` would erase or make anonymous, counted."""
    guilds: set[int] = set()
    for table in ("ledger", *(name for name, _ in DELETED)):
        sql = f"SELECT DISTINCT guild_id FROM {table} WHERE user_id = ?"
        guilds.update(int(row[0]) for row in await fetchall(source, sql, (user_id,)))
    servers: list[ServerData] = []
    for guild_id in sorted(guilds):
        key = (guild_id, user_id)
        where = " WHERE guild_id = ? AND user_id = ?"
        standing = await fetchall(source, "SELECT games_played FROM members" + where, key)
        servers.append(
            ServerData(
                guild_id=guild_id,
                standing=bool(standing),
                games_played=int(standing[0][0]) if standing else 0,
                chips=await scalar(
                    source,
                    "SELECT SUM(amount) FROM ledger" + where + " AND account = 'member'",
                    key,
                ),
                ledger_rows=await scalar(source, "SELECT COUNT(*) FROM ledger" + where, key),
                ratings=await scalar(source, "SELECT COUNT(*) FROM ratings" + where, key),
                daily=await scalar(source, "SELECT COUNT(*) FROM daily_deals" + where, key),
                preferences=await scalar(
                    source, "SELECT COUNT(*) FROM member_preferences" + where, key
                ),
                reviews=await scalar(source, "SELECT COUNT(*) FROM reviews" + where, key),
            )
        )
    return MemberData(
        servers=tuple(servers),
        tables=await scalar(
            source,
            "SELECT COUNT(*) FROM tables WHERE host_id = ? OR state LIKE ?",
            (user_id, _like(user_id)),
        ),
        deals=await scalar(
            source, "SELECT COUNT(*) FROM deal_players WHERE user_id = ?", (user_id,)
        ),
        tournaments=await scalar(
            source,
            "SELECT COUNT(*) FROM tournaments WHERE host_id = ? OR state LIKE ?",
            (user_id, _like(user_id)),
        ),
        rated_games=await scalar(
            source, "SELECT COUNT(*) FROM rated_games WHERE result LIKE ?", (_like(user_id),)
        ),
    )


# ---------------------------------------------------------------------------- erasing


@dataclass(slots=True)
class Erased:
    """What an erasure did: rows deleted, and records that name the member no more."""

    servers: set[int] = field(default_factory=set[int])
    standings: int = 0
    preferences: int = 0
    ratings: int = 0
    daily: int = 0
    reviews: int = 0
    ledger_rows: int = 0
    chips: int = 0
    """Their chips, in every server together, now in the former player's account."""
    tables: int = 0
    deals: int = 0
    tournaments: int = 0
    rated_games: int = 0


async def erase_member(db: Database, user_id: int, former_name: FormerName) -> Erased:
    """Erase what the bot keeps about ``user_id`` in every server, in one transaction (see
    the module's docstring): :class:`MemberBusy` while they still play, with nothing
    written."""
    if is_pseudonym(user_id):
        raise ValueError("a former player has nothing left to erase")
    erased = Erased()
    async with db.transaction() as conn:
        await conn.lock(ERASURE_LOCK)
        guilds = sorted(
            int(row[0])
            for row in await conn.fetchall(
                "SELECT DISTINCT guild_id FROM ledger WHERE user_id = ?", (user_id,)
            )
        )
        for guild_id in guilds:  # no chips of theirs move meanwhile (ledger.balance)
            await conn.lock(guild_id)
        busy = await still_playing(conn, user_id)
        if busy is not None:
            raise busy
        pseudonym = -(await conn.insert("INSERT INTO erasures DEFAULT VALUES"))
        by_user = (user_id,)
        for table, counter in DELETED:
            for row in await conn.fetchall(
                f"SELECT DISTINCT guild_id FROM {table} WHERE user_id = ?", by_user
            ):
                erased.servers.add(int(row[0]))
            setattr(
                erased,
                counter,
                await conn.execute(f"DELETE FROM {table} WHERE user_id = ?", by_user),
            )
        erased.servers.update(guilds)
        erased.chips = await scalar(
            conn,
            "SELECT SUM(amount) FROM ledger WHERE user_id = ? AND account = 'member'",
            by_user,
        )
        erased.ledger_rows = await conn.execute(
            "UPDATE ledger SET user_id = ? WHERE user_id = ?", (pseudonym, user_id)
        )
        erased.deals = await conn.execute(
            "UPDATE deal_players SET user_id = ? WHERE user_id = ?", (pseudonym, user_id)
        )
        scrub = Scrub(user_id, pseudonym, former_name)
        erased.tables = await _scrub_tables(conn, scrub)
        erased.tournaments = await _scrub_tournaments(conn, scrub)
        erased.rated_games = await _scrub_rows(conn, "rated_games", "id", "result", scrub)
        await _scrub_places(conn, scrub)
    return erased


async def still_playing(source: Source, user_id: int) -> MemberBusy | None:
    """Why the member may not be erased yet (see the module's docstring); None: they may."""
    marks = ", ".join("?" * len(OPEN_STATUSES))
    rows = await fetchall(
        source,
        f"SELECT id, host_id, state FROM tables WHERE status IN ({marks})"
        " AND (host_id = ? OR state LIKE ?) ORDER BY id",
        (*OPEN_STATUSES, user_id, _like(user_id)),
    )
    for table_id, host_id, state in rows:
        seats = parse(state).get("seats")
        seated = isinstance(seats, list) and any(
            isinstance(s, dict) and s.get("user_id") == user_id for s in seats
        )
        if int(host_id) == user_id or seated:
            return MemberBusy("table", int(table_id))
    marks = ", ".join("?" * len(ACTIVE_STATUSES))
    rows = await fetchall(
        source,
        f"SELECT id, host_id, state FROM tournaments WHERE status IN ({marks})"
        " AND (host_id = ? OR state LIKE ?) ORDER BY id",
        (*ACTIVE_STATUSES, user_id, _like(user_id)),
    )
    for tournament_id, host_id, state in rows:
        if int(host_id) == user_id or mentions(parse(state), user_id):
            return MemberBusy("tournament", int(tournament_id))
    return None


async def _scrub_tables(conn: Conn, scrub: Scrub) -> int:
    """Every table over whose state or host names the member. Open ones are the table
    service's, which saves them from memory: the member sits at none (refused before);
    one that names them otherwise is the service's to make forget them (``Notes.forget``)."""
    user = scrub.user_id
    marks = ", ".join("?" * len(OPEN_STATUSES))
    rows = await conn.fetchall(
        "SELECT id, host_id, channel_id, state FROM tables"
        f" WHERE (host_id = ? OR state LIKE ?) AND status NOT IN ({marks})",
        (user, _like(user), *OPEN_STATUSES),
    )
    for table_id, host_id, channel_id, state in rows:
        data = parse(state)
        mine = int(host_id) == user
        # a daily deal plays in the member's DMs: that channel is theirs
        in_their_dms = mine and bool(data.get("daily"))
        await conn.execute(
            "UPDATE tables SET host_id = ?, channel_id = ?, state = ? WHERE id = ?",
            (
                scrub.pseudonym if mine else host_id,
                0 if in_their_dms else channel_id,
                scrub.text(str(state), None),
                table_id,
            ),
        )
        if in_their_dms:
            await conn.execute("DELETE FROM table_places WHERE table_id = ?", (table_id,))
    return len(rows)


async def _scrub_tournaments(conn: Conn, scrub: Scrub) -> int:
    """Every tournament over that names the member (none running names them: refused
    before; the tournament service saves those from memory)."""
    user = scrub.user_id
    marks = ", ".join("?" * len(ACTIVE_STATUSES))
    rows = await conn.fetchall(
        "SELECT id, host_id, state FROM tournaments"
        f" WHERE (host_id = ? OR state LIKE ?) AND status NOT IN ({marks})",
        (user, _like(user), *ACTIVE_STATUSES),
    )
    for tournament_id, host_id, state in rows:
        await conn.execute(
            "UPDATE tournaments SET host_id = ?, state = ? WHERE id = ?",
            (
                scrub.pseudonym if int(host_id) == user else host_id,
                scrub.text(str(state), None),
                tournament_id,
            ),
        )
    return len(rows)


async def _scrub_rows(conn: Conn, table: str, key: str, column: str, scrub: Scrub) -> int:
    """Every row of ``table`` whose JSON ``column`` holds the member's id, rewritten."""
    columns = [c.strip() for c in key.split(",")]
    rows = await conn.fetchall(
        f"SELECT {key}, {column} FROM {table} WHERE {column} LIKE ?", (_like(scrub.user_id),)
    )
    where = " AND ".join(f"{c} = ?" for c in columns)
    for row in rows:
        values = tuple(row)
        await conn.execute(
            f"UPDATE {table} SET {column} = ? WHERE {where}",
            (scrub.text(str(values[-1]), None), *values[:-1]),
        )
    return len(rows)


async def _scrub_places(conn: Conn, scrub: Scrub) -> None:
    """Where the member's hands were sent (their DMs) is forgotten."""
    await _scrub_rows(conn, "table_places", "table_id", "hands", scrub)
