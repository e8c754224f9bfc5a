"""The chips a tournament moves, each a change the tournament's save makes in its own
transaction (``TournamentService._save``): an entry paid, entries given back, the prizes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage import Conn, members
from bot.storage import entries as chips
from bot.storage.settings import get_settings

from .tournament import Draw, prizes
from .tournament_state import Tournament

Move = Callable[[Conn], Awaitable[object]]


def pay_entry(t: Tournament, user_id: int, clock: Callable[[], float]) -> Move:
    async def pay(conn: Conn) -> None:
        settings = await get_settings(conn, t.guild_id)
        now = clock()
        await members.ensure_member(conn, t.guild_id, user_id, settings.starting_chips, now)
        await chips.pay_entry(conn, t.guild_id, t.id, user_id, t.entry, now)

    return pay


def refund(t: Tournament, clock: Callable[[], float], user_id: int | None = None) -> Move:
    """Give back the entry of ``user_id``, or of everyone."""

    async def give_back(conn: Conn) -> object:
        return await chips.refund_entries(conn, t.guild_id, t.id, clock(), user_id=user_id)

    return give_back


def pay_prizes(t: Tournament, draw: Draw, clock: Callable[[], float]) -> Move:
    """Everything the tournament holds paid out by place (``t.prizes`` set to it). Who left
    takes no place (``Draw.places``); when every entrant left, nobody is paid and every
    entry goes back, as at a call-off."""

    async def pay(conn: Conn) -> None:
        places = draw.places()
        if not places:
            await chips.refund_entries(conn, t.guild_id, t.id, clock())
            return
        t.prizes = prizes(await chips.held(conn, t.id), places, len(draw.entrants))
        await chips.pay_prizes(conn, t.guild_id, t.id, t.prizes, clock())

    return pay
