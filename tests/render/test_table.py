"""The table picture stays low and legible on a phone: wide enough for the message that
holds it to stay short, its letters large enough to read at a phone's width, its pieces
of text clear of each other and of the trick."""

from collections.abc import Callable

import pytest
from PIL import Image

import bot.render.table as table
from bot.render import CARD_W, TABLE_SIZE, ScoreLine, SeatInfo, TableLabels, TableScene
from bot.render.cards import turned_face
from bot.render.symbols import normalize_code
from tests.render._written import Written, record_texts
from tests.render.samples import table_four, table_three, table_two

PHONE_WIDTHS = (360, 380, 400)
"""How wide Discord shows an embedded picture on a phone."""
MIN_SHOWN_PX = 11.0
"""The smallest letters may be this high, in screen pixels, at those widths."""
MIN_SHOWN_CARD_W = 45.0
"""How wide a card of the trick is at least, in screen pixels, at those widths."""

MAX_TILT = 6.0
"""The most a card of the trick is slanted, in degrees."""

LONG = "Maximiliano Bartolomé de la Santísima Trinidad"


def four_alone_with_notes() -> TableScene:
    """Four players each on their own, long names, big numbers, a note on every plate."""
    return TableScene(
        seats=tuple(
            SeatInfo(
                f"{LONG} {i}",
                is_turn=i == 1,
                is_robot=i % 2 == 1,
                points=130 + i,
                cards_left=10,
                note="Canta 40 en oros",
            )
            for i in range(4)
        ),
        trump_suit="O",
        trick=((1, "12B"), (2, "1B"), (3, "10B"), (0, "3B")),
        turned="6O",
        scores=tuple(ScoreLine(f"{LONG} {i}", str(130 + i)) for i in range(4)),
        viewer_seat=0,
        trick_winner=2,
        last_trick=((0, "4O"), (1, "12O"), (2, "11O"), (3, "1O")),
        last_trick_winner=3,
        labels=TableLabels(
            "Trumps are very long today", "The stock of cards", "The last trick", "The score"
        ),
    )


def pairs_long_names() -> TableScene:
    """Pairs, long names and captions, the viewer on seat 2."""
    seats = tuple(
        SeatInfo(f"{LONG} {i}", team=i % 2, cards_left=9, is_turn=i == 3, is_robot=i == 0)
        for i in range(4)
    )
    return TableScene(
        seats=seats,
        trump_suit="E",
        trick=((3, "1E"), (0, "7E")),
        turned="2E",
        scores=(
            ScoreLine(f"{LONG} 0 & {LONG} 2", "101", 0),
            ScoreLine(f"{LONG} 1 & {LONG} 3", "99", 1),
        ),
        viewer_seat=2,
        last_trick=((3, "4B"), (0, "10B"), (1, "2C"), (2, "11B")),
        last_trick_winner=0,
        labels=TableLabels("Palo de triunfo", "Cartas en el monte", "Baza anterior", "Tanteo"),
    )


def two_with_stock() -> TableScene:
    """Two players, a full stock, long names and captions."""
    return TableScene(
        seats=(
            SeatInfo(LONG, cards_left=6, points=120, note="Canta 40", is_turn=True),
            SeatInfo(LONG, is_robot=True, cards_left=6, points=99),
        ),
        trump_suit="B",
        trick=((0, "12B"), (1, "11B")),
        turned="7B",
        stock_left=28,
        scores=(ScoreLine(LONG, "120"), ScoreLine(LONG, "99")),
        trick_winner=0,
        last_trick=((0, "1C"), (1, "3C")),
        last_trick_winner=1,
        labels=TableLabels(
            "Trumps are very long today", "The stock of cards", "The last trick", "The score"
        ),
    )


def names_the_font_cannot_draw() -> TableScene:
    """Names and notes of emoji only: the seats' numbers are written instead."""
    emoji = "\U0001f600\U0001f600"
    return TableScene(
        seats=tuple(
            SeatInfo(emoji, is_robot=i == 2, cards_left=12, points=100, note=emoji)
            for i in range(4)
        ),
        trump_suit="C",
        trick=((0, "1C"),),
        scores=(ScoreLine(emoji, emoji), ScoreLine("", "")),
        labels=TableLabels(emoji, emoji, emoji, emoji),
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


def test_the_picture_is_at_least_twice_as_wide_as_tall() -> None:
    """The picture takes the message's width; the lower it is, the shorter the message."""
    width, height = TABLE_SIZE
    assert width >= 2 * height


def test_the_constants_keep_the_promise() -> None:
    assert table.MIN_TEXT_PX * table.PHONE_W / table.TABLE_W >= MIN_SHOWN_PX
    assert min(PHONE_WIDTHS) >= table.PHONE_W
    assert table.TILE_RANK_SIZE >= table.MIN_TEXT_PX


@pytest.mark.parametrize("name", sorted(SCENES))
def test_text_is_legible_at_phone_width(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every piece of text drawn, scaled with the picture to a phone's width, is at least
    ``MIN_SHOWN_PX`` high (its font size in pixels); the ranks on the tiles too."""
    image, written = _written(SCENES[name](), monkeypatch)
    assert image.size == TABLE_SIZE
    assert written, "the table wrote no text"
    smallest = min([w.size for w in written] + [table.TILE_RANK_SIZE])
    assert smallest >= table.MIN_TEXT_PX
    for phone in PHONE_WIDTHS:
        shown = smallest * min(1.0, phone / image.width)
        assert shown >= MIN_SHOWN_PX, f"{smallest} px text is {shown:.1f} px at {phone} px wide"


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
        card = turned_face(code, MAX_TILT)  # as large as a card slanted on the table gets
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
    """The trick is drawn with full-size cards, wide enough on a phone to tell them."""
    for phone in PHONE_WIDTHS:
        assert CARD_W * phone / table.TABLE_W >= MIN_SHOWN_CARD_W
