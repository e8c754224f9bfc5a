"""The texts a picture writes, caught as it writes them: each one's words, size and place."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import pytest
from PIL import Image

from bot.render.text import Ink, text_mask


@dataclass(frozen=True)
class Written:
    text: str
    size: int
    box: tuple[int, int, int, int]
    """Left, top, right, bottom of the letters (and their halo) on the picture."""


def record_texts(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[Written]:
    """Every text ``module`` writes with its ``paste_text`` from now on, in order."""
    written: list[Written] = []
    paste_text = module.paste_text

    def recording(
        image: Image.Image,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: Ink,
        anchor: str = "la",
        halo: Ink | None = None,
        halo_width: int = 2,
    ) -> None:
        mask, dx, dy = text_mask(text, size, anchor, halo_width if halo is not None else 0)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        written.append(Written(text, size, (x, y, x + mask.width, y + mask.height)))
        paste_text(image, xy, text, size, fill, anchor, halo, halo_width)

    monkeypatch.setattr(module, "paste_text", recording)
    return written
