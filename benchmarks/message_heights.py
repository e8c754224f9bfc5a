"""How tall the table message and a hand are on screen, and how large the letters in
their pictures are, measured in SimCord's page with Chromium, for each variant, at phone
widths, in English and Spanish.

Each variant is opened in the sandbox (the real bot), you against robots, and played to your
first turn with a card on the table; then the table message and your hand (My hand) are shot
as they are. The heights are those of the pictures of each message (SimCord's message
layout, the page's width given); a phone 390 px wide (844 tall) shows about
``PHONE_ROOM`` px of messages between Discord's header and its message bar. The picture's
width on screen is found in the shot (the felt and its wooden rim), and with it the height
of the smallest letters drawn in it. Run: ``python benchmarks/message_heights.py [--widths
360 390] [--languages en es]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from PIL import Image

from bot.engine import Variant
from bot.i18n import Language
from bot.render.table import MIN_TEXT_PX, TABLE_W
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
PHONE_ROOM = 640
"""Pixels of messages a phone 390 x 844 shows between Discord's header and message bar."""


def shown_width(path: Path) -> int:
    """How wide the table's picture is in a shot: the widest row where the felt (or its
    wooden rim) spans most of the message, from its first to its last run of 8 such pixels
    (a container's coloured edge, 4 pixels wide, is not the picture)."""
    with Image.open(path) as shot:
        rgb = shot.convert("RGB")
        width, height = rgb.size
        pixels = rgb.load()
        assert pixels is not None
        best = 0
        for y in range(0, height, 2):
            cloth = [_felt_or_wood(pixels[x, y]) for x in range(width)]  # type: ignore[arg-type]
            if sum(cloth) <= width // 3:
                continue
            runs = [x for x in range(width - RUN) if all(cloth[x : x + RUN])]
            if runs:
                best = max(best, runs[-1] + RUN - runs[0])
        return best


RUN = 8
"""Pixels in a row that make the picture's edge."""


def _felt_or_wood(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    felt = g > r + 25 and g > b + 15
    wood = r > g + 20 and g > b + 8 and r > 50
    return felt or wood


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
        found[f"{name}_picture"] = await asyncio.to_thread(shown_width, path)
    assert faces_of(env.bot).ready, "the card faces were drawn"
    return found


async def measure(width: int, language: Language, out: Path) -> dict[Variant, dict[str, int]]:
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
                language=language,
            ) as sandbox:
                use_chromium(sandbox.preview, chromium)
                found[variant] = await heights(sandbox, variant, out / f"{width}-{language}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[360, 390])
    parser.add_argument("--languages", nargs="+", default=["en", "es"], choices=["en", "es"])
    parser.add_argument("--out", type=Path, default=None, help="keep the pictures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tute-shots-") as folder:
        out = args.out or Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        for width in args.widths:
            for language in args.languages:
                found = asyncio.run(measure(width, language, out))
                print(f"page {width} px wide, {language}: height in px (room {PHONE_ROOM})")
                for variant, sizes in found.items():
                    shown = min(sizes["table_picture"], sizes["hand_picture"])
                    letters = MIN_TEXT_PX * shown / TABLE_W
                    print(
                        f"  {variant.value:<11} table {sizes['table']:>4}   "
                        f"hand {sizes['hand']:>4}   pictures {shown:>3} px wide, "
                        f"smallest letters {letters:4.1f} px"
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
