"""The picture of the cards in ``/tute rules``: 480 pixels wide, ten cards of one suit
strongest first with their points under them, every text legible on a phone."""

import io

import pytest
from PIL import Image

import bot.render.deck as deck
from bot.render.deck import DeckCard, DeckScene, deck_image, render_deck
from bot.render.style import MIN_SHOWN_PX, SHOWN_W
from bot.render.text import ELLIPSIS
from cogs.tables.guide_pages import deck_scene
from tests.render._written import record_texts


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_cards_and_their_points_are_legible_at_phone_width(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = record_texts(deck, monkeypatch)
    scene = deck_scene(lang)
    image = deck_image(scene)
    assert image.width == deck.DECK_W == 480
    assert [c.code for c in scene.cards] == [f"{r}O" for r in (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)]
    texts = [w.text for w in written]
    assert texts[1:11] == ["11", "10", "4", "3", "2", "0", "0", "0", "0", "0"]
    assert min(w.size for w in written) >= deck.MIN_TEXT_PX >= 25
    assert deck.MIN_TEXT_PX * SHOWN_W / image.width >= MIN_SHOWN_PX
    assert not any(ELLIPSIS in text for text in texts), "a text was cut short"
    for w in written:  # every text inside the picture
        left, top, right, bottom = w.box
        assert left >= 0 and right <= image.width and top >= 0 and bottom <= image.height, w


def test_it_is_a_png_of_its_size() -> None:
    scene = DeckScene("T", tuple(DeckCard(f"{r}C", "0", False) for r in (1, 2, 3)), "")
    png = render_deck(scene)
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == deck.deck_size(scene)
    assert deck.deck_size(scene)[1] < deck.deck_size(deck_scene("en"))[1]
