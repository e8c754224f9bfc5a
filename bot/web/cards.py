"""The cards' pictures the card table shows: the bot's own drawings (:mod:`bot.render`), in
PNG, and their version, which their addresses carry (``/cards/12O.png?v=...``) so that a
browser keeps them for good and a release that draws them anew is asked anew."""

from __future__ import annotations

import functools
import hashlib
import io
from pathlib import Path
from typing import Final

from bot.render.cards import card_back, card_image
from bot.render.symbols import ALL_CARDS

BACK: Final = "back"
"""``/cards/back.png``: the back of a card."""
CODES: Final = frozenset(ALL_CARDS)
SCALE: Final = 2
"""The cards' pictures at twice the renderer's size: the page shows them at most at that
size in CSS pixels, so they stay sharp on a phone of two pixels or more to the point."""
RENDER: Final = Path(__file__).parents[1] / "render"
"""The renderer the cards' pictures are drawn by: its files make their version."""


@functools.cache
def card_version() -> str:
    """The pictures' version: the digest of the renderer's files and the size they are
    drawn at, so a release that draws them anew gives them new addresses (no week-old
    picture stays in a cache)."""
    found = hashlib.sha256(f"scale {SCALE}".encode())
    for path in sorted(RENDER.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            found.update(path.relative_to(RENDER).as_posix().encode() + b"\0")
            found.update(path.read_bytes() + b"\0")
    return found.hexdigest()[:16]


def card_png(code: str) -> bytes:
    """A card's face (``12O``) or its back (``back``), drawn, in PNG."""
    image = card_back(SCALE) if code == BACK else card_image(code, SCALE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
