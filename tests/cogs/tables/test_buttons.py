"""The ops of the lobby's and the table's buttons: each an enum member, read once from the
custom_id as a click arrives. The custom_ids are those buttons were always posted with (a
message posted before a restart keeps working), and one naming an op this bot does not
know is refused as stale."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import cogs.tables.clicks  # noqa: F401  (the clicks' handlers, as the bot registers them)
from bot.tables.errors import TableError
from cogs.tables.buttons import (
    LOBBY_YES,
    TABLE_YES,
    TEAMS,
    LobbyButton,
    LobbyOp,
    OpButton,
    TableButton,
    TableOp,
)

POSTED: dict[str, LobbyOp | TableOp] = {
    "tute:l:7:join": LobbyOp.JOIN,
    "tute:l:7:team0": LobbyOp.TEAM0,
    "tute:l:7:team1": LobbyOp.TEAM1,
    "tute:l:7:leave": LobbyOp.LEAVE,
    "tute:l:7:settings": LobbyOp.SETTINGS,
    "tute:l:7:robot": LobbyOp.ROBOT,
    "tute:l:7:unrobot": LobbyOp.UNROBOT,
    "tute:l:7:start": LobbyOp.START,
    "tute:l:7:close": LobbyOp.CLOSE,
    "tute:l:7:closeok": LobbyOp.CLOSE_OK,
    "tute:l:7:leaveok": LobbyOp.LEAVE_OK,
    "tute:l:7:open": LobbyOp.OPEN,
    "tute:l:7:web": LobbyOp.WEB,
    "tute:t:7:hand": TableOp.HAND,
    "tute:t:7:refresh": TableOp.REFRESH,
    "tute:t:7:tricks": TableOp.TRICKS,
    "tute:t:7:back": TableOp.BACK,
    "tute:t:7:cancel": TableOp.CANCEL,
    "tute:t:7:cancelok": TableOp.CANCEL_OK,
    "tute:t:7:leave": TableOp.LEAVE,
    "tute:t:7:leaveok": TableOp.LEAVE_OK,
    "tute:t:7:keep": TableOp.KEEP,
    "tute:t:7:rematch": TableOp.REMATCH,
    "tute:t:7:hint": TableOp.HINT,
    "tute:t:7:web": TableOp.WEB,
}
"""Every op's custom_id as messages already posted carry it (table 7)."""

KINDS: tuple[type[OpButton[Any]], ...] = (LobbyButton, TableButton)


async def clicked(custom_id: str) -> OpButton[Any]:
    """The button a click with this custom_id arrives as (the one kind whose pattern it
    matches), read as discord.py reads it."""
    kinds = [k for k in KINDS if k.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert len(kinds) == 1, custom_id
    (kind,) = kinds
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    interaction: Any = None
    return await kind.from_custom_id(interaction, discord.ui.Button(), match)


def test_every_op_has_the_custom_id_it_was_posted_with() -> None:
    every = [*LobbyOp, *TableOp]
    assert sorted(POSTED.values(), key=repr) == sorted(every, key=repr), "each op listed once"
    for custom_id, op in POSTED.items():
        kind = LobbyButton if isinstance(op, LobbyOp) else TableButton
        assert kind(7, op).custom_id == custom_id  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize("custom_id", list(POSTED))
async def test_every_op_round_trips_through_its_custom_id(custom_id: str) -> None:
    button = await clicked(custom_id)
    assert not button.stale and button.op is POSTED[custom_id]
    assert (button.table_id, button.custom_id) == (7, custom_id)


@pytest.mark.parametrize(
    "custom_id",
    ["tute:l:7:dance", "tute:l:7:team2", "tute:l:7:hint", "tute:t:7:join", "tute:t:7:yes"],
)
async def test_a_forged_op_is_refused_as_stale(custom_id: str) -> None:
    """A custom_id the pattern takes but whose op this bot does not know (forged, or posted
    by another version): the click is answered "stale", and no handler runs."""
    button = await clicked(custom_id)
    assert button.stale and button.custom_id == custom_id
    with pytest.raises(TableError) as refused:
        await button.run(None)  # pyright: ignore[reportArgumentType]
    assert refused.value.key == "stale"
    with pytest.raises(TableError):
        _ = button.op


def test_the_questions_and_teams_name_their_ops() -> None:
    assert [str(op) for op in TEAMS] == ["team0", "team1"]
    assert {str(k): str(v) for k, v in LOBBY_YES.items()} == {
        "close": "closeok",
        "leave": "leaveok",
    }
    assert {str(k): str(v) for k, v in TABLE_YES.items()} == {
        "leave": "leaveok",
        "cancel": "cancelok",
    }
