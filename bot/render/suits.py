"""The four suit symbols of the Spanish deck, drawn from shapes.

Each symbol is described in its own design box (see ``DESIGN_SIZE``) and drawn by a pen at
any scale. ``draw_symbol`` paints onto an existing drawing; ``symbol_stamp`` returns a cached
transparent image of one symbol, optionally turned, for pasting.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.geometry import ellipse_points, mirror_x, path, rotate
from bot.render.pen import Pen

# Shared ink and metal tones.
INK = (40, 28, 20)
GOLD = (236, 178, 48)
GOLD_LIGHT = (250, 216, 112)
GOLD_MID = (212, 148, 30)
GOLD_DARK = (122, 76, 10)
TAN = (222, 184, 128)
TAN_DARK = (150, 104, 52)

RED = (200, 32, 46)
RED_LIGHT = (236, 96, 100)
RED_DARK = (92, 10, 20)
RED_INSIDE = (120, 16, 28)

BLUE = (40, 96, 176)
BLUE_LIGHT = (158, 196, 240)
BLUE_DARK = (14, 40, 86)
GRIP = (128, 48, 24)

GREEN = (60, 140, 56)
GREEN_LIGHT = (120, 186, 100)
GREEN_DARK = (22, 64, 24)

DESIGN_SIZE: dict[str, tuple[float, float]] = {
    "O": (100.0, 100.0),
    "C": (100.0, 140.0),
    "E": (34.0, 132.0),
    "B": (48.0, 132.0),
}
"""Width and height of each symbol's design box, in design units."""


def _coin(pen: Pen) -> None:
    pen.circle(50, 50, 47, fill=GOLD, outline=GOLD_DARK, width=3.5)
    pen.circle(50, 50, 39.5, outline=GOLD_MID, width=2.2)
    for i in range(16):
        a = 2 * math.pi * (i + 0.5) / 16
        pen.circle(50 + 43.3 * math.cos(a), 50 + 43.3 * math.sin(a), 1.9, fill=GOLD_DARK)
    # a sun between the ring and the boss
    for i in range(12):
        a = 2 * math.pi * i / 12
        tip = (50 + 36 * math.cos(a), 50 + 36 * math.sin(a))
        left = (50 + 24 * math.cos(a - 0.2), 50 + 24 * math.sin(a - 0.2))
        right = (50 + 24 * math.cos(a + 0.2), 50 + 24 * math.sin(a + 0.2))
        pen.poly([left, tip, right], fill=GOLD_MID)
    pen.circle(50, 50, 25, fill=GOLD_LIGHT, outline=GOLD_DARK, width=2.2)
    for i in range(4):
        a = math.pi / 4 + i * math.pi / 2
        pen.poly(
            rotate(ellipse_points(50, 38, 5.5, 11, 24), math.degrees(a) - 45, (50, 50)),
            fill=GOLD_MID,
        )
    pen.circle(50, 50, 6.5, fill=GOLD, outline=GOLD_DARK, width=1.6)
    pen.circle(50, 50, 2.2, fill=GOLD_DARK)
    pen.arc(50, 50, 44, 44, 200, 250, fill=(255, 240, 190), width=2.4)


