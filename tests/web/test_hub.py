"""The web table's sockets on the real table service: each socket is sent its viewer's
view, a member's own hand and never another's, a spectator no hand; a card played from the
page goes through the service as a button's click and every socket and the other
presenters see it; a broken socket is dropped alone."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import CODES, Options, Variant
from bot.storage import Database
from bot.tables.errors import TableError
from bot.tables.model import Status, Table
from bot.tables.service import TableService
from bot.web.hub import TableHub
from bot.words import refusal_text
from tests.tables._play import NullPresenter, opened
from tests.tables.test_service import settle
from tests.web.conftest import quick_hub, started_habanero

ANA, LUIS, EVA = 10, 11, 12


class Socket:
    """A socket of the web table, as a list of what it was sent."""

    def __init__(
        self, user_id: int | None, *, broken: bool = False, language: str = "es", place: int = 1
    ) -> None:
        self._user_id = user_id
        self.place = place
        self._language = language
        self.broken = broken
        self.sent: list[dict[str, Any]] = []

    @property
    def user_id(self) -> int | None:
        return self._user_id

    @property
    def language(self) -> str:
        return self._language

    async def send(self, message: dict[str, Any]) -> None:
        if self.broken:
            raise ConnectionResetError("gone")
        self.sent.append(message)

    @property
    def last(self) -> dict[str, Any]:
        return self.sent[-1]


class Recorder(NullPresenter):
    def __init__(self) -> None:
        self.shown = 0

    async def refresh(self, show: Any, *, skip_seat: int | None = None) -> None:
        self.shown += 1


async def pairs(db: Database) -> tuple[TableService, TableHub, Recorder, Table]:
    """Ana and Luis, partners, and two robots at a table of pairs, in play."""
    discord = Recorder()
    hub = quick_hub(db, discord)
    service = hub.service
    table = await opened(
        service,
        guild_id=1,
        channel_id=2,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.PAIRS,
        options=Options(),
        language="es",
    )
    await service.join(table.id, LUIS, "Luis", team=0)
    await service.start(table.id, ANA)
    return service, hub, discord, table


async def test_each_socket_gets_what_its_viewer_may_see(db: Database) -> None:
    _, hub, _, table = await pairs(db)
    ana, luis, eva = Socket(ANA), Socket(LUIS), Socket(EVA)
    for socket in (ana, luis, eva):
        await hub.join(table.id, socket)
    deal = table.deal
    assert deal is not None
    for socket, user in ((ana, ANA), (luis, LUIS)):
        seat = table.seat_of(user)
        assert seat is not None
        hand = socket.last["hand"]
        assert hand["seat"] == seat
        assert sorted(hand["cards"]) == sorted(CODES[c] for c in deal.hand(seat))
    assert eva.last["hand"] is None, "a spectator sees no hand"
    assert eva.last["table"] == ana.last["table"] == luis.last["table"]
    public = str(eva.last["table"])
    for seat in range(4):  # no hand is in the table, not one card of it
        leaked = [CODES[c] for c in deal.hand(seat) if f"'{CODES[c]}'" in public]
        # but the turned card, which everybody saw (the dealer holds it in pairs)
        assert leaked in ([], [eva.last["table"]["deal"]["turned"]]), (leaked, public)
    seats = eva.last["table"]["seats"]
    assert [s["name"] for s in seats if s["robot"] is None] == ["Ana", "Luis"]
    assert all(set(s) == {"name", "robot", "level", "away", "left"} for s in seats)


async def test_a_card_from_the_page_is_a_click_and_everybody_sees_it(db: Database) -> None:
    service, hub, discord, table = await pairs(db)
    ana, luis, eva = Socket(ANA), Socket(LUIS), Socket(EVA)
    for socket in (ana, luis, eva):
        await hub.join(table.id, socket)
    await settle(service, table)
    deal = table.deal
    assert deal is not None
    player = {table.seat_of(ANA): (ana, ANA), table.seat_of(LUIS): (luis, LUIS)}[deal.turn]
    socket, _ = player
    hand = socket.last["hand"]
    assert hand["your_turn"] and hand["playable"]
    before = (len(deal.actions), discord.shown, len(eva.sent))
    await hub.act(
        table.id, socket, hand["playable"][0], deal_no=hand["deal_no"], trick_no=hand["trick_no"]
    )
    assert len(deal.actions) > before[0]
    assert discord.shown > before[1], "the Discord messages are redrawn too"
    assert len(eva.sent) > before[2], "and every socket"
    played = [card for _, card in eva.last["table"]["deal"]["trick"]] or [
        card for _, card in eva.last["table"]["deal"]["last_trick"]["cards"]
    ]
    assert hand["playable"][0] in played


async def test_a_spectator_acts_for_nobody_and_a_stale_card_is_refused(db: Database) -> None:
    service, hub, _, table = await pairs(db)
    await settle(service, table)
    eva = Socket(EVA)
    await hub.join(table.id, eva)
    with pytest.raises(TableError):
        await hub.act(table.id, eva, "1O", deal_no=0, trick_no=0)
    deal = table.deal
    assert deal is not None
    ana = Socket(ANA)
    await hub.join(table.id, ana)
    before = len(deal.actions)
    with pytest.raises(TableError):  # drawn for a trick long gone
        await hub.act(table.id, ana, ana.last["hand"]["cards"][0], deal_no=0, trick_no=99)
    assert len(deal.actions) == before


async def test_a_broken_socket_is_dropped_alone(db: Database) -> None:
    service, hub, _, table = await pairs(db)
    ana, gone = Socket(ANA), Socket(LUIS)
    await hub.join(table.id, ana)
    await hub.join(table.id, gone)
    gone.broken = True
    shown = len(ana.sent)
    await hub.sockets.refresh(service.redraw(table.id))  # type: ignore[arg-type]
    assert len(ana.sent) == shown + 1
    assert hub.peers(table.id) == {ana}
    assert table.status is Status.PLAYING


async def test_a_presenter_that_fails_keeps_nothing_from_the_others(db: Database) -> None:
    class Broken(NullPresenter):
        async def refresh(self, show: Any, *, skip_seat: int | None = None) -> None:
            raise RuntimeError("down")

    hub = quick_hub(db, Broken())
    service = hub.service
    table = await started_habanero(service, hub, guild_id=1, channel_id=2, host_id=ANA)
    ana = Socket(ANA)
    await hub.join(table.id, ana)
    shown = len(ana.sent)
    await service.leave(table.id, ANA)  # saved, then published: one presenter fails
    assert len(ana.sent) == shown + 1
    assert ana.last["table"]["status"] != "playing"
    assert table.status is not Status.PLAYING, "the change stands"


async def test_no_socket_joins_a_table_that_is_not(db: Database) -> None:
    _, hub, _, _ = await pairs(db)
    with pytest.raises(TableError):
        await hub.join(999, Socket(ANA))
    assert not hub.peers(999)


async def test_each_socket_is_sent_its_own_pages_language(db: Database) -> None:
    service, hub, _, table = await pairs(db)
    await settle(service, table)
    ana, luis = Socket(ANA, language="en"), Socket(LUIS, language="es")
    await hub.join(table.id, ana)
    await hub.join(table.id, luis)
    await hub.sockets.refresh(service.redraw(table.id))  # type: ignore[arg-type]
    assert (ana.last["lang"], luis.last["lang"]) == ("en", "es")
    for socket, lang in ((ana, "en"), (luis, "es")):
        for refusal in socket.last["hand"]["refusals"]:
            assert refusal["text"] == refusal_text(
                refusal["key"], refusal["params"], lang, symbol=False
            )
    assert ana.last["table"]["language"] == luis.last["table"]["language"] == "es"
