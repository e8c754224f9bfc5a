"""The sample pictures still look as they did.

Each picture is compared with a stored PNG under ``golden/`` by the mean absolute
difference of its pixels, so that a small change in how a Pillow version smooths an edge
or a letter passes, and a moved card or a changed colour does not.

To accept a deliberate change, regenerate the files and look at them before committing:

    TUTE_UPDATE_GOLDEN=1 python -m pytest tests/render/test_golden.py
"""

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render import render_summary, render_table
from tests.render.samples import (
    summary_pairs,
    summary_three,
    summary_two,
    table_four,
    table_three,
    table_two,
)

GOLDEN = Path(__file__).with_name("golden")
MAX_MEAN_DIFFERENCE = 1.5  # out of 255, averaged over pixels and channels
MAX_GOLDEN_BYTES = 150_000

PICTURES: dict[str, Callable[[], bytes]] = {
    "table_four.png": lambda: render_table(table_four()),
    "table_two.png": lambda: render_table(table_two()),
    "table_three.png": lambda: render_table(table_three()),
    "summary_pairs.png": lambda: render_summary(summary_pairs()),
    "summary_two.png": lambda: render_summary(summary_two()),
    "summary_three.png": lambda: render_summary(summary_three()),
}


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_picture_matches_golden(name: str) -> None:
    data = PICTURES[name]()
    path = GOLDEN / name
    if os.environ.get("TUTE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
    assert path.exists(), f"{path} is missing: run with TUTE_UPDATE_GOLDEN=1 to write it"
    assert path.stat().st_size < MAX_GOLDEN_BYTES
    expected = _rgb(path.read_bytes())
    actual = _rgb(data)
    assert actual.size == expected.size
    difference = ImageStat.Stat(ImageChops.difference(actual, expected)).mean
    mean = sum(difference) / len(difference)
    assert mean < MAX_MEAN_DIFFERENCE, f"{name} differs from its golden by {mean:.2f} on average"
