"""The lobby from the web table, on the real service: opened in the Activity's channel with
the server's settings (or refused where an opener role rules), in a DM as that
conversation's own, and played with the lobby's buttons from the page."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from bot.engine import Variant
from bot.storage import Database, places
from bot.storage.settings import update_settings
from bot.tables import LostTable, Show
from bot.tables.errors import TableError
from bot.tables.model import Status
from bot.web import wire
from bot.web.lobby import (
    LobbyAction,
    channel_table,
    lobby_action,
    open_lobby,
    server_of,
    start_nonce,
)
from bot.web.sessions import Session
from tests.web.conftest import quick_service

GUILD, CHANNEL, DM = 1, 2, 3
ANA, LUIS = 10, 11


class Published:
    """A presenter that keeps what the service published."""

    def __init__(self) -> None:
        self.shows: list[Show] = []

    async def refresh(self, show: Show, *, skip_seat: int | None = None) -> None:
        self.shows.append(show)

    async def table_lost(self, lost: LostTable) -> None:
        return None


def session_of(
    user_id: int, name: str, *, guild: int | None = GUILD, channel: int = CHANNEL
) -> Session:
    return Session(
        user_id=user_id,
        name=name,
        instance_id="i-1",
        channel_id=channel,
        guild_id=guild,
        expires=2e9,
    )


async def test_a_lobby_opens_in_the_channel_with_the_servers_settings(db: Database) -> None:
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, turn_time=45, language="es", hand_delivery="ephemeral")
    published = Published()
    service = quick_service(db, published)
    ana = session_of(ANA, "Ana")
    assert await channel_table(service, ana) is None
    table = await open_lobby(service, ana, "pairs", "en")
    assert [show.new_lobby for show in published.shows] == [True], "the chat is told to post it"
    assert (table.guild_id, table.channel_id, table.variant) == (GUILD, CHANNEL, Variant.PAIRS)
    assert table.status is Status.LOBBY and table.language == "es"
    assert table.options.turn_time == 45
    assert table.seats[0] is not None and table.seats[0].name == "Ana"
    assert await channel_table(service, ana) == table
    # another channel of the server has none
    assert await channel_table(service, session_of(ANA, "Ana", channel=99)) is None


async def test_where_an_opener_role_rules_the_page_sends_to_the_chat(db: Database) -> None:
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, opener_role_id=555)
    with pytest.raises(TableError) as refused:
        await open_lobby(quick_service(db), session_of(ANA, "Ana"), "habanero", "en")
    assert refused.value.key == "opener_role_page"


async def test_a_dm_keeps_its_own_tables(db: Database) -> None:
    service = quick_service(db)
    in_dm = session_of(ANA, "Ana", guild=None, channel=DM)
    assert server_of(in_dm) == DM
    table = await open_lobby(service, in_dm, "habanero", "en")
    assert table.guild_id == DM
    assert await channel_table(service, dataclasses.replace(in_dm, user_id=LUIS)) == table
    assert await channel_table(service, session_of(ANA, "Ana")) is None


async def test_a_game_is_seated_and_started_from_the_page(db: Database) -> None:
    service = quick_service(db)
    ana, luis = session_of(ANA, "Ana"), session_of(LUIS, "Luis")
    table_id = (await open_lobby(service, ana, "pairs", "en")).id
    await lobby_action(service, table_id, luis, LobbyAction.JOIN, "es")
    with pytest.raises(TableError):  # only the host seats robots and starts
        await lobby_action(service, table_id, luis, LobbyAction.ROBOT, "es")
    await lobby_action(service, table_id, ana, LobbyAction.ROBOT, "en")
    seated = service.view(table_id).seats
    assert [s.name if s else None for s in seated].count(None) == 1
    await lobby_action(service, table_id, luis, LobbyAction.LEAVE, "es")
    await lobby_action(service, table_id, luis, LobbyAction.JOIN, "es")
    outcome = await lobby_action(service, table_id, ana, LobbyAction.START, "en")
    assert outcome.show.table.status is Status.PLAYING
    with pytest.raises(TableError):
        await open_lobby(service, ana, "poker", "en")


async def test_a_start_from_the_page_mixes_its_nonce_into_the_shuffle(db: Database) -> None:
    """The page's Start carries 32 hex digits of the browser's: the shuffle's public input;
    the state the page gets carries the commitment, before the start as after."""
    service = quick_service(db)
    ana = session_of(ANA, "Ana")
    table_id = (await open_lobby(service, ana, "habanero", "en")).id
    shown = wire.table_state(service.view(table_id))["commitment"]
    assert isinstance(shown, str) and len(shown) == 12
    nonce = start_nonce("0123456789ABCDEF" * 2)
    assert nonce == "0123456789abcdef" * 2
    assert start_nonce("xyz") is None and start_nonce(12) is None
    outcome = await lobby_action(service, table_id, ana, LobbyAction.START, "en", nonce=nonce)
    assert outcome.show.table.status is Status.PLAYING
    assert service.get(table_id).public_input == f"web:{nonce}"
    assert wire.table_state(outcome.show.table)["commitment"] == shown


async def test_an_activity_opened_in_the_games_thread_is_at_its_table(db: Database) -> None:
    service = quick_service(db)
    table = await open_lobby(service, session_of(ANA, "Ana"), "habanero", "en")
    thread = 777
    await places.save(db, [places.PlaceRow(table.id, thread, None, None, None, None, "{}")])
    in_thread = session_of(LUIS, "Luis", channel=thread)
    assert await channel_table(service, in_thread) == table
    await service.close(table.id, ANA)
    assert await channel_table(service, in_thread) is None  # a closed table is nobody's


def test_the_lobby_actions_are_what_the_page_sends() -> None:
    """The page's lobby buttons send their ``data-do`` (typed ``LobbyDo`` in its wire): the
    server knows those and no other; anything else a socket sends is no such button."""
    src = Path(__file__).resolve().parents[2] / "web" / "src"
    buttons = re.findall(r'class="lobby" data-do="(\w+)"', (src / "index.html").read_text())
    typed = re.search(r"export type LobbyDo = (.*);", (src / "wire.ts").read_text())
    assert typed is not None
    assert sorted(buttons) == sorted(re.findall(r'"(\w+)"', typed[1])) == sorted(LobbyAction)
    for action in LobbyAction:
        assert LobbyAction(action.value) is action
    for sent in ("dance", "JOIN", "team0", ""):
        with pytest.raises(ValueError, match="is not a valid LobbyAction"):
            LobbyAction(sent)


async def test_the_host_seats_four_at_arrastrado_from_the_settings(db: Database) -> None:
    """The page's Settings form has the chat's ``/tute new`` choices that decide a game:
    four at an arrastrado table (the seats follow), and whether the trump 7 exchanges by
    itself; a lobby whose fourth seat is taken keeps it."""
    service = quick_service(db)
    table_id = (await open_lobby(service, session_of(ANA, "Ana"), "arrastrado", "en")).id
    await service.set_option(table_id, ANA, "auto_exchange", "false")
    await service.set_option(table_id, ANA, "seats", "4")
    table = service.view(table_id)
    assert (len(table.seats), table.options.seats, table.options.auto_exchange) == (4, 4, False)
    for _ in range(3):
        await service.add_robot(table_id, ANA)
    with pytest.raises(TableError) as refused:
        await service.set_option(table_id, ANA, "seats", "3")
    assert refused.value.key == "settings_seats"
    assert len(service.view(table_id).seats) == 4
    await service.remove_robot(table_id, ANA)
    await service.set_option(table_id, ANA, "seats", "3")
    assert len(service.view(table_id).seats) == 3
    with pytest.raises(TableError):  # three seats taken: no room for a robot more
        await service.add_robot(table_id, ANA)
