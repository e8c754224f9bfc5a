"""The table in play: felt, the players' places, the trick, the stock and the scores.

The picture is drawn for a phone. Discord shows the picture at the width of the message,
about 360 pixels on a phone and 475 on a desktop, so the table is wide and low
(``TABLE_W`` x ``TABLE_H``, more than twice as wide as tall) and every piece of text is
at least ``MIN_TEXT_PX`` pixels, which stays at 11.5 pixels or more when the picture is
shown ``PHONE_W`` pixels wide.

The trick lies in the middle, each card on the side of the player who played it. The
players sitting at the bottom and at the top have a one-line plate under and over the
trick; those on the left and right a two-line plate beside it. The corners hold the
scores (top left), trumps (top right), the previous trick as small tiles with a large
rank (bottom left) and the stock with the turned card (bottom right).
"""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import (
    CARD_H,
    CARD_SIZE,
    CARD_W,
    CORNER,
    scaled_face,
    shadow,
    turned_face,
)
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import SeatInfo, TableScene
from bot.render.style import (
    HIGHLIGHT,
    PANEL_EDGE,
    TEXT,
    TEXT_HALO,
    TEXT_SOFT,
    felt,
    glow,
    glow_margin,
    panel,
    robot_icon,
    star,
    suit_badge,
    team_colour,
)
from bot.render.symbols import SUITS, normalize_code
from bot.render.text import displayable, fit, fit_apart, paste_text, text_width
from bot.render.tiles import rank_tile

TABLE_W = 720
TABLE_H = 352
TABLE_SIZE = (TABLE_W, TABLE_H)
"""Size of a table picture in pixels."""

PHONE_W = 360
"""The narrowest width a phone shows the picture at, which the sizes below are chosen for."""

NAME_SIZE = 26
STAT_SIZE = 24
CAPTION_SIZE = 23
TILE_RANK_SIZE = 24
"""Font size of the rank on a tile of the previous trick."""
TEXT_SIZES = (NAME_SIZE, STAT_SIZE, CAPTION_SIZE, TILE_RANK_SIZE)
MIN_TEXT_PX = min(TEXT_SIZES)
"""The smallest font size in the picture: shown ``PHONE_W`` pixels wide, its letters are
``MIN_TEXT_PX * PHONE_W / TABLE_W`` pixels high (11.5)."""

M = 16  # from the picture's edge to what is drawn on the cloth
CENTRE = (TABLE_W // 2, TABLE_H // 2)

# The trick: where each place's card lies, from the centre.
_TRICK_OFFSETS: dict[str, tuple[int, int]] = {
    "bottom": (-16, 36),
    "right": (94, 0),
    "top": (16, -36),
    "left": (-94, 0),
}
_ORDER: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}

# Plates: one line at the bottom and top (as wide as they need, up to LINE_PLATE_MAX_W),
# two (three with a note that does not fit) on the left and right.
LINE_PLATE_H = 42
LINE_PLATE_MIN_W = 150
LINE_PLATE_MAX_W = 320
MIN_NOTE_W = 60  # a note with less room than this is left out
SIDE_PLATE_W = 190
SIDE_PLATE_H = 66
SIDE_PLATE_NOTE_H = 92
PLATE_INSET = 12  # from a plate's edge to its text (19 with a team stripe)
STAT_GAP = 12
ROBOT_ICON = 22
BACK_ICON = 15  # the small card before the number of cards in hand
STAR_ICON = 19  # before the points

# Corners.
SCORE_ROW = 26
SCORES_BOTTOM = CENTRE[1] - SIDE_PLATE_H // 2 - 12  # clear of a plate on the left
TRUMP_BADGE = 54
SMALL_CARD_W = 68  # the stock and the turned card beside a plate on the right
TILE_W = 36
TILE_H = 54
TILE_GAP = 5
COUNT_RADIUS = 17


def _tilt(seat: int, code: str) -> float:
    """A small, stable slant for a card on the table, so that the trick looks dropped."""
    return ((zlib.crc32(f"{seat}:{code}".encode()) % 11) - 5) * 1.2


def _paste(canvas: Image.Image, image: Image.Image, centre: tuple[float, float]) -> None:
    canvas.paste(
        image,
        (round(centre[0] - image.width / 2), round(centre[1] - image.height / 2)),
        image,
    )


