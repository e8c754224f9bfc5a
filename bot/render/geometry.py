"""Small geometry helpers for drawing smooth shapes as polygons."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 16) -> list[Point]:
    """Points along a cubic Bezier curve, ``p0`` included, ``p3`` included."""
    out: list[Point] = []
    for i in range(steps + 1):
        t = i / steps
        u = 1.0 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append(
            (
                a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
            )
        )
    return out


def path(start: Point, *curves: tuple[Point, Point, Point], steps: int = 16) -> list[Point]:
    """A chain of cubic curves from ``start``; each curve gives (control, control, end)."""
    points = [start]
    current = start
    for c1, c2, end in curves:
        points.extend(cubic(current, c1, c2, end, steps)[1:])
        current = end
    return points


def mirror_x(points: Sequence[Point], axis: float) -> list[Point]:
    """The points reflected about the vertical line ``x = axis``, in reverse order.

    Appending the result to a left outline gives a closed, symmetric shape.
    """
    return [(2 * axis - x, y) for x, y in reversed(points)]


def ellipse_points(cx: float, cy: float, rx: float, ry: float, steps: int = 48) -> list[Point]:
    """A closed polygon approximating an ellipse (so that it can be rotated)."""
    return [
        (cx + rx * math.cos(2 * math.pi * i / steps), cy + ry * math.sin(2 * math.pi * i / steps))
        for i in range(steps)
    ]


def rotate(points: Iterable[Point], degrees: float, centre: Point) -> list[Point]:
    """Rotate points clockwise on screen (y grows downwards) about ``centre``."""
    rad = math.radians(degrees)
    cos, sin = math.cos(rad), math.sin(rad)
    cx, cy = centre
    return [
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
        for x, y in points
    ]


def scale(points: Iterable[Point], factor: float, offset: Point = (0.0, 0.0)) -> list[Point]:
    """Scale points by ``factor`` and then shift them by ``offset``."""
    ox, oy = offset
    return [(x * factor + ox, y * factor + oy) for x, y in points]
