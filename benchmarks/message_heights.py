"""How tall the table message and a hand are on screen, measured in SimCord's page with
Chromium, for each variant, at a desktop width and at a phone's.

Each variant is opened in the sandbox (the real bot), you against robots, and played to your
first turn with a card on the table; then the table message and your hand (My hand) are shot
as they are. The heights are those of the pictures of each message (SimCord's message
layout, the page's width given). Run: ``python benchmarks/message_heights.py [--widths 600
400]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from PIL import Image

from bot.engine import Variant
from bot.sandbox.pictures import (
    button_id,
    buttons_in,
    find_chromium,
    table_message,
    use_chromium,
)
from bot.sandbox.server import Sandbox, open_sandbox
from bot.tables.model import Status
from cogs.tables.faces import faces_of

ROBOTS = {Variant.HABANERO: 1, Variant.ARRASTRADO: 2, Variant.INDIVIDUAL: 3, Variant.PAIRS: 3}


async def heights(sandbox: Sandbox, variant: Variant, out: Path) -> dict[str, int]:
    """The heights of one variant's table message and hand, in pixels."""
    env, you, channel = sandbox.env, sandbox.you, sandbox.channel
    new = await you.slash(channel, "tute new", variant=variant.value)
    lobby = new.response
    assert lobby is not None
    table_id = int(button_id(lobby.message, ":start").split(":")[2])
    for _ in range(ROBOTS[variant]):
        await you.click(lobby, custom_id=button_id(lobby.message, ":robot"))
    await you.click(lobby, custom_id=button_id(lobby.message, ":start"))
    service = sandbox.tables
    table = service.get(table_id)
    for _ in range(50):  # to your turn, with a card on the table
        deal = table.deal
        assert deal is not None and table.status is Status.PLAYING
        seat = table.seats[deal.turn]
        if seat is not None and not seat.robot_plays and deal.trick:
            break
        if seat is not None and not seat.robot_plays:  # you lead: a card, then the robots
            play = table_message(channel, sandbox, table)
            hand = (await you.click(play, custom_id=button_id(play, ":hand"))).response
            assert hand is not None
            card = next(
                b.custom_id
                for b in buttons_in(hand.message.components)
                if b.custom_id and b.custom_id.startswith("tute:h:") and not b.disabled
            )
            await you.click(hand, custom_id=card)
        await env.advance_time(10)
    play = table_message(channel, sandbox, table)
    hand = (await you.click(play, custom_id=button_id(play, ":hand"))).response
    assert hand is not None
    await env.settle()
    shots = {"table": play, "hand": hand}
    found: dict[str, int] = {}
    await asyncio.to_thread(out.mkdir, parents=True, exist_ok=True)
    for name, target in shots.items():
        path = out / f"{variant.value}-{name}.png"
        await sandbox.preview.screenshot(path, viewer=you, target=target, layout="message")
        with Image.open(path) as picture:
            found[name] = picture.height
    assert faces_of(env.bot).ready, "the card faces were drawn"
    return found


async def measure(width: int, out: Path) -> dict[Variant, dict[str, int]]:
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("the pictures need Chromium: apt-get install chromium")
    found: dict[Variant, dict[str, int]] = {}
    for variant in Variant:  # a sandbox each: a member plays at one table at a time
        with tempfile.TemporaryDirectory(prefix="tute-heights-") as folder:
            async with open_sandbox(
                Path(folder) / "sandbox.db",
                robot_delay=0,
                think_budget=0.02,
                page_size=(width, 1600),
            ) as sandbox:
                use_chromium(sandbox.preview, chromium)
                found[variant] = await heights(sandbox, variant, out / str(width))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[600, 400])
    parser.add_argument("--out", type=Path, default=None, help="keep the pictures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tute-shots-") as folder:
        out = args.out or Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        for width in args.widths:
            found = asyncio.run(measure(width, out))
            print(f"page {width} px wide: height in px")
            for variant, sizes in found.items():
                print(f"  {variant.value:<11} table {sizes['table']:>4}   hand {sizes['hand']:>4}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