@lru_cache(maxsize=256)
def _card_shadow(angle: float, width: int) -> Image.Image:
    size = (width, round(width * CARD_H / CARD_W))
    image = shadow(size, CORNER * width / CARD_W, 3.0, 120)
    return image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True) if angle else image


@lru_cache(maxsize=256)
def _card_glow(angle: float) -> Image.Image:
    image = glow(CARD_SIZE, CORNER, HIGHLIGHT, 255, 6.0)
    return image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True) if angle else image


def _card_on_table(
    canvas: Image.Image,
    code: str | None,
    centre: tuple[float, float],
    angle: float = 0.0,
    lit: bool = False,
    width: int = CARD_W,
) -> None:
    """A card (a back for None) lying on the cloth, with a shadow or (full size) a halo."""
    if lit:
        _paste(canvas, _card_glow(angle), centre)
    else:
        _paste(canvas, _card_shadow(angle, width), (centre[0] + 2, centre[1] + 3))
    _paste(canvas, turned_face(code, angle, width), centre)


def _tile(code: str) -> Image.Image:
    """A small card of the previous trick (``code`` already normalised), as on the
    summary's tiles. Cached; do not modify."""
    return rank_tile(code, (TILE_W, TILE_H), TILE_RANK_SIZE, (4, TILE_W - 8), symbol_grow=1)


@lru_cache(maxsize=1)
def _count_disc(radius: int) -> Image.Image:
    ss = 4
    disc = Image.new("RGBA", (2 * radius * ss, 2 * radius * ss), (0, 0, 0, 0))
    ImageDraw.Draw(disc).ellipse(
        (2, 2, 2 * radius * ss - 3, 2 * radius * ss - 3),
        fill=(20, 36, 28, 240),
        outline=(*HIGHLIGHT, 255),
        width=2 * ss,
    )
    return (
        disc.convert("RGBa")
        .resize((2 * radius, 2 * radius), Image.Resampling.LANCZOS)
        .convert("RGBA")
    )


def _plate_box(
    canvas: Image.Image, seat: SeatInfo, box: tuple[int, int, int, int]
) -> tuple[int, int]:
    """The plate itself (a halo when it is the seat's turn); the left and right ends of
    what is written on it."""
    x0, y0, w, h = box
    if seat.is_turn:
        halo = glow((w, h), 12, HIGHLIGHT, 230, 6.0)
        m = glow_margin(6.0)
        canvas.paste(halo, (x0 - m, y0 - m), halo)
    edge = (*HIGHLIGHT, 255) if seat.is_turn else PANEL_EDGE
    colour = team_colour(seat.team)
    plate = panel((w, h), 12, edge, 2 if seat.is_turn else 1, 224, colour)
    canvas.paste(plate, (x0, y0), plate)
    return x0 + PLATE_INSET + (7 if colour is not None else 0), x0 + w - PLATE_INSET


def _name_width(seat: SeatInfo) -> float:
    robot = robot_icon(ROBOT_ICON).width + 6 if seat.is_robot else 0
    # a name the font cannot draw at all is written as the seat's number
    return robot + text_width(displayable(seat.name) or "#0", NAME_SIZE)


def _name(
    canvas: Image.Image, seat: SeatInfo, index: int, left: float, right: float, y: float
) -> None:
    """The robot mark and the name, from ``left``, centred on ``y``."""
    if seat.is_robot:
        icon = robot_icon(ROBOT_ICON)
        canvas.paste(icon, (round(left), round(y - icon.height / 2)), icon)
        left += icon.width + 6
    name = fit(seat.name, NAME_SIZE, right - left) or f"#{index + 1}"
    ink = HIGHLIGHT if seat.is_turn else TEXT
    paste_text(canvas, (left, y), name, NAME_SIZE, ink, "lm")


def _stats_width(seat: SeatInfo) -> float:
    width = BACK_ICON + 5 + text_width(str(seat.cards_left), STAT_SIZE)
    if seat.points is not None:
        width += STAT_GAP + STAR_ICON + 4 + text_width(str(seat.points), STAT_SIZE)
    return width


