"""Messages said for a moment, each deleted once its moment passes: a turn's ping (sent late,
replaced, or still standing when the table ends) and Discord's notice of a game's thread. A
delete Discord refuses is never tried again, and touches nothing else."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.metrics import RefusalGuard
from cogs.tables.notices import ThreadNotices
from cogs.tables.outlet import Outlet
from cogs.tables.pings import TurnPings

CHANNEL = 7
BOT = 1


class Refused(discord.HTTPException):
    def __init__(self, status: int, code: int) -> None:
        self.status, self.code, self.text = status, code, "refused"
        Exception.__init__(self, "refused")


class FakeBot:
    """Records each send and delete; a delete may be refused; a send may be held."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.deleted: list[int] = []
        self.refuse: dict[int, Refused] = {}
        self.hold: asyncio.Event | None = None
        self.user = SimpleNamespace(id=BOT)

    def get_partial_messageable(self, channel_id: int) -> FakeBot:
        return self

    def get_partial_message(self, message_id: int) -> Any:
        bot = self

        class Partial:
            async def delete(self) -> None:
                bot.deleted.append(message_id)
                if message_id in bot.refuse:
                    raise bot.refuse[message_id]

        return Partial()

    async def send(self, *_: Any, **__: Any) -> Any:
        if self.hold is not None:
            await self.hold.wait()
        self.sent.append(100 + len(self.sent))
        return SimpleNamespace(id=self.sent[-1])


class FakeOutlet:
    def __init__(self, bot: FakeBot, guard: RefusalGuard | None = None) -> None:
        self.bot = bot
        self.shut_for: list[object] = []
        self.guard = guard

    def optional(self) -> bool:
        return self.guard is None or self.guard.optional

    async def sleep(self, _: float) -> None:
        await asyncio.sleep(0)

    def closes(self, table: Any, error: discord.HTTPException) -> bool:
        return False

    def shut(self, place: Any, reason: object) -> None:
        self.shut_for.append(reason)

    delete = Outlet.delete  # the real one, through this fake's bot


TABLE = cast(
    Any, SimpleNamespace(id=3, language="en", options=SimpleNamespace(turn_time=60), seats=())
)
PLACE = cast(Any, SimpleNamespace(closed=False, where_id=CHANNEL))


def hand(*, your_turn: bool, notify: bool) -> Any:
    occupant = SimpleNamespace(user_id=42)
    return SimpleNamespace(seat=0, occupant=occupant, your_turn=your_turn, notify=notify)


def pings() -> tuple[TurnPings, FakeBot]:
    bot = FakeBot()
    return TurnPings(cast(Any, FakeOutlet(bot))), bot


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_ping_goes_once_its_turn_is_played() -> None:
    turns, bot = pings()
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()
    assert bot.sent == [100]
    await turns.over(TABLE, hand(your_turn=False, notify=False))
    assert bot.deleted == [100]
    await turns.over(TABLE, hand(your_turn=False, notify=False))
    assert bot.deleted == [100], "deleted once"


async def test_a_ping_sent_as_its_turn_was_played_goes_at_once() -> None:
    turns, bot = pings()
    bot.hold = asyncio.Event()
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()  # on its way
    await turns.over(TABLE, hand(your_turn=False, notify=False))
    bot.hold.set()
    await settle()
    assert bot.sent == [100] and bot.deleted == [100]


async def test_a_new_ping_replaces_the_one_standing() -> None:
    turns, bot = pings()
    bot.hold = asyncio.Event()
    first = hand(your_turn=True, notify=True)
    turns.later(TABLE, PLACE, first)
    await settle()
    bot.hold.set()  # the first goes out...
    await settle()
    # ...and one that raced it, with no turn over between them, replaces it
    await turns._ping(TABLE, PLACE, first)  # pyright: ignore[reportPrivateUsage]
    assert bot.sent == [100, 101] and bot.deleted == [100]


async def test_a_ping_standing_when_the_table_ends_goes() -> None:
    turns, bot = pings()
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()
    turns.forget_table(TABLE.id)
    await settle()
    assert bot.deleted == [100]


@pytest.mark.parametrize(("status", "code"), [(403, 50013), (404, 10008)])
async def test_a_refused_delete_is_not_tried_again(status: int, code: int) -> None:
    turns, bot = pings()
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()
    bot.refuse[100] = Refused(status, code)
    await turns.over(TABLE, hand(your_turn=False, notify=False))
    await turns.over(TABLE, hand(your_turn=False, notify=False))
    turns.forget_table(TABLE.id)
    await settle()
    assert bot.deleted == [100], "one try"
    # the next turn pings as before
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()
    assert bot.sent == [100, 101]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_no_ping_while_refused_requests_near_the_ban() -> None:
    """Past the limit of refused requests in ten minutes (Discord bans the IP at 10,000),
    turns are not pinged; ten minutes later they are again."""
    clock = Clock()
    guard = RefusalGuard(clock, limit=3)
    bot = FakeBot()
    turns = TurnPings(cast(Any, FakeOutlet(bot, guard)))
    for _ in range(3):
        guard.refused(403)
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()
    assert bot.sent == [], "not pinged"
    clock.now += 601
    turns.later(TABLE, PLACE, hand(your_turn=True, notify=True))
    await settle()
    assert bot.sent == [100], "pinged again once the refusals are ten minutes old"


def notice(thread_id: int, *, author: int = BOT, message_id: int = 500) -> Any:
    return SimpleNamespace(
        type=discord.MessageType.thread_created,
        author=SimpleNamespace(id=author),
        reference=SimpleNamespace(channel_id=thread_id, message_id=None),
        channel=SimpleNamespace(id=CHANNEL),
        id=message_id,
    )


async def test_the_notice_of_a_tables_thread_goes_whichever_comes_first() -> None:
    bot = FakeBot()
    notices = ThreadNotices(cast(Any, bot))
    await notices.made(900)
    await notices.seen(notice(900, message_id=501))
    await notices.seen(notice(901, message_id=502))  # seen before its thread is known
    assert bot.deleted == [501]
    await notices.made(901)
    assert bot.deleted == [501, 502]


async def test_other_notices_stay() -> None:
    bot = FakeBot()
    notices = ThreadNotices(cast(Any, bot))
    await notices.made(900)
    await notices.seen(notice(900, author=77))  # a member's thread
    await notices.seen(notice(903))  # a thread the bot made for no table
    assert bot.deleted == []


async def test_a_refused_notice_delete_is_not_tried_again() -> None:
    bot = FakeBot()
    bot.refuse[501] = Refused(403, 50013)
    notices = ThreadNotices(cast(Any, bot))
    await notices.made(900)
    await notices.seen(notice(900, message_id=501))
    await notices.seen(notice(900, message_id=501))  # the same event again
    assert bot.deleted == [501]
