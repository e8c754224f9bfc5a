"""The end of a deal: for each side, the cards it took, its cantes and its points.

The picture is drawn for a phone. On a phone 360 pixels wide Discord shows a picture
``style.SHOWN_W`` pixels wide, so the summary is a narrow column, ``SUMMARY_W`` wide, with the
sides stacked one under the other. Every piece of text is at least ``MIN_TEXT_PX`` pixels,
which stays 12 pixels or more when the picture is shown ``style.SHOWN_W`` pixels wide. The
cards taken are shown as small tiles, each with its rank and suit
large enough to read, in suit order, flowing over as many lines as they need.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import shadow
from bot.render.layers import Cut, cut, paste_cut
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import SideSummary, SummaryScene
from bot.render.style import (
    HIGHLIGHT,
    PANEL_EDGE,
    RGB,
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
from bot.render.text import displayable, fit, paste_text, text_width
from bot.render.tiles import rank_tile

SUMMARY_W = 400
"""Width of a summary picture; its height grows with the number of sides and cards."""

TITLE_SIZE = 23
SUBTITLE_SIZE = 21
NAME_SIZE = 23
TOTAL_SIZE = 38
LINE_SIZE = 21
VALUE_SIZE = 21
CANTE_SIZE = 21
TILE_RANK_SIZE = 23
"""Font size of the rank on a card tile (drawn a little condensed)."""

TEXT_SIZES = (
    TITLE_SIZE,
    SUBTITLE_SIZE,
    NAME_SIZE,
    TOTAL_SIZE,
    LINE_SIZE,
    VALUE_SIZE,
    CANTE_SIZE,
    TILE_RANK_SIZE,
)
MIN_TEXT_PX = min(TEXT_SIZES)
"""The smallest font size in the picture: shown ``SHOWN_W`` pixels wide, its letters are
``MIN_TEXT_PX * SHOWN_W / SUMMARY_W`` pixels (12.3)."""

PAD = 12  # from the picture's edge to a side's panel
SIDE_GAP = 12
INSET = 14  # from a panel's edge to what is written in it (20 with a team stripe)
TITLE_BADGE = 50
HEADER_H = 50  # with the names on one line
NAME_STEP = 28  # for each further line of names
LINE_STEP = 27
TILE_W = 34
TILE_H = 52
TILE_STEP = 29  # tiles of one suit overlap, as cards held in a hand: the rank shows
SUIT_GAP = 6  # between the last tile of a suit and the first of the next
TILE_LINE_STEP = TILE_H + 6
TILE_SHADOW = (5, 3)  # where a tile sits in its picture, which holds its shadow too
CANTE_BADGE = 28
CANTE_STEP = 10  # between two cantes
PANEL_RADIUS = 14
HALO_BLUR = 5.0

# Strength of the ranks, high to low, to sort the cards taken within each suit.
_STRENGTH = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)


@lru_cache(maxsize=64)
def _sorted(cards: tuple[str, ...]) -> tuple[str, ...]:
    def key(code: str) -> tuple[int, int]:
        rank, suit = split_code(code)
        return (SUITS.index(suit), _STRENGTH.index(rank))

    return tuple(sorted((normalize_code(c) for c in cards), key=key))


def _inner(side: SideSummary) -> tuple[int, int]:
    """Left and right ends of what is drawn inside a side's panel."""
    x0, x1 = PAD, SUMMARY_W - PAD
    left = x0 + (INSET + 6 if side.team is not None else INSET)
    return left, x1 - INSET


def _flow(cards: tuple[str, ...], width: int, whole_suits: bool) -> list[tuple[int, int]]:
    """Tiles placed left to right, a new line where one does not fit; ``whole_suits``:
    also where the rest of a suit does not fit on the line."""
    places: list[tuple[int, int]] = []
    x, line, suit = 0, 0, ""
    for i, code in enumerate(cards):
        if places:
            x += TILE_STEP if code[-1] == suit else TILE_W + SUIT_GAP
            if code[-1] != suit and whole_suits:
                count = sum(1 for c in cards[i:] if c[-1] == code[-1])
                if x + TILE_STEP * (count - 1) + TILE_W > width:
                    x, line = 0, line + 1
            if x + TILE_W > width:
                x, line = 0, line + 1
        places.append((x, line))
        suit = code[-1]
    return places