def _stats(canvas: Image.Image, seat: SeatInfo, x: float, y: float) -> float:
    """Cards in hand (a small back and the count) and points (a star and the number),
    from ``x``, centred on ``y``; where they end."""
    back = scaled_face(None, BACK_ICON)
    canvas.paste(back, (round(x), round(y - back.height / 2)), back)
    x += back.width + 5
    paste_text(canvas, (x, y), str(seat.cards_left), STAT_SIZE, TEXT_SOFT, "lm")
    x += text_width(str(seat.cards_left), STAT_SIZE)
    if seat.points is not None:
        x += STAT_GAP
        icon = star(STAR_ICON)
        canvas.paste(icon, (round(x), round(y - icon.height / 2 - 1)), icon)
        x += icon.width + 4
        paste_text(canvas, (x, y), str(seat.points), STAT_SIZE, TEXT_SOFT, "lm")
        x += text_width(str(seat.points), STAT_SIZE)
    return x


def _line_plate_parts(seat: SeatInfo) -> tuple[int, int, str]:
    """A one-line plate's width, the width of what is written on it, and the note as
    drawn: the name comes first, then the numbers; the note takes what room is left, or
    is left out."""
    stripe = 7 if seat.team is not None else 0
    fixed = 2 * PLATE_INSET + stripe + STAT_GAP + _stats_width(seat)
    name = min(_name_width(seat), LINE_PLATE_MAX_W - fixed)
    room = LINE_PLATE_MAX_W - fixed - name - STAT_GAP
    note = fit(seat.note, STAT_SIZE, room) if room >= MIN_NOTE_W else ""
    width = math.ceil(fixed + name + (STAT_GAP + text_width(note, STAT_SIZE) if note else 0))
    return max(LINE_PLATE_MIN_W, width), width, note


def line_plate_box(scene: TableScene, place: str) -> tuple[int, int, int, int] | None:
    """Left, top, right and bottom of the plate at ``place`` (``"bottom"`` or ``"top"``),
    or None when nobody sits there."""
    places = seat_places(scene)
    if place not in places:
        return None
    w, _, _ = _line_plate_parts(scene.seats[places.index(place)])
    x0 = CENTRE[0] - w // 2
    y0 = M - 2 if place == "top" else TABLE_H - M + 2 - LINE_PLATE_H
    return x0, y0, x0 + w, y0 + LINE_PLATE_H


def _line_plate(canvas: Image.Image, scene: TableScene, index: int, place: str) -> None:
    """A plate of one line, at the bottom or the top: name, cards, points, a note."""
    seat = scene.seats[index]
    box = line_plate_box(scene, place)
    assert box is not None
    x0, y0, x1, y1 = box
    w, used, note = _line_plate_parts(seat)
    left, right = _plate_box(canvas, seat, (x0, y0, x1 - x0, y1 - y0))
    # what is written is centred on a plate wider than it needs
    left += (w - used) // 2
    right -= (w - used) - (w - used) // 2
    y = (y0 + y1) / 2
    note_w = text_width(note, STAT_SIZE) + STAT_GAP if note else 0
    name_right = right - _stats_width(seat) - STAT_GAP - note_w
    _name(canvas, seat, index, left, name_right, y)
    end = _stats(canvas, seat, min(left + _name_width(seat), name_right) + STAT_GAP, y)
    if note:
        paste_text(canvas, (end + STAT_GAP, y), note, STAT_SIZE, HIGHLIGHT, "lm")


def _side_plate(canvas: Image.Image, seat: SeatInfo, index: int, place: str) -> None:
    """A plate of two lines, on the left or the right: the name; cards, points and a note
    (on a third line when it does not fit on the second)."""
    stats = _stats_width(seat)
    stripe = 7 if seat.team is not None else 0
    room = SIDE_PLATE_W - 2 * PLATE_INSET - stripe - stats - STAT_GAP
    note = fit(seat.note, STAT_SIZE, room)
    below = note != displayable(seat.note)
    h = SIDE_PLATE_NOTE_H if below else SIDE_PLATE_H
    x0 = M if place == "left" else TABLE_W - M - SIDE_PLATE_W
    # a plate of three lines reaches further down, clear of the scores above it
    y0 = CENTRE[1] - SIDE_PLATE_H // 2 - (8 if below else 0)
    left, right = _plate_box(canvas, seat, (x0, y0, SIDE_PLATE_W, h))
    _name(canvas, seat, index, left, right, y0 + 21)
    _stats(canvas, seat, left, y0 + 48)
    if below:
        note = fit(seat.note, STAT_SIZE, right - left)
        paste_text(canvas, (left, y0 + 74), note, STAT_SIZE, HIGHLIGHT, "lm")
    elif note:
        paste_text(canvas, (right, y0 + 48), note, STAT_SIZE, HIGHLIGHT, "rm")


