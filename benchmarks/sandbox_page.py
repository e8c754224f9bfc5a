"""What one publication of the sandbox's page costs with a full channel window: the clock
republishes the open pages whenever the bot did something (a robot played), and a click
waits while it does.

Printed, for ``--messages`` public answers in the channel (the page's window holds the last
50): the median time of ``Preview.refresh()`` (every open page published once) over
``--rounds`` publications that show nothing new, with SimCord's own markdown parsing (a new
parser for each text of each message) and with the sandbox's (each text parsed once).

Run: ``python benchmarks/sandbox_page.py [--messages 60] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from simcord.preview import _component_projection, _messages
from simcord.preview import _markdown as simcord_markdown

from bot.sandbox import open_sandbox
from tests.sandbox._page import FAST, PreviewPage

PARSING: tuple[Any, ...] = (_messages, _component_projection)
"""The modules of SimCord's page that parse markdown (the sandbox replaces it in both)."""


async def publications(refresh: Callable[[], Awaitable[None]], rounds: int) -> float:
    times: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        await refresh()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def main(messages: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with (
            open_sandbox(Path(folder) / "sandbox.db", **FAST) as box,
            aiohttp.ClientSession() as session,
        ):
            page = PreviewPage(session, box.url)
            await page.open(box.you)
            for _ in range(messages):
                await page.command("tute leaderboard")
            # SimCord's own parsing, as the sandbox found it, for the first measure
            kept = [module.markdown_tokens for module in PARSING]
            for module in PARSING:
                module.markdown_tokens = simcord_markdown.markdown_tokens
            before = await publications(box.preview.refresh, rounds)
            for module, tokens in zip(PARSING, kept, strict=True):
                module.markdown_tokens = tokens
            await box.preview.refresh()  # the texts are read once here
            after = await publications(box.preview.refresh, rounds)
    print(f"{messages} messages, one page open: median publication over {rounds}")
    print(f"  every text parsed at each publication: {before * 1000:7.1f} ms")
    print(f"  each text parsed once (the sandbox):   {after * 1000:7.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="One publication of the sandbox's page.")
    parser.add_argument("--messages", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(options.messages, options.rounds))
