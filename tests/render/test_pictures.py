"""Table, hand and summary pictures: sizes, validation, determinism, file size."""

import dataclasses
import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from bot.render import (
    TABLE_SIZE,
    SeatInfo,
    SideSummary,
    SummaryScene,
    TableScene,
    render_summary,
    render_table,
    summary_image,
    summary_size,
    table_image,
)
from bot.render.table import seat_places, trick_centre
from tests.render.samples import summary_pairs, table_four, table_three, table_two

ROOT = Path(__file__).resolve().parents[2]
MAX_PNG_BYTES = 200_000


def decode(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("make", [table_two, table_three, table_four])
def test_tables_for_two_three_and_four_seats(make: Callable[[], TableScene]) -> None:
    data = render_table(make())
    assert decode(data).size == TABLE_SIZE
    assert len(data) < MAX_PNG_BYTES


def test_same_scene_same_bytes() -> None:
    assert render_table(table_four()) == render_table(table_four())
    assert render_summary(summary_pairs()) == render_summary(summary_pairs())


SAME_IN_ANOTHER_PROCESS = """
import hashlib
from bot.render import render_table
from tests.render.samples import table_four
print(hashlib.sha256(render_table(table_four())).hexdigest())
"""


def test_same_bytes_in_a_fresh_process() -> None:
    import hashlib

    here = hashlib.sha256(render_table(table_four())).hexdigest()
    result = subprocess.run(
        [sys.executable, "-c", SAME_IN_ANOTHER_PROCESS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == here


@pytest.mark.parametrize(
    ("seats", "viewer", "expected"),
    [
        (2, None, ["bottom", "top"]),
        (2, 1, ["top", "bottom"]),
        (3, 0, ["bottom", "right", "left"]),
        (3, 2, ["right", "left", "bottom"]),
        (4, None, ["bottom", "right", "top", "left"]),
        (4, 2, ["top", "left", "bottom", "right"]),
    ],
)
def test_seat_places(seats: int, viewer: int | None, expected: list[str]) -> None:
    scene = TableScene(
        seats=tuple(SeatInfo(str(i)) for i in range(seats)), trump_suit="O", viewer_seat=viewer
    )
    assert seat_places(scene) == expected


def test_the_viewers_card_lies_below_the_middle() -> None:
    scene = dataclasses.replace(table_four(), trick=((2, "1O"),))
    x, y = trick_centre("bottom")
    near_bottom_slot = (x + 8, y + 40)  # inside the card played from the bottom place

    def brightness(image: Image.Image) -> int:
        pixel = image.convert("L").getpixel(near_bottom_slot)
        assert isinstance(pixel, int)
        return pixel

    assert brightness(table_image(dataclasses.replace(scene, viewer_seat=2))) > 200
    assert brightness(table_image(scene)) < 120


@pytest.mark.parametrize(
    "scene",
    [
        TableScene(seats=(SeatInfo("a"),), trump_suit="O"),
        TableScene(seats=tuple(SeatInfo(str(i)) for i in range(5)), trump_suit="O"),
        TableScene(seats=(SeatInfo("a"), SeatInfo("b")), trump_suit="X"),
        TableScene(seats=(SeatInfo("a"), SeatInfo("b")), trump_suit="O", trick=((2, "1O"),)),
        TableScene(seats=(SeatInfo("a"), SeatInfo("b")), trump_suit="O", trick=((0, "9O"),)),
        TableScene(seats=(SeatInfo("a"), SeatInfo("b")), trump_suit="O", viewer_seat=3),
    ],
)
def test_a_table_that_cannot_be_refuses(scene: TableScene) -> None:
    with pytest.raises(ValueError, match=r"seat|suit|card code"):
        table_image(scene)


def test_a_name_the_font_cannot_draw_falls_back_to_the_seat_number() -> None:
    scene = TableScene(seats=(SeatInfo("\U0001f600\U0001f600"), SeatInfo("b")), trump_suit="O")
    assert table_image(scene).size == TABLE_SIZE


def test_summary_grows_with_the_sides() -> None:
    full = summary_pairs()
    one_side = dataclasses.replace(full, sides=full.sides[:1])
    assert summary_size(one_side)[1] < summary_size(full)[1]
    assert summary_image(full).size == summary_size(full)
    data = render_summary(full)
    assert decode(data).size == summary_size(full)
    assert len(data) < MAX_PNG_BYTES


def test_summary_with_every_card_and_four_sides() -> None:
    from bot.render.symbols import ALL_CARDS

    sides = tuple(
        SideSummary(
            f"Side {i}",
            ALL_CARDS[i * 10 : i * 10 + 10],
            (("O", 20),) * i,
            10 * i,
            i == 3,
            10 * i,
            i == 0,
            i % 2,
        )
        for i in range(4)
    )
    scene = SummaryScene(sides=sides)
    assert summary_image(scene).size == summary_size(scene)
    everything = SummaryScene(sides=(SideSummary("All", ALL_CARDS),))
    assert summary_image(everything).size == summary_size(everything)


def test_summary_refuses_a_bad_cante_suit() -> None:
    with pytest.raises(ValueError, match="suit"):
        summary_image(SummaryScene(sides=(SideSummary("a", cantes=(("X", 20),)),)))