def _caption(
    canvas: Image.Image, xy: tuple[float, float], text: str, max_width: float, anchor: str = "mm"
) -> None:
    text = fit(text, CAPTION_SIZE, max_width)
    if text:
        paste_text(canvas, xy, text, CAPTION_SIZE, TEXT, anchor, halo=TEXT_HALO)


def _stock(canvas: Image.Image, scene: TableScene) -> None:
    """The stock in the bottom right corner, the turned card across under it: full size
    where nobody sits on the right, smaller beside a player's plate."""
    small = "right" in seat_places(scene)
    width = SMALL_CARD_W if small else CARD_W
    height = round(width * CARD_H / CARD_W)
    cx = TABLE_W - M - 2 - height
    cy = TABLE_H - M - 2 - height / 2
    turned = normalize_code(scene.turned) if scene.turned is not None else None
    if scene.stock_left <= 0:
        if turned is not None:
            _card_on_table(canvas, turned, (TABLE_W - M - 8 - width / 2, cy), width=width)
        return
    if turned is not None:
        # the turned card lies across, under the stock, most of it showing
        _card_on_table(canvas, turned, (cx + height / 2 - 6, cy + 4), -90.0, width=width)
    layers = min(5, max(1, math.ceil(scene.stock_left / 5)))
    for i in range(layers):
        _card_on_table(canvas, None, (cx - i, cy - i), width=width)
    disc = _count_disc(COUNT_RADIUS)
    at = (cx - layers - width / 2 + 4, cy - layers - height / 2 + 10)
    _paste(canvas, disc, at)
    paste_text(canvas, (at[0], at[1] + 1), str(scene.stock_left), CAPTION_SIZE, TEXT, "mm")
    if not small:  # beside a plate, the number on the stock speaks for itself
        top = cy - layers - height / 2
        _caption(canvas, (cx + 20, top - 16), scene.labels.stock, 170)


def _trump(canvas: Image.Image, scene: TableScene) -> None:
    """The trump badge in the top right corner, its caption to its left."""
    centre = (TABLE_W - M - 8 - TRUMP_BADGE / 2, M + 6 + TRUMP_BADGE / 2)
    _paste(canvas, suit_badge(scene.trump_suit, TRUMP_BADGE), centre)
    right = centre[0] - TRUMP_BADGE / 2 - 10
    top = line_plate_box(scene, "top")
    left = top[2] + 10 if top is not None else CENTRE[0] + 40
    _caption(canvas, (right, centre[1]), scene.labels.trump, right - left, "rm")


def _last_trick(canvas: Image.Image, scene: TableScene) -> None:
    """The previous trick as tiles in the bottom left corner, its winner's lit."""
    if not scene.last_trick:
        return
    x = M + 8
    y = TABLE_H - M - 4 - TILE_H
    bottom = line_plate_box(scene, "bottom")
    room = (bottom[0] if bottom is not None else CENTRE[0]) - 10 - x
    _caption(canvas, (x - 2, y - 8), scene.labels.last_trick, room, "ls")
    for seat, code in scene.last_trick:
        tile = _tile(normalize_code(code))
        if seat == scene.last_trick_winner:
            lit = glow((TILE_W, TILE_H), 5, HIGHLIGHT, 255, 3.0)
            canvas.paste(lit, (x - glow_margin(3.0), y - glow_margin(3.0)), lit)
        else:
            under = shadow((TILE_W, TILE_H), 4.5, 2.0, 110)
            canvas.paste(under, (x - 3, y - 2), under)
        canvas.paste(tile, (x, y), tile)
        x += TILE_W + TILE_GAP


