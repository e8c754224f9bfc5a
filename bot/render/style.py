"""Colours and shared pieces of the table pictures: felt, panels, badges, glows."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.render.pen import Pen
from bot.render.suits import symbol_stamp

SHOWN_W = 235
"""How wide a picture in a message is on screen on a phone 360 pixels wide (the message's
gutter and frame take the rest; ``benchmarks/message_heights.py`` measures it). Every
picture's smallest letters, scaled from its own width to this, are 12 pixels or more."""
MIN_SHOWN_PX = 12.0
"""The smallest letters a picture shows on that phone, in pixels."""

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

FELT_CENTRE: RGB = (44, 128, 74)
FELT_EDGE: RGB = (16, 74, 42)
FELT_LINE: RGBA = (120, 200, 140, 70)
WOOD_LIGHT: RGB = (124, 74, 40)
WOOD_DARK: RGB = (62, 34, 18)

PANEL: RGBA = (10, 30, 20, 178)
PANEL_EDGE: RGBA = (255, 255, 255, 46)
TEXT: RGB = (250, 248, 240)
TEXT_SOFT: RGB = (190, 220, 198)
TEXT_HALO: RGB = (6, 30, 16)
HIGHLIGHT: RGB = (255, 206, 84)

TEAM_COLOURS: tuple[RGB, ...] = ((239, 128, 64), (96, 178, 240))
"""Colours of team 0 and team 1 in games of pairs."""


def team_colour(team: int | None) -> RGB | None:
    """The colour of ``team``, or None when the seat or side is not in a team."""
    if team is None:
        return None
    return TEAM_COLOURS[team % len(TEAM_COLOURS)]


