"""Large see-through pictures (panels, halos) laid on a picture for less work.

Pasting an RGBA picture through its alpha mixes every one of its pixels with what lies
under it. A panel is one colour at one opacity away from its rounded edge, and a halo is
clear in its middle: ``cut`` parts such a picture into the strips round its edge, pasted
through their alpha as before, and its plain middle, which is laid on by a table (the
colour that pasting gives for each shade under it) or, where it is clear, left alone.
The pixels come out the same as pasting the whole picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Cut:
    """An RGBA picture cut for pasting: ``strips`` (each a part of it and where that part
    sits in it) are pasted through their alpha; ``middle`` (left, top, right, bottom in the
    picture, or None) is one colour at one opacity, laid on through ``table``, a table for
    ``Image.point`` (None where the middle is clear)."""

    strips: tuple[tuple[Image.Image, tuple[int, int]], ...]
    middle: Box | None = None
    table: tuple[int, ...] | None = None


@lru_cache(maxsize=64)
def _over(colour: tuple[int, int, int], alpha: int) -> tuple[int, ...]:
    """What pasting ``colour`` at ``alpha`` gives over each shade, as ``Image.point``'s table
    for an RGB picture (reds, greens, blues): found by pasting it over every shade, so that
    it is exactly what pasting gives."""
    shades = Image.new("RGB", (256, 1))
    shades.frombytes(bytes(v for v in range(256) for _ in range(3)))
    over = Image.new("RGBA", (256, 1), (*colour, alpha))
    shades.paste(over, (0, 0), over)
    mixed = shades.tobytes()
    return (*mixed[0::3], *mixed[1::3], *mixed[2::3])


def cut(image: Image.Image, middle: Box) -> Cut:
    """``image`` (RGBA) cut round ``middle``, which should be one colour at one opacity;
    where it is not, the picture is kept whole."""
    left, top, right, bottom = middle
    width, height = image.size
    inside = 0 <= left < right <= width and 0 <= top < bottom <= height
    colours = image.crop(middle).getcolors(1) if inside else None  # None: more than one
    if not colours:
        return Cut(((image, (0, 0)),))
    strips: list[tuple[Image.Image, tuple[int, int]]] = []
    for box in (
        (0, 0, width, top),
        (0, bottom, width, height),
        (0, top, left, bottom),
        (right, top, width, bottom),
    ):
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        strip = image.crop(box)
        seen = strip.getchannel("A").getbbox()
        if seen is not None:  # a clear strip changes nothing
            strips.append((strip.crop(seen), (box[0] + seen[0], box[1] + seen[1])))
    colour = colours[0][1]
    if not isinstance(colour, tuple) or len(colour) != 4:  # not an RGBA picture
        return Cut(((image, (0, 0)),))
    r, g, b, a = colour
    table = _over((r, g, b), a) if a else None
    return Cut(tuple(strips), middle, table)


def paste_cut(canvas: Image.Image, pieces: Cut, xy: tuple[int, int]) -> None:
    """Lay the picture cut into ``pieces`` on ``canvas`` (RGB) with its top-left corner at
    ``xy``: the same pixels as pasting it through its alpha."""
    x, y = xy
    for strip, (dx, dy) in pieces.strips:
        canvas.paste(strip, (x + dx, y + dy), strip)
    if pieces.middle is not None and pieces.table is not None:
        left, top, right, bottom = pieces.middle
        box = (x + left, y + top, x + right, y + bottom)
        canvas.paste(canvas.crop(box).point(pieces.table), box[:2])
