"""The card table does all the chat's table does: Leave and Vote to cancel, asked first in
the chat's words (what they cost); the game over with who won, the rounds and what moved
for each member; Rematch; and a lobby that says what moves chips. Refused in words to
whoever may not (a spectator, a forged question, another table)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.engine import Options, Variant
from bot.i18n import t
from bot.storage import Database
from bot.tables.model import GameTally, Status, Table
from bot.tables.service import TableService
from bot.tables.views import table_view
from bot.web import sign, wire
from bot.web.app import make_app
from tests.cogs.tables.test_views_rendered import playing_table
from tests.tables._play import opened
from tests.tables.test_service import settle
from tests.web.conftest import quick_hub, started_habanero
from tests.web.test_app import ANA, CHANNEL, EVA, GUILD, SECRET, FakeAuth, session_of

World = tuple[TestClient[Any, Any], TableService, Table]


@pytest.fixture
async def world(db: Database) -> AsyncIterator[World]:
    hub = quick_hub(db)
    service = hub.service
    table = await started_habanero(service, hub, guild_id=GUILD, channel_id=CHANNEL, host_id=ANA)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())
    client = TestClient(TestServer(app))
    await client.start_server()
    yield client, service, table
    await client.close()


def _params(user_id: int, lang: str = "en") -> dict[str, str]:
    return {"session": sign(session_of(user_id), SECRET), "lang": lang}


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_leave_is_asked_first_in_the_chats_words_then_done(world: World, lang: str) -> None:
    client, service, table = world
    async with client.ws_connect("/api/ws", params=_params(ANA, lang)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "ask", "what": "leave"})
        question = await ws.receive_json()
        case, stake = service.leave_terms(table.id, ANA)
        assert question == {
            "type": "question",
            "what": "leave",
            "text": t(f"tables.confirm.leave.{case}", lang, stake=stake),
            "yes": t("tables.btn.confirm_leave", lang),
            "no": t("tables.btn.keep", lang),
        }
        assert table.status is Status.PLAYING  # asking changed nothing
        await ws.send_json({"type": "leave"})
        async with asyncio.timeout(10):
            while (message := await ws.receive_json())["type"] != "done":
                pass
        assert message["text"] == t("tables.done.leave_end", lang)  # Ana was the last member
        assert not table.status.is_open


async def test_a_vote_to_cancel_is_asked_first_then_counted(world: World) -> None:
    client, _, table = world
    async with client.ws_connect("/api/ws", params=_params(ANA, "es")) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "ask", "what": "cancel"})
        question = await ws.receive_json()
        assert question["text"] == t("tables.confirm.cancel_last", "es", missing=0)
        assert question["yes"] == t("tables.btn.confirm_cancel", "es")
        await ws.send_json({"type": "cancel"})
        async with asyncio.timeout(10):
            while (message := await ws.receive_json())["type"] != "done":
                pass
        assert message["text"] == t("tables.done.cancelled", "es")
        assert table.status is Status.CANCELLED


@pytest.mark.parametrize("kind", ["leave", "cancel"])
async def test_a_spectator_may_neither_leave_nor_vote(world: World, kind: str) -> None:
    client, _, table = world
    async with client.ws_connect("/api/ws", params=_params(EVA)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "ask", "what": kind})
        refused = await ws.receive_json()
        assert refused["key"] == "tables.errors.not_seated"
        assert refused["text"] == t("tables.errors.not_seated", "en")
        await ws.send_json({"type": kind})
        refused = await ws.receive_json()
        assert refused["key"] == "tables.errors.not_seated"
        assert table.status is Status.PLAYING


@pytest.mark.parametrize("what", ["close", "", None, ["leave"], "leave\u0000"])
async def test_a_forged_question_is_refused_in_words(world: World, what: Any) -> None:
    client, _, table = world
    async with client.ws_connect("/api/ws", params=_params(ANA)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "ask", "what": what})
        refused = await ws.receive_json()
        assert refused["key"] == "tables.errors.malformed"
        assert refused["text"] == t("tables.errors.malformed", "en")
        assert table.status is Status.PLAYING


async def test_a_rematch_before_the_end_or_of_a_spectator_is_refused(world: World) -> None:
    client, _, _ = world
    for user in (ANA, EVA):
        async with client.ws_connect("/api/ws", params=_params(user)) as ws:
            await ws.receive_json()
            await ws.send_json({"type": "rematch"})
            refused = await ws.receive_json()
            assert refused["type"] == "refused"
            assert refused["key"] in ("tables.errors.not_finished", "tables.errors.gone")


async def test_a_finished_game_is_played_again_from_the_page(world: World) -> None:
    client, _, table = world
    async with client.ws_connect("/api/ws", params=_params(ANA)) as ws:
        state = await ws.receive_json()
        async with asyncio.timeout(60):
            while state["table"]["status"] == "playing":
                hand = state["hand"]
                if hand["your_turn"]:
                    code = hand["playable"][0] if hand["playable"] else None
                    if code is None:
                        found = [d["code"] for d in hand["declarations"] if "ask" not in d]
                        code = found[0]
                    await ws.send_json(
                        {
                            "type": "act",
                            "code": code,
                            "deal": hand["deal_no"],
                            "trick": hand["trick_no"],
                        }
                    )
                while (state := await ws.receive_json())["type"] != "state":
                    pass
        assert state["table"]["status"] == "finished"
        result = state["result"]
        assert result["winner"] and "**" not in result["winner"]
        assert result["rematch"] is True and result["replay_deal"] is not None
        await ws.send_json({"type": "rematch"})
        async with asyncio.timeout(10):
            while (state := await ws.receive_json())["type"] != "state":
                pass
        assert state["table"]["status"] == "lobby" and state["table"]["id"] != table.id
        assert state["you"]["host"] is True
        assert "stakes" in state


def _finished(lang: str) -> Table:
    table = playing_table(Variant.HABANERO, options=Options(bet=100))
    table.status = Status.FINISHED
    table.language = lang
    table.winner = 0
    table.tally = GameTally(chips={100: 100}, xp={100: 20}, places={100: (5, 2)})
    return table


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_game_over_says_who_won_and_what_moved_for_each_member(lang: str) -> None:
    table = _finished(lang)
    table.seats[0].name = "**ana** <b>"  # type: ignore[union-attr]
    shown = wire.state(table_view(table), None, lang, viewer=100)
    result = shown["result"]
    name = "**ana** <b>"
    said = t("tables.winner", lang, names=name)
    assert result["winner"] == said.replace(f"**{name}**", name).replace("🏆 ", "")
    assert result["tally_title"] == t("summary.tally_title.chips_xp", lang)
    line = t("summary.tally_line", lang, name=name, chips="+100", xp=20).replace("**+100**", "+100")
    line += t("summary.tally_place", lang, before=5, after=2)
    assert result["tally"] == [line]
    assert result["rounds"] == [f"{name}: 0", "Robot 1: 0"]  # no emoji: the page draws none
    assert result["title"] == t("summary.game_over", lang, id=table.id)


def test_a_game_in_play_and_a_lobby_have_no_result() -> None:
    table = playing_table(Variant.HABANERO)
    assert "result" not in wire.state(table_view(table), None, "en")


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_an_arrastrado_lobby_says_what_moves_chips(db: Database, lang: str) -> None:
    hub = quick_hub(db)
    table = await opened(
        hub.service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.ARRASTRADO,
        options=Options(bet=50, plato=True),
        language=lang,
    )
    shown = wire.state(hub.service.view(table.id), None, lang, viewer=ANA)
    assert shown["stakes"] == [
        t("tables.opt.bet", lang, bet=50),
        t("tables.opt.arrastrado_pays_plato", lang),
    ]


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_deals_tricks_so_far_in_words_as_the_chats_tricks(
    world: World, lang: str
) -> None:
    client, service, table = world
    deal = table.deal
    assert deal is not None
    async with client.ws_connect("/api/ws", params=_params(EVA, lang)) as ws:  # watching
        await ws.receive_json()
        await ws.send_json({"type": "tricks"})
        shown = await ws.receive_json()
        assert shown["type"] == "tricks" and shown["happened"] == []
        assert shown["none"] == t("tables.tricks.none", lang)
        while not service.history(table.id, ANA, GUILD).tricks:  # Ana plays a trick out
            hand = service.hand_view(table.id, deal.turn)
            code = wire.CODES[sorted(hand.playable)[0]]
            await service.click(table.id, ANA, code, deal_no=hand.deal_no, trick_no=hand.trick_no)
            await settle(service, table)  # the robot answers
        await ws.send_json({"type": "tricks"})
        while (shown := await ws.receive_json())["type"] != "tricks":
            pass
    first = next(h for h in shown["happened"] if h["cards"] is not None)
    assert first["line"].startswith("1. ") and "Ana" in first["line"] and "**" not in first["line"]
    assert len(first["cards"]) == 2 and first["winner"] in (0, 1)
    assert shown["title"] == t("tables.tricks.title", lang, deal=1, id=table.id)


async def test_a_game_without_spectators_keeps_its_tricks_from_others(db: Database) -> None:
    hub = quick_hub(db)
    service = hub.service
    table = await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(spectators=False),
        language="en",
    )
    await service.start(table.id, ANA)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())
    async with (
        TestClient(TestServer(app)) as client,
        client.ws_connect("/api/ws", params=_params(EVA)) as ws,
    ):
        assert (await ws.receive_json())["type"] == "private"
        await ws.send_json({"type": "tricks"})
        refused = await ws.receive_json()
        assert refused["type"] == "refused" and refused["text"]


@pytest.fixture
async def lobby_world(db: Database) -> AsyncIterator[World]:
    hub = quick_hub(db)
    table = await opened(
        hub.service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(),
        language="en",
    )
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())
    client = TestClient(TestServer(app))
    await client.start_server()
    yield client, hub.service, table
    await client.close()


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_host_changes_a_setting_from_the_page(lobby_world: World, lang: str) -> None:
    client, _, table = lobby_world
    async with client.ws_connect("/api/ws", params=_params(ANA, lang)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "settings"})
        form = await ws.receive_json()
        assert form["type"] == "settings" and form["said"] == t("settings.intro", lang)
        turn = next(o for o in form["options"] if o["name"] == "turn_time")
        assert turn["label"] == t("settings.turn_time.label", lang)
        assert turn["value"] == str(table.options.turn_time)
        assert {"value": "120", "label": t("settings.turn_time.minutes", lang, minutes=2)} in (
            turn["choices"]
        )
        await ws.send_json({"type": "set", "name": "turn_time", "value": "120"})
        while (form := await ws.receive_json())["type"] != "settings":
            assert form["type"] == "state"  # the lobby, redrawn with its new rules
        assert table.options.turn_time == 120
        setting, value = (
            t("settings.turn_time.label", lang),
            t("settings.turn_time.minutes", lang, minutes=2),
        )
        assert form["said"] == t("settings.changed", lang, setting=setting, value=value)


@pytest.mark.parametrize(
    ("name", "value"),
    [("turn_time", "7"), ("turn_time", "1e999"), ("bet", "100000"), ("__class__", "x"), ("", "")],
)
async def test_a_forged_setting_is_refused_in_words(
    lobby_world: World, name: str, value: str
) -> None:
    client, _, table = lobby_world
    before = table.options
    async with client.ws_connect("/api/ws", params=_params(ANA)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "set", "name": name, "value": value})
        refused = await ws.receive_json()
        assert refused["key"] == "tables.errors.settings_stale"
        assert refused["text"] == t("tables.errors.settings_stale", "en")
    assert table.options == before


async def test_only_the_host_sees_or_changes_the_settings(lobby_world: World) -> None:
    client, service, table = lobby_world
    await service.join(table.id, EVA, "Eva")
    async with client.ws_connect("/api/ws", params=_params(EVA)) as ws:
        await ws.receive_json()
        for message in ({"type": "settings"}, {"type": "set", "name": "turn_time", "value": "120"}):
            await ws.send_json(message)
            refused = await ws.receive_json()
            assert refused["key"] == "tables.errors.settings_host"
    assert table.options.turn_time != 120


async def test_no_settings_once_the_game_started(world: World) -> None:
    client, _, _ = world
    async with client.ws_connect("/api/ws", params=_params(ANA)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "settings"})
        assert (await ws.receive_json())["key"] == "tables.errors.settings_started"


async def test_the_host_alone_is_asked_before_a_lobby_closes(lobby_world: World) -> None:
    client, service, table = lobby_world
    async with client.ws_connect("/api/ws", params=_params(ANA, "es")) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "ask", "what": "leave"})
        question = await ws.receive_json()
        assert question["text"] == t("tables.confirm.close_alone", "es")
        assert question["yes"] == t("tables.btn.confirm_close", "es")
        assert question["no"] == t("tables.btn.keep_open", "es")
        assert table.status is Status.LOBBY  # asking changed nothing
        await service.join(table.id, EVA, "Eva")  # meanwhile a member sits down
        await ws.send_json({"type": "leave"})
        while (done := await ws.receive_json())["type"] != "done":
            pass
        assert done["text"] == t("tables.done.left_lobby", "es")  # the host only got up
        assert table.status is Status.LOBBY


async def test_a_guest_gets_up_from_a_lobby_unasked(lobby_world: World) -> None:
    client, service, table = lobby_world
    await service.join(table.id, EVA, "Eva")
    async with client.ws_connect("/api/ws", params=_params(EVA)) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "ask", "what": "leave"})
        assert (await ws.receive_json()) == {"type": "question", "what": "leave", "text": None}
