"""A card drawn at twice its size is the same card, as sharp: the web table's phones show
two pixels to the point."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render.cards import CARD_H, CARD_W, SUPERSAMPLE, card_back, card_image


@pytest.mark.parametrize("code", ["1O", "7E", "12B"])
def test_a_card_at_twice_its_size_is_the_same_card(code: str) -> None:
    big = card_image(code, 2)
    assert big.size == (2 * CARD_W, 2 * CARD_H)
    small = card_image(code)
    halved = big.resize(small.size, Image.Resampling.LANCZOS)
    same = ImageChops.difference(halved.convert("RGB"), small.convert("RGB"))
    assert ImageStat.Stat(same).mean[0] < 4, "the same drawing"
    blown_up = small.resize(big.size, Image.Resampling.LANCZOS)
    sharper = ImageChops.difference(blown_up.convert("RGB"), big.convert("RGB"))
    assert ImageStat.Stat(sharper).mean[0] > ImageStat.Stat(same).mean[0], "drawn, not blown up"


def test_the_back_too_and_no_size_beyond_the_drawing() -> None:
    assert card_back(2).size == (2 * CARD_W, 2 * CARD_H)
    with pytest.raises(ValueError, match="times its size"):
        card_image("1O", SUPERSAMPLE + 1)
    with pytest.raises(ValueError, match="times its size"):
        card_back(0)
