"""The table in play: felt, the players' places, the trick, the stock and the scores."""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import CARD_H, CARD_SIZE, CARD_W, CORNER, scaled_face, shadow, turned_face
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
from bot.render.text import fit, paste_text

TABLE_W = 800
TABLE_H = 540
TABLE_SIZE = (TABLE_W, TABLE_H)
"""Size of a table picture in pixels."""

CENTRE = (400, 258)
PLATE_W, PLATE_H = 184, 54
NAME_SIZE = 18
SMALL_SIZE = 14
CAPTION_SIZE = 15

# Places round the table: where the name plate sits, where that seat's card lands in the
# trick (offset from the centre), and where its hidden hand points (0 up, 90 right...).
_PLACES: dict[str, tuple[tuple[int, int], tuple[int, int], int]] = {
    "bottom": ((400, TABLE_H - 44), (0, 66), 0),
    "right": ((TABLE_W - 114, 262), (90, 0), 270),
    "top": ((400, 44), (0, -66), 180),
    "left": ((114, 262), (-90, 0), 90),
}
_ORDER: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}
_TOWARDS_MIDDLE = {0: (0, -1), 90: (1, 0), 180: (0, 1), 270: (-1, 0)}

TRUMP_AT = (TABLE_W - 96, 96)
STOCK_AT = (650, 428)
LAST_TRICK_AT = (40, 390)
SCORES_AT = (30, 26)
SCORES_W = 220

MINI_W = 44  # cards of the previous trick
BACK_W = 30  # cards of hidden hands


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
def _card_shadow(angle: float) -> Image.Image:
    image = shadow(CARD_SIZE, CORNER, 3.0, 120)
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
) -> None:
    """A full-size card (a back for None) lying on the cloth, with a shadow or a halo."""
    if lit:
        _paste(canvas, _card_glow(angle), centre)
    else:
        _paste(canvas, _card_shadow(angle), (centre[0] + 2, centre[1] + 3))
    _paste(canvas, turned_face(code, angle), centre)


@lru_cache(maxsize=128)
def _hidden_hand(count: int, direction: int) -> Image.Image:
    """``count`` card backs fanned out, pointing ``direction`` degrees (0 up, 90 right)."""
    back = scaled_face(None, BACK_W)
    spread = min(7.0, 64.0 / (count - 1)) if count > 1 else 0.0
    size = 160
    pivot = (size / 2, size / 2 + 40)
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    lift = back.height / 2 + 16
    for i in range(count):
        angle = (i - (count - 1) / 2) * spread
        turned = back.convert("RGBa").rotate(-angle, Image.Resampling.BICUBIC, expand=True)
        turned = turned.convert("RGBA")
        rad = math.radians(angle)
        cx = pivot[0] + lift * math.sin(rad)
        cy = pivot[1] - lift * math.cos(rad)
        image.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    if direction:
        image = image.rotate(-direction)
    box = image.getbbox()
    return image.crop(box) if box else image


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


