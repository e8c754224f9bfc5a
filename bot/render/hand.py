"""One player's hand: the cards in a row, overlapping, the unplayable ones dimmed."""

from __future__ import annotations

from PIL import Image

from bot.render.cards import CARD_H, CARD_SIZE, CARD_W, CORNER, card_face, dimmed_face, shadow
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import HandScene
from bot.render.style import HIGHLIGHT, TEXT, felt, star
from bot.render.symbols import SUITS, normalize_code, split_code
from bot.render.text import paste_text, text_width

HAND_MAX_W = 800
"""A hand picture is never wider than this; a long hand overlaps more."""

MARGIN = 16
STEP = 68  # how much of each card shows when they overlap
LIFT = 14  # playable cards stand this much higher
CODE_SIZE = 15
CODE_ROW = 24
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
        is_trump = split_code(code)[1] == scene.trump_suit
        ink = (HIGHLIGHT if is_trump else TEXT) if can_play else DIM_TEXT
        if is_trump:
            # a star before the code marks a trump
            icon = star(12)
            left = centre_x - (text_width(code, CODE_SIZE) + icon.width + 3) / 2
            canvas.paste(icon, (round(left), round(text_y - icon.height / 2 - 1)), icon)
            centre_x += (icon.width + 3) / 2
        paste_text(canvas, (centre_x, text_y), code, CODE_SIZE, ink, "mm")
    return canvas


def render_hand(scene: HandScene) -> bytes:
    """The hand picture as PNG bytes."""
    return encode_png(hand_image(scene), shared_palette())
