"""The replay's picture: the table over one panel per seat, each with the cards it holds."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import SeatInfo, TableScene
from bot.render.replay import ReplayScene, render_replay, replay_size
from bot.render.table import TABLE_W

FULL = ("1O", "3O", "12C", "11C", "10E", "7E", "6B", "5B", "4B", "2B", "1B", "3B", "12B")
"""The longest hand there is (arrastrado's thirteen cards)."""


def _scene(seats: int, hands: tuple[tuple[str, ...], ...]) -> ReplayScene:
    names = tuple(SeatInfo(name=f"Seat {i}") for i in range(seats))
    table = TableScene(seats=names, trump_suit="O", trick=((0, "1O"),), trick_winner=0)
    return ReplayScene(table, hands)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_picture_is_the_tables_width_with_a_panel_per_seat(seats: int) -> None:
    scene = _scene(seats, (FULL, *((),) * (seats - 1)))
    with Image.open(io.BytesIO(render_replay(scene))) as image:
        assert image.size == replay_size(scene)
    width, height = replay_size(scene)
    assert width == TABLE_W
    assert height - replay_size(_scene(2, (FULL, ())))[1] == (seats - 2) * (
        replay_size(_scene(3, (FULL, (), ())))[1] - replay_size(_scene(2, (FULL, ())))[1]
    )


def test_a_hand_per_seat_is_required() -> None:
    with pytest.raises(ValueError, match="one hand per seat"):
        render_replay(_scene(2, (FULL,)))
