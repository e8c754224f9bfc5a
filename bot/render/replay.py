"""A moment of a finished deal, every hand shown: the table as the table picture draws it
(the trick that just closed, its winner lit), and under it one panel per seat with the
cards that seat still holds, as small tiles in suit order.

Drawn ``TABLE_W`` wide like the table picture, so that on a phone its letters are as large.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.render.cards import shadow
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import TableScene
from bot.render.style import HIGHLIGHT, PANEL_EDGE, TEXT, TEXT_SOFT, felt, panel, team_colour
from bot.render.symbols import normalize_code
from bot.render.table import TABLE_H, TABLE_W, table_image
from bot.render.text import fit, paste_text
from bot.render.tiles import rank_tile

NAME_SIZE = 24
PAD = 10
HAND_TOP = 36  # from a panel's top to its tiles
TILE_W = 34
TILE_H = 52
TILE_STEP = 29  # tiles of one suit overlap, as cards held in a hand: the rank shows
SUIT_GAP = 6
TILE_RANK_SIZE = 23
PANEL_H = HAND_TOP + TILE_H + 10


@dataclass(frozen=True, slots=True)
class ReplayScene:
    """The table at this moment, and each seat's hand (card codes, in the order the hand
    is shown: by suit), in seat order."""

    table: TableScene
    hands: tuple[tuple[str, ...], ...]


def replay_size(scene: ReplayScene) -> tuple[int, int]:
    return (TABLE_W, TABLE_H + PAD + len(scene.hands) * (PANEL_H + PAD))


def _tile(code: str) -> Image.Image:
    face = rank_tile(code, (TILE_W, TILE_H), TILE_RANK_SIZE, (3, TILE_STEP - 7))
    under = shadow((TILE_W, TILE_H), 4.5, 2.0, 110).copy()
    under.alpha_composite(face, (5, 3))
    return under


def _hand(canvas: Image.Image, scene: ReplayScene, seat: int, top: int) -> None:
    info = scene.table.seats[seat]
    stripe = team_colour(info.team)
    box = panel((TABLE_W - 2 * PAD, PANEL_H), 12, PANEL_EDGE, 1, 200, stripe)
    canvas.paste(box, (PAD, top), box)
    left = PAD + (20 if stripe is not None else 14)
    ink = HIGHLIGHT if scene.table.trick_winner == seat else TEXT
    paste_text(
        canvas, (left, top + HAND_TOP / 2), fit(info.name, NAME_SIZE, 300), NAME_SIZE, ink, "lm"
    )
    cards = [normalize_code(c) for c in scene.hands[seat]]
    x, suit = left, ""
    for i, code in enumerate(cards):
        if i:
            x += TILE_STEP if code[-1] == suit else TILE_W + SUIT_GAP
        face = _tile(code)
        canvas.paste(face, (x - 5, top + HAND_TOP - 3), face)
        suit = code[-1]
    if not cards:
        paste_text(canvas, (left, top + HAND_TOP + TILE_H / 2), "—", NAME_SIZE, TEXT_SOFT, "lm")


def replay_image(scene: ReplayScene) -> Image.Image:
    """The picture as an RGB image (see ``replay_size``)."""
    if len(scene.hands) != len(scene.table.seats):
        raise ValueError("one hand per seat")
    width, height = replay_size(scene)
    canvas = felt(width, height, 8, 40, line=False).copy()
    canvas.paste(table_image(scene.table), (0, 0))
    top = TABLE_H + PAD
    for seat in range(len(scene.hands)):
        _hand(canvas, scene, seat, top)
        top += PANEL_H + PAD
    return canvas


def render_replay(scene: ReplayScene) -> bytes:
    """The picture as PNG bytes."""
    return encode_png(replay_image(scene), shared_palette())
