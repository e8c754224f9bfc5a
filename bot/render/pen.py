"""A thin wrapper over ``ImageDraw`` that draws in design units.

Shapes are described in a fixed design box (for example 100 units wide) and the pen scales
and shifts them onto the image, so one description serves every size.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from bot.render.geometry import Point

Colour = int | tuple[int, int, int] | tuple[int, int, int, int]


class Pen:
    """Draws on ``draw`` with ``x_px = ox + x * k`` and ``y_px = oy + y * k``."""

    def __init__(self, draw: ImageDraw.ImageDraw, k: float, ox: float = 0.0, oy: float = 0.0):
        self.draw = draw
        self.k = k
        self.ox = ox
        self.oy = oy

    def px(self, p: Point) -> tuple[float, float]:
        return (self.ox + p[0] * self.k, self.oy + p[1] * self.k)

    def w(self, width: float) -> int:
        return max(1, round(width * self.k)) if width > 0 else 0

    def poly(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0.0,
    ) -> None:
        pts = [self.px(p) for p in points]
        if fill is not None:
            self.draw.polygon(pts, fill=fill)
        if outline is not None and width > 0:
            self.draw.line([*pts, pts[0], pts[1]], fill=outline, width=self.w(width), joint="curve")

    def line(self, points: Sequence[Point], fill: Colour, width: float) -> None:
        self.draw.line([self.px(p) for p in points], fill=fill, width=self.w(width), joint="curve")

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0.0,
    ) -> None:
        x0, y0 = self.px((cx - rx, cy - ry))
        x1, y1 = self.px((cx + rx, cy + ry))
        self.draw.ellipse((x0, y0, x1, y1), fill=fill, outline=outline, width=self.w(width))

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0.0,
    ) -> None:
        self.ellipse(cx, cy, r, r, fill, outline, width)

    def arc(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        start: float,
        end: float,
        fill: Colour,
        width: float,
    ) -> None:
        x0, y0 = self.px((cx - rx, cy - ry))
        x1, y1 = self.px((cx + rx, cy + ry))
        self.draw.arc((x0, y0, x1, y1), start, end, fill=fill, width=self.w(width))

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0.0,
        radius: float = 0.0,
    ) -> None:
        a = self.px((x0, y0))
        b = self.px((x1, y1))
        self.draw.rounded_rectangle(
            (a[0], a[1], b[0], b[1]),
            radius=radius * self.k,
            fill=fill,
            outline=outline,
            width=self.w(width),
        )