@lru_cache(maxsize=64)
def _tile_places(cards: tuple[str, ...], width: int) -> list[tuple[int, int]]:
    """Where each card's tile goes, as (x, line), the lines ``width`` pixels long: each
    suit on one line where that takes no more lines than letting the suits run on.
    Cached; do not modify."""
    if not cards:
        return []
    whole = _flow(cards, width, True)
    running = _flow(cards, width, False)
    return whole if whole[-1][1] <= running[-1][1] else running


def _tile_lines(side: SideSummary) -> int:
    if not side.cards:
        return 0
    left, right = _inner(side)
    return _tile_places(_sorted(side.cards), right - left)[-1][1] + 1


def _cante_width(points: int) -> int:
    return CANTE_BADGE + 4 + round(text_width(str(points), CANTE_SIZE))


def _cantes_inline(side: SideSummary, label: str) -> bool:
    """Whether the cantes fit on the line of their label, between it and the sum."""
    left, right = _inner(side)
    chips = sum(_cante_width(p) + CANTE_STEP for _, p in side.cantes)
    used = text_width(label, LINE_SIZE) + 12 if label else 0
    return left + used + chips + 56 <= right


def _header(side: SideSummary, scene: SummaryScene) -> tuple[tuple[str, ...], str, float]:
    """The names as drawn (one line or two), the caption of the total, and where the
    names start."""
    left, right = _inner(side)
    label = fit(scene.labels.total, LINE_SIZE, 110)
    total_left = right - text_width(str(side.total), TOTAL_SIZE) - 8
    if label:
        total_left -= text_width(label, LINE_SIZE) + 12
    name_x = left + (32 if side.won else 0)
    return _wrap(side.names, NAME_SIZE, total_left - name_x, 2), label, name_x


def _header_height(side: SideSummary, scene: SummaryScene) -> int:
    names, _, _ = _header(side, scene)
    return HEADER_H + NAME_STEP * max(0, len(names) - 1)


def _side_height(side: SideSummary, scene: SummaryScene) -> int:
    lines = _tile_lines(side)
    tiles = TILE_LINE_STEP * lines + 6 if lines else 0
    stats = (3 + (side.carried is not None) + (side.uncounted is not None)) * LINE_STEP
    if side.cantes and not _cantes_inline(side, displayable(scene.labels.cantes)):
        stats += LINE_STEP + 4
    return _header_height(side, scene) + tiles + stats + 12


@lru_cache(maxsize=256)
def _wrap(text: str, size: int, width: float, max_lines: int) -> tuple[str, ...]:
    """``text`` broken into at most ``max_lines`` lines ``width`` pixels long, the last
    shortened with an ellipsis when it all does not fit."""
    words = displayable(text).split(" ")
    lines: list[str] = []
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size) <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        lines[-1] = fit(f"{lines[-1]} {' '.join(words)}", size, width)
    return tuple(fit(line, size, width) for line in lines if line)


def _title_lines(scene: SummaryScene) -> list[tuple[str, int]]:
    """The title as drawn: (line, font size); a line too long for one takes two."""
    width = SUMMARY_W - 2 * PAD - 8
    if scene.trump_suit is not None:
        width -= TITLE_BADGE + 10
    drawn: list[tuple[str, int]] = []
    for i, line in enumerate(scene.title_lines):
        size = TITLE_SIZE if i == 0 else SUBTITLE_SIZE
        drawn.extend((part, size) for part in _wrap(line, size, width, 2))
    return drawn


def _line_step(size: int) -> int:
    return 29 if size == TITLE_SIZE else 25


def _title_height(scene: SummaryScene) -> int:
    lines = _title_lines(scene)
    if not lines and scene.trump_suit is None:
        return 0
    text = sum(_line_step(size) for _, size in lines) + 8
    return max(TITLE_BADGE + 4 if scene.trump_suit is not None else 0, text) + 10


def summary_size(scene: SummaryScene) -> tuple[int, int]:
    """Size in pixels of the summary picture of ``scene``."""
    return (SUMMARY_W, _layout(scene, _title_height(scene))[1])


