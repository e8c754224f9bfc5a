"""The three figures of each suit: sota (a standing page), caballo (a rider on a horse)
and rey (a crowned, bearded king). Each holds the symbol of its suit.

Figures are described in a design box 100 units wide and 206 tall, fitted into the card's
frame. The suit colours the clothes, so a figure tells its suit even without its symbol.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.render.geometry import Point, mirror_x, path
from bot.render.pen import Colour, Pen
from bot.render.suits import GOLD, GOLD_DARK, GOLD_LIGHT, symbol_stamp

DESIGN_W = 100.0
DESIGN_H = 206.0

INK = (44, 30, 22)
SKIN = (246, 208, 172)
SKIN_SHADE = (222, 170, 132)
CHEEK = (236, 150, 130)
HAIR = (104, 62, 32)
BEARD = (234, 230, 222)
BEARD_SHADE = (196, 190, 180)
WHITE = (252, 250, 244)
SHOE = (70, 44, 30)
BELT = (110, 66, 30)
ERMINE_TAIL = (30, 26, 24)
JEWEL_RED = (200, 30, 50)
JEWEL_BLUE = (40, 90, 190)

# Clothes by suit: (main, its shade, second colour, its shade).
RGB = tuple[int, int, int]

CLOTHES: dict[str, tuple[RGB, RGB, RGB, RGB]] = {
    "O": ((232, 170, 40), (176, 118, 16), (46, 96, 170), (26, 60, 118)),
    "C": ((204, 40, 52), (140, 20, 32), (238, 184, 60), (182, 130, 24)),
    "E": ((46, 98, 182), (24, 60, 124), (208, 48, 56), (146, 26, 34)),
    "B": ((58, 138, 60), (30, 88, 34), (214, 60, 50), (150, 34, 28)),
}

# Horses: coat, mane and tail.
HORSES: dict[str, tuple[RGB, RGB]] = {
    "O": ((248, 246, 240), (160, 150, 140)),
    "C": ((182, 112, 58), (84, 48, 24)),
    "E": ((236, 232, 224), (120, 112, 104)),
    "B": ((150, 92, 50), (62, 36, 20)),
}

OUT = 1.7  # outline width in design units


def _hold(
    image: Image.Image,
    pen: Pen,
    suit: str,
    hand: Point,
    height: float,
    grip: float,
    angle: float = 0.0,
) -> None:
    """Paste the suit symbol so that the point ``grip`` (a fraction of its height, from the
    top, on its centre line) sits in ``hand``; ``angle`` turns it counter-clockwise."""
    h_px = height * pen.k
    stamp = symbol_stamp(suit, round(h_px), angle)
    dx, dy = 0.0, (grip - 0.5) * h_px
    t = math.radians(angle)
    rx = dx * math.cos(t) + dy * math.sin(t)
    ry = -dx * math.sin(t) + dy * math.cos(t)
    hx, hy = pen.px(hand)
    image.alpha_composite(
        stamp, (round(hx - rx - stamp.width / 2), round(hy - ry - stamp.height / 2))
    )


def _hand(pen: Pen, x: float, y: float, r: float = 4.2) -> None:
    pen.ellipse(x, y, r, r * 0.92, fill=SKIN, outline=INK, width=1.2)
    pen.line(
        [(x - r * 0.5, y - r * 0.15), (x + r * 0.45, y - r * 0.15)], fill=SKIN_SHADE, width=0.8
    )


def _sleeve(
    pen: Pen, a: Point, b: Point, colour: Colour, shade: Colour, width: float = 10.0
) -> None:
    pen.line([a, b], fill=INK, width=width + 2 * OUT * 0.8)
    pen.line([a, b], fill=colour, width=width)
    # a cuff near the hand
    t = 0.82
    cx, cy = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
    pen.line([(cx, cy), b], fill=shade, width=width)


def _face(
    pen: Pen, cx: float, cy: float, rx: float = 10.5, ry: float = 12.5, beard: bool = False
) -> None:
    pen.ellipse(cx, cy, rx, ry, fill=SKIN, outline=INK, width=1.4)
    pen.ellipse(cx - rx * 0.36, cy + ry * 0.28, 2.2, 1.5, fill=CHEEK)
    pen.ellipse(cx + rx * 0.4, cy + ry * 0.28, 2.2, 1.5, fill=CHEEK)
    for ex in (cx - rx * 0.38, cx + rx * 0.38):
        pen.ellipse(ex, cy - ry * 0.02, 1.5, 1.7, fill=INK)
        pen.line([(ex - 2.6, cy - ry * 0.26), (ex + 2.4, cy - ry * 0.3)], fill=HAIR, width=1.0)
    pen.line(
        [(cx + 0.5, cy + ry * 0.02), (cx - 1.2, cy + ry * 0.3), (cx + 1.0, cy + ry * 0.34)],
        INK,
        0.9,
    )
    if not beard:
        pen.line(
            [(cx - 2.6, cy + ry * 0.56), (cx, cy + ry * 0.62), (cx + 2.6, cy + ry * 0.56)],
            (170, 60, 60),
            1.1,
        )


def _legs(pen: Pen, top: float, bottom: float, left: Colour, right: Colour) -> None:
    for x0, colour in ((33.0, left), (47.0, right)):
        pen.rect(x0, top, x0 + 10, bottom, fill=colour, outline=INK, width=1.3)
    for cx in (37.0, 53.0):
        shoe = path(
            (cx - 9, bottom + 5), ((cx - 9, bottom - 3), (cx + 6, bottom - 3), (cx + 7, bottom + 5))
        )
        pen.poly(shoe, fill=SHOE, outline=INK, width=1.2)


def _ground(pen: Pen, cx: float, y: float, rx: float) -> None:
    pen.ellipse(cx, y, rx, 4.2, fill=(232, 226, 210))


def _sota(image: Image.Image, pen: Pen, suit: str) -> None:
    main, main_shade, second, second_shade = CLOTHES[suit]
    _ground(pen, 46, 197, 32)
    _legs(pen, 132, 190, second, main_shade)
    # the tunic
    left = path((30, 68), ((27, 86), (30, 100), (32, 108)), ((29, 120), (25, 132), (22, 142)))
    body = [*left, *mirror_x(left, 45)]
    pen.poly(body, fill=main, outline=INK, width=OUT)
    pen.line(path((23, 139), ((35, 144), (55, 144), (67, 139))), GOLD, 3.0)
    pen.line([(45, 70), (45, 104)], second, 4.0)
    for y in (78.0, 88.0, 98.0):
        pen.circle(45, y, 1.7, fill=GOLD, outline=GOLD_DARK, width=0.6)
    pen.rect(31, 104, 59, 111, fill=BELT, outline=INK, width=1.1)
    pen.rect(41.5, 103.5, 48.5, 111.5, fill=GOLD, outline=GOLD_DARK, width=0.9)
    # the arm that rests on the hip
    _sleeve(pen, (31, 72), (22, 104), main, main_shade)
    _hand(pen, 23, 108)
    # head: hair, neck, collar, face and cap with a feather
    pen.rect(41, 54, 49, 64, fill=SKIN_SHADE, outline=INK, width=1.1)
    pen.ellipse(45, 44, 13, 14, fill=HAIR, outline=INK, width=1.3)
    pen.ellipse(45, 66, 15, 4.6, fill=WHITE, outline=INK, width=1.2)
    _face(pen, 45, 47)
    feather = path((52, 31), ((60, 22), (66, 14), (76, 8)), ((72, 18), (64, 26), (56, 33)))
    pen.poly(feather, fill=WHITE, outline=INK, width=1.0)
    pen.line(path((53, 32), ((60, 24), (66, 17), (75, 9)), steps=8), BEARD_SHADE, 0.8)
    pen.ellipse(45, 34, 17, 6.5, fill=second, outline=INK, width=1.3)
    pen.ellipse(45, 29, 10, 6, fill=second_shade, outline=INK, width=1.2)
    pen.circle(53, 33, 2.2, fill=GOLD, outline=GOLD_DARK, width=0.6)
    # the arm holding the suit
    hand = (70.0, 100.0)
    _sleeve(pen, (59, 72), hand, main, main_shade)
    _hold_suit(image, pen, suit, hand, scale=1.0)
    _hand(pen, *hand)


def _hold_suit(
    image: Image.Image, pen: Pen, suit: str, hand: Point, scale: float, raised: bool = False
) -> None:
    """Each suit is held its own way: coin and cup in the palm, sword and club by the grip."""
    if suit == "O":
        _hold(image, pen, suit, hand, 30 * scale, 0.86 if not raised else 0.9)
    elif suit == "C":
        _hold(image, pen, suit, hand, 42 * scale, 0.62)
    elif suit == "E":
        _hold(image, pen, suit, hand, 104 * scale, 0.84, -12 if raised else 0)
    else:
        _hold(image, pen, suit, hand, 100 * scale, 0.86, -14 if raised else -8)


def _rey(image: Image.Image, pen: Pen, suit: str) -> None:
    main, main_shade, second, second_shade = CLOTHES[suit]
    cape = (112, 44, 120) if suit != "C" else (40, 70, 140)
    _ground(pen, 46, 198, 36)
    # cape behind, then the long robe
    cape_left = path((30, 70), ((18, 100), (12, 150), (10, 194)))
    pen.poly(
        [*cape_left, (45, 194), *mirror_x(cape_left, 45)[:-1]], fill=cape, outline=INK, width=OUT
    )
    robe_left = path((32, 72), ((28, 110), (24, 160), (20, 196)))
    pen.poly([*robe_left, *mirror_x(robe_left, 45)], fill=main, outline=INK, width=OUT)
    pen.line([(45, 84), (45, 194)], main_shade, 3.2)
    for y in (120.0, 140.0, 160.0, 180.0):
        pen.poly(
            [(45, y - 4), (48.5, y), (45, y + 4), (41.5, y)],
            fill=GOLD,
            outline=GOLD_DARK,
            width=0.6,
        )
    pen.line(path((21, 193), ((35, 198), (55, 198), (69, 193))), GOLD, 3.2)
    for x in (36.0, 54.0):
        pen.ellipse(x, 199, 6.5, 3.2, fill=SHOE, outline=INK, width=1.0)
    # ermine edges of the cape
    for side in (-1.0, 1.0):
        edge = [
            (45 + side * (45 - x), y) for x, y in path((30, 70), ((25, 100), (22, 150), (19, 192)))
        ]
        pen.line(edge, INK, 7.4)
        pen.line(edge, WHITE, 5.4)
        for i in range(2, 15, 3):
            x, y = edge[i]
            pen.poly([(x - 1, y - 1.6), (x + 1, y - 1.6), (x, y + 2.4)], fill=ERMINE_TAIL)
    # belt and the hand that holds it
    pen.rect(31, 106, 59, 112, fill=GOLD, outline=GOLD_DARK, width=1.0)
    pen.circle(45, 109, 3.2, fill=JEWEL_RED, outline=GOLD_DARK, width=0.7)
    _sleeve(pen, (31, 76), (37, 106), second, second_shade, 10.5)
    _hand(pen, 38, 108)
    # head: neck, ermine collar, face, beard, crown
    pen.rect(40.5, 54, 49.5, 66, fill=SKIN_SHADE, outline=INK, width=1.1)
    pen.ellipse(45, 72, 19, 6.5, fill=WHITE, outline=INK, width=1.2)
    for x in (33.0, 39.0, 45.0, 51.0, 57.0):
        pen.poly([(x - 0.9, 70.5), (x + 0.9, 70.5), (x, 74.5)], fill=ERMINE_TAIL)
    pen.ellipse(45, 45, 13.5, 14, fill=(150, 140, 128), outline=INK, width=1.3)
    _face(pen, 45, 47, beard=True)
    beard = path((34.5, 49), ((34, 62), (40, 72), (45, 76)))
    pen.poly([*beard, *mirror_x(beard, 45)], fill=BEARD, outline=INK, width=1.2)
    pen.line(path((39, 57), ((41, 55), (44, 55), (45, 56.5)), steps=6), BEARD_SHADE, 2.2)
    pen.line(path((51, 57), ((49, 55), (46, 55), (45, 56.5)), steps=6), BEARD_SHADE, 2.2)
    pen.poly([(39.5, 56.5), (45, 54.5), (50.5, 56.5), (45, 58)], fill=BEARD, outline=INK, width=0.8)
    pen.line([(42.5, 62), (47.5, 62)], (170, 60, 60), 1.0)
    crown = [
        (32, 37),
        (31, 22),
        (36.5, 29),
        (40, 18),
        (45, 27),
        (50, 18),
        (53.5, 29),
        (59, 22),
        (58, 37),
    ]
    pen.poly(crown, fill=GOLD, outline=GOLD_DARK, width=1.2)
    pen.rect(31.5, 33, 58.5, 38.5, fill=GOLD_LIGHT, outline=GOLD_DARK, width=1.0)
    for x, colour in ((37.0, JEWEL_BLUE), (45.0, JEWEL_RED), (53.0, JEWEL_BLUE)):
        pen.circle(x, 35.8, 1.8, fill=colour)
    for x, y in ((31.0, 21.5), (40.0, 17.5), (50.0, 17.5), (59.0, 21.5)):
        pen.circle(x, y, 1.8, fill=GOLD_LIGHT, outline=GOLD_DARK, width=0.6)
    # the arm that holds the suit
    hand = (71.0, 102.0)
    _sleeve(pen, (59, 76), hand, second, second_shade, 10.5)
    _hold_suit(image, pen, suit, hand, scale=1.02)
    _hand(pen, *hand)


def _limb(pen: Pen, points: list[Point], colour: Colour, width: float = 8.6) -> None:
    pen.line(points, INK, width + 2.4)
    pen.line(points, colour, width)
    hoof = points[-1]
    pen.ellipse(hoof[0], hoof[1] + 1.5, width * 0.6, 3.2, fill=(58, 46, 40), outline=INK, width=1.0)


def _horse(pen: Pen, suit: str) -> None:
    coat, mane = HORSES[suit]
    main, main_shade, second, _ = CLOTHES[suit]
    shade = (round(coat[0] * 0.8), round(coat[1] * 0.8), round(coat[2] * 0.8))
    # far legs first, a little darker; the far foreleg is raised, prancing
    _limb(pen, [(74, 138), (79, 164), (77, 188)], shade)
    _limb(pen, [(36, 136), (25, 150), (29, 166)], shade)
    tail = path((88, 120), ((100, 128), (100, 160), (92, 184)), ((90, 168), (88, 146), (82, 130)))
    pen.poly(tail, fill=mane, outline=INK, width=1.3)
    # the silhouette of body, chest, rump, neck and head, outlined as one shape
    neck = [(23, 84), (32, 78), (41, 88), (49, 104), (54, 116), (30, 134), (21, 118), (21, 100)]
    head = path(
        (28, 80),
        ((20, 82), (12, 90), (7, 99)),
        ((4, 104), (3, 109), (8, 112)),
        ((14, 114), (22, 108), (28, 98)),
    )
    ear = [(26, 82), (27, 69), (32, 80)]
    ellipses = ((57, 130, 29, 17), (34, 127, 13, 15), (80, 127, 12, 15))
    for cx, cy, rx, ry in ellipses:
        pen.ellipse(cx, cy, rx + OUT, ry + OUT, fill=INK)
    for shape in (neck, head, ear):
        pen.poly(shape, fill=INK, outline=INK, width=2 * OUT)
    for cx, cy, rx, ry in ellipses:
        pen.ellipse(cx, cy, rx, ry, fill=coat)
    for shape in (neck, head, ear):
        pen.poly(shape, fill=coat)
    pen.line([(34, 140), (48, 146), (66, 146), (82, 140)], shade, 2.0)
    # mane, eye, nostril and bridle
    pen.line(path((27, 80), ((36, 82), (46, 98), (53, 114)), steps=12), mane, 5.2)
    pen.poly([(24, 80), (20, 88), (27, 86)], fill=mane)
    pen.ellipse(18, 91, 1.9, 1.6, fill=INK)
    pen.ellipse(7.5, 106, 1.2, 1.4, fill=INK)
    pen.line([(9, 103), (25, 88)], second, 1.5)
    pen.line([(12, 108), (27, 99), (25, 88)], second, 1.5)
    # near legs
    _limb(pen, [(84, 138), (88, 164), (86, 190)], coat)
    _limb(pen, [(42, 138), (43, 164), (41, 190)], coat)
    # the saddle cloth in the suit's colour, with a gold fringe
    cloth_top = path((46, 113), ((54, 110), (66, 110), (74, 114)), steps=8)
    cloth_bottom = path((76, 142), ((66, 146), (54, 146), (44, 142)), steps=8)
    pen.poly([*cloth_top, *cloth_bottom], fill=main, outline=INK, width=1.3)
    pen.line(cloth_bottom, GOLD, 2.6)
    pen.line(path((48, 118), ((56, 115), (64, 115), (72, 118)), steps=8), main_shade, 1.6)


def _caballo(image: Image.Image, pen: Pen, suit: str) -> None:
    _, _, second, second_shade = CLOTHES[suit]
    main = CLOTHES[suit][0]
    main_shade = CLOTHES[suit][1]
    _ground(pen, 52, 193, 44)
    _horse(pen, suit)
    # the rider is drawn in the same units, shrunk about the saddle
    f, ax, ay = 0.8, 60.0, 116.0
    rider = Pen(pen.draw, pen.k * f, pen.ox + (1 - f) * ax * pen.k, pen.oy + (1 - f) * ay * pen.k)
    leg = [(60, 108), (64, 132), (58, 150)]
    rider.line(leg, INK, 10.4)
    rider.line(leg, second_shade, 8.2)
    boot = path((51, 146), ((51, 156), (62, 159), (67, 155)))
    rider.poly([*boot, (62, 143)], fill=SHOE, outline=INK, width=1.2)
    torso_left = path((50, 72), ((47, 90), (46, 104), (48, 116)))
    torso_right = path((69, 116), ((71, 104), (71, 90), (67, 72)))
    rider.poly([*torso_left, *torso_right], fill=second, outline=INK, width=OUT)
    rider.line([(58.5, 74), (58.5, 114)], GOLD, 2.4)
    rider.rect(47, 106, 70, 111, fill=BELT, outline=INK, width=1.0)
    _sleeve(rider, (51, 78), (36, 98), second, second_shade, 8.5)
    grip = (ax + (34 - ax) * f, ay + (98 - ay) * f)
    pen.line([grip, (12, 108)], (90, 50, 24), 1.0)
    pen.line([grip, (9, 103)], (90, 50, 24), 1.0)
    _hand(rider, 35, 99, 3.9)
    # head with a wide, plumed hat
    rider.rect(54, 56, 62, 66, fill=SKIN_SHADE, outline=INK, width=1.0)
    rider.ellipse(58, 67.5, 11, 3.8, fill=WHITE, outline=INK, width=1.0)
    rider.ellipse(58, 45, 11.5, 12, fill=HAIR, outline=INK, width=1.2)
    _face(rider, 58, 48, 9.5, 11.5)
    plume = path((62, 30), ((68, 18), (76, 14), (86, 15)), ((80, 21), (72, 26), (65, 34)))
    rider.poly(plume, fill=WHITE, outline=INK, width=0.9)
    rider.ellipse(58, 36, 18, 4.8, fill=main, outline=INK, width=1.2)
    rider.poly(
        path((49, 36), ((49, 23), (67, 23), (67, 36))), fill=main_shade, outline=INK, width=1.2
    )
    rider.circle(58, 33, 2.0, fill=GOLD, outline=GOLD_DARK, width=0.6)
    # the raised arm with the suit
    hand = (82.0, 70.0) if suit in "OC" else (80.0, 88.0)
    _sleeve(rider, (66, 78), hand, second, second_shade, 8.5)
    _hold_suit(image, rider, suit, hand, scale=0.95, raised=True)
    _hand(rider, *hand, r=3.9)


def draw_figure(
    image: Image.Image, rank: int, suit: str, frame: tuple[float, float, float, float], ss: int
) -> None:
    """Draw the sota (10), caballo (11) or rey (12) of ``suit`` inside ``frame`` (card pixels)
    on a card drawn ``ss`` times larger."""
    x0, y0, x1, y1 = frame
    inner_w, inner_h = x1 - x0 - 2, y1 - y0 - 2
    k = min(inner_w / DESIGN_W, inner_h / DESIGN_H)
    ox = x0 + 1 + (inner_w - DESIGN_W * k) / 2
    oy = y0 + 1 + (inner_h - DESIGN_H * k) / 2
    pen = Pen(ImageDraw.Draw(image), k * ss, ox * ss, oy * ss)
    {10: _sota, 11: _caballo, 12: _rey}[rank](image, pen, suit)
