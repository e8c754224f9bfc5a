"""Text on pictures, in the bundled DejaVu Sans Condensed Bold (``fonts/``, its licence
beside it): every machine draws the same letters, accented ones included (á, Ñ, ü, º),
whatever fonts the system has. Characters it cannot show (most emoji, CJK) are left out
rather than drawn as empty boxes.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Ink = tuple[int, ...]

ELLIPSIS = "\u2026"
FONT_FILE = "DejaVuSansCondensed-Bold.ttf"

# Stand-ins for common characters the font lacks.
_SUBSTITUTES = {
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u00a0": " ",
    "\u00d7": "x",
    "\u2022": "\u00b7",
}


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    return (resources.files("bot.render") / "fonts" / FONT_FILE).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """The pictures' font at ``size`` pixels."""
    return ImageFont.truetype(io.BytesIO(_font_bytes()), size)


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
def _spell(ch: str) -> str | None:
    """The character to draw for ``ch`` (a stand-in where the font lacks it), or None to
    leave it out."""
    ch = _SUBSTITUTES.get(ch, ch)
    return ch if _has_glyph(ch) else None


@lru_cache(maxsize=2048)
def _layout(text: str) -> str:
    """The text as it will be drawn: what the font cannot show left out, blanks collapsed."""
    shown: list[str] = []
    for ch in text:
        drawn = _spell(ch)
        if drawn is None or drawn.isspace():
            drawn = " "
            if not shown or shown[-1] == " ":
                continue
        shown.append(drawn)
    while shown and shown[-1] == " ":
        shown.pop()
    return "".join(shown)


def displayable(text: str) -> str:
    """``text`` without the characters that cannot be drawn, blanks collapsed."""
    return _layout(text)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """Advance width of ``text`` at ``size`` pixels. Cached: a picture measures its labels,
    names and numbers several times, and the next picture the same ones again."""
    return font(size).getlength(_layout(text))


@lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: float) -> str:
    """``text`` made displayable and shortened with an ellipsis to fit ``max_width``."""
    text = displayable(text)
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + ELLIPSIS, size) > max_width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def fit_apart(texts: list[str], size: int, widths: list[float]) -> list[str]:
    """Each of ``texts`` fitted to its width, as ``fit`` does; where two come out the same
    ("Robot…" for "Robot 2" and "Robot 3"), those keep their last word and lose the middle
    instead ("Ro… 2"), so that the lines can still be told apart."""
    fitted = [fit(text, size, width) for text, width in zip(texts, widths, strict=True)]
    same = {text for text in fitted if fitted.count(text) > 1}
    return [
        _fit_middle(displayable(whole), size, width) or text
        if text in same and text != displayable(whole)
        else text
        for whole, text, width in zip(texts, fitted, widths, strict=True)
    ]


def _fit_middle(text: str, size: int, max_width: float) -> str:
    """``text`` with its middle left out to fit ``max_width``, its last word kept; empty
    where even that does not fit."""
    head, _, tail = text.rpartition(" ")
    tail = " " + tail
    while head and text_width(head + ELLIPSIS + tail, size) > max_width:
        head = head[:-1]
    return head + ELLIPSIS + tail if head else ""


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, anchor: str = "la", stroke: int = 0
) -> tuple[Image.Image, int, int]:
    """The coverage of ``text`` as an "L" image, and where its top-left corner goes
    relative to the anchor point. ``stroke`` widens the letters (for a halo). Cached, so
    that a line drawn again costs one paste."""
    base = _layout(text)
    f = font(size)
    box = f.getbbox(base or " ", anchor=anchor, stroke_width=stroke)
    pad = size // 2 + stroke + 2
    left, top = math.floor(box[0]) - pad, math.floor(box[1]) - pad
    right, bottom = math.ceil(box[2]) + pad, math.ceil(box[3]) + pad
    mask = Image.new("L", (right - left, bottom - top), 0)
    draw = ImageDraw.Draw(mask)
    xy = (-left, -top)
    draw.text(xy, base, fill=255, font=f, anchor=anchor, stroke_width=stroke, stroke_fill=255)
    box = mask.getbbox()
    if box is None:
        return Image.new("L", (1, 1), 0), 0, 0
    return mask.crop(box), left + box[0], top + box[1]


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
