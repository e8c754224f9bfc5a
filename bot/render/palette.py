"""The shared 256-colour palette of every picture.

Built once per process: a ramp of felt greens and one of wood browns (so that their
gradients keep every step), the inks of text and marks, and the colours of a sample of
all card faces, dimmed faces, backs, panels and halos, chosen by median cut.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from bot.render.cards import CARD_H, CARD_W, back_face, card_face, scaled_face, shadow
from bot.render.style import (
    FELT_CENTRE,
    FELT_EDGE,
    HIGHLIGHT,
    TEAM_COLOURS,
    TEXT,
    TEXT_HALO,
    TEXT_SOFT,
    WOOD_DARK,
    WOOD_LIGHT,
    felt,
    glow,
    panel,
)
from bot.render.symbols import ALL_CARDS, SUIT_COLOURS
from bot.render.text import paste_text

FELT_STEPS = 56
WOOD_STEPS = 16


def _ramp(a: tuple[int, int, int], b: tuple[int, int, int], steps: int) -> list[int]:
    out: list[int] = []
    for k in range(steps):
        out.extend(round(a[i] + (b[i] - a[i]) * k / (steps - 1)) for i in range(3))
    return out


def _sample() -> Image.Image:
    """A picture holding everything the table and summary pictures draw."""
    cols = 11
    sample = felt(cols * (CARD_W + 8) + 8, 9 * (CARD_H + 8) + 8).copy()
    faces = [card_face(c) for c in ALL_CARDS]
    faces += [back_face(), back_face()]
    for i, face in enumerate(faces):
        x = 8 + (i % cols) * (CARD_W + 8)
        y = 8 + (i // cols) * (CARD_H + 8)
        under = shadow((CARD_W, CARD_H))
        sample.paste(under, (x - 4, y - 3), under)
        sample.paste(face, (x, y), face)
    y = 8 + 8 * (CARD_H + 8)
    halo = glow((CARD_W, CARD_H), 7, HIGHLIGHT)
    sample.paste(halo, (8, y - 10), halo)
    box = panel((300, 60))
    sample.paste(box, (130, y), box)
    sample.paste(box, (130, y + 70), box)
    for j, ink in enumerate((TEXT, TEXT_SOFT, HIGHLIGHT, *TEAM_COLOURS)):
        paste_text(sample, (140, y + 8 + j * 20), "Abcdefgh 0123456789", 15, ink, halo=TEXT_HALO)
        paste_text(sample, (460, y + 8 + j * 20), "Abcdefgh 0123456789", 18, ink)
    for i, code in enumerate(ALL_CARDS[:20]):
        small = scaled_face(code, 40)
        sample.paste(small, (700 + (i % 10) * 24, y + (i // 10) * 70), small)
    return sample


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """The palette as a 1x1 "P" image, for ``Image.quantize(palette=...)``."""
    fixed = _ramp(FELT_EDGE, FELT_CENTRE, FELT_STEPS) + _ramp(WOOD_DARK, WOOD_LIGHT, WOOD_STEPS)
    # the inks of text and marks, exactly, however few pixels they cover
    for ink in (TEXT, TEXT_SOFT, TEXT_HALO, HIGHLIGHT, *TEAM_COLOURS, *SUIT_COLOURS.values()):
        fixed.extend(ink)
    rest = 256 - len(fixed) // 3
    chosen = _sample().quantize(rest, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    colours = fixed + (chosen.getpalette() or [])[: rest * 3]
    colours += [0] * (768 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette(colours)
    return image