def _plate(canvas: Image.Image, seat: SeatInfo, index: int, centre: tuple[int, int]) -> None:
    """A player's name plate: name, robot mark, team colour, cards left, points, a note."""
    x0 = round(centre[0] - PLATE_W / 2)
    y0 = round(centre[1] - PLATE_H / 2)
    if seat.is_turn:
        halo = glow((PLATE_W, PLATE_H), 12, HIGHLIGHT, 230, 6.0)
        m = glow_margin(6.0)
        canvas.paste(halo, (x0 - m, y0 - m), halo)
    edge = (*HIGHLIGHT, 255) if seat.is_turn else PANEL_EDGE
    colour = team_colour(seat.team)
    plate = panel((PLATE_W, PLATE_H), 12, edge, 2 if seat.is_turn else 1, 224, colour)
    canvas.paste(plate, (x0, y0), plate)
    left = x0 + (19 if colour is not None else 12)
    right = x0 + PLATE_W - 12
    name_y = y0 + 19
    if seat.is_robot:
        icon = robot_icon()
        canvas.paste(icon, (left, name_y - 8), icon)
        left += icon.width + 5
    name = fit(seat.name, NAME_SIZE, right - left) or f"#{index + 1}"
    paste_text(canvas, (left, name_y), name, NAME_SIZE, HIGHLIGHT if seat.is_turn else TEXT, "lm")
    # the second line: cards in hand, points, a note
    line_y = y0 + 40
    x = x0 + (19 if colour is not None else 12)
    back = scaled_face(None, 11)
    canvas.paste(back, (x, line_y - back.height // 2), back)
    x += back.width + 5
    paste_text(canvas, (x, line_y), str(seat.cards_left), SMALL_SIZE, TEXT_SOFT, "lm")
    x += 26
    if seat.points is not None:
        icon = star(13)
        canvas.paste(icon, (x, line_y - 7), icon)
        x += 17
        paste_text(canvas, (x, line_y), str(seat.points), SMALL_SIZE, TEXT_SOFT, "lm")
        x += 34
    note = fit(seat.note, SMALL_SIZE, right - x)
    if note:
        paste_text(canvas, (right, line_y), note, SMALL_SIZE, HIGHLIGHT, "rm")


def _caption(
    canvas: Image.Image, xy: tuple[float, float], text: str, max_width: float, anchor: str = "mm"
) -> None:
    text = fit(text, CAPTION_SIZE, max_width)
    if text:
        paste_text(canvas, xy, text, CAPTION_SIZE, TEXT, anchor, halo=TEXT_HALO)


def _stock(canvas: Image.Image, scene: TableScene) -> None:
    cx, cy = STOCK_AT
    if scene.stock_left > 0:
        if scene.turned is not None:
            # the turned card lies across, under the stock, half of it showing
            _card_on_table(canvas, normalize_code(scene.turned), (cx + 44, cy), -90.0)
        layers = min(6, max(1, math.ceil(scene.stock_left / 4)))
        for i in range(layers):
            _card_on_table(canvas, None, (cx - i, cy - i))
        disc = _count_disc(15)
        at = (cx - layers + CARD_W / 2 - 4, cy - layers - CARD_H / 2 + 6)
        _paste(canvas, disc, at)
        paste_text(canvas, (at[0], at[1] + 1), str(scene.stock_left), 15, TEXT, "mm")
        _caption(canvas, (cx + 20, cy - CARD_H / 2 - 16), scene.labels.stock, 200)
    elif scene.turned is not None:
        _card_on_table(canvas, normalize_code(scene.turned), (cx + 30, cy))


def _trump(canvas: Image.Image, scene: TableScene) -> None:
    _paste(canvas, suit_badge(scene.trump_suit, 64), TRUMP_AT)
    _caption(canvas, (TRUMP_AT[0], TRUMP_AT[1] - 48), scene.labels.trump, 170)


def _last_trick(canvas: Image.Image, scene: TableScene) -> None:
    if not scene.last_trick:
        return
    x, y = LAST_TRICK_AT
    _caption(canvas, (x, y - 10), scene.labels.last_trick, 240, "ls")
    step = MINI_W - 8
    mini_h = round(MINI_W * CARD_H / CARD_W)
    for i, (seat, code) in enumerate(scene.last_trick):
        cx = x + i * step + MINI_W / 2
        cy = y + mini_h / 2
        if seat == scene.last_trick_winner:
            _paste(canvas, glow((MINI_W, mini_h), 4, HIGHLIGHT, 255, 3.0), (cx, cy))
        else:
            _paste(canvas, shadow((MINI_W, mini_h), 4, 2.0, 110), (cx + 1, cy + 2))
        _paste(canvas, scaled_face(normalize_code(code), MINI_W), (cx, cy))


def _scores(canvas: Image.Image, scene: TableScene) -> None:
    title = scene.labels.scores
    lines = scene.scores
    if not lines:
        return
    x0, y0 = SCORES_AT
    width = SCORES_W
    row = 22
    height = 12 + (row if title else 0) + row * len(lines) + 2
    box = panel((width, height), 10)
    canvas.paste(box, (x0, y0), box)
    draw = ImageDraw.Draw(canvas)
    y = y0 + 7 + row / 2
    if title:
        paste_text(
            canvas,
            (x0 + 12, y),
            fit(title, CAPTION_SIZE, width - 24),
            CAPTION_SIZE,
            HIGHLIGHT,
            "lm",
        )
        y += row
    for line in lines:
        left = x0 + 12
        colour = team_colour(line.team)
        if colour is not None:
            draw.ellipse((left, y - 5, left + 10, y + 5), fill=colour)
            left += 16
        value = fit(line.value, CAPTION_SIZE, 90)
        paste_text(canvas, (x0 + width - 12, y), value, CAPTION_SIZE, TEXT, "rm")
        label = fit(line.label, CAPTION_SIZE, x0 + width - 12 - 100 - left + 90)
        paste_text(canvas, (left, y), label, CAPTION_SIZE, TEXT_SOFT, "lm")
        y += row


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
        plate_centre, _, direction = _PLACES[places[index]]
        if index != scene.viewer_seat and seat.cards_left > 0:
            fan = _hidden_hand(min(seat.cards_left, 20), direction)
            dx, dy = _TOWARDS_MIDDLE[direction]
            # the fan peeks out from behind the plate, towards the middle of the table
            reach = (PLATE_H / 2 + fan.height / 2) * abs(dy) + (PLATE_W / 2 + fan.width / 2) * abs(
                dx
            )
            reach -= 12
            _paste(canvas, fan, (plate_centre[0] + dx * reach, plate_centre[1] + dy * reach))
        _plate(canvas, seat, index, plate_centre)

    for seat, code in scene.trick:
        _, offset, _ = _PLACES[places[seat]]
        code = normalize_code(code)
        centre = (CENTRE[0] + offset[0], CENTRE[1] + offset[1])
        _card_on_table(canvas, code, centre, _tilt(seat, code), lit=seat == scene.trick_winner)
    return canvas


def render_table(scene: TableScene) -> bytes:
    """The table picture as PNG bytes (``TABLE_SIZE``)."""
    return encode_png(table_image(scene), shared_palette())