@lru_cache(maxsize=32)
def felt(
    width: int, height: int, rim: int = 10, radius: int = 56, line: bool = True
) -> Image.Image:
    """A green felt table with a wooden rim, RGB. Cached; copy it before drawing."""
    wood = Image.linear_gradient("L").resize((width, height))
    image = _shaded(wood, WOOD_DARK, WOOD_LIGHT)
    # radial light on the cloth: bright in the middle, darker towards the rim
    glow = Image.radial_gradient("L").resize((width - 2 * rim, height - 2 * rim))
    glow = glow.point([min(255, round(max(0, v - 60) * 1.4)) for v in range(256)])
    cloth = _shaded(glow, FELT_EDGE, FELT_CENTRE)
    mask = Image.new("L", glow.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, glow.width - 1, glow.height - 1), radius=radius, fill=255
    )
    if line:
        # a faint inner line, as printed on a card table
        overlay = Image.new("RGBA", glow.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        inset = 26
        draw.rounded_rectangle(
            (inset, inset, glow.width - 1 - inset, glow.height - 1 - inset),
            radius=radius - inset // 2,
            outline=FELT_LINE,
            width=2,
        )
        cloth = Image.alpha_composite(cloth.convert("RGBA"), overlay).convert("RGB")
    image.paste(cloth, (rim, rim), mask)
    # a dark lip where the cloth meets the wood
    lip = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(lip).rounded_rectangle(
        (rim - 1, rim - 1, width - rim, height - rim),
        radius=radius + 1,
        outline=(0, 0, 0, 90),
        width=3,
    )
    # the lip is drawn in a band along the rim (it is see-through elsewhere, where laying
    # it on would change nothing): four strips that do not overlap
    band = min(rim + radius + 4, width // 2, height // 2)
    for box in (
        (0, 0, width, band),
        (0, height - band, width, height),
        (0, band, band, height - band),
        (width - band, band, width, height - band),
    ):
        if box[2] > box[0] and box[3] > box[1]:
            strip = image.crop(box).convert("RGBA")
            image.paste(Image.alpha_composite(strip, lip.crop(box)).convert("RGB"), box[:2])
    return image


@lru_cache(maxsize=8)
def _shades(dark: RGB, light: RGB) -> list[int]:
    """What ``Image.composite`` of ``dark`` over ``light`` gives for each value of its mask,
    as the table of ``Image.point`` (the reds, the greens, then the blues)."""
    ramp = Image.new("L", (256, 1))
    ramp.frombytes(bytes(range(256)))
    mixed = Image.composite(
        Image.new("RGB", (256, 1), dark), Image.new("RGB", (256, 1), light), ramp
    ).tobytes()
    return [*mixed[0::3], *mixed[1::3], *mixed[2::3]]


def _shaded(mask: Image.Image, dark: RGB, light: RGB) -> Image.Image:
    """``Image.composite`` of two plain colours through ``mask``, read from a table: the
    same pixels, without drawing two pictures of one colour to mix."""
    return mask.convert("RGB").point(_shades(dark, light))


@lru_cache(maxsize=64)
def glow(
    size: tuple[int, int],
    radius: float,
    colour: RGB = HIGHLIGHT,
    strength: int = 255,
    blur: float = 5.0,
) -> Image.Image:
    """A soft halo around a rounded box of ``size``; the box sits at ``(margin, margin)``
    with ``margin = glow_margin(blur)``."""
    margin = glow_margin(blur)
    mask = Image.new("L", (size[0] + 2 * margin, size[1] + 2 * margin), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (margin - 2, margin - 2, margin + size[0] + 1, margin + size[1] + 1),
        radius=radius + 2,
        fill=strength,
    )
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    # only the halo outside the box: whatever sits on the box may be see-through
    ImageDraw.Draw(mask).rounded_rectangle(
        (margin + 2, margin + 2, margin + size[0] - 3, margin + size[1] - 3), radius=radius, fill=0
    )
    image = Image.new("RGBA", mask.size, (*colour, 0))
    image.putalpha(mask)
    return image


def glow_margin(blur: float) -> int:
    """Space around the box in a ``glow`` image."""
    return math.ceil(blur * 2.5) + 2


@lru_cache(maxsize=64)
def panel(
    size: tuple[int, int],
    radius: int = 12,
    edge: RGBA = PANEL_EDGE,
    width: int = 1,
    opacity: int = PANEL[3],
    stripe: RGB | None = None,
) -> Image.Image:
    """A dark, see-through rounded panel to write on, with an optional coloured stripe
    down its left side. Cached: do not modify."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1),
        radius=radius,
        fill=(*PANEL[:3], opacity),
        outline=edge,
        width=width,
    )
    if stripe is not None:
        draw.rounded_rectangle((6, 8, 11, size[1] - 9), radius=2, fill=(*stripe, 255))
    return image


@lru_cache(maxsize=16)
def suit_badge(suit: str, diameter: int) -> Image.Image:
    """A round cream badge with a gold ring and the suit's symbol, RGBA, smooth-edged."""
    ss = 4
    big = Image.new("RGBA", (diameter * ss, diameter * ss), (0, 0, 0, 0))
    pen = Pen(ImageDraw.Draw(big), ss)
    r = diameter / 2
    pen.circle(r, r, r - 0.5, fill=(255, 251, 238), outline=(226, 172, 60), width=2.6)
    pen.circle(r, r, r - 4.2, outline=(190, 150, 80), width=0.8)
    inner = diameter * (0.62 if suit in "OC" else 0.8)
    stamp = symbol_stamp(suit, round(inner * ss), 0.0 if suit in "OC" else -35.0)
    big.alpha_composite(
        stamp, (round((big.width - stamp.width) / 2), round((big.height - stamp.height) / 2))
    )
    return (
        big.convert("RGBa").resize((diameter, diameter), Image.Resampling.LANCZOS).convert("RGBA")
    )


@lru_cache(maxsize=1)
def robot_icon(size: int = 16) -> Image.Image:
    """A small robot head, marking seats played by the computer."""
    ss = 4
    big = Image.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    pen = Pen(ImageDraw.Draw(big), ss * size / 16)
    metal, dark = (206, 220, 230), (40, 60, 72)
    pen.line([(8, 1.6), (8, 4.5)], dark, 1.2)
    pen.circle(8, 1.8, 1.5, fill=(255, 120, 90))
    pen.rect(2.5, 4.5, 13.5, 14, fill=metal, outline=dark, width=1.0, radius=2.5)
    pen.rect(0.6, 7.5, 2.5, 11, fill=dark, radius=0.8)
    pen.rect(13.5, 7.5, 15.4, 11, fill=dark, radius=0.8)
    pen.circle(5.8, 8.6, 1.5, fill=(40, 150, 220))
    pen.circle(10.2, 8.6, 1.5, fill=(40, 150, 220))
    pen.line([(5.5, 11.8), (10.5, 11.8)], dark, 0.9)
    return big.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")
