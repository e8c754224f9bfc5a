"""The buttons of a table: the lobby's, the table's and a hand's, as persistent
``DynamicItem``s. Buttons carry ids, never state: each custom_id names the table (and for a
hand, the deal and the trick it was drawn for); what a click does is in :mod:`clicks`. The
formats never change: buttons of messages posted before an upgrade keep working.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Self, TypeVar

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

    def __init_subclass__(cls, *, kind: str, parts: dict[str, str]) -> None:
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
        if handler is None:
            raise TableError("stale")
        await handler(self, interaction)


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


class LobbyButton(TuteButton, kind="l", parts={"op": "[a-z0-9]+"}):
    """A button of the lobby: ``tute:l:<table id>:<op>``."""

    @property
    def op(self) -> str:
        return self.parts[0]


class TableButton(TuteButton, kind="t", parts={"op": "[a-z]+"}):
    """A button of the table in play (``tute:t:<table id>:<op>``), or the refresh button of
    a hand shown as an ephemeral message."""

    @property
    def op(self) -> str:
        return self.parts[0]


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