def _cup(pen: Pen) -> None:
    # foot
    foot_left = path((44, 104), ((43, 114), (24, 118), (17, 130)))
    pen.poly([*foot_left, *mirror_x(foot_left, 50)], fill=RED, outline=RED_DARK, width=2.4)
    pen.ellipse(50, 130, 34, 6.5, fill=GOLD, outline=GOLD_DARK, width=2.2)
    # stem with its knot and collar
    pen.rect(43.5, 62, 56.5, 106, fill=GOLD, outline=GOLD_DARK, width=2.2)
    pen.ellipse(50, 86, 12.5, 7.5, fill=GOLD_LIGHT, outline=GOLD_DARK, width=2.2)
    pen.ellipse(50, 106, 9, 3.6, fill=GOLD, outline=GOLD_DARK, width=1.8)
    # bowl
    bowl_left = path((6, 15), ((5, 46), (24, 66), (50, 66)))
    pen.poly([*bowl_left, *mirror_x(bowl_left, 50)], fill=RED, outline=RED_DARK, width=2.6)
    pen.poly(
        rotate(ellipse_points(22, 36, 5, 15, 24), -18, (22, 36)),
        fill=RED_LIGHT,
    )
    band = path((7.5, 30), ((14, 44), (86, 44), (92.5, 30)))
    pen.line(band, fill=GOLD, width=3.6)
    for i in range(5):
        x = 24 + i * 13
        pen.circle(x, 49 + (0 if i in (0, 4) else 3), 2.6, fill=GOLD, outline=GOLD_DARK, width=0.8)
    pen.ellipse(50, 67, 15, 4.2, fill=GOLD, outline=GOLD_DARK, width=1.8)
    # rim and the dark inside of the cup
    pen.ellipse(50, 15, 45, 9.5, fill=GOLD, outline=GOLD_DARK, width=2.4)
    pen.ellipse(50, 15, 38, 5.6, fill=RED_INSIDE, outline=GOLD_DARK, width=1.4)


def _sword(pen: Pen) -> None:
    cx = 17.0
    blade = [(cx, 0.5), (cx + 5.6, 11), (cx + 5.0, 96), (cx - 5.0, 96), (cx - 5.6, 11)]
    pen.poly(blade, fill=BLUE, outline=BLUE_DARK, width=1.8)
    pen.line([(cx, 6), (cx, 93)], fill=BLUE_LIGHT, width=2.2)
    # cross-guard with curled quillons
    left_curl = path((cx, 95), ((10, 95), (3, 96), (2.5, 101)), steps=10)
    guard = [*left_curl, (6, 101), (cx, 102), *mirror_x([*left_curl, (6, 101)], cx)[1:]]
    pen.poly(guard, fill=GOLD, outline=GOLD_DARK, width=1.6)
    pen.circle(3.4, 101.4, 2.9, fill=GOLD, outline=GOLD_DARK, width=1.3)
    pen.circle(2 * cx - 3.4, 101.4, 2.9, fill=GOLD, outline=GOLD_DARK, width=1.3)
    # grip and pommel
    pen.rect(cx - 3.6, 101, cx + 3.6, 122, fill=GRIP, outline=INK, width=1.2)
    for y in (105, 110, 115, 120):
        pen.line([(cx - 3.2, y + 1.6), (cx + 3.2, y - 1.6)], fill=(84, 28, 12), width=1.0)
    pen.circle(cx, 126.5, 5, fill=GOLD, outline=GOLD_DARK, width=1.4)
    pen.circle(cx - 1.5, 125, 1.4, fill=GOLD_LIGHT)


def _club_half_width(y: float) -> float:
    """Half the thickness of the cudgel at height ``y``: a handle swelling to a knobby head."""
    t = (128.0 - y) / 112.0
    knobs = math.sin(y * 0.19 + 0.5) + 0.35 * math.sin(y * 0.43)
    return _club_smooth(y) + knobs * (0.3 + 0.9 * t)


def _club_smooth(y: float) -> float:
    t = (128.0 - y) / 112.0
    return 4.2 + 10.5 * t**1.3


