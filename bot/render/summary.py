"""The end of a deal: for each side, the cards it took, its cantes and its points."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render.cards import CARD_H, CARD_W, scaled_face, shadow
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import SideSummary, SummaryScene
from bot.render.style import (
    HIGHLIGHT,
    PANEL_EDGE,
    TEXT,
    TEXT_SOFT,
    felt,
    glow,
    glow_margin,
    panel,
    suit_badge,
    team_colour,
)
from bot.render.symbols import SUITS, normalize_code, split_code
from bot.render.text import fit, paste_text

SUMMARY_W = 860
"""Width of a summary picture; its height grows with the number of sides and cards."""

PAD = 24
SIDE_GAP = 14
MINI_W = 40
MINI_H = round(MINI_W * CARD_H / CARD_W)
MINI_STEP = 24
ROW_STEP = MINI_H - 16
PER_ROW = 20
CANTE_W = 32
CANTE_H = round(CANTE_W * CARD_H / CARD_W)
STATS_X = 600  # where the numbers column starts, inside a side's panel
TITLE_SIZE = 22
LINE_SIZE = 16
NAME_SIZE = 20
TOTAL_SIZE = 30

# Strength of the ranks, high to low, to sort the cards taken within each suit.
_STRENGTH = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)


def _sorted(cards: tuple[str, ...]) -> list[str]:
    def key(code: str) -> tuple[int, int]:
        rank, suit = split_code(code)
        return (SUITS.index(suit), _STRENGTH.index(rank))

    return sorted((normalize_code(c) for c in cards), key=key)


def _rows(count: int) -> int:
    return max(1, -(-count // PER_ROW))


def _side_height(side: SideSummary) -> int:
    cards_block = _cantes_top(side, 0) + (CANTE_H + 14 if side.cantes else 2)
    stats_block = 44 + 3 * 26 + 14
    return max(cards_block, stats_block)


def _cantes_top(side: SideSummary, top: int) -> int:
    """Where the row of cantes starts, under the cards taken."""
    return top + 44 + MINI_H + ROW_STEP * (_rows(len(side.cards)) - 1) + 12


def _title_height(scene: SummaryScene) -> int:
    if not scene.title_lines and scene.trump_suit is None:
        return 0
    lines = len(scene.title_lines)
    return max(64 if scene.trump_suit is not None else 0, 12 + 30 + 24 * max(0, lines - 1)) + 6


def summary_size(scene: SummaryScene) -> tuple[int, int]:
    """Size in pixels of the summary picture of ``scene``."""
    sides = sum(_side_height(s) for s in scene.sides) + SIDE_GAP * max(0, len(scene.sides) - 1)
    return (SUMMARY_W, PAD + _title_height(scene) + sides + PAD)


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float, w: float) -> None:
    """A small gold crown for the side that won, ``(x, y)`` its bottom-left corner."""
    h = w * 0.7
    points = [
        (x, y),
        (x, y - h * 0.75),
        (x + w * 0.25, y - h * 0.4),
        (x + w * 0.5, y - h),
        (x + w * 0.75, y - h * 0.4),
        (x + w, y - h * 0.75),
        (x + w, y),
    ]
    draw.polygon(points, fill=HIGHLIGHT, outline=(150, 100, 20))


def _stat(
    canvas: Image.Image, x0: int, x1: int, y: float, label: str, value: str, strong: bool = False
) -> None:
    size = 22 if strong else LINE_SIZE
    paste_text(canvas, (x1, y), value, size, HIGHLIGHT if strong else TEXT, "rm")
    label = fit(label, LINE_SIZE, x1 - x0 - 60)
    if label:
        paste_text(canvas, (x0, y), label, LINE_SIZE, TEXT_SOFT, "lm")


def _side(canvas: Image.Image, side: SideSummary, scene: SummaryScene, top: int) -> None:
    x0, x1 = PAD - 8, SUMMARY_W - PAD + 8
    height = _side_height(side)
    colour = team_colour(side.team)
    if side.won:
        halo = glow((x1 - x0, height), 14, HIGHLIGHT, 200, 6.0)
        m = glow_margin(6.0)
        canvas.paste(halo, (x0 - m, top - m), halo)
    edge = (*HIGHLIGHT, 255) if side.won else PANEL_EDGE
    box = panel((x1 - x0, height), 14, edge, 2 if side.won else 1, 200, colour)
    canvas.paste(box, (x0, top), box)
    draw = ImageDraw.Draw(canvas)
    # header: the names, a crown for the winners, the total on the right
    left = x0 + (22 if colour is not None else 16)
    name_y = top + 24
    if side.won:
        _crown(draw, left, name_y + 8, 22)
        left += 30
    name = fit(side.names, NAME_SIZE, STATS_X - 40 - left)
    paste_text(canvas, (left, name_y), name, NAME_SIZE, HIGHLIGHT if side.won else TEXT, "lm")
    # the cards taken, small, in rows
    cards = _sorted(side.cards)
    cx0 = x0 + (22 if colour is not None else 16)
    for row in range(_rows(len(cards)) if cards else 0):
        # one shadow under each spread-out row
        count = min(PER_ROW, len(cards) - row * PER_ROW)
        under = shadow((MINI_W + MINI_STEP * (count - 1), MINI_H), 4, 2.5, 120)
        canvas.paste(under, (cx0 - 4, top + 44 + row * ROW_STEP - 3), under)
    for i, code in enumerate(cards):
        row, col = divmod(i, PER_ROW)
        face = scaled_face(code, MINI_W)
        canvas.paste(face, (cx0 + col * MINI_STEP, top + 44 + row * ROW_STEP), face)
    # the numbers, and the cantes as king and knight side by side
    sx0, sx1 = x0 + STATS_X - 12, x1 - 16
    y = top + 24
    paste_text(canvas, (sx1, y), str(side.total), TOTAL_SIZE, HIGHLIGHT if side.won else TEXT, "rm")
    label = fit(scene.labels.total, LINE_SIZE, sx1 - sx0 - 70)
    if label:
        paste_text(canvas, (sx0, y), label, LINE_SIZE, TEXT_SOFT, "lm")
    y += 34
    _stat(canvas, sx0, sx1, y, scene.labels.card_points, str(side.card_points))
    y += 26
    _stat(canvas, sx0, sx1, y, scene.labels.last_ten, "+10" if side.last_ten else "0")
    y += 26
    cante_total = sum(points for _, points in side.cantes)
    _stat(canvas, sx0, sx1, y, scene.labels.cantes, str(cante_total))
    # the cantes, under the cards: king and knight of the suit, and the points
    x = cx0
    y = _cantes_top(side, top)
    for suit, points in side.cantes:
        for j, rank in enumerate((12, 11)):
            face = scaled_face(f"{rank}{suit}", CANTE_W)
            canvas.paste(face, (x + j * 14, y), face)
        label_x = x + CANTE_W + 14 + 5
        paste_text(canvas, (label_x, y + CANTE_H - 2), str(points), LINE_SIZE, HIGHLIGHT, "ls")
        x = label_x + 40


def summary_image(scene: SummaryScene) -> Image.Image:
    """The deal summary as an RGB image (see ``summary_size``)."""
    if not scene.sides:
        raise ValueError("a summary needs at least one side")
    if scene.trump_suit is not None and scene.trump_suit not in SUITS:
        raise ValueError(f"not a suit: {scene.trump_suit!r}")
    for side in scene.sides:
        for suit, _ in side.cantes:
            if suit not in SUITS:
                raise ValueError(f"not a suit: {suit!r}")
    width, height = summary_size(scene)
    canvas = felt(width, height, 8, 30, line=False).copy()
    y = PAD
    title_h = _title_height(scene)
    if title_h:
        text_right = SUMMARY_W - PAD
        if scene.trump_suit is not None:
            badge = suit_badge(scene.trump_suit, 56)
            canvas.paste(badge, (SUMMARY_W - PAD - badge.width, y), badge)
            text_right -= badge.width + 12
        ty = y + 16
        for i, line in enumerate(scene.title_lines):
            size = TITLE_SIZE if i == 0 else LINE_SIZE
            ink = HIGHLIGHT if i == 0 else TEXT
            text = fit(line, size, text_right - PAD)
            if text:
                paste_text(canvas, (PAD, ty), text, size, ink, "lm")
            ty += 30 if i == 0 else 24
        y += title_h
    for side in scene.sides:
        _side(canvas, side, scene, y)
        y += _side_height(side) + SIDE_GAP
    return canvas


def render_summary(scene: SummaryScene) -> bytes:
    """The deal summary as PNG bytes."""
    return encode_png(summary_image(scene), shared_palette())
