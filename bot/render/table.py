"""The table in play, drawn for a phone: the trick, who played each card, whose turn it
is, trumps and the stock.

Discord shows a picture at the width of its message: on a phone 360 pixels wide, the
picture is about ``style.SHOWN_W`` pixels wide (the message's gutter and its frame take the
rest; ``benchmarks/message_heights.py`` measures it). The picture is drawn
``TABLE_W`` pixels wide, so that every letter, ``MIN_TEXT_PX`` pixels or more, is at least
12 pixels high on that phone; and low, so that a hand holding it fits a phone's screen. It
shows only what a glance needs, and writes only names: the numbers of the game (scores,
cards left, the stock, the previous trick) and trumps in words are in the message.

The trick lies in the middle, each card on the side of the player who played it, as round
a real table; each player's name is on a tag beside their card (the player to play has a
gold one, and an empty place waits for their card). The trump suit's badge is in the top
left corner; the stock (with the turned card under it), or the turned card alone, in the
top right.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import CARD_H, CARD_W, CORNER, shadow, turned_face
from bot.render.palette import shared_palette
from bot.render.png import encode_png
from bot.render.scenes import SeatInfo, TableScene
from bot.render.style import (
    HIGHLIGHT,
    PANEL_EDGE,
    TEXT,
    felt,
    glow,
    glow_margin,
    panel,
    robot_icon,
    suit_badge,
    team_colour,
)
from bot.render.symbols import SUITS, normalize_code
from bot.render.text import displayable, fit, paste_text, text_width

TABLE_W = 480
TABLE_H = 280
TABLE_SIZE = (TABLE_W, TABLE_H)
"""Size of a table picture in pixels."""

NAME_SIZE = 26
MIN_TEXT_PX = NAME_SIZE
"""The smallest font size in the picture (its only one): shown ``style.SHOWN_W`` pixels wide,
its letters are ``MIN_TEXT_PX * SHOWN_W / TABLE_W`` pixels high (12.7)."""

TRICK_CARD_W = 72
"""Width of a card of the trick."""
TRICK_CARD_H = round(TRICK_CARD_W * CARD_H / CARD_W)
SMALL_CARD_W = 40
"""Width of the stock and of the turned card."""

# Where each place's card lies (its centre) and its name tag (the tag's centre).
_TRICK: dict[str, tuple[int, int]] = {
    "bottom": (240, 182),
    "top": (240, 98),
    "left": (90, 140),
    "right": (390, 140),
}
_TAG: dict[str, tuple[int, int]] = {
    "bottom": (240, TABLE_H - 22),
    "top": (240, 22),
    "left": (90, 218),
    "right": (390, 218),
}
TAG_H = 38
TAG_MAX_W: dict[str, int] = {"bottom": 150, "top": 212, "left": 164, "right": 164}
TAG_INSET = 10  # from a tag's edge to its text (17 with a team stripe)
ROBOT_ICON = 22

_ORDER: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}

TRUMP_BADGE = 46
TRUMP_CENTRE = (38, 34)


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
    image = glow((TRICK_CARD_W, TRICK_CARD_H), CORNER * TRICK_CARD_W / CARD_W, HIGHLIGHT, 255, 6.0)
    return image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True) if angle else image


def _card_on_table(
    canvas: Image.Image,
    code: str | None,
    centre: tuple[float, float],
    angle: float = 0.0,
    lit: bool = False,
    width: int = TRICK_CARD_W,
) -> None:
    """A card (a back for None) lying on the cloth, with a shadow or a halo."""
    if lit:
        _paste(canvas, _card_glow(angle), centre)
    else:
        _paste(canvas, _card_shadow(angle, width), (centre[0] + 2, centre[1] + 3))
    _paste(canvas, turned_face(code, angle, width), centre)


@lru_cache(maxsize=4)
def _waiting_place() -> Image.Image:
    """Where the card of the player to play will lie: a gold outline on the cloth."""
    image = Image.new("RGBA", (TRICK_CARD_W, TRICK_CARD_H), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (1, 1, TRICK_CARD_W - 2, TRICK_CARD_H - 2),
        radius=round(CORNER * TRICK_CARD_W / CARD_W),
        fill=(*HIGHLIGHT, 34),
        outline=(*HIGHLIGHT, 200),
        width=3,
    )
    return image


def _tag_parts(seat: SeatInfo, index: int, place: str) -> tuple[int, str, str]:
    """A tag's width, its name as written and its note (empty where it does not fit)."""
    stripe = 7 if seat.team is not None else 0
    robot = robot_icon(ROBOT_ICON).width + 6 if seat.is_robot else 0
    room = TAG_MAX_W[place] - 2 * TAG_INSET - stripe - robot
    # a name the font cannot draw at all is written as the seat's number
    name = fit(seat.name, NAME_SIZE, room) or f"#{index + 1}"
    used = text_width(name, NAME_SIZE)
    note = f"· {displayable(seat.note)}" if displayable(seat.note) else ""
    if note and text_width(" " + note, NAME_SIZE) > room - used:  # whole, or left out
        note = ""
    if note:
        used += text_width(" " + note, NAME_SIZE)
    width = round(2 * TAG_INSET + stripe + robot + used)
    return width, name, note


