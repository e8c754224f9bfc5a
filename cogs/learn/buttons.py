"""The tutorial's buttons: one ``DynamicItem`` whose custom_id carries everything a click
needs, ``tute:learn:<language>:<lesson>:<step>:<move>:<owner>``, so that a lesson goes on
after a restart with nothing kept anywhere. The move is a card's or a declaration's code,
``n`` (Next on a page to read), ``o`` (open the lesson at that step) or ``p`` (deal a
practice game, at the course's end); the owner is the member whose lesson it is, the only
one whose clicks it takes (buttons drawn before it was carried have none)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Final, Self

import discord

OPEN: Final = "o"
PRACTICE: Final = "p"

Click = Callable[["LearnButton", discord.Interaction[Any]], Awaitable[None]]


class LearnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"tute:learn:(?P<lang>en|es):(?P<lesson>\d{1,2}):(?P<step>\d{1,2})"
        r":(?P<move>[A-Za-z0-9]{1,4})(?::(?P<owner>\d{1,20}))?"
    ),
):
    """A card, a declaration or a way on in a lesson."""

    click: ClassVar[Click | None] = None
    """What a click does, set by :mod:`.commands` (which draws the lesson: it imports this)."""

    def __init__(
        self,
        lang: str,
        lesson: int,
        step: int,
        move: str,
        label: str = "-",
        *,
        owner: int | None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        self.lang = lang
        self.lesson = lesson
        self.step = step
        self.move = move
        self.owner = owner
        mine = "" if owner is None else f":{owner}"
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=f"tute:learn:{lang}:{lesson}:{step}:{move}{mine}",
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
        owner = int(match["owner"]) if match["owner"] else None
        lesson, step = int(match["lesson"]), int(match["step"])
        return cls(match["lang"], lesson, step, match["move"], owner=owner)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        click = type(self).click
        if click is not None:
            await click(self, interaction)
