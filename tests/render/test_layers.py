"""A panel or a halo laid on in pieces gives the very pixels that pasting it whole gives."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.render.layers import cut, paste_cut
from bot.render.style import HIGHLIGHT, PANEL_EDGE, TEAM_COLOURS, glow, glow_margin, panel


def _background(seed: int, size: tuple[int, int]) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes(
        "RGB", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * 3))
    )


def _same_as_whole(
    layer: Image.Image, middle: tuple[int, int, int, int], xy: tuple[int, int], seed: int
) -> None:
    whole = _background(seed, (90, 70))
    pieces = whole.copy()
    whole.paste(layer, xy, layer)
    paste_cut(pieces, cut(layer, middle), xy)
    assert pieces.tobytes() == whole.tobytes()


@settings(max_examples=40, deadline=None)
@given(
    st.integers(24, 80),
    st.integers(24, 60),
    st.integers(0, 10),
    st.integers(1, 2),
    st.integers(0, 255),
    st.sampled_from((None, *TEAM_COLOURS)),
    st.integers(-20, 60),
    st.integers(-20, 50),
    st.integers(0, 12),
    st.integers(0, 2**32 - 1),
)
def test_a_panel_in_pieces_is_the_panel(
    width: int,
    height: int,
    radius: int,
    line: int,
    opacity: int,
    stripe: tuple[int, int, int] | None,
    x: int,
    y: int,
    inset: int,
    seed: int,
) -> None:
    edge = (*HIGHLIGHT, 255) if line == 2 else PANEL_EDGE
    layer = panel((width, height), radius, edge, line, opacity, stripe)
    # any middle: where it is not plain, the panel is pasted whole
    _same_as_whole(layer, (inset, inset, width - inset, height - inset), (x, y), seed)


@settings(max_examples=20, deadline=None)
@given(st.integers(20, 60), st.integers(20, 50), st.integers(-20, 40), st.integers(0, 2**32 - 1))
def test_a_halo_in_pieces_is_the_halo(width: int, height: int, x: int, seed: int) -> None:
    layer = glow((width, height), 6, HIGHLIGHT, 200, 3.0)
    m = glow_margin(3.0) + 6
    _same_as_whole(layer, (m, m, layer.width - m, layer.height - m), (x, -5), seed)


def test_the_middle_of_a_panel_is_laid_on_by_a_table() -> None:
    layer = panel((120, 80), 12, PANEL_EDGE, 1, 200, TEAM_COLOURS[0])
    pieces = cut(layer, (14, 8, 112, 72))
    assert pieces.middle == (14, 8, 112, 72)
    assert pieces.table is not None
    assert sum(strip.width * strip.height for strip, _ in pieces.strips) < 120 * 80 / 2


def test_a_middle_that_is_not_plain_keeps_the_picture_whole() -> None:
    layer = panel((120, 80), 12, PANEL_EDGE, 1, 200, TEAM_COLOURS[0])
    pieces = cut(layer, (0, 0, 120, 80))
    assert pieces.middle is None
    assert pieces.strips == ((layer, (0, 0)),)