def _layout(scene: SummaryScene, title_h: int) -> tuple[tuple[Place, ...], int]:
    """Where each side's panel goes under a title ``title_h`` pixels high, and the
    picture's height."""
    places: list[Place] = []
    y = PAD + 2 + title_h
    for side in scene.sides:
        side_h = _side_height(side, scene)
        places.append((y, side_h, side.won, team_colour(side.team)))
        y += side_h + SIDE_GAP
    return tuple(places), y - (SIDE_GAP if places else 0) + PAD + 2


@lru_cache(maxsize=64)
def _tile(code: str) -> Image.Image:
    """A small card for the summary (``code`` already normalised), its rank in the part
    that the next tile of its suit leaves uncovered, with its shadow, which also parts it
    from the tile it overlaps. Cached; do not modify."""
    face = rank_tile(code, (TILE_W, TILE_H), TILE_RANK_SIZE, (3, TILE_STEP - 7))
    under = shadow((TILE_W, TILE_H), 4.5, 2.0, 110).copy()
    under.alpha_composite(face, (TILE_SHADOW[0], TILE_SHADOW[1]))
    return under


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


def _stat(canvas: Image.Image, left: int, right: int, y: float, label: str, value: str) -> None:
    paste_text(canvas, (right, y), value, VALUE_SIZE, TEXT, "rm")
    label = fit(label, LINE_SIZE, right - left - text_width(value, VALUE_SIZE) - 12)
    if label:
        paste_text(canvas, (left, y), label, LINE_SIZE, TEXT_SOFT, "lm")


def _cantes(canvas: Image.Image, side: SideSummary, x: float, y: float) -> None:
    """The cantes as a suit badge and the points each, from ``x``, centred on ``y``."""
    for suit, points in side.cantes:
        badge = suit_badge(suit, CANTE_BADGE)
        canvas.paste(badge, (round(x), round(y - CANTE_BADGE / 2)), badge)
        x += CANTE_BADGE + 4
        paste_text(canvas, (x, y), str(points), CANTE_SIZE, HIGHLIGHT, "lm")
        x += text_width(str(points), CANTE_SIZE) + CANTE_STEP


Place = tuple[int, int, bool, RGB | None]
"""Where a side's panel is drawn: its top, its height, whether the side won (a gold edge
and a halo) and its team's colour (a stripe)."""


@lru_cache(maxsize=8)
def _backdrop(height: int, trump_suit: str | None, places: tuple[Place, ...]) -> Image.Image:
    """The felt with the trump badge and each side's panel (and the winners' halo): all
    that lies under the text and the tiles, the same for every summary laid out alike.
    Nothing drawn on a side's panel reaches another side's panel or halo, so drawing
    these first gives the picture drawn side by side. Cached; copy it before drawing."""
    canvas = felt(SUMMARY_W, height, 6, 24, line=False).copy()
    if trump_suit is not None:
        badge = suit_badge(trump_suit, TITLE_BADGE)
        canvas.paste(badge, (SUMMARY_W - PAD - 4 - badge.width, PAD + 4), badge)
    for top, side_h, won, colour in places:
        if won:
            m = glow_margin(HALO_BLUR)
            paste_cut(canvas, _halo(side_h), (PAD - m, top - m))
        paste_cut(canvas, _panel(side_h, won, colour), (PAD, top))
    return canvas


@lru_cache(maxsize=32)
def _halo(height: int) -> Cut:
    """The winners' halo round a side's panel ``height`` pixels high, cut round its clear
    middle."""
    width = SUMMARY_W - 2 * PAD
    m = glow_margin(HALO_BLUR)
    inset = m + 2 + _corner_inset(PANEL_RADIUS)
    middle = (inset, inset, m + width - inset + m, m + height - inset + m)
    return cut(glow((width, height), PANEL_RADIUS, HIGHLIGHT, 200, HALO_BLUR), middle)


