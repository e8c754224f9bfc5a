"""Who may see what of a table: the one audience rule. Every door that shows a table, a
deal's tricks or a finished deal asks it here (the chat's Tricks and Play at the table, the
card table's sockets, ``/tute history`` and the summaries' Replay, the card table's
``/api/replays``); no door decides it again.

The rule, in words:

- **A member who sat at the table** (still seated, away, or gone with a robot in their
  seat) sees its play and replays its deals, from anywhere: their server, their DMs, the
  card table.
- **Anybody else** asks from somewhere: a server, or a DM or group DM, which stands for a
  server (its tables are that conversation's own). They see only that place's tables:
  a table of another place is refused (``watch_elsewhere``, ``replay_elsewhere``), and
  from their DMs nothing but what they sat at is theirs.
- **A lobby** is public where it is posted: anybody there sees who sits (to join).
- **A game in play** with ``spectators`` on is watched by anybody of its place; with
  ``spectators`` off only by those who sat at it (``watch_private``): not on the card
  table, not through its Tricks. A member's own deal in their DMs (a practice deal, a
  daily deal) plays with spectators off: it is theirs alone.
- **A finished deal** of a game with spectators off is replayed only by those who sat at
  it (``replay_private``): the players chose to be unwatched, so their cards stay theirs
  after the deal too. A game with spectators on is replayed by anybody of its place.
- **The daily deal** is the server's deal of the day, the same cards for everyone, and its
  board is the server's: once no member can gain by it, any member of the server may step
  through another's copy. Until then it is kept (``daily_secret``): from a member who has
  not played that day's deal while the day lasts (they may still be dealt it), and from a
  member whose own copy of it still plays, past midnight too. A member who finished their
  own copy (or left it) may compare it with the others' at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.engine import Options
from bot.storage import daily as daily_store
from bot.storage._sql import Source
from bot.storage.replays import StoredDeal

from .errors import TableError
from .model import Seat, Status


class Watched(Protocol):
    """What the rule reads of a table (a :class:`Table` or its :class:`TableView`)."""

    @property
    def guild_id(self) -> int: ...

    @property
    def status(self) -> Status: ...

    @property
    def options(self) -> Options: ...

    @property
    def seats(self) -> Sequence[Seat | None]: ...


def place_of(guild_id: int | None, channel_id: int) -> int:
    """Where a member asks from, as tables are filed: the server, or the conversation
    itself (a DM, a group DM) when there is none."""
    return channel_id if guild_id is None else guild_id


def sat_at(table: Watched, user_id: int | None) -> bool:
    """Whether the member sat at the table: seated now, away, or gone (a robot in their
    seat still keeps their id)."""
    return user_id is not None and any(
        seat is not None and seat.user_id == user_id for seat in table.seats
    )


def watch_refusal(table: Watched, user_id: int | None, place: int) -> str | None:
    """Why the member (None: nobody known) asking from ``place`` may not see the table as
    it plays (its trick, the cards played, its Tricks); None where they may."""
    if sat_at(table, user_id):
        return None
    if place != table.guild_id:
        return "watch_elsewhere"
    if table.status is Status.LOBBY:
        return None
    if not table.options.spectators:
        return "watch_private"
    return None


def may_watch(table: Watched, user_id: int | None, place: int) -> bool:
    return watch_refusal(table, user_id, place) is None


def check_watch(table: Watched, user_id: int | None, place: int) -> None:
    """:func:`watch_refusal`, as a refusal in words (``TableError``)."""
    key = watch_refusal(table, user_id, place)
    if key is not None:
        raise TableError(key)


async def check_replay(
    source: Source,
    deal: StoredDeal,
    spectators: bool,
    *,
    user_id: int,
    place: int | None,
    now: float,
) -> None:
    """Refused (``TableError``) where the member asking from ``place`` (None: their own
    DMs, where only what they sat at is theirs) may not step through this finished deal;
    ``spectators``: whether its game let others watch."""
    sat = user_id in deal.members.values()
    if (not sat) if place is None else place != deal.guild_id:
        # from a server, that server's deals alone (the member's own of another server
        # too are listed in their DMs)
        raise TableError("replay_elsewhere")
    if not deal.finished:
        raise TableError("replay_unfinished", id=deal.table_id, deal=deal.deal_no + 1)
    if sat:
        return
    attempt = await daily_store.at_table(source, deal.table_id)
    if attempt is not None:
        if await _daily_kept(source, attempt, user_id, now):
            raise TableError("daily_secret")
        return
    if not spectators:
        raise TableError("replay_private")


async def kept_secret(source: Source, table_id: int, user_id: int, now: float) -> bool:
    """Whether a table's daily deal is kept from this member (see the module's rule); False
    for a table that plays no daily deal, and for its own player."""
    attempt = await daily_store.at_table(source, table_id)
    return attempt is not None and await _daily_kept(source, attempt, user_id, now)


async def _daily_kept(
    source: Source, attempt: daily_store.Attempt, user_id: int, now: float
) -> bool:
    if attempt.user_id == user_id:
        return False
    own = await daily_store.get(source, attempt.guild_id, user_id, attempt.day)
    if own is not None:
        return own.status == "playing"  # their copy of the same cards still plays
    return attempt.day >= daily_store.day_of(now)  # they may still be dealt it today
