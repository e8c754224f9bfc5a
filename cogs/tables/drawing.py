"""Where pictures are drawn: one thread of their own, off the event loop, so that drawing a
table (tens of milliseconds) never holds up another table's click or Discord's heartbeat.
One thread is enough, and keeps the caches the pictures share (a deal's summary, drawn once)
touched by one drawer at a time."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable

import discord

from .messages import Payload

Files = list[discord.File | None]


class Drawing:
    """The drawing thread."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="tute-drawing"
        )

    async def draw(self, files: Callable[[], Files]) -> list[discord.File]:
        """The pictures ``files`` draws, drawn on the drawing thread."""
        drawn = await asyncio.get_running_loop().run_in_executor(self._pool, files)
        return [f for f in drawn if f is not None]

    async def attach(self, payload: Payload, files: Callable[[], Files]) -> None:
        """Draw the message's pictures into ``payload``: the message keeps these files and
        no other."""
        payload["attachments"] = await self.draw(files)

    def close(self) -> None:
        """The bot stops: nothing more is drawn (a picture under way finishes)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
