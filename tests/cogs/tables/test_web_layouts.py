"""Play at the table on the table message and the lobby: with the web table on, one button of
its own (``tute:t:<id>:web``, ``tute:l:<id>:web``) that keeps every message within Discord's
limits (five rows of five buttons, 40 components, the custom_id's length), in every variant
and language, with the most buttons a table shows (a member away: I'm back); without it, the
messages are as they were."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.engine import Variant
from bot.i18n import t
from bot.tables.model import Status, Table
from bot.tables.views import table_view
from cogs.tables import messages
from cogs.tables.places import Place
from tests.cogs.tables.test_layouts import SomeFaces, accepted
from tests.cogs.tables.test_views_rendered import playing_table
from tests.discord_limits import IS_COMPONENTS_V2, check_message

PLACE = Place(7, 2)


def _away(table: Table) -> Table:
    """One robot seat made a member who is away: the table shows I'm back too."""
    seat = table.seats[1]
    assert seat is not None
    seat.user_id, seat.away = 101, True
    return table


def _buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        if component.get("type") == 2:
            found.append(component)
        found += _buttons(component.get("components") or [])
    return found


def _rows(components: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = []
    for component in components:
        if component.get("type") == 1:
            rows.append(component.get("components") or [])
        else:
            rows += _rows(component.get("components") or [])
    return rows


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_table_message_offers_it_within_discords_limits(variant: Variant, lang: str) -> None:
    table = _away(playing_table(variant))
    table.language = lang
    view = table_view(table)
    payload = messages.table_payload(view, PLACE, SomeFaces(), web=True)
    components = accepted(payload)
    assert list(check_message({"components": components, "flags": IS_COMPONENTS_V2})) == []
    rows = _rows(components)
    assert all(len(row) <= 5 for row in rows)
    (web,) = [b for b in _buttons(components) if b["custom_id"].endswith(":web")]
    assert web["custom_id"] == f"tute:t:{table.id}:web"
    assert web["label"] == t("tables.btn.web", lang)
    assert [web] in rows, "on a row of its own"
    assert len(rows[0]) == 5, "the table's own buttons are all there, I'm back too"

    plain = accepted(messages.table_payload(view, PLACE, SomeFaces()))
    assert not [b for b in _buttons(plain) if b["custom_id"].endswith(":web")]
    assert len(_buttons(plain)) == len(_buttons(components)) - 1


def test_a_table_that_ended_offers_it_no_more() -> None:
    table = playing_table(Variant.HABANERO)
    table.status = Status.CANCELLED
    components = accepted(messages.table_payload(table_view(table), PLACE, web=True))
    assert not [b for b in _buttons(components) if b["custom_id"].endswith(":web")]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("status", [Status.LOBBY, Status.PLAYING])
def test_the_lobby_offers_it_within_discords_limits(variant: Variant, status: Status) -> None:
    table = playing_table(variant)
    table.status = status
    if status is Status.LOBBY:
        table.seats[1:] = [None] * (len(table.seats) - 1)
    place = Place(7, 2, thread_id=3, play_message_id=4)  # in play: Follow the game links
    payload = messages.lobby_payload(table_view(table), place, web=True)
    view = payload["view"]
    assert isinstance(view, discord.ui.View)
    components = view.to_components()
    body = {"embeds": [payload["embed"].to_dict()], "components": components}
    assert list(check_message(body)) == []
    assert len(components) <= 5 and all(len(row["components"]) <= 5 for row in components)
    (web,) = [b for b in _buttons(components) if b.get("custom_id", "").endswith(":web")]
    assert web["custom_id"] == f"tute:l:{table.id}:web"
    plain = messages.lobby_payload(table_view(table), place)["view"].to_components()
    assert not [b for b in _buttons(plain) if b.get("custom_id", "").endswith(":web")]
