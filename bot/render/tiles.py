"""Small cards drawn for a glance rather than for looks: the rank large, in the suit's colour,
over the suit's symbol. The summary lays the cards each side took out as tiles, and the
table shows the last trick as tiles."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import EDGE, PAPER
from bot.render.pen import Pen
from bot.render.suits import symbol_stamp
from bot.render.symbols import SUIT_COLOURS, split_code
from bot.render.text import font

SYMBOLS = {"O": (18, 0.0), "C": (20, 0.0), "E": (29, -42.0), "B": (28, -42.0)}
"""Each suit's symbol: its height on a tile, and its tilt (swords and clubs lean, as on the
trump badge)."""


@lru_cache(maxsize=256)
def rank_tile(
    code: str,
    size: tuple[int, int],
    rank_size: int,
    column: tuple[int, int],
    symbol_grow: int = 0,
) -> Image.Image:
    """A tile of ``size`` for ``code`` (already normalised), its rank in ``rank_size`` type
    condensed into ``column`` (its left edge and width: where the rank must show, as when
    tiles of one suit overlap), the symbol ``symbol_grow`` px taller than usual. Cached; do
    not modify."""
    rank, suit = split_code(code)
    width, height = size
    ss = 4
    big = Image.new("RGBA", (width * ss, height * ss), (0, 0, 0, 0))
    pen = Pen(ImageDraw.Draw(big), ss)
    pen.rect(0.5, 0.5, width - 0.5, height - 0.5, PAPER, EDGE, 1.0, radius=4.5)
    ink = tuple(round(c * (0.78 if suit == "O" else 0.9)) for c in SUIT_COLOURS[suit])
    f = font(rank_size * ss)
    text = str(rank)
    x0, y0, x1, y1 = (round(v) for v in f.getbbox(text))
    numeral = Image.new("RGBA", (x1 - x0, y1 - y0), (*ink, 0))
    ImageDraw.Draw(numeral).text((-x0, -y0), text, fill=(*ink, 255), font=f)
    # condensed as on a Spanish card, so that "12" fits
    left, room = column
    squeeze = min(0.86, room * ss / numeral.width)
    numeral = numeral.resize(
        (round(numeral.width * squeeze), numeral.height), Image.Resampling.LANCZOS
    )
    centre_x = (left + room / 2) * ss
    big.alpha_composite(numeral, (round(centre_x - numeral.width / 2), 4 * ss))
    symbol, angle = SYMBOLS[suit]
    stamp = symbol_stamp(suit, (symbol + symbol_grow) * ss, angle)
    centre_y = (height - 15) * ss
    big.alpha_composite(
        stamp, (round(centre_x - stamp.width / 2), round(centre_y - stamp.height / 2))
    )
    face = big.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS)
    return face.convert("RGBA")
