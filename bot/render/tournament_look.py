"""The look the tournament pictures share (the bracket, ``bracket``; the Swiss standings,
``standings``): their text sizes and margins, the title band, a winner's lit line, the
champion's crown, and how a name is said in their descriptions."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.style import HIGHLIGHT, TEXT_SOFT
from bot.render.text import ELLIPSIS, fit, paste_text, text_width

TITLE_SIZE = 26
LABEL_SIZE = 21  # round captions and column headings
NAME_SIZE = 22

M = 18  # from the picture's edge to what is drawn on the cloth
TITLE_H = 44
CAPTION_H = 34  # the row of round captions
INSET = 14  # from a plate's edge to its text
CROWN_W = 22

BAND = (*HIGHLIGHT, 40)  # under a winner's line


@lru_cache(maxsize=4)
def crown(width: int) -> Image.Image:
    """A small gold crown, for the tournament's winner."""
    ss = 4
    w, h = width * ss, round(width * 0.8) * ss
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    points = [
        (0.06, 0.92),
        (0.02, 0.22),
        (0.3, 0.52),
        (0.5, 0.08),
        (0.7, 0.52),
        (0.98, 0.22),
        (0.94, 0.92),
    ]
    draw = ImageDraw.Draw(big)
    draw.polygon(
        [(x * w, y * h) for x, y in points],
        fill=(*HIGHLIGHT, 255),
        outline=(150, 100, 20, 255),
        width=ss,
    )
    size = (width, round(width * 0.8))
    return big.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")


def title_band(canvas: Image.Image, title: str, width: int, subtitle: str = "") -> None:
    room = width - 2 * M - 8
    text = fit(title, TITLE_SIZE, room)
    if text:
        paste_text(canvas, (M + 4, M + TITLE_H / 2), text, TITLE_SIZE, HIGHLIGHT, "lm")
    if subtitle:
        rest = room - (text_width(text, TITLE_SIZE) + 16 if text else 0)
        sub = fit(subtitle, LABEL_SIZE, rest)
        if sub:
            paste_text(
                canvas, (M + 4 + room, M + TITLE_H / 2 + 2), sub, LABEL_SIZE, TEXT_SOFT, "rm"
            )


def lit(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A winner's line: a gold frame round it, a gold bar down its left edge (gold on the
    felt stays gold in the shared palette, where a see-through gold wash would not)."""
    x0, y0, _, y1 = box
    draw.rounded_rectangle(box, radius=7, fill=BAND, outline=(*HIGHLIGHT, 255), width=2)
    draw.rounded_rectangle((x0, y0, x0 + 5, y1), radius=2, fill=(*HIGHLIGHT, 255))


def shorten(text: str, max_chars: int) -> str:
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + ELLIPSIS


def said_name(name: str | None) -> str:
    return (name or "").strip() or "?"
