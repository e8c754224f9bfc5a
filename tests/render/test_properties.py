"""Any scene a game can produce gives a picture of the promised size."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render import (
    TABLE_SIZE,
    SeatInfo,
    TableScene,
    table_image,
)
from bot.render.symbols import ALL_CARDS, SUITS

names = st.text(min_size=0, max_size=40)
seat_infos = st.builds(
    SeatInfo,
    name=names,
    is_turn=st.booleans(),
    is_robot=st.booleans(),
    team=st.none() | st.integers(0, 1),
    note=st.text(max_size=30),
)


@st.composite
def table_scenes(draw: st.DrawFn) -> TableScene:
    seats = draw(st.lists(seat_infos, min_size=2, max_size=4))
    n = len(seats)
    cards = draw(st.permutations(ALL_CARDS))
    trick_seats = draw(st.lists(st.integers(0, n - 1), max_size=n, unique=True))
    trick = tuple(zip(trick_seats, cards[:n], strict=False))
    return TableScene(
        seats=tuple(seats),
        trump_suit=draw(st.sampled_from(SUITS)),
        trick=trick,
        turned=draw(st.none() | st.just(cards[-1].lower())),
        stock_left=draw(st.integers(0, 30)),
        viewer_seat=draw(st.none() | st.integers(0, n - 1)),
        trick_winner=draw(st.none() | st.integers(0, n - 1)),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_scenes())
def test_any_table_renders(scene: TableScene) -> None:
    assert table_image(scene).size == TABLE_SIZE
