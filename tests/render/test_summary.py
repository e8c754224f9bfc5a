"""The summary picture stays legible on a phone, and any summary a game makes renders."""

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bot.render.summary as summary
from bot.render import SideSummary, SummaryLabels, SummaryScene, summary_image, summary_size
from bot.render.style import MIN_SHOWN_PX, SHOWN_W
from bot.render.symbols import ALL_CARDS, SUITS
from tests.render._written import record_texts
from tests.render.samples import summary_pairs, summary_three, summary_two


def four_sides_long_names() -> SummaryScene:
    sides = tuple(
        SideSummary(
            f"Maximiliano Bartolomé {i} & Guillermina Fernández-Castillo",
            ALL_CARDS[i * 10 : i * 10 + 10],
            tuple((suit, 20) for suit in SUITS[:i]),
            10 * i,
            i == 3,
            10 * i,
            i == 0,
            i % 2,
        )
        for i in range(4)
    )
    labels = SummaryLabels("Punkte aus den Karten", "Angesagte Paare", "Zehn der Letzten", "Summe")
    return SummaryScene(sides, ("Ein sehr langer Titel " * 4, "Partie: 2 - 1"), "O", labels)


SCENES: dict[str, Callable[[], SummaryScene]] = {
    "pairs": summary_pairs,
    "two": summary_two,
    "three": summary_three,
    "four": four_sides_long_names,
}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_text_is_legible_at_phone_width(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every piece of text drawn, scaled with the picture to a phone's width, is at least
    ``MIN_SHOWN_PX`` high (its font size in pixels)."""
    written = record_texts(summary, monkeypatch)
    scene = SCENES[name]()
    width, _ = summary_image(scene).size
    assert written, "the summary wrote no text"
    smallest = min([*(w.size for w in written), summary.TILE_RANK_SIZE])
    assert smallest >= summary.MIN_TEXT_PX
    shown = smallest * SHOWN_W / width
    assert shown >= MIN_SHOWN_PX, f"{smallest} px text is {shown:.1f} px on a phone"


def test_the_constants_keep_the_promise() -> None:
    assert summary.MIN_TEXT_PX * SHOWN_W / summary.SUMMARY_W >= MIN_SHOWN_PX


def test_card_tiles_are_large_enough_to_read() -> None:
    """A tile, shown at a phone's width, is as wide as a finger-tip label: its rank is
    drawn at the size of the text."""
    shown = summary.TILE_W * SHOWN_W / summary.SUMMARY_W
    assert shown >= 19
    assert summary.TILE_RANK_SIZE * SHOWN_W / summary.SUMMARY_W >= MIN_SHOWN_PX


def test_a_deal_of_three_is_not_too_tall() -> None:
    """Stacked sides make the picture tall; three sides stay within a phone's screen (the
    room it leaves for messages, 640 px, at its width there)."""
    width, height = summary_size(summary_three())
    assert height * SHOWN_W / width <= 640


cards_taken = st.lists(st.sampled_from(ALL_CARDS), max_size=40, unique=True)
sides = st.builds(
    SideSummary,
    names=st.text(max_size=70),
    cards=cards_taken.map(tuple),
    cantes=st.lists(st.tuples(st.sampled_from(SUITS), st.sampled_from((20, 40))), max_size=4).map(
        tuple
    ),
    card_points=st.integers(0, 130),
    last_ten=st.booleans(),
    total=st.integers(0, 999),
    won=st.booleans(),
    team=st.none() | st.integers(0, 1),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(sides, min_size=1, max_size=4),
    st.lists(st.text(max_size=90), max_size=3),
    st.none() | st.sampled_from(SUITS),
    st.builds(SummaryLabels, *(st.text(max_size=40) for _ in range(4))),
)
def test_any_summary_renders(
    side_list: list[SideSummary],
    title: list[str],
    trump: str | None,
    labels: SummaryLabels,
) -> None:
    scene = SummaryScene(tuple(side_list), tuple(title), trump, labels)
    image = summary_image(scene)
    assert image.size == summary_size(scene)
    assert image.width == summary.SUMMARY_W
