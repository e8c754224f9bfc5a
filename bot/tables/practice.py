"""A practice deal, offered at the end of the course (``/tute learn``): the member and a robot
partner against two robots, in pairs, in the member's DMs, at an ordinary friendly table of
the service. Friendly: no chips, no ratings, and the 💡 Hint on every turn. It belongs to no
server (``NO_SERVER``): the member may practise from anywhere, and no server's list or
limit of tables counts it, nor does it keep its member from hosting a table in a server
(``lobby.alone``). One practice deal at a time. Its game over offers a rematch, to practise
again."""

from __future__ import annotations

from typing import Final

from bot.engine import Variant

from .errors import TableError
from .lobby import NO_SERVER, Deliver, alone_options
from .model import Level
from .service import TableService
from .views import Outcome

PRACTICE_VARIANT: Final = Variant.PAIRS
PRACTICE_ROBOT: Final = Level.NORMAL
"""Robots that play by rule: strong enough to punish a careless card, not a wall."""
PRACTICE_TURN_TIME: Final = 300
"""Five minutes a turn: time to ask for a hint, read it and think; only robots wait."""


def practice_of(tables: TableService, user_id: int) -> int | None:
    """The member's practice table still open, if any: they practise one deal at a time."""
    held = [view.id for view in tables.open_tables(NO_SERVER) if view.host_id == user_id]
    return held[0] if held else None


async def deal_practice(
    tables: TableService, *, user_id: int, name: str, language: str, deliver: Deliver
) -> Outcome:
    """The practice button: refused (``TableError``) while the member's practice deal is
    open, or while another press of theirs is dealing one (``dealing``), before anything
    is sent; else its introduction is sent (``deliver``) and the deal starts there."""
    with tables.dealing_alone(user_id):
        held = practice_of(tables, user_id)
        if held is not None:
            raise TableError("already_hosting", table=held)
        channel_id = await deliver()
        return await open_practice(
            tables, user_id=user_id, name=name, language=language, channel_id=channel_id
        )


async def open_practice(
    tables: TableService, *, user_id: int, name: str, language: str, channel_id: int
) -> Outcome:
    """Start the member's practice deal at a table in ``channel_id`` (their DMs). Refused
    (``already_hosting``) while their practice table is open, which they finish or leave
    first (the service's own rule for a table of no server)."""
    view = await tables.open_table(
        guild_id=NO_SERVER,
        channel_id=channel_id,
        host_id=user_id,
        host_name=name,
        variant=PRACTICE_VARIANT,
        options=alone_options(PRACTICE_TURN_TIME),
        language=language,
        host_locale=language,
        hand_delivery="dm",
        robot_level=PRACTICE_ROBOT,
    )
    return await tables.start(view.id, user_id)
