"""The buttons of a table: the lobby's, the table's and a hand's, as persistent
``DynamicItem``s. Buttons carry ids, never state: each custom_id names the table (and for a
hand, the deal and the trick it was drawn for); what a click does is in :mod:`clicks`. The
formats never change: buttons of messages posted before an upgrade keep working.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, ClassVar, Final, Generic, Self, TypedDict, TypeVar, Unpack, cast

import discord

from bot.tables.errors import TableError

from .common import guarded


class TuteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tute:(?!)"):
    """A button of a table, its custom_id ``tute:<kind>:<table id>:<part>:...``.

    Each subclass names its kind and its parts (with the pattern each must match) in its class
    line; this base makes the custom_id, parses it back when a click arrives (after a restart
    too: the formats never change) and answers refusals and errors. What a click does is
    registered with :func:`on_click`.
    """

    kind: ClassVar[str]
    part_names: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, *, kind: str = "", parts: dict[str, str] | None = None) -> None:
        if not kind or parts is None:  # a base of buttons, no button of its own
            super().__init_subclass__(template=r"tute:(?!)")
            return
        cls.kind = kind
        cls.part_names = tuple(parts)
        fields = "".join(f":(?P<{name}>{pattern})" for name, pattern in parts.items())
        super().__init_subclass__(template=rf"tute:{kind}:(?P<tid>\d+){fields}")

    def __init__(
        self,
        table_id: int,
        *parts: int | str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        emoji: discord.PartialEmoji | str | None = None,
    ) -> None:
        if len(parts) != len(self.part_names):
            raise TypeError(f"{type(self).__name__} takes the parts {self.part_names}")
        self.table_id = table_id
        self.parts = tuple(str(part) for part in parts)
        super().__init__(
            discord.ui.Button(
                label=label or self.parts[-1],
                style=style,
                custom_id=":".join(("tute", self.kind, str(table_id), *self.parts)),
                disabled=disabled,
                row=row,
                emoji=emoji,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["tid"]), *(match[name] for name in cls.part_names))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, self.run(interaction))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """What the click does: the handler of this kind of button (:mod:`clicks`)."""
        handler = _CLICKS.get(type(self))
        if handler is None or self.stale:
            raise TableError("stale")
        await handler(self, interaction)

    @property
    def stale(self) -> bool:
        """The custom_id names something this bot no longer does: its click is refused."""
        return False


B = TypeVar("B", bound=TuteButton)
ClickHandler = Callable[[Any, discord.Interaction[Any]], Awaitable[None]]
_CLICKS: dict[type[TuteButton], ClickHandler] = {}


def on_click(
    kind: type[B],
) -> Callable[[Callable[[B, discord.Interaction[Any]], Awaitable[None]]], ClickHandler]:
    """Make the decorated function what a click on a ``kind`` button does."""

    def register(handler: Callable[[B, discord.Interaction[Any]], Awaitable[None]]) -> ClickHandler:
        _CLICKS[kind] = handler
        return handler

    return register


class Look(TypedDict, total=False):
    """How a button looks: everything but its custom_id."""

    label: str
    style: discord.ButtonStyle
    disabled: bool
    row: int | None
    emoji: discord.PartialEmoji | str | None


Op = TypeVar("Op", bound=StrEnum)


class OpButton(TuteButton, Generic[Op]):
    """A button that does one of a few things, its op (a member of ``ops``, whose value is
    the custom_id's last part: ``tute:<kind>:<table id>:<op>``). The op is read once, as a
    click arrives; one this bot does not know (a forged click, or a button an older bot
    posted) makes the click stale."""

    ops: ClassVar[type[StrEnum]]

    def __init_subclass__(cls, *, kind: str, ops: type[StrEnum], pattern: str) -> None:
        cls.ops = ops
        super().__init_subclass__(kind=kind, parts={"op": pattern})

    def __init__(self, table_id: int, op: Op, **look: Unpack[Look]) -> None:
        super().__init__(table_id, op, **look)
        self._op: Op | None = op

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        table_id, token = int(match["tid"]), match["op"]
        try:
            return cls(table_id, cast("Op", cls.ops(token)))
        except ValueError:
            pass
        # an op this bot does not know: the button keeps the custom_id as it came, and its
        # click is refused (``stale``) before any handler reads the op
        button = cls(table_id, cast("Op", token))
        button._op = None
        return button

    @property
    def stale(self) -> bool:
        return self._op is None

    @property
    def op(self) -> Op:
        """What the button does (asked of a stale one: the click is refused)."""
        if self._op is None:
            raise TableError("stale")
        return self._op


class LobbyOp(StrEnum):
    """What a button of the lobby does. Each value is the op of its custom_id, on buttons
    already posted: never renamed."""

    JOIN = "join"
    TEAM0 = "team0"
    """Join team A of a pairs table (``TEAM1``: team B)."""
    TEAM1 = "team1"
    LEAVE = "leave"
    SETTINGS = "settings"
    ROBOT = "robot"
    UNROBOT = "unrobot"
    START = "start"
    CLOSE = "close"
    CLOSE_OK = "closeok"
    """Yes to the host's Close."""
    LEAVE_OK = "leaveok"
    """Yes to the host's Leave, when it closes the table."""
    OPEN = "open"
    """No to either: the table stays open."""
    WEB = "web"
    """Play at the table (the web table)."""


TEAMS: Final = (LobbyOp.TEAM0, LobbyOp.TEAM1)
"""The op that joins each team of a pairs table, by the team's number."""
LOBBY_YES: Final = {LobbyOp.CLOSE: LobbyOp.CLOSE_OK, LobbyOp.LEAVE: LobbyOp.LEAVE_OK}
"""The lobby's ops that ask first (the host's), and the op of the Yes to each."""


class TableOp(StrEnum):
    """What a button of the table in play (or of a hand shown as an ephemeral message)
    does. Each value is the op of its custom_id, on buttons already posted: never renamed."""

    HAND = "hand"
    """My hand: the hand shown only to its player."""
    REFRESH = "refresh"
    """The refresh of a hand shown only to its player."""
    TRICKS = "tricks"
    BACK = "back"
    CANCEL = "cancel"
    CANCEL_OK = "cancelok"
    LEAVE = "leave"
    LEAVE_OK = "leaveok"
    KEEP = "keep"
    """No to a question (Cancel, Leave, a declaration that binds the deal): nothing happens."""
    REMATCH = "rematch"
    HINT = "hint"
    WEB = "web"
    """Play at the table (the web table)."""


TABLE_YES: Final = {TableOp.LEAVE: TableOp.LEAVE_OK, TableOp.CANCEL: TableOp.CANCEL_OK}
"""The table's ops that ask first, and the op of the Yes to each."""


class LobbyButton(OpButton[LobbyOp], kind="l", ops=LobbyOp, pattern="[a-z0-9]+"):
    """A button of the lobby: ``tute:l:<table id>:<op>``."""


class TableButton(OpButton[TableOp], kind="t", ops=TableOp, pattern="[a-z]+"):
    """A button of the table in play (``tute:t:<table id>:<op>``), or the refresh button of
    a hand shown as an ephemeral message."""


class HandButton(
    TuteButton,
    kind="h",
    parts={"deal": r"\d+", "trick": r"\d+", "code": "[A-Za-z0-9]+"},
):
    """A card or a declaration in a player's hand (DM or ephemeral):
    ``tute:h:<table id>:<deal>:<trick>:<code>``, the deal and trick it was drawn for."""

    @property
    def deal_no(self) -> int:
        return int(self.parts[0])

    @property
    def trick_no(self) -> int:
        return int(self.parts[1])

    @property
    def code(self) -> str:
        return self.parts[2]