def tag_box(scene: TableScene, index: int) -> tuple[int, int, int, int]:
    """Left, top, right and bottom of seat ``index``'s name tag."""
    place = seat_places(scene)[index]
    width, _, _ = _tag_parts(scene.seats[index], index, place)
    cx, cy = _TAG[place]
    x0 = round(cx - width / 2)
    return x0, cy - TAG_H // 2, x0 + width, cy - TAG_H // 2 + TAG_H


def _tag(canvas: Image.Image, scene: TableScene, index: int) -> None:
    """A seat's tag: its team's stripe, a robot's mark, the name and a short note; gold for
    the player to play."""
    seat = scene.seats[index]
    place = seat_places(scene)[index]
    _, name, note = _tag_parts(seat, index, place)
    x0, y0, x1, y1 = tag_box(scene, index)
    w, h = x1 - x0, y1 - y0
    if seat.is_turn:
        halo = glow((w, h), 12, HIGHLIGHT, 230, 6.0)
        m = glow_margin(6.0)
        canvas.paste(halo, (x0 - m, y0 - m), halo)
    edge = (*HIGHLIGHT, 255) if seat.is_turn else PANEL_EDGE
    colour = team_colour(seat.team)
    plate = panel((w, h), 12, edge, 2 if seat.is_turn else 1, 224, colour)
    canvas.paste(plate, (x0, y0), plate)
    left = x0 + TAG_INSET + (7 if colour is not None else 0)
    y = (y0 + y1) / 2
    if seat.is_robot:
        icon = robot_icon(ROBOT_ICON)
        canvas.paste(icon, (round(left), round(y - icon.height / 2)), icon)
        left += icon.width + 6
    paste_text(canvas, (left, y), name, NAME_SIZE, HIGHLIGHT if seat.is_turn else TEXT, "lm")
    if note:
        left += text_width(name + " ", NAME_SIZE)
        paste_text(canvas, (left, y), note, NAME_SIZE, HIGHLIGHT, "lm")


def _trump(canvas: Image.Image, scene: TableScene) -> None:
    """The trump suit's badge in the top left corner."""
    _paste(canvas, suit_badge(scene.trump_suit, TRUMP_BADGE), TRUMP_CENTRE)


def _stock(canvas: Image.Image, scene: TableScene) -> None:
    """The stock in the top right corner, the turned card across under it; or the turned
    card alone once the stock is gone."""
    height = round(SMALL_CARD_W * CARD_H / CARD_W)
    cx, cy = TABLE_W - 14 - SMALL_CARD_W / 2, 12 + height / 2
    turned = normalize_code(scene.turned) if scene.turned is not None else None
    if scene.stock_left > 0:
        if turned is not None:  # across, under the stock, most of it showing
            _card_on_table(canvas, turned, (cx - 20, cy), -90.0, width=SMALL_CARD_W)
        for i in range(min(4, max(1, scene.stock_left // 6))):
            _card_on_table(canvas, None, (cx - i, cy - i), width=SMALL_CARD_W)
    elif turned is not None:
        _card_on_table(canvas, turned, (cx, cy), width=SMALL_CARD_W)


def _check(scene: TableScene) -> None:
    n = len(scene.seats)
    if n not in _ORDER:
        raise ValueError(f"a table has 2, 3 or 4 seats, not {n}")
    if scene.trump_suit not in SUITS:
        raise ValueError(f"not a suit: {scene.trump_suit!r}")
    if scene.viewer_seat is not None and not 0 <= scene.viewer_seat < n:
        raise ValueError(f"no seat {scene.viewer_seat} at a table of {n}")
    for seat, _ in scene.trick:
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
    return _TRICK[place]


def table_image(scene: TableScene) -> Image.Image:
    """The table picture as an RGB image of ``TABLE_SIZE``."""
    _check(scene)
    canvas = felt(TABLE_W, TABLE_H, 8, 40).copy()
    places = seat_places(scene)
    _trump(canvas, scene)
    _stock(canvas, scene)
    played = {seat for seat, _ in scene.trick}
    for index, seat in enumerate(scene.seats):
        if seat.is_turn and index not in played:
            _paste(canvas, _waiting_place(), trick_centre(places[index]))
    for seat, code in scene.trick:
        code = normalize_code(code)
        centre = trick_centre(places[seat])
        _card_on_table(canvas, code, centre, _tilt(seat, code), lit=seat == scene.trick_winner)
    for index in range(len(scene.seats)):
        _tag(canvas, scene, index)
    return canvas


def render_table(scene: TableScene) -> bytes:
    """The table picture as PNG bytes (``TABLE_SIZE``)."""
    return encode_png(table_image(scene), shared_palette())
