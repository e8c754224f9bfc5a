"""Card faces made for emoji size: the pictures the bot uploads as its application's emojis.

Discord shows an emoji 22 to 48 pixels tall, where a full card face is a blur. These are
simplified faces: a card with a border in its suit's colour, a big rank numeral and one
large suit symbol, so that the rank and the suit read at 32 pixels. Each is a
``EMOJI_SIZE`` square PNG, the card standing in the middle of a transparent square.

Drawing is deterministic (the bundled font, no randomness), so a picture's hash is the same
from one run to the next; the bot names each emoji after it and uploads a picture again
only when its drawing changed.
"""

from __future__ import annotations

import hashlib
import io
import re
from functools import lru_cache
from typing import Final

from PIL import Image, ImageChops, ImageDraw

from bot.render.cards import PAPER
from bot.render.pen import Pen
from bot.render.suits import symbol_stamp
from bot.render.symbols import ALL_CARDS, SUIT_COLOURS, normalize_code, split_code
from bot.render.text import font

EMOJI_SIZE: Final = 128
"""Width and height of an emoji picture in pixels (Discord scales it down to show it)."""

MAX_EMOJI_BYTES: Final = 256 * 1024
"""Discord's limit on the size of an emoji's picture."""

BACK: Final = "back"
"""The key of the card back among the emoji pictures (the faces' keys are card codes)."""

EMOJI_KEYS: Final[tuple[str, ...]] = (*ALL_CARDS, BACK)
"""What gets an emoji: the 40 card codes, suit by suit, then the back."""

HASH_LENGTH: Final = 8

_SS: Final = 4  # drawn this many times larger, then reduced: smooth edges
_CARD: Final = (11.0, 1.5, 117.0, 126.5)  # the card inside the square, in final pixels
_RADIUS: Final = 13.0
_BORDER: Final = 6.0

_NUMERAL_TOP: Final = 11.0
_NUMERAL_HEIGHT: Final = 50.0  # the digits' height
_NUMERAL_MAX_WIDTH: Final = 90.0
_SYMBOL_BOX: Final = (17.0, 66.0, 111.0, 120.0)  # where the suit symbol goes

# Swords and clubs are long and thin: they lie across the card's lower half, where they
# can be longer than the half is tall.
_SYMBOL_HEIGHT: Final = {"O": 50.0, "C": 52.0, "E": 88.0, "B": 84.0}
_SYMBOL_TURN: Final = {"O": 0.0, "C": 0.0, "E": -58.0, "B": -58.0}
# ...and a little stouter than on the cards, so that they are more than a line when small
_SYMBOL_WIDEN: Final = {"O": 1.0, "C": 1.0, "E": 1.45, "B": 1.15}

_BACK_RED: Final = (150, 28, 38)
_BACK_RED_DARK: Final = (104, 14, 24)
_BACK_LINE: Final = (196, 76, 80)
_BACK_GOLD: Final = (236, 186, 80)
_BACK_CREAM: Final = (250, 240, 214)


