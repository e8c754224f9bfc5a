"""The web table's HTTP side on the real table service: a login answered with a signed
session (or refused in a word), a socket that opens only with a session and follows its
channel's table, and actions sent on it taken or refused like the buttons' clicks."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.engine import CODES, Options, Variant
from bot.i18n import replays_en, replays_es, review_en, review_es, t, web_en, web_es
from bot.render.cards import CARD_H, CARD_W
from bot.storage import Database
from bot.tables.model import Level, Table
from bot.tables.service import TableService
from bot.web import Session, WebAuthError, sign, wire
from bot.web import cards as cards_module
from bot.web.activity import DiscordCallError, Instance, Login
from bot.web.app import AUTH, LONG_CACHE, SHORT_CACHE, STATIC, make_app
from tests.tables._play import opened
from tests.web.conftest import quick_hub, started_habanero

SECRET = b"k" * 32
ANA, LUIS, EVA = 10, 11, 12
GUILD, CHANNEL = 1, 2


def session_of(user_id: int, *, channel: int = CHANNEL, expires: float = 2e9) -> Session:
    return Session(
        user_id=user_id,
        name=f"user{user_id}",
        instance_id="i-1",
        channel_id=channel,
        guild_id=GUILD,
        expires=expires,
    )


class FakeAuth:
    """Discord's proof, decided by the test: a code names the user it logs in; an instance
    lists everyone but those who ``left`` it, unless it is ``gone`` or Discord is ``down``."""

    def __init__(self) -> None:
        self.bodies: list[Mapping[str, Any]] = []
        self.gone: set[str] = set()
        self.left: set[int] = set()
        self.down = False
        self.asked: list[str] = []
        """The instances Discord was asked about, in order."""

    async def instance(self, instance_id: str) -> Instance:
        self.asked.append(instance_id)
        if self.down:
            raise DiscordCallError("GET activity-instances: 503")
        if instance_id in self.gone:
            raise WebAuthError("no such instance")
        users = frozenset(range(1000)) - self.left
        return Instance(instance_id, CHANNEL, GUILD, users)

    async def login(self, code: str, instance_id: str, body: Mapping[str, Any]) -> Login:
        self.bodies.append(body)
        if not code.isdigit():
            raise WebAuthError("code refused")
        return Login(dataclasses.replace(session_of(int(code)), instance_id=instance_id), "tok")


@pytest.fixture
async def world(db: Database) -> AsyncIterator[tuple[TestClient[Any, Any], TableService, Table]]:
    hub = quick_hub(db)
    service = hub.service
    table = await started_habanero(service, hub, guild_id=GUILD, channel_id=CHANNEL, host_id=ANA)
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=FakeAuth())
    client = TestClient(TestServer(app))
    await client.start_server()
    yield client, service, table
    await client.close()


async def test_a_login_answers_a_session_the_socket_takes(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    answer = await client.post("/api/token", json={"code": str(ANA), "instance_id": "i-1"})
    assert answer.status == 200
    body = await answer.json()
    assert body["user"] == {"id": str(ANA), "name": f"user{ANA}"}
    assert body["access_token"] == "tok"
    async with client.ws_connect("/api/ws", params={"session": body["session"]}) as ws:
        state = await ws.receive_json()
        assert state["type"] == "state" and state["table"]["id"] == table.id
        assert state["hand"]["seat"] == table.seat_of(ANA)


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"code": "nope", "instance_id": "i-1"}, 401, "code refused"),
        ({"code": "10"}, 400, "malformed"),
        ("not json", 400, "malformed"),
    ],
)
async def test_a_login_discord_does_not_prove_is_refused_in_a_word(
    world: tuple[TestClient[Any, Any], TableService, Table], body: Any, status: int, error: str
) -> None:
    client, _, _ = world
    sent = {"json": body} if isinstance(body, dict) else {"data": body}
    answer = await client.post("/api/token", **sent)
    assert (answer.status, (await answer.json())["error"]) == (status, error)


@pytest.mark.parametrize("token", ["", "forged.token", "FORGED"])
async def test_no_socket_opens_without_a_good_session(
    world: tuple[TestClient[Any, Any], TableService, Table], token: str
) -> None:
    client, _, _ = world
    if token == "FORGED":
        token = sign(session_of(ANA), b"x" * 32)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/api/ws", params={"session": token})
    assert refused.value.status == 401


async def test_an_expired_session_opens_nothing(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    old = sign(session_of(ANA, expires=1e9 - 1), SECRET)
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await client.ws_connect("/api/ws", params={"session": old})


async def test_a_channel_without_a_table_opens_one_from_the_page(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    """No table in the channel: the page is told so and may open one; a second page
    waiting there follows it; the lobby is seated and started from the pages."""
    client, service, _ = world
    eva = sign(session_of(EVA, channel=999), SECRET)
    luis = sign(session_of(LUIS, channel=999), SECRET)
    async with (
        client.ws_connect("/api/ws", params={"session": eva}) as eva_ws,
        client.ws_connect("/api/ws", params={"session": luis}) as luis_ws,
    ):
        assert await eva_ws.receive_json() == {"type": "no_table", "may_open": True}
        assert await luis_ws.receive_json() == {"type": "no_table", "may_open": True}
        await luis_ws.send_json({"type": "lobby", "do": "join"})
        assert (await luis_ws.receive_json())["key"] == "tables.errors.gone"
        await eva_ws.send_json({"type": "open", "variant": "habanero"})
        lobby = await eva_ws.receive_json()
        assert lobby["table"]["status"] == "lobby" and lobby["you"] == {
            "seated": True,
            "seat": 0,
            "host": True,
        }
        table_id = lobby["table"]["id"]
        assert service.get(table_id).channel_id == 999
        followed = await luis_ws.receive_json()  # the waiting page follows the new lobby
        assert followed["table"]["id"] == table_id
        assert followed["you"] == {"seated": False, "seat": None, "host": False}
        await eva_ws.send_json({"type": "open", "variant": "pairs"})
        assert (await eva_ws.receive_json())["key"] == "tables.errors.table_here"
        await luis_ws.send_json({"type": "lobby", "do": "join"})
        assert (await luis_ws.receive_json())["you"]["seated"] is True
        await eva_ws.receive_json()
        await luis_ws.send_json({"type": "lobby", "do": "start"})  # the host's alone
        assert (await luis_ws.receive_json())["type"] == "refused"
        await eva_ws.send_json({"type": "lobby", "do": "start"})
        assert (await eva_ws.receive_json())["table"]["status"] == "playing"
        await luis_ws.send_json({"type": "lobby", "do": "shuffle"})
        assert (await luis_ws.receive_json())["table"]["status"] == "playing"
        assert (await luis_ws.receive_json())["key"] == "tables.errors.malformed"


async def test_a_card_from_the_socket_is_played_and_nonsense_refused(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    deal = table.deal
    assert deal is not None and deal.turn == table.seat_of(ANA)
    async with client.ws_connect(
        "/api/ws", params={"session": sign(session_of(ANA), SECRET)}
    ) as ws:
        hand = (await ws.receive_json())["hand"]
        await ws.send_str("{nonsense")
        assert (await ws.receive_json())["key"] == "tables.errors.malformed"
        stale = {"type": "act", "code": hand["playable"][0], "deal": 0, "trick": 99}
        await ws.send_json(stale)
        assert (await ws.receive_json())["key"] == "tables.errors.stale"
        before = len(deal.actions)
        card = hand["playable"][0]
        await ws.send_json(
            {"type": "act", "code": card, "deal": hand["deal_no"], "trick": hand["trick_no"]}
        )
        state = await ws.receive_json()
        assert state["type"] == "state" and len(deal.actions) > before
        played = [c for _, c in state["table"]["deal"]["trick"]]
        last = state["table"]["deal"]["last_trick"]
        assert card in played or (last is not None and card in [c for _, c in last["cards"]])
        assert card not in state["hand"]["cards"]


async def test_a_spectator_watches_and_plays_nothing(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    async with client.ws_connect(
        "/api/ws", params={"session": sign(session_of(EVA), SECRET)}
    ) as ws:
        state = await ws.receive_json()
        assert state["hand"] is None and state["table"]["id"] == table.id
        await ws.send_json({"type": "act", "code": "1O", "deal": 0, "trick": 0})
        assert (await ws.receive_json())["key"] == "tables.errors.not_seated"


def test_the_app_has_its_routes_alone() -> None:
    app = make_app(hub=None, secret=SECRET, clock=lambda: 0.0, auth=None)  # type: ignore[arg-type]
    routes = sorted(
        (r.method, r.resource.canonical)
        for r in app.router.routes()
        if r.resource and r.method != "HEAD"
    )
    assert routes == [
        ("GET", "/"),
        ("GET", "/api/config"),
        ("GET", "/api/replays"),
        ("GET", r"/api/replays/{table}/{deal}"),
        ("GET", r"/api/replays/{table}/{deal}/review"),
        ("GET", "/api/words"),
        ("GET", "/api/ws"),
        ("GET", "/cards/{code}.png"),
        ("GET", "/static/{name}"),
        ("POST", "/api/token"),
    ]
    assert isinstance(app, web.Application)


# ------------------------------------------------------------------ the page and its files


async def test_the_page_is_served_and_never_cached(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    answer = await client.get("/")
    assert answer.status == 200
    assert answer.content_type == "text/html" and answer.charset == "utf-8"
    assert answer.headers["Cache-Control"] == "no-cache"
    page = await answer.text()
    assert "/static/table.js?v=" in page and "/static/table.css?v=" in page


@pytest.mark.parametrize(
    ("name", "kind"), [("table.js", "text/javascript"), ("table.css", "text/css")]
)
async def test_the_built_files_are_served_and_cached_by_their_digest(
    world: tuple[TestClient[Any, Any], TableService, Table], name: str, kind: str
) -> None:
    client, _, _ = world
    page = await (await client.get("/")).text()
    version = page.split(f"/static/{name}?v=")[1].split('"')[0]
    answer = await client.get(f"/static/{name}", params={"v": version})
    assert answer.status == 200 and answer.content_type == kind
    assert answer.headers["Cache-Control"] == LONG_CACHE
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert await answer.read() == (STATIC / name).read_bytes()
    unnamed = await client.get(f"/static/{name}", params={"v": "old"})
    assert unnamed.status == 200 and unnamed.headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/index.html",
        "/static/",
        "/static/index.html",
        "/static/SOURCE_SHA256",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e%2fapp.py",
        "/static/table.js/x",
        "/cards/13O.png",
        "/cards/1o.png",
        "/cards/12O.jpg",
        "/cards/..%2f..%2fapp.png",
        "/cards/.png",
    ],
)
async def test_nothing_else_is_served(
    world: tuple[TestClient[Any, Any], TableService, Table], path: str
) -> None:
    client, _, _ = world
    answer = await client.get(path)
    assert answer.status == 404, path


async def test_the_cards_are_the_bots_own_pictures_drawn_once(
    world: tuple[TestClient[Any, Any], TableService, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _, _ = world
    drawn: list[str] = []
    real = cards_module.card_png

    def counted(code: str) -> bytes:
        drawn.append(code)
        return real(code)

    monkeypatch.setattr(cards_module, "card_png", counted)
    for code in ("12O", "back", "12O", "back", "1B"):
        answer = await client.get(f"/cards/{code}.png")
        assert answer.status == 200 and answer.content_type == "image/png"
        assert answer.headers["Cache-Control"] == SHORT_CACHE  # no version: not for long
        picture = Image.open(io.BytesIO(await answer.read()))
        # twice the renderer's size: sharp on a phone of two pixels to the point
        assert picture.format == "PNG" and picture.size == (2 * CARD_W, 2 * CARD_H)
    assert drawn == ["12O", "back", "1B"], "each picture is drawn once, then kept"
    face = await (await client.get("/cards/12O.png")).read()
    back = await (await client.get("/cards/back.png")).read()
    assert face != back


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_words_of_the_page_in_each_language(
    world: tuple[TestClient[Any, Any], TableService, Table], lang: str
) -> None:
    client, _, _ = world
    answer = await client.get("/api/words", params={"lang": lang})
    assert answer.status == 200
    said = await answer.json()
    assert said["lang"] == lang
    # the page's own words, and those of the features it shows (the replays, the reviews)
    catalogs = {"en": (web_en, replays_en, review_en), "es": (web_es, replays_es, review_es)}
    page = {
        language: {k: v for c in modules for k, v in c.MESSAGES.items() if k.startswith("web.")}
        for language, modules in catalogs.items()
    }
    # and the chat's buttons it has too, in the chat's words
    shared = {key: t(key, lang) for key in wire.SHARED_WORDS}
    assert set(said["words"]) == set(page["en"]) | set(shared)
    assert set(page["en"]) == set(page["es"])
    assert said["words"] == page[lang] | shared, "unfilled: the page fills {name} itself"
    assert set(said["cards"]) == set(CODES) and set(said["suits"]) == set("OCEB")
    spanish = {"12O": "Rey de oros", "10C": "Sota de copas", "11E": "Caballo de espadas"}
    english = {"12O": "King of coins", "10C": "Jack of cups", "11E": "Knight of swords"}
    for code, name in (spanish if lang == "es" else english).items():
        assert said["cards"][code] == name
    assert said["suits"]["B"] == ("bastos" if lang == "es" else "clubs")


async def test_words_in_another_language_are_in_english(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    said = await (await client.get("/api/words", params={"lang": "fr"})).json()
    assert said["lang"] == "en"


def test_every_word_of_the_page_is_in_both_languages_and_spanish_in_spanish() -> None:
    assert set(web_en.MESSAGES) == set(web_es.MESSAGES)
    assert all(key.startswith("web.") for key in web_en.MESSAGES)
    for key, english in web_en.MESSAGES.items():
        spanish = web_es.MESSAGES[key]
        assert re.findall(r"{(\w+)}", english) == re.findall(r"{(\w+)}", spanish), key
    same = {k for k in web_en.MESSAGES if web_en.MESSAGES[k] == web_es.MESSAGES[k]}
    assert same <= {"web.robot", "web.robot_mark"}, same
    assert "/tute nueva" in web_es.MESSAGES["web.no_table"]
    assert web_en.MESSAGES["web.no_table"].startswith("No table plays in this channel")


async def test_the_config_names_the_application(db: Database) -> None:
    hub = quick_hub(db)
    for application, said in ((1234, "1234"), (None, None)):
        app = make_app(
            hub=hub, secret=SECRET, clock=lambda: 0.0, auth=None, application_id=application
        )
        async with TestClient(TestServer(app)) as client:
            answer = await client.get("/api/config")
            assert (await answer.json())["client_id"] == said
            assert answer.headers["Cache-Control"] == "no-cache"


async def test_the_login_is_given_all_the_page_posted(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    auth = client.app[AUTH]  # type: ignore[index]
    assert isinstance(auth, FakeAuth)
    sent = {"code": str(LUIS), "instance_id": "i-2", "user_id": "11"}
    answer = await client.post("/api/token", json=sent)
    assert answer.status == 200
    assert auth.bodies[-1] == sent


@pytest.mark.parametrize(("asked", "lang"), [("es", "es"), ("en", "en"), (None, "en"), ("x", "en")])
async def test_a_socket_speaks_the_language_its_page_asks_else_the_tables(
    world: tuple[TestClient[Any, Any], TableService, Table], asked: str | None, lang: str
) -> None:
    client, _, _ = world
    params = {"session": sign(session_of(ANA), SECRET)}
    if asked is not None:
        params["lang"] = asked
    async with client.ws_connect("/api/ws", params=params) as ws:
        state = await ws.receive_json()
        assert state["lang"] == lang
        await ws.send_json({"type": "act", "code": "1O", "deal": 0, "trick": 99})
        refused = await ws.receive_json()
        assert refused["type"] == "refused" and refused["key"] == "tables.errors.stale"
        assert refused["text"] == t("tables.errors.stale", lang)


async def test_a_spanish_table_speaks_spanish_by_default(db: Database) -> None:
    hub = quick_hub(db)
    service = hub.service
    await opened(
        service,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANA,
        host_name="Ana",
        variant=Variant.HABANERO,
        options=Options(),
        language="es",
    )
    app = make_app(hub=hub, secret=SECRET, clock=lambda: 1e9, auth=None)
    async with (
        TestClient(TestServer(app)) as client,
        client.ws_connect("/api/ws", params={"session": sign(session_of(EVA), SECRET)}) as ws,
    ):
        assert (await ws.receive_json())["lang"] == "es"
        await ws.send_json({"type": "act", "code": "1O", "deal": 0, "trick": 0})
        refused = await ws.receive_json()
        assert refused["text"] == t("tables.errors.not_seated", "es")


async def test_a_player_who_is_not_away_is_told_so_when_coming_back(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    params = {"session": sign(session_of(ANA), SECRET), "lang": "es"}
    async with client.ws_connect("/api/ws", params=params) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "back"})
        refused = await ws.receive_json()
        assert refused["key"] == "tables.errors.not_away"
        assert refused["text"] == t("tables.errors.not_away", "es")


async def test_a_player_a_robot_stands_in_for_comes_back_from_the_page(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, table = world
    seat = table.seat_of(ANA)
    assert seat is not None
    occupant = table.seats[seat]
    assert occupant is not None
    occupant.away, occupant.robot = True, Level.NORMAL
    params = {"session": sign(session_of(ANA), SECRET)}
    async with client.ws_connect("/api/ws", params=params) as ws:
        assert (await ws.receive_json())["hand"]["away"] is True
        await ws.send_json({"type": "back"})
        async with asyncio.timeout(10):  # the stand-in may play first: its states come too
            while (state := await ws.receive_json())["hand"]["away"]:
                assert state["type"] == "state"
        assert not occupant.away and not state["table"]["seats"][seat]["away"]


async def test_a_refused_opening_still_follows_the_next_table_there(
    world: tuple[TestClient[Any, Any], TableService, Table],
) -> None:
    client, _, _ = world
    ana = sign(session_of(ANA, channel=998), SECRET)  # Ana hosts a table elsewhere already
    eva = sign(session_of(EVA, channel=998), SECRET)
    async with (
        client.ws_connect("/api/ws", params={"session": ana}) as ana_ws,
        client.ws_connect("/api/ws", params={"session": eva}) as eva_ws,
    ):
        assert (await ana_ws.receive_json())["type"] == "no_table"
        assert (await eva_ws.receive_json())["type"] == "no_table"
        await ana_ws.send_json({"type": "open", "variant": "habanero"})
        assert (await ana_ws.receive_json())["type"] == "refused"
        await eva_ws.send_json({"type": "open", "variant": "habanero"})
        opened = await eva_ws.receive_json()
        followed = await ana_ws.receive_json()
        assert followed["table"]["id"] == opened["table"]["id"]
        await eva_ws.send_json({"type": "lobby", "do": "leave"})  # the host leaves: closed
        assert (await eva_ws.receive_json())["table"]["status"] != "lobby"
        assert (await ana_ws.receive_json())["table"]["status"] != "lobby"
        # the game is over: both pages wait for the channel's next table
        await eva_ws.send_json({"type": "open", "variant": "pairs"})
        again = await eva_ws.receive_json()
        assert again["table"]["variant"] == "pairs"
        assert (await ana_ws.receive_json())["table"]["id"] == again["table"]["id"]
