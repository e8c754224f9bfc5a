"""Text on pictures with Pillow's built-in font.

``ImageFont.load_default(size=...)`` ships inside Pillow (no font file is read from the
system), so every machine with the same Pillow draws the same letters. That font covers
ASCII and a few signs only, so accented letters (``á``, ``Ñ``, ``ü``...) are drawn as their
base letter with the accent added as a small stroke, and characters it cannot show at all
(most emoji, CJK) are left out rather than drawn as empty boxes.
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Ink = tuple[int, ...]

ELLIPSIS = "\u2026"

# Stand-ins for common characters the font lacks.
_SUBSTITUTES = {
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u00a0": " ",
    "\u00d7": "x",
    "\u2022": "\u00b7",
}

# Combining accents that are drawn by hand, by name.
_MARKS = {
    "\u0300": "grave",
    "\u0301": "acute",
    "\u0302": "circumflex",
    "\u0303": "tilde",
    "\u0304": "macron",
    "\u0308": "diaeresis",
    "\u030a": "ring",
    "\u0327": "cedilla",
}


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """Pillow's default font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


def _glyph_bytes(ch: str) -> bytes:
    image = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(image).text((4, 4), ch, fill=255, font=font(24))
    return image.tobytes()


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    # U+E000 is a private-use code point: no font maps it, so it shows the "missing" box.
    return _glyph_bytes("\ue000")


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    if not ch.isprintable():
        return False
    if ch.isascii():
        return True
    return _glyph_bytes(ch) != _missing_glyph()


@lru_cache(maxsize=4096)
def _spell(ch: str) -> tuple[str, tuple[str, ...]] | None:
    """How to draw ``ch``: a base character and the accents to add, or None to leave it out."""
    ch = _SUBSTITUTES.get(ch, ch)
    if _has_glyph(ch):
        return ch, ()
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:]
    if marks and _has_glyph(base) and all(m in _MARKS for m in marks):
        return base, tuple(_MARKS[m] for m in marks)
    return None


@lru_cache(maxsize=2048)
def _layout(text: str) -> tuple[str, str, tuple[tuple[int, tuple[str, ...]], ...]]:
    """``(shown, base, accents)``: the text as it will appear, the plain string the font
    draws, and the accents to add by character index of ``base``."""
    shown: list[str] = []
    base: list[str] = []
    accents: list[tuple[int, tuple[str, ...]]] = []
    for ch in text:
        spelled = _spell(ch)
        if spelled is None:
            ch, spelled = " ", (" ", ())
        b, marks = spelled
        if b.isspace() and (not base or base[-1] == " "):
            continue
        if b.isspace():
            b = ch = " "
        if marks:
            accents.append((len(base), marks))
        shown.append(ch)
        base.append(b)
    while base and base[-1] == " ":
        base.pop()
        shown.pop()
    return "".join(shown), "".join(base), tuple(accents)


def displayable(text: str) -> str:
    """``text`` without the characters that cannot be drawn, blanks collapsed."""
    return _layout(text)[0]


def text_width(text: str, size: int) -> float:
    """Advance width of ``text`` at ``size`` pixels."""
    return font(size).getlength(_layout(text)[1])


@lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: float) -> str:
    """``text`` made displayable and shortened with an ellipsis to fit ``max_width``."""
    text = displayable(text)
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + ELLIPSIS, size) > max_width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


@lru_cache(maxsize=64)
def _heights(size: int) -> tuple[float, float]:
    """x-height and cap height of the font at ``size``, in pixels above the baseline."""
    f = font(size)
    return -f.getbbox("x", anchor="ls")[1], -f.getbbox("H", anchor="ls")[1]


def _draw_accent(
    draw: ImageDraw.ImageDraw,
    kind: str,
    cx: float,
    top: float,
    baseline: float,
    size: int,
    fill: Ink,
    width: int,
) -> None:
    s = size
    if kind == "acute":
        draw.line([(cx - 0.05 * s, top - 0.09 * s), (cx + 0.08 * s, top - 0.23 * s)], fill, width)
    elif kind == "grave":
        draw.line([(cx + 0.05 * s, top - 0.09 * s), (cx - 0.08 * s, top - 0.23 * s)], fill, width)
    elif kind == "circumflex":
        pts = [
            (cx - 0.11 * s, top - 0.07 * s),
            (cx, top - 0.18 * s),
            (cx + 0.11 * s, top - 0.07 * s),
        ]
        draw.line(pts, fill, width, joint="curve")
    elif kind == "tilde":
        pts = [
            (
                cx + (i / 8 - 0.5) * 0.24 * s,
                top - 0.12 * s - 0.03 * s * math.sin(i / 8 * 2 * math.pi),
            )
            for i in range(9)
        ]
        draw.line(pts, fill, width, joint="curve")
    elif kind == "macron":
        draw.line([(cx - 0.12 * s, top - 0.11 * s), (cx + 0.12 * s, top - 0.11 * s)], fill, width)
    elif kind == "diaeresis":
        r = max(0.8, 0.04 * s + (width - 1) / 2)
        for dx in (-0.11 * s, 0.11 * s):
            draw.ellipse((cx + dx - r, top - 0.12 * s - r, cx + dx + r, top - 0.12 * s + r), fill)
    elif kind == "ring":
        r = 0.065 * s
        draw.ellipse((cx - r, top - 0.15 * s - r, cx + r, top - 0.15 * s + r), None, fill, width)
    elif kind == "cedilla":
        pts = [
            (cx, baseline),
            (cx + 0.06 * s, baseline + 0.1 * s),
            (cx - 0.06 * s, baseline + 0.18 * s),
        ]
        draw.line(pts, fill, width, joint="curve")


