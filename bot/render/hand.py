"""One player's hand: the cards in a row, overlapping, the unplayable ones dimmed."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import CARD_H, CARD_SIZE, CARD_W, CORNER, card_face, dimmed_face, shadow
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import HandScene
from bot.render.style import HIGHLIGHT, TEXT, felt
from bot.render.suits import symbol_stamp
from bot.render.symbols import SUITS, normalize_code, split_code
from bot.render.text import paste_text, text_width

HAND_MAX_W = 800
"""A hand picture is never wider than this; a long hand overlaps more."""

MARGIN = 16
STEP = 68  # how much of each card shows when they overlap
LIFT = 14  # playable cards stand this much higher
CODE_SIZE = 15
CODE_ROW = 24
SUIT_ICON = 17
"""Height of the suit symbol in a card's label."""
LABEL_GAP = 2
HAND_H = MARGIN + LIFT + CARD_H + 6 + CODE_ROW + 6
DIM_TEXT = (120, 140, 128)


def _step(count: int) -> int:
    if count <= 1:
        return STEP
    return min(STEP, (HAND_MAX_W - 2 * MARGIN - CARD_W) // (count - 1))


def hand_size(count: int) -> tuple[int, int]:
    """Size in pixels of the picture of a hand of ``count`` cards."""
    width = 2 * MARGIN + CARD_W + _step(count) * max(0, count - 1)
    return (width, HAND_H)


def hand_image(scene: HandScene) -> Image.Image:
    """The hand picture as an RGB image (see ``hand_size``)."""
    cards = [normalize_code(c) for c in scene.cards]
    playable = None if scene.playable is None else {normalize_code(c) for c in scene.playable}
    if scene.trump_suit is not None and scene.trump_suit not in SUITS:
        raise ValueError(f"not a suit: {scene.trump_suit!r}")
    width, height = hand_size(len(cards))
    canvas = felt(width, height, 6, 22, line=False).copy()
    step = _step(len(cards))
    under = shadow(CARD_SIZE, CORNER, 3.0, 130)
    for i, code in enumerate(cards):
        can_play = playable is None or code in playable
        x = MARGIN + i * step
        y = MARGIN + (0 if can_play and playable is not None else LIFT)
        canvas.paste(under, (x - 4, y - 3), under)
        face = card_face(code) if can_play else dimmed_face(code)
        canvas.paste(face, (x, y), face)
        if not scene.show_codes:
            continue
        shown = CARD_W if i == len(cards) - 1 else step
        centre_x = x + shown / 2
        text_y = MARGIN + LIFT + CARD_H + 6 + CODE_ROW / 2
        _label(canvas, code, centre_x, text_y, trump=code[-1] == scene.trump_suit, dim=not can_play)
    return canvas


def _label(
    canvas: Image.Image, code: str, centre_x: float, y: float, *, trump: bool, dim: bool
) -> None:
    """A card's label under it: its rank, then its suit's own symbol (no letter that reads as
    a digit: "12" and a coin, never "12O"); a trump's in gold, underlined (no star, which
    read as points)."""
    rank, suit = split_code(code)
    text = str(rank)
    icon = _suit_icon(suit, dim)
    text_w = text_width(text, CODE_SIZE)
    total = text_w + LABEL_GAP + icon.width
    left = centre_x - total / 2
    ink = (HIGHLIGHT if trump else TEXT) if not dim else DIM_TEXT
    paste_text(canvas, (left, y), text, CODE_SIZE, ink, "lm")
    canvas.paste(icon, (round(left + text_w + LABEL_GAP), round(y - icon.height / 2)), icon)
    if trump:
        line_y = round(y + CODE_SIZE / 2 + 2)
        ImageDraw.Draw(canvas).line(
            [(round(left), line_y), (round(left + total), line_y)], fill=ink, width=2
        )


@lru_cache(maxsize=16)
def _suit_icon(suit: str, dim: bool) -> Image.Image:
    # a sword or a club stands at a slant, as on the trump badge: upright it is a thin line
    upright = suit in "OC"
    icon = symbol_stamp(suit, SUIT_ICON if upright else SUIT_ICON + 5, 0 if upright else -35, 4)
    if not dim:
        return icon
    faded = icon.copy()
    faded.putalpha(icon.getchannel("A").point([a * 3 // 4 for a in range(256)]))
    return faded


def render_hand(scene: HandScene) -> bytes:
    """The hand picture as PNG bytes."""
    return encode_png(hand_image(scene), shared_palette())