def _club(pen: Pen) -> None:
    cx = 24.0
    # cut branch stubs first, so the trunk covers their roots
    for root_y, side, length in ((40.0, -1.0, 10.0), (66.0, 1.0, 9.0), (94.0, -1.0, 7.0)):
        hw = _club_half_width(root_y)
        root = (cx + side * (hw - 3.0), root_y)
        tip = (cx + side * (hw + length * 0.7), root_y - length)
        across = (-(tip[1] - root[1]), tip[0] - root[0])
        norm = math.hypot(*across)
        ux, uy = across[0] / norm, across[1] / norm
        stub = [
            (root[0] + ux * 4.8, root[1] + uy * 4.8),
            (tip[0] + ux * 3.6, tip[1] + uy * 3.6),
            (tip[0] - ux * 3.6, tip[1] - uy * 3.6),
            (root[0] - ux * 4.8, root[1] - uy * 4.8),
        ]
        pen.poly(stub, fill=GREEN, outline=GREEN_DARK, width=1.6)
        angle = math.degrees(math.atan2(uy, ux))
        pen.poly(
            rotate(ellipse_points(tip[0], tip[1], 3.9, 2.2, 20), angle, tip),
            fill=TAN,
            outline=TAN_DARK,
            width=1.0,
        )
    ys = [128.0 - i * 3.5 for i in range(31)]
    left = [(cx - _club_half_width(y), y) for y in ys]
    top_y = ys[-1]
    head = _club_half_width(top_y)
    cap = path(
        (cx - head, top_y),
        ((cx - head, top_y - 12), (cx + head, top_y - 12), (cx + head, top_y)),
        steps=14,
    )
    right = [(cx + _club_half_width(y), y) for y in reversed(ys)]
    pen.poly([*left, *cap[1:], *right[1:]], fill=GREEN, outline=GREEN_DARK, width=2.0)
    # grain of the wood
    for offset, shade, width in ((-0.55, GREEN_LIGHT, 2.6), (0.35, GREEN_DARK, 1.1)):
        grain = [(cx + offset * _club_smooth(y), y) for y in ys[2:-1]]
        pen.line(grain, fill=shade, width=width)
    for ky, kx in ((30.0, 0.3), (78.0, -0.15)):
        hw = _club_half_width(ky)
        pen.ellipse(cx + kx * hw, ky, 3.6, 2.2, fill=GREEN_LIGHT, outline=GREEN_DARK, width=1.1)
        pen.arc(cx + kx * hw, ky, 1.6, 0.9, 180, 360, fill=GREEN_DARK, width=0.8)
    pen.ellipse(cx, 128.0, _club_half_width(128.0), 2.2, fill=TAN, outline=TAN_DARK, width=1.0)


_PAINTERS = {"O": _coin, "C": _cup, "E": _sword, "B": _club}


def draw_symbol(draw: ImageDraw.ImageDraw, suit: str, x: float, y: float, height: float) -> None:
    """Draw the symbol of ``suit`` with its design box's top-left at ``(x, y)``."""
    k = height / DESIGN_SIZE[suit][1]
    _PAINTERS[suit](Pen(draw, k, x, y))


def symbol_size(suit: str, height: float) -> tuple[float, float]:
    """Width and height in pixels of the symbol drawn ``height`` pixels tall."""
    w, h = DESIGN_SIZE[suit]
    return (w * height / h, height)


@lru_cache(maxsize=512)
def symbol_stamp(suit: str, height: int, angle: float = 0.0, supersample: int = 1) -> Image.Image:
    """A transparent RGBA image of one symbol ``height`` pixels tall, turned by ``angle``.

    ``angle`` is in degrees, counter-clockwise, as in ``Image.rotate``. With ``supersample``
    above 1 the symbol is drawn that many times larger and reduced, which smooths its edges
    (use it for symbols pasted straight onto a final picture). Do not modify the result.
    """
    pad = 4 * supersample
    big = height * supersample
    w, h = symbol_size(suit, big)
    image = Image.new("RGBA", (math.ceil(w) + 2 * pad, math.ceil(h) + 2 * pad), (0, 0, 0, 0))
    draw_symbol(ImageDraw.Draw(image), suit, pad, pad, big)
    if angle:
        image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    if supersample > 1:
        size = (max(1, round(image.width / supersample)), max(1, round(image.height / supersample)))
        image = image.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    return image
