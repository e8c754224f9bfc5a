"""The cards of one suit in order of strength, each with its points under it: the picture
of ``/tute rules``' first page.

Drawn for a phone: ``DECK_W`` pixels wide, the cards in rows of ``PER_ROW``, every piece of
text at least ``MIN_TEXT_PX`` pixels, which stays at 12 pixels or more when Discord shows
the picture ``style.SHOWN_W`` pixels wide (on a phone 360 pixels wide). The words come from
the caller, already translated.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.render.cards import CARD_H, CARD_W, scaled_face, shadow
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.style import HIGHLIGHT, TEXT, TEXT_HALO, TEXT_SOFT, felt
from bot.render.symbols import normalize_code
from bot.render.text import fit, paste_text

DECK_W = 480
"""Width of the picture; its height grows with the rows of cards."""

TITLE_SIZE = 26
POINTS_SIZE = 30
FOOTER_SIZE = 25
TEXT_SIZES = (TITLE_SIZE, POINTS_SIZE, FOOTER_SIZE)
MIN_TEXT_PX = min(TEXT_SIZES)
"""The smallest font size in the picture: shown ``SHOWN_W`` pixels wide, its letters are
``MIN_TEXT_PX * SHOWN_W / DECK_W`` pixels (12.2)."""

PER_ROW = 5
PAD = 16  # from the picture's edge to the cards
GAP = 10  # between two cards of a row
FACE_W = (DECK_W - 2 * PAD - (PER_ROW - 1) * GAP) // PER_ROW
FACE_H = round(FACE_W * CARD_H / CARD_W)
TITLE_H = 44
POINTS_H = 40  # under a card, for its points
FOOTER_H = 40


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A card and what is written under it; ``counts``: its points are drawn in gold."""

    code: str
    caption: str
    counts: bool


@dataclass(frozen=True, slots=True)
class DeckScene:
    """The cards in the order they are shown, a title above them and a line under them."""

    title: str
    cards: tuple[DeckCard, ...]
    footer: str = ""


def deck_size(scene: DeckScene) -> tuple[int, int]:
    rows = -(-len(scene.cards) // PER_ROW)
    footer = FOOTER_H if scene.footer else 0
    return DECK_W, PAD + TITLE_H + rows * (FACE_H + POINTS_H) + footer + PAD // 2


def deck_image(scene: DeckScene) -> Image.Image:
    """The picture, RGB."""
    width, height = deck_size(scene)
    image = felt(width, height, rim=6, radius=28, line=False).copy().convert("RGBA")
    usable = width - 2 * PAD
    title = fit(scene.title, TITLE_SIZE, usable)
    paste_text(image, (width / 2, PAD + TITLE_H / 2 - 4), title, TITLE_SIZE, TEXT, "mm", TEXT_HALO)
    top = PAD + TITLE_H
    edge = shadow((FACE_W, FACE_H))
    margin = (edge.width - FACE_W) // 2
    for i, card in enumerate(scene.cards):
        row, column = divmod(i, PER_ROW)
        x = PAD + column * (FACE_W + GAP)
        y = top + row * (FACE_H + POINTS_H)
        image.alpha_composite(edge, (x - margin + 2, y - margin + 3))
        image.alpha_composite(scaled_face(normalize_code(card.code), FACE_W), (x, y))
        ink = HIGHLIGHT if card.counts else TEXT_SOFT
        caption = fit(card.caption, POINTS_SIZE, FACE_W + GAP)
        centre = (x + FACE_W / 2, y + FACE_H + POINTS_H / 2)
        paste_text(image, centre, caption, POINTS_SIZE, ink, "mm", TEXT_HALO)
    if scene.footer:
        footer = fit(scene.footer, FOOTER_SIZE, usable)
        centre = (width / 2, height - PAD // 2 - FOOTER_H / 2)
        paste_text(image, centre, footer, FOOTER_SIZE, TEXT, "mm", TEXT_HALO)
    return image.convert("RGB")


def render_deck(scene: DeckScene) -> bytes:
    """The picture as PNG bytes."""
    return encode_png(deck_image(scene), shared_palette())
