"""A table's status moves only along its life: lobby -> playing or closed; playing ->
finished or cancelled; the ends are final."""

from __future__ import annotations

import pytest

from bot.engine import Options, Variant
from bot.tables.model import Seat, Status, StatusError, Table

ALLOWED = {
    (Status.LOBBY, Status.PLAYING),
    (Status.LOBBY, Status.CLOSED),
    (Status.PLAYING, Status.FINISHED),
    (Status.PLAYING, Status.CANCELLED),
}


def table_in(status: Status) -> Table:
    return Table(
        id=1,
        guild_id=1,
        channel_id=1,
        host_id=1,
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
        created_at=0.0,
        seats=[Seat(name="alice", user_id=1), None],
        status=status,
    )


@pytest.mark.parametrize("before", list(Status))
@pytest.mark.parametrize("after", list(Status))
def test_a_status_moves_only_along_the_tables_life(before: Status, after: Status) -> None:
    table = table_in(before)
    if (before, after) in ALLOWED:
        table.move_to(after)
        assert table.status is after
    else:
        with pytest.raises(StatusError):
            table.move_to(after)
        assert table.status is before, "a refused move changes nothing"