def _scores(canvas: Image.Image, scene: TableScene) -> None:
    """The score panel in the top left corner: a title (where there is room for it) and
    a line for each side, its team's dot before it; as wide as the room beside the top
    plate (or the trick) allows, the labels shortened where they do not fit."""
    lines = scene.scores
    if not lines:
        return
    x0, y0 = M, M - 2
    top = line_plate_box(scene, "top")
    max_w = (top[0] if top is not None else trick_centre("left")[0] - CARD_W // 2) - 10 - x0
    title = fit(scene.labels.scores, CAPTION_SIZE, max_w - 24)
    if title and y0 + 10 + SCORE_ROW * (len(lines) + 1) > SCORES_BOTTOM:
        title = ""
    values = [fit(line.value, CAPTION_SIZE, 70) for line in lines]
    value_w = max(text_width(v, CAPTION_SIZE) for v in values)
    labels_w = max(
        text_width(line.label, CAPTION_SIZE) + (17 if line.team is not None else 0)
        for line in lines
    )
    width = round(24 + max(labels_w + 12 + value_w, text_width(title, CAPTION_SIZE)))
    width = min(max_w, max(110, width))
    height = 10 + SCORE_ROW * (len(lines) + (1 if title else 0))
    box = panel((width, height), 10)
    canvas.paste(box, (x0, y0), box)
    draw = ImageDraw.Draw(canvas)
    y = y0 + 5 + SCORE_ROW / 2
    if title:
        paste_text(canvas, (x0 + 12, y), title, CAPTION_SIZE, HIGHLIGHT, "lm")
        y += SCORE_ROW
    right = x0 + width - 12
    room = [
        right
        - text_width(value, CAPTION_SIZE)
        - 12
        - x0
        - 12
        - (17 if line.team is not None else 0)
        for line, value in zip(lines, values, strict=True)
    ]
    labels = fit_apart([line.label for line in lines], CAPTION_SIZE, room)
    for line, value, label in zip(lines, values, labels, strict=True):
        left = x0 + 12
        colour = team_colour(line.team)
        if colour is not None:
            draw.ellipse((left, y - 6, left + 12, y + 6), fill=colour)
            left += 17
        paste_text(canvas, (right, y), value, CAPTION_SIZE, TEXT, "rm")
        if label:
            paste_text(canvas, (left, y), label, CAPTION_SIZE, TEXT_SOFT, "lm")
        y += SCORE_ROW


def _check(scene: TableScene) -> None:
    n = len(scene.seats)
    if n not in _ORDER:
        raise ValueError(f"a table has 2, 3 or 4 seats, not {n}")
    if scene.trump_suit not in SUITS:
        raise ValueError(f"not a suit: {scene.trump_suit!r}")
    if scene.viewer_seat is not None and not 0 <= scene.viewer_seat < n:
        raise ValueError(f"no seat {scene.viewer_seat} at a table of {n}")
    for seat, _ in (*scene.trick, *scene.last_trick):
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} at a table of {n}")


def seat_places(scene: TableScene) -> list[str]:
    """Where each seat sits in the picture (``"bottom"``, ``"right"``, ``"top"`` or
    ``"left"``): the viewer's (or seat 0) at the bottom, then the others in playing order
    counter-clockwise, as the game goes round a real table."""
    n = len(scene.seats)
    first = scene.viewer_seat or 0
    order = _ORDER[n]
    return [order[(seat - first) % n] for seat in range(n)]


def trick_centre(place: str) -> tuple[int, int]:
    """Where the card played from ``place`` lies (its centre)."""
    dx, dy = _TRICK_OFFSETS[place]
    return CENTRE[0] + dx, CENTRE[1] + dy


def table_image(scene: TableScene) -> Image.Image:
    """The table picture as an RGB image of ``TABLE_SIZE``."""
    _check(scene)
    canvas = felt(TABLE_W, TABLE_H).copy()
    places = seat_places(scene)

    _scores(canvas, scene)
    _trump(canvas, scene)
    _stock(canvas, scene)
    _last_trick(canvas, scene)
    for index, seat in enumerate(scene.seats):
        if places[index] in ("bottom", "top"):
            _line_plate(canvas, scene, index, places[index])
        else:
            _side_plate(canvas, seat, index, places[index])

    for seat, code in scene.trick:
        code = normalize_code(code)
        centre = trick_centre(places[seat])
        _card_on_table(canvas, code, centre, _tilt(seat, code), lit=seat == scene.trick_winner)
    return canvas


def render_table(scene: TableScene) -> bytes:
    """The table picture as PNG bytes (``TABLE_SIZE``)."""
    return encode_png(table_image(scene), shared_palette())
