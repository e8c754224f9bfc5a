"""Every card face and the back are drawn, at the right size, each one different."""

import hashlib

import pytest

from bot.render import CARD_SIZE, card_back, card_image
from bot.render.symbols import ALL_CARDS


@pytest.mark.parametrize("code", ALL_CARDS)
def test_every_card_renders(code: str) -> None:
    image = card_image(code)
    assert image.size == CARD_SIZE
    assert image.mode == "RGBA"
    # rounded corners are see-through, the middle of the card is not
    assert image.getpixel((0, 0)) == (0, 0, 0, 0)
    centre = image.getpixel((CARD_SIZE[0] // 2, CARD_SIZE[1] // 2))
    assert isinstance(centre, tuple)
    assert centre[3] == 255


def test_all_faces_differ() -> None:
    digests = {hashlib.sha256(card_image(c).tobytes()).hexdigest() for c in ALL_CARDS}
    assert len(digests) == 40


def test_back_renders() -> None:
    back = card_back()
    assert back.size == CARD_SIZE
    assert back.mode == "RGBA"
    assert back.tobytes() not in {card_image(c).tobytes() for c in ALL_CARDS}


def test_codes_are_case_insensitive() -> None:
    assert card_image("12b").tobytes() == card_image("12B").tobytes()


def test_invalid_code_raises() -> None:
    with pytest.raises(ValueError, match="not a card code"):
        card_image("13O")


def test_a_returned_image_is_a_copy() -> None:
    first = card_image("1O")
    first.paste((255, 0, 0, 255), (0, 0, CARD_SIZE[0], CARD_SIZE[1]))
    assert card_image("1O").tobytes() != first.tobytes()
