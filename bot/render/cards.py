"""Card faces and the card back, drawn once and cached.

A card is drawn ``SUPERSAMPLE`` times larger than its final size and then reduced, which
gives smooth edges to every shape. Coordinates in this module are in final card pixels
(``CARD_W`` x ``CARD_H``); the pen scales them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.figures import draw_figure
from bot.render.pen import Pen
from bot.render.suits import draw_symbol, symbol_size, symbol_stamp
from bot.render.symbols import SUIT_COLOURS, normalize_code, split_code
from bot.render.text import font

CARD_W = 96
CARD_H = 150
CARD_SIZE = (CARD_W, CARD_H)
"""Size of a card image in pixels."""

CORNER = 7.0
SUPERSAMPLE = 4

PAPER = (255, 253, 246)
EDGE = (150, 140, 124)

# The frame around the picture; the rank sits in the margin at two corners.
FRAME = (15.0, 7.0, 81.0, 143.0)
# Where pips go, inside the frame.
PIP_BOX = (18.0, 11.0, 78.0, 139.0)

# Pips: (x, y) as fractions of PIP_BOX, and a turn in degrees (counter-clockwise).
Layout = tuple[tuple[float, float, float], ...]

_ROUND_LAYOUTS: dict[int, Layout] = {
    2: ((0.5, 0.2, 0), (0.5, 0.8, 0)),
    3: ((0.5, 0.15, 0), (0.5, 0.5, 0), (0.5, 0.85, 0)),
    4: ((0.24, 0.2, 0), (0.76, 0.2, 0), (0.24, 0.8, 0), (0.76, 0.8, 0)),
    5: ((0.24, 0.17, 0), (0.76, 0.17, 0), (0.5, 0.5, 0), (0.24, 0.83, 0), (0.76, 0.83, 0)),
    6: (
        (0.24, 0.15, 0),
        (0.76, 0.15, 0),
        (0.24, 0.5, 0),
        (0.76, 0.5, 0),
        (0.24, 0.85, 0),
        (0.76, 0.85, 0),
    ),
    7: (
        (0.24, 0.13, 0),
        (0.76, 0.13, 0),
        (0.5, 0.32, 0),
        (0.24, 0.51, 0),
        (0.76, 0.51, 0),
        (0.24, 0.87, 0),
        (0.76, 0.87, 0),
    ),
}

# Cups are taller than coins: their seven spreads further apart.
_CUPS_SEVEN: Layout = (
    (0.24, 0.11, 0),
    (0.76, 0.11, 0),
    (0.5, 0.335, 0),
    (0.24, 0.56, 0),
    (0.76, 0.56, 0),
    (0.24, 0.89, 0),
    (0.76, 0.89, 0),
)

# Swords and clubs: two and three cross each other, as on the traditional deck; from four on
# they stand in columns, leaning a little, so that they are easy to count.
_LONG_LAYOUTS: dict[int, Layout] = {
    2: ((0.5, 0.5, 24), (0.5, 0.5, -24)),
    3: ((0.5, 0.5, 26), (0.5, 0.5, -26), (0.5, 0.5, 0)),
    4: ((0.27, 0.25, 6), (0.73, 0.25, -6), (0.27, 0.75, -6), (0.73, 0.75, 6)),
    5: ((0.22, 0.25, 6), (0.78, 0.25, -6), (0.5, 0.5, 0), (0.22, 0.75, -6), (0.78, 0.75, 6)),
    6: (
        (0.17, 0.25, 5),
        (0.5, 0.25, 0),
        (0.83, 0.25, -5),
        (0.17, 0.75, -5),
        (0.5, 0.75, 0),
        (0.83, 0.75, 5),
    ),
    7: (
        (0.18, 0.3, 5),
        (0.82, 0.3, -5),
        (0.5, 0.16, 0),
        (0.5, 0.5, 0),
        (0.5, 0.84, 0),
        (0.18, 0.7, -5),
        (0.82, 0.7, 5),
    ),
}

# Height of one pip in card pixels, by suit and count.
_PIP_HEIGHT: dict[str, dict[int, float]] = {
    "O": {2: 40, 3: 36, 4: 30, 5: 29, 6: 29, 7: 26},
    "C": {2: 48, 3: 40, 4: 42, 5: 38, 6: 38, 7: 29},
    "E": {2: 120, 3: 120, 4: 60, 5: 60, 6: 60, 7: 42},
    "B": {2: 118, 3: 118, 4: 60, 5: 60, 6: 58, 7: 42},
}

# Number of breaks ("pintas") in the top and bottom of the frame tell the suit at a glance.
_PINTA_BREAKS = {"O": 0, "C": 1, "E": 2, "B": 3}


def _darker(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    r, g, b = colour
    return (round(r * factor), round(g * factor), round(b * factor))


def _blank(size: tuple[int, int] = CARD_SIZE) -> tuple[Image.Image, ImageDraw.ImageDraw, Pen]:
    image = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    pen = Pen(draw, SUPERSAMPLE)
    pen.rect(0.5, 0.5, size[0] - 0.5, size[1] - 0.5, PAPER, EDGE, 1.0, radius=CORNER)
    return image, draw, pen


def _reduce(image: Image.Image, size: tuple[int, int] = CARD_SIZE) -> Image.Image:
    return image.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")


def _frame(pen: Pen, suit: str) -> None:
    colour = _darker(SUIT_COLOURS[suit], 0.8)
    x0, y0, x1, y1 = FRAME
    breaks = _PINTA_BREAKS[suit]
    gap = 5.0
    width = 1.1
    pen.line([(x0, y0), (x0, y1)], colour, width)
    pen.line([(x1, y0), (x1, y1)], colour, width)
    for y in (y0, y1):
        if breaks == 0:
            pen.line([(x0, y), (x1, y)], colour, width)
            continue
        span = x1 - x0
        centres = [x0 + span * (i + 1) / (breaks + 1) for i in range(breaks)]
        edges = [x0]
        for c in centres:
            edges.extend((c - gap / 2, c + gap / 2))
        edges.append(x1)
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            pen.line([(a, y), (b, y)], colour, width)


@lru_cache(maxsize=16)
def _index_image(rank: int, suit: str) -> Image.Image:
    """The rank as a tall, narrow numeral in the suit colour, at supersampled size."""
    size = 17 * SUPERSAMPLE
    text = str(rank)
    f = font(size)
    left, top, right, bottom = (round(v) for v in f.getbbox(text, anchor="ls"))
    pad = 2 * SUPERSAMPLE
    image = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    ink = _darker(SUIT_COLOURS[suit], 0.92)
    draw.text(
        (pad - left, pad - top),
        text,
        fill=ink,
        font=f,
        anchor="ls",
        stroke_width=SUPERSAMPLE // 2,
        stroke_fill=ink,
    )
    image = image.crop(image.getbbox() or (0, 0, image.width, image.height))
    # condensed like the numerals of a Spanish deck
    width = min(round(image.width * 0.78), 12 * SUPERSAMPLE)
    return image.resize((width, image.height), Image.Resampling.LANCZOS)


def _corner_indices(image: Image.Image, rank: int, suit: str) -> None:
    numeral = _index_image(rank, suit)
    x = round(8.0 * SUPERSAMPLE - numeral.width / 2)
    y = round(4.0 * SUPERSAMPLE)
    image.alpha_composite(numeral, (x, y))
    turned = numeral.rotate(180)
    image.alpha_composite(
        turned, (image.width - x - numeral.width, image.height - y - numeral.height)
    )


def _paste_symbol(
    image: Image.Image, suit: str, cx: float, cy: float, h: float, angle: float
) -> None:
    stamp = symbol_stamp(suit, round(h * SUPERSAMPLE), angle)
    image.alpha_composite(
        stamp,
        (round(cx * SUPERSAMPLE - stamp.width / 2), round(cy * SUPERSAMPLE - stamp.height / 2)),
    )


def _pips(image: Image.Image, rank: int, suit: str) -> None:
    x0, y0, x1, y1 = PIP_BOX
    layouts = _ROUND_LAYOUTS if suit in "OC" else _LONG_LAYOUTS
    layout = _CUPS_SEVEN if (suit, rank) == ("C", 7) else layouts[rank]
    height = _PIP_HEIGHT[suit][rank]
    for u, v, angle in layout:
        _paste_symbol(image, suit, x0 + u * (x1 - x0), y0 + v * (y1 - y0), height, angle)


def _ace(image: Image.Image, draw: ImageDraw.ImageDraw, suit: str) -> None:
    cx, cy = (FRAME[0] + FRAME[2]) / 2, (FRAME[1] + FRAME[3]) / 2
    r, g, b = (round(255 - (255 - c) * 0.2) for c in SUIT_COLOURS[suit])
    tint = (r, g, b, 255)
    rays = Image.new("RGBA", image.size, (0, 0, 0, 0))
    pen = Pen(ImageDraw.Draw(rays), SUPERSAMPLE)
    count, far = 24, 90.0
    for i in range(count):
        a0 = 2 * math.pi * i / count
        a1 = a0 + math.pi / count
        pen.poly(
            [
                (cx, cy),
                (cx + far * math.cos(a0), cy + far * math.sin(a0)),
                (cx + far * math.cos(a1), cy + far * math.sin(a1)),
            ],
            fill=tint,
        )
    # the rays shine inside the frame only, fading towards its edge
    mask = Image.new("L", image.size, 0)
    mask_pen = Pen(ImageDraw.Draw(mask), SUPERSAMPLE)
    steps = 12
    for i in range(steps):
        f = 1 - i / steps
        mask_pen.ellipse(cx, cy, 33 * f + 4, 68 * f + 4, fill=round(255 * (i + 1) / steps))
    x0, y0, x1, y1 = FRAME
    clip = Image.new("L", image.size, 0)
    Pen(ImageDraw.Draw(clip), SUPERSAMPLE).rect(x0, y0, x1, y1, fill=255)
    mask = ImageChops.multiply(mask, clip)
    rays.putalpha(ImageChops.multiply(rays.getchannel("A"), mask))
    image.alpha_composite(rays)
    height = {"O": 60.0, "C": 92.0, "E": 128.0, "B": 126.0}[suit]
    w, h = symbol_size(suit, height)
    draw_symbol(
        draw, suit, (cx - w / 2) * SUPERSAMPLE, (cy - h / 2) * SUPERSAMPLE, height * SUPERSAMPLE
    )


def card_face(code: str, scale: int = 1) -> Image.Image:
    """The cached RGBA face of a card; ``code`` must already be normalised. ``scale``: 2
    for a screen of two pixels to the point (drawn supersampled, so as sharp). Do not
    modify."""
    return _card_face(code, scale)


@lru_cache(maxsize=128)
def _card_face(code: str, scale: int) -> Image.Image:
    rank, suit = split_code(code)
    image, draw, pen = _blank()
    if rank == 1:
        _ace(image, draw, suit)
    elif rank <= 7:
        _pips(image, rank, suit)
    else:
        draw_figure(image, rank, suit, FRAME, SUPERSAMPLE)
    _frame(pen, suit)
    _corner_indices(image, rank, suit)
    return _reduce(image, (CARD_W * scale, CARD_H * scale))


def card_image(code: str, scale: int = 1) -> Image.Image:
    """The face of the card ``code`` (e.g. ``"12B"``), ``CARD_W`` x ``CARD_H`` times
    ``scale`` (1 to SUPERSAMPLE), RGBA.

    Drawn once per card and cached; each call returns a fresh copy. Raises ``ValueError``
    for a code that is not one of the 40 cards.
    """
    if not 1 <= scale <= SUPERSAMPLE:
        raise ValueError(f"a card is drawn at 1 to {SUPERSAMPLE} times its size, not {scale}")
    return card_face(normalize_code(code), scale).copy()


def back_face(scale: int = 1) -> Image.Image:
    """The cached RGBA back of a card (``scale`` as a face's). Do not modify."""
    return _back_face(scale)


@lru_cache(maxsize=2)
def _back_face(scale: int) -> Image.Image:
    image, draw, pen = _blank()
    red, red_dark, line, dot = (150, 28, 38), (104, 14, 24), (196, 76, 80), (236, 186, 80)
    m = 5.0
    pen.rect(m, m, CARD_W - m, CARD_H - m, red, red_dark, 1.0, radius=CORNER - 3)
    # a diamond lattice with a gold dot in each diamond, kept inside the red panel
    lattice = Image.new("RGBA", image.size, (0, 0, 0, 0))
    lattice_pen = Pen(ImageDraw.Draw(lattice), SUPERSAMPLE)
    step, slope = 12.0, 0.62  # lines x = a + slope * y and x = b - slope * y
    for i in range(-16, 24):
        a = i * step
        lattice_pen.line([(a, 0), (a + slope * CARD_H, CARD_H)], line, 0.9)
        lattice_pen.line([(a, 0), (a - slope * CARD_H, CARD_H)], line, 0.9)
        for j in range(-16, 24):
            # the middle of a diamond lies where two half-way lines cross
            a_mid, b_mid = (i + 0.5) * step, (j + 0.5) * step
            y = (b_mid - a_mid) / (2 * slope)
            lattice_pen.circle(a_mid + slope * y, y, 0.9, fill=dot)
    inside = Image.new("L", image.size, 0)
    Pen(ImageDraw.Draw(inside), SUPERSAMPLE).rect(
        m + 1.5, m + 1.5, CARD_W - m - 1.5, CARD_H - m - 1.5, fill=255, radius=CORNER - 4
    )
    lattice.putalpha(ImageChops.multiply(lattice.getchannel("A"), inside))
    image.alpha_composite(lattice)
    # the medallion: the four suits around a gold ring
    cx, cy = CARD_W / 2, CARD_H / 2
    pen.ellipse(cx, cy, 27, 36, fill=(250, 240, 214), outline=(236, 186, 80), width=2.2)
    pen.ellipse(cx, cy, 23.5, 32.5, outline=red, width=0.9)
    for suit, (dx, dy) in zip("OCEB", ((0, -17), (0, 17), (-11, 0), (11, 0)), strict=True):
        h = {"O": 13.0, "C": 16.0, "E": 26.0, "B": 26.0}[suit]
        w, hh = symbol_size(suit, h)
        draw_symbol(
            draw,
            suit,
            (cx + dx - w / 2) * SUPERSAMPLE,
            (cy + dy - hh / 2) * SUPERSAMPLE,
            h * SUPERSAMPLE,
        )
    return _reduce(image, (CARD_W * scale, CARD_H * scale))


def card_back(scale: int = 1) -> Image.Image:
    """The back of a card (for the stock and hidden hands), same size as a face, RGBA."""
    if not 1 <= scale <= SUPERSAMPLE:
        raise ValueError(f"a card is drawn at 1 to {SUPERSAMPLE} times its size, not {scale}")
    return back_face(scale).copy()


@lru_cache(maxsize=256)
def scaled_face(code: str | None, width: int) -> Image.Image:
    """A cached face (or the back, for None) reduced to ``width`` pixels. Do not modify."""
    source = back_face() if code is None else card_face(code)
    height = round(width * CARD_H / CARD_W)
    return source.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")


@lru_cache(maxsize=512)
def turned_face(code: str | None, angle: float, width: int = CARD_W) -> Image.Image:
    """A cached face (or back) at ``width`` pixels, turned ``angle`` degrees. Do not modify."""
    source = back_face() if code is None else card_face(code)
    if width != CARD_W:
        source = scaled_face(code, width)
    if not angle:
        return source
    turned = source.convert("RGBa").rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    return turned.convert("RGBA")


@lru_cache(maxsize=64)
def shadow(
    size: tuple[int, int], radius: float = CORNER, blur: float = 3.0, alpha: int = 110
) -> Image.Image:
    """A soft shadow for a card of ``size``, with a margin of ``2 * blur`` all round."""
    margin = math.ceil(blur * 2)
    mask = Image.new("L", (size[0] + 2 * margin, size[1] + 2 * margin), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (margin, margin, margin + size[0] - 1, margin + size[1] - 1), radius=radius, fill=alpha
    )
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    image = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    image.putalpha(mask)
    return image
