"""The buttons of ``/tute privacy erase``'s confirmation: ``DynamicItem``s whose custom_id is
``tute:privacy:erase:<token>`` (the confirmation the service signed for the member, good
for a few minutes) or ``tute:privacy:keep``. Any token is taken here, so that one ran out
or forged is refused in words by the service, never left unanswered."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Final, Self

import discord

ERASE: Final = "erase"
KEEP: Final = "keep"

Click = Callable[["PrivacyButton", discord.Interaction[Any]], Awaitable[None]]


class PrivacyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tute:privacy:(?P<op>erase|keep)(?::(?P<token>[^\s]{0,80}))?",
):
    """Erase it all, or keep it."""

    click: ClassVar[Click | None] = None
    """What a click does, set by :mod:`.commands` (which draws the question: it imports this)."""

    def __init__(
        self,
        op: str,
        token: str = "",
        label: str = "-",
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        self.op = op
        self.token = token
        custom_id = f"tute:privacy:{op}" + (f":{token}" if token else "")
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(match["op"], match["token"] or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        click = type(self).click
        if click is not None:
            await click(self, interaction)