_ACCENT_SS = 4  # accents are drawn this many times larger, then reduced, for smooth edges


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, anchor: str = "la", stroke: int = 0
) -> tuple[Image.Image, int, int]:
    """The coverage of ``text`` as an "L" image, and where its top-left corner goes
    relative to the anchor point. ``stroke`` widens the letters (for a halo). Cached, so
    that a line drawn again costs one paste."""
    _, base, accents = _layout(text)
    f = font(size)
    box = f.getbbox(base or " ", anchor=anchor, stroke_width=stroke)
    pad = size // 2 + stroke + 2
    left, top = math.floor(box[0]) - pad, math.floor(box[1]) - pad
    right, bottom = math.ceil(box[2]) + pad, math.ceil(box[3]) + pad
    mask = Image.new("L", (right - left, bottom - top), 0)
    draw = ImageDraw.Draw(mask)
    xy = (-left, -top)
    draw.text(xy, base, fill=255, font=f, anchor=anchor, stroke_width=stroke, stroke_fill=255)
    if accents:
        _add_accents(mask, xy, base, accents, size, anchor, stroke)
    box = mask.getbbox()
    if box is None:
        return Image.new("L", (1, 1), 0), 0, 0
    return mask.crop(box), left + box[0], top + box[1]


def _add_accents(
    mask: Image.Image,
    xy: tuple[float, float],
    base: str,
    accents: tuple[tuple[int, tuple[str, ...]], ...],
    size: int,
    anchor: str,
    stroke: int,
) -> None:
    f = font(size)
    draw = ImageDraw.Draw(mask)
    here = draw.textbbox((0, 0), base, font=f, anchor=anchor)
    left = draw.textbbox((0, 0), base, font=f, anchor="l" + anchor[1])
    on_baseline = draw.textbbox((0, 0), base, font=f, anchor=anchor[0] + "s")
    origin_x = xy[0] + here[0] - left[0]
    baseline = xy[1] + here[1] - on_baseline[1]
    x_height, cap_height = _heights(size)
    k = _ACCENT_SS
    layer = Image.new("L", (mask.width * k, mask.height * k), 0)
    pen = ImageDraw.Draw(layer)
    width = round(max(1.0, size / 12) * k) + 2 * stroke * k
    for index, marks in accents:
        ch = base[index]
        cx = origin_x + f.getlength(base[:index]) + f.getlength(ch) / 2
        top = baseline - (cap_height if ch.isupper() or ch in "bdfhklt" else x_height)
        if ch in "ij":
            # the font has no dotless i: paint the dot out under the accent
            half = f.getlength(ch) / 2 + stroke
            draw.rectangle(
                (cx - half, top - 0.34 * size - stroke, cx + half, top - 0.03 * size), fill=0
            )
            top += 0.02 * size
        for kind in marks:
            _draw_accent(pen, kind, cx * k, top * k, baseline * k, size * k, (255,), width)
    small = layer.reduce(k)
    mask.paste(ImageChops.lighter(mask, small))


def paste_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Ink,
    anchor: str = "la",
    halo: Ink | None = None,
    halo_width: int = 2,
) -> None:
    """Write ``text`` on ``image`` at ``xy`` (anchor as in ``ImageDraw.text``), optionally
    with a dark ``halo`` round the letters; uses cached masks."""
    x, y = round(xy[0]), round(xy[1])
    if halo is not None:
        mask, dx, dy = text_mask(text, size, anchor, halo_width)
        image.paste(halo, (x + dx, y + dy, x + dx + mask.width, y + dy + mask.height), mask)
    mask, dx, dy = text_mask(text, size, anchor, 0)
    image.paste(fill, (x + dx, y + dy, x + dx + mask.width, y + dy + mask.height), mask)