def _darker(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    r, g, b = colour
    return (round(r * factor), round(g * factor), round(b * factor))


def _ink(suit: str) -> tuple[int, int, int]:
    """The suit's colour, dark enough to read on the card's paper."""
    return _darker(SUIT_COLOURS[suit], 0.72)


def _canvas() -> tuple[Image.Image, Pen]:
    size = EMOJI_SIZE * _SS
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    return image, Pen(ImageDraw.Draw(image), _SS)


def _reduce(image: Image.Image) -> Image.Image:
    size = (EMOJI_SIZE, EMOJI_SIZE)
    return image.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")


def _numeral(rank: int, suit: str) -> Image.Image:
    """The rank as a big numeral in the suit's ink, cropped to its ink, supersampled."""
    text = str(rank)
    f = font(round(_NUMERAL_HEIGHT * _SS * 1.38))
    left, top, right, bottom = (round(v) for v in f.getbbox(text, anchor="ls"))
    pad = 2 * _SS
    image = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
    ink = _ink(suit)
    ImageDraw.Draw(image).text(
        (pad - left, pad - top),
        text,
        fill=ink,
        font=f,
        anchor="ls",
        stroke_width=_SS,
        stroke_fill=ink,
    )
    image = image.crop(image.getbbox() or (0, 0, image.width, image.height))
    height = round(_NUMERAL_HEIGHT * _SS)
    width = min(round(image.width * height / image.height), round(_NUMERAL_MAX_WIDTH * _SS))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def _symbol(suit: str) -> Image.Image:
    """The suit's symbol, widened and turned for the emoji, supersampled."""
    stamp = symbol_stamp(suit, round(_SYMBOL_HEIGHT[suit] * _SS))
    widen = _SYMBOL_WIDEN[suit]
    if widen != 1.0:
        size = (round(stamp.width * widen), stamp.height)
        stamp = stamp.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    turn = _SYMBOL_TURN[suit]
    if turn:
        stamp = stamp.rotate(turn, resample=Image.Resampling.BICUBIC, expand=True)
    return stamp


def _paste_centred(image: Image.Image, stamp: Image.Image, cx: float, cy: float) -> None:
    image.alpha_composite(
        stamp, (round(cx * _SS - stamp.width / 2), round(cy * _SS - stamp.height / 2))
    )


@lru_cache(maxsize=64)
def face_emoji_image(code: str) -> Image.Image:
    """The cached emoji picture of the card ``code`` (case-insensitive), RGBA,
    ``EMOJI_SIZE`` square. Do not modify."""
    rank, suit = split_code(code)
    image, pen = _canvas()
    x0, y0, x1, y1 = _CARD
    colour = SUIT_COLOURS[suit]
    pen.rect(x0, y0, x1, y1, fill=_darker(colour, 0.8), radius=_RADIUS)
    b = _BORDER
    pen.rect(x0 + b, y0 + b, x1 - b, y1 - b, fill=PAPER, radius=_RADIUS - b + 2)
    numeral = _numeral(rank, suit)
    image.alpha_composite(
        numeral, (round((x0 + x1) / 2 * _SS - numeral.width / 2), round(_NUMERAL_TOP * _SS))
    )
    sx0, sy0, sx1, sy1 = _SYMBOL_BOX
    _paste_centred(image, _symbol(suit), (sx0 + sx1) / 2, (sy0 + sy1) / 2)
    return _reduce(image)


@lru_cache(maxsize=1)
def back_emoji_image() -> Image.Image:
    """The cached emoji picture of a card's back, RGBA, ``EMOJI_SIZE`` square: the red
    back of the cards on the table, with its diamond lattice and gold medallion, drawn
    plainer. Do not modify."""
    image, pen = _canvas()
    x0, y0, x1, y1 = _CARD
    pen.rect(x0, y0, x1, y1, fill=PAPER, radius=_RADIUS)
    m = 5.0
    pen.rect(
        x0 + m,
        y0 + m,
        x1 - m,
        y1 - m,
        fill=_BACK_RED,
        outline=_BACK_RED_DARK,
        width=1.5,
        radius=_RADIUS - 4,
    )
    lattice = Image.new("RGBA", image.size, (0, 0, 0, 0))
    lattice_pen = Pen(ImageDraw.Draw(lattice), _SS)
    step, slope = 20.0, 0.62
    for i in range(-8, 14):
        a = x0 + i * step
        lattice_pen.line([(a, 0), (a + slope * EMOJI_SIZE, EMOJI_SIZE)], _BACK_LINE, 2.0)
        lattice_pen.line([(a, 0), (a - slope * EMOJI_SIZE, EMOJI_SIZE)], _BACK_LINE, 2.0)
    inside = Image.new("L", image.size, 0)
    Pen(ImageDraw.Draw(inside), _SS).rect(
        x0 + m + 2, y0 + m + 2, x1 - m - 2, y1 - m - 2, fill=255, radius=_RADIUS - 6
    )
    lattice.putalpha(ImageChops.multiply(lattice.getchannel("A"), inside))
    image.alpha_composite(lattice)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pen.ellipse(cx, cy, 28, 38, fill=_BACK_CREAM, outline=_BACK_GOLD, width=5.0)
    pen.ellipse(cx, cy, 17, 25, fill=_BACK_RED, outline=_BACK_GOLD, width=3.0)
    return _reduce(image)


def emoji_image(key: str) -> Image.Image:
    """The cached picture of ``key``: a card code, or ``BACK``. Do not modify."""
    return back_emoji_image() if key == BACK else face_emoji_image(normalize_code(key))


def _encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def face_emoji_png(code: str) -> bytes:
    """The PNG of the card ``code``'s emoji (e.g. ``"12B"``, case-insensitive). Raises
    ``ValueError`` for a code that is not one of the 40 cards."""
    return _encode(face_emoji_image(normalize_code(code)))


def back_emoji_png() -> bytes:
    """The PNG of the card back's emoji."""
    return _encode(back_emoji_image())


def emoji_png(key: str) -> bytes:
    """The PNG of ``key``'s emoji: a card code, or ``BACK``."""
    return back_emoji_png() if key == BACK else face_emoji_png(key)


@lru_cache(maxsize=64)
def emoji_hash(key: str) -> str:
    """A short hash (``HASH_LENGTH`` hex digits) of ``key``'s picture, stable from one run
    to the next while the drawing stays the same.

    It hashes the pixels, not the PNG bytes: a new zlib in a Pillow upgrade writes other
    bytes for the same picture, and that must not upload every emoji again."""
    image = emoji_image(key)
    digest = hashlib.sha256(f"{image.mode} {image.width}x{image.height}\n".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()[:HASH_LENGTH]


def faces_digest() -> str:
    """One short hash of every emoji picture, for the logs: it changes when any drawing
    does."""
    joined = " ".join(f"{key}={emoji_hash(key)}" for key in EMOJI_KEYS)
    return hashlib.sha256(joined.encode()).hexdigest()[:HASH_LENGTH]


# ------------------------------------------------------------------ emoji names

NAME_PREFIX: Final = "tute_"

_OURS: Final = re.compile(
    rf"{NAME_PREFIX}(?P<key>(?:1[0-2]|[1-7])[OCEB]|{BACK})_(?P<hash>[0-9a-f]{{8}})"
)


def emoji_name(key: str) -> str:
    """The name of the emoji of ``key`` (a card code, or ``back``) for its current picture:
    ``tute_12B_1a2b3c4d``, within Discord's 2 to 32 characters of ``[A-Za-z0-9_]``."""
    return f"{NAME_PREFIX}{key}_{emoji_hash(key)}"


def current_names() -> dict[str, str]:
    """The name of every emoji for its current picture, by card code (and ``back``)."""
    return {key: emoji_name(key) for key in EMOJI_KEYS}


def key_of(name: str) -> str | None:
    """The card code (or ``back``) an emoji of ours stands for, whatever its hash; None
    for an emoji that is not ours."""
    found = _OURS.fullmatch(name)
    return found["key"] if found else None