@lru_cache(maxsize=32)
def _panel(height: int, won: bool, stripe: RGB | None) -> Cut:
    """A side's panel ``height`` pixels high, cut round its plain middle."""
    width = SUMMARY_W - 2 * PAD
    edge = (*HIGHLIGHT, 255) if won else PANEL_EDGE
    line = 2 if won else 1
    inset = line + _corner_inset(PANEL_RADIUS)
    left = max(inset, 12) if stripe is not None else inset  # the stripe: x 6 to 11
    middle = (left, inset, width - inset, height - inset)
    return cut(panel((width, height), PANEL_RADIUS, edge, line, 200, stripe), middle)


def _corner_inset(radius: int) -> int:
    """How far in from a rounded box's edges a box clear of its corners starts (with a
    pixel to spare for the smoothing of the curve)."""
    return math.ceil(radius * (1 - math.sqrt(0.5))) + 1


def _side(canvas: Image.Image, side: SideSummary, scene: SummaryScene, top: int) -> None:
    """What is written on a side's panel, its top at ``top``."""
    draw = ImageDraw.Draw(canvas)
    left, right = _inner(side)
    # the header: a crown for the winners, the names, and the total on the right
    names, label, name_x = _header(side, scene)
    header_h = _header_height(side, scene)
    y = top + header_h / 2 + 1
    total = str(side.total)
    ink = HIGHLIGHT if side.won else TEXT
    paste_text(canvas, (right, y), total, TOTAL_SIZE, ink, "rm")
    if label:
        label_right = right - text_width(total, TOTAL_SIZE) - 8
        paste_text(canvas, (label_right, y + 3), label, LINE_SIZE, TEXT_SOFT, "rm")
    y = top + HEADER_H / 2 + 1
    if side.won:
        _crown(draw, left, y + 8, 24)
    for name in names:
        paste_text(canvas, (name_x, y), name, NAME_SIZE, ink, "lm")
        y += NAME_STEP
    # the cards taken, as tiles in suit order
    y = top + header_h
    cards = _sorted(side.cards)
    for code, (dx, line) in zip(cards, _tile_places(cards, right - left), strict=True):
        x, ty = left + dx, y + line * TILE_LINE_STEP
        face = _tile(code)
        canvas.paste(face, (x - TILE_SHADOW[0], ty - TILE_SHADOW[1]), face)
    lines = _tile_lines(side)
    if lines:
        y += TILE_LINE_STEP * lines + 6
    # the sums: points carried from earlier deals, card points, last ten, cantes (the
    # badges of the cantes sung beside): they add up to the total
    y += LINE_STEP / 2
    if side.carried is not None:
        _stat(canvas, left, right, y, scene.labels.carried, str(side.carried))
        y += LINE_STEP
    _stat(canvas, left, right, y, scene.labels.card_points, str(side.card_points))
    y += LINE_STEP
    _stat(canvas, left, right, y, scene.labels.last_ten, "+10" if side.last_ten else "0")
    y += LINE_STEP
    cante_label = displayable(scene.labels.cantes)
    _stat(canvas, left, right, y, cante_label, str(sum(p for _, p in side.cantes)))
    if side.cantes:
        if _cantes_inline(side, cante_label):
            x = left + (text_width(cante_label, LINE_SIZE) + 12 if cante_label else 0)
            _cantes(canvas, side, x, y)
        else:
            _cantes(canvas, side, left, y + LINE_STEP + 2)
            y += LINE_STEP + 4
    if side.uncounted is not None:
        value = f"{side.uncounted:+d}".replace("-", "\u2212")
        _stat(canvas, left, right, y + LINE_STEP, scene.labels.uncounted, value)


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
    title_h = _title_height(scene)
    places, height = _layout(scene, title_h)
    badge = scene.trump_suit if title_h else None
    canvas = _backdrop(height, badge, places).copy()
    if title_h:
        ty = PAD + 2 + 4
        for line, size in _title_lines(scene):
            step = _line_step(size)
            ink = HIGHLIGHT if size == TITLE_SIZE else TEXT
            paste_text(canvas, (PAD + 4, ty + step / 2), line, size, ink, "lm")
            ty += step
    for side, (top, _, _, _) in zip(scene.sides, places, strict=True):
        _side(canvas, side, scene, top)
    return canvas


def render_summary(scene: SummaryScene) -> bytes:
    """The deal summary as PNG bytes."""
    return encode_png(summary_image(scene), shared_palette())
