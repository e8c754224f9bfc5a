"""The table picture stays low and legible on a phone: wide enough for the message that
holds it to stay short, its letters large enough to read at a phone's width, its pieces
of text clear of each other and of the trick."""

from collections.abc import Callable

import pytest
from PIL import Image

import bot.render.table as table
from bot.render import TABLE_SIZE, SeatInfo, TableScene
from bot.render.cards import turned_face
from bot.render.style import MIN_SHOWN_PX, SHOWN_W
from bot.render.symbols import normalize_code
from tests.render._written import Written, record_texts
from tests.render.samples import table_four, table_three, table_two

MIN_SHOWN_CARD_W = 35.0
"""How wide a card of the trick is at least, in screen pixels, on that phone (its rank and
suit read at this width: the cards of the old, wider picture were as wide)."""

MAX_TILT = 6.0
"""The most a card of the trick is slanted, in degrees."""

LONG = "Maximiliano Bartolomé de la Santísima Trinidad"


def four_alone_with_notes() -> TableScene:
    """Four players each on their own, long names, a note on every tag."""
    return TableScene(
        seats=tuple(
            SeatInfo(
                f"{LONG} {i}",
                is_turn=i == 1,
                is_robot=i % 2 == 1,
                note="descansa",
            )
            for i in range(4)
        ),
        trump_suit="O",
        trick=((1, "12B"), (2, "1B"), (3, "10B"), (0, "3B")),
        turned="6O",
        viewer_seat=0,
        trick_winner=2,
    )


def pairs_long_names() -> TableScene:
    """Pairs, long names and captions, the viewer on seat 2."""
    seats = tuple(
        SeatInfo(f"{LONG} {i}", team=i % 2, is_turn=i == 3, is_robot=i == 0) for i in range(4)
    )
    return TableScene(
        seats=seats,
        trump_suit="E",
        trick=((3, "1E"), (0, "7E")),
        turned="2E",
        viewer_seat=2,
    )


def two_with_stock() -> TableScene:
    """Two players, a full stock, long names and captions."""
    return TableScene(
        seats=(
            SeatInfo(LONG, note="Canta 40", is_turn=True),
            SeatInfo(LONG, is_robot=True),
        ),
        trump_suit="B",
        trick=((0, "12B"), (1, "11B")),
        turned="7B",
        stock_left=28,
        trick_winner=0,
    )


def names_the_font_cannot_draw() -> TableScene:
    """Names and notes of emoji only: the seats' numbers are written instead."""
    emoji = "\U0001f600\U0001f600"
    return TableScene(
        seats=tuple(SeatInfo(emoji, is_robot=i == 2, note=emoji) for i in range(4)),
        trump_suit="C",
        trick=((0, "1C"),),
        turned="1O",
    )


SCENES: dict[str, Callable[[], TableScene]] = {
    "two": table_two,
    "three": table_three,
    "four": table_four,
    "four_alone_with_notes": four_alone_with_notes,
    "pairs_long_names": pairs_long_names,
    "two_with_stock": two_with_stock,
    "names_the_font_cannot_draw": names_the_font_cannot_draw,
}


def _written(
    scene: TableScene, monkeypatch: pytest.MonkeyPatch
) -> tuple[Image.Image, list[Written]]:
    """The picture of ``scene``, and every piece of text written on it."""
    written = record_texts(table, monkeypatch)
    return table.table_image(scene), written


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_constants_keep_the_promise() -> None:
    """Shown as wide as a phone 360 px wide shows it, the smallest letters stay 12 px."""
    assert table.MIN_TEXT_PX * SHOWN_W / table.TABLE_W >= MIN_SHOWN_PX


@pytest.mark.parametrize("name", sorted(SCENES))
def test_text_is_legible_on_a_phone(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every piece of text drawn, scaled with the picture to its width on a phone, is at
    least ``MIN_SHOWN_PX`` high (its font size in pixels)."""
    image, written = _written(SCENES[name](), monkeypatch)
    assert image.size == TABLE_SIZE
    assert written, "the table wrote no text"
    smallest = min(w.size for w in written)
    assert smallest >= table.MIN_TEXT_PX
    shown = smallest * SHOWN_W / image.width
    assert shown >= MIN_SHOWN_PX, f"{smallest} px text is {shown:.1f} px on a phone"


@pytest.mark.parametrize("name", sorted(SCENES))
def test_text_stays_clear_of_other_text_and_the_trick(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No two pieces of text overlap, none runs off the cloth, none lies under the trick:
    the plates, the scores and the captions keep to their places, whatever their length."""
    scene = SCENES[name]()
    image, written = _written(scene, monkeypatch)
    cloth = (10, 10, image.width - 10, image.height - 10)
    for w in written:
        assert cloth[0] <= w.box[0] and w.box[2] <= cloth[2], w
        assert cloth[1] <= w.box[1] and w.box[3] <= cloth[3], w
    for i, a in enumerate(written):
        for b in written[i + 1 :]:
            assert not _overlap(a.box, b.box), (a, b)
    places = table.seat_places(scene)
    for seat, code in scene.trick:
        code = normalize_code(code)
        # as large as a card slanted on the table gets
        card = turned_face(code, MAX_TILT, table.TRICK_CARD_W)
        cx, cy = table.trick_centre(places[seat])
        box = (
            cx - card.width // 2,
            cy - card.height // 2,
            cx + card.width // 2,
            cy + card.height // 2,
        )
        for w in written:
            assert not _overlap(w.box, box), (w, code)


def test_cards_of_the_trick_are_large_enough_to_read() -> None:
    """The trick's cards are wide enough on a phone to tell them."""
    assert table.TRICK_CARD_W * SHOWN_W / table.TABLE_W >= MIN_SHOWN_CARD_W


def test_tags_stay_clear_of_each_other_whatever_the_names() -> None:
    """The longest names and notes keep each tag apart from the others, and from the
    corners' captions."""
    for scene in (four_alone_with_notes(), pairs_long_names()):
        boxes = [table.tag_box(scene, i) for i in range(len(scene.seats))]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not _overlap(a, b), (a, b)


def test_the_player_to_play_has_a_place_waiting() -> None:
    """Where the card of the player to play will lie is marked in gold until it is played."""
    waiting = table_four()  # seat 3 to play, the three others have played
    image = table.table_image(waiting)
    place = table.seat_places(waiting)[3]
    cx, cy = table.trick_centre(place)
    pixel = image.getpixel((cx - table.TRICK_CARD_W // 2 + 2, cy))
    assert isinstance(pixel, tuple)
    r, g, b = pixel[:3]
    assert r > 180 and g > 150 and b < 120, (r, g, b)
