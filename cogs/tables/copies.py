"""Copies of a hand that the game has left behind: ephemeral messages that showed a seat its
hand (My hand opened again, or opened while the hand lives in the DMs) and that nothing
keeps up to date. Once what one shows is no longer the hand, it goes (while its
interaction's token lets the bot delete it: 15 minutes), so a player never has a stack of
hands to tell apart."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import discord


@dataclass(frozen=True, slots=True)
class Copy:
    interaction: discord.Interaction[Any]
    """The interaction whose answer the copy is: its token edits it."""
    digest: str
    """What it lets its player do (``messages.hand_digest``); empty: out of date."""


class Copies:
    """Per seat: the copies of its hand that may fall behind, by message, and the one the
    table keeps up to date (the hand under My hand of a seat without DMs)."""

    def __init__(self) -> None:
        self._behind: dict[tuple[int, int], dict[int, Copy]] = {}
        self._live: dict[tuple[int, int], int] = {}

    def shown(
        self,
        key: tuple[int, int],
        message_id: int,
        copy: Copy,
        *,
        live: bool,
        previous: Copy | None = None,
    ) -> None:
        """A hand was shown in message ``message_id``. ``live``: the table keeps it up to
        date from now on, and the one it kept before (``previous``, in another message) is a
        copy left behind."""
        copies = self._behind.setdefault(key, {})
        if not live:
            copies[message_id] = copy
            return
        before = self._live.get(key)
        if before is not None and before != message_id and previous is not None:
            copies[before] = replace(previous, digest="")
        copies.pop(message_id, None)
        self._live[key] = message_id

    def of(self, key: tuple[int, int]) -> dict[int, Copy]:
        return self._behind.get(key, {})

    def forget_table(self, table_id: int) -> None:
        for key in [k for k in self._behind if k[0] == table_id]:
            del self._behind[key]
        for key in [k for k in self._live if k[0] == table_id]:
            del self._live[key]
