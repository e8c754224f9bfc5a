"""A player of the Activity is logged in only as Discord says: the code exchanged with the
application's secret, the user its token names, and an instance (where it runs, who is in
it) that the bot's own token reads. Anything Discord refuses refuses the login; Discord
down or slow never makes a session."""

from __future__ import annotations

import importlib.metadata
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web import ActivityAuth, DiscordCallError, WebAuthError
from bot.web.activity import LAG_WAITS, RATE_TRIES, RATE_WAIT, _path
from bot.web.app import make_app

APP_ID = 4242
SECRET = "client-secret"
BOT_TOKEN = "bot-token"
NOW = 1000.0


@dataclass
class Discord:
    """A stand-in for Discord's API: one code, one user, one instance; what each call got."""

    codes: dict[str, str] = field(default_factory=lambda: {"good-code": "access-1"})
    users: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {
            "access-1": {"id": "1001", "username": "ana", "global_name": "Ana"}
        }
    )
    instances: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {
            "i-1": {
                "application_id": str(APP_ID),
                "instance_id": "i-1",
                "launch_id": "9",
                "location": {"id": "gc-7-55", "kind": "gc", "channel_id": "55", "guild_id": "7"},
                "users": ["1001", "1002"],
            }
        }
    )
    status: int | None = None
    """Every call answers this, when set (an outage, a rate limit)."""
    calls: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    """Every request that reached it, whatever its path: method, raw path, headers."""
    limits: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    """429s to answer first, in turn: each its body and its headers."""
    lag: int = 0
    """How many readings of the instance do not list the player yet (they just joined)."""
    slept: list[float] = field(default_factory=list)
    """What the login waited, in seconds (its injected sleep)."""

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)

    @web.middleware
    async def record(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        self.requests.append((request.method, request.raw_path, dict(request.headers)))
        if self.limits:
            body, headers = self.limits.pop(0)
            return web.Response(
                text=body, status=429, headers=headers, content_type="application/json"
            )
        return await handler(request)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.record])
        app.router.add_post("/oauth2/token", self.token)
        app.router.add_get("/users/@me", self.me)
        app.router.add_get("/applications/{app}/activity-instances/{instance}", self.instance)
        return app

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.calls.append(("token", "", {k: str(v) for k, v in form.items()}))
        if self.status:
            return web.json_response({}, status=self.status)
        if form.get("client_secret") != SECRET or form.get("client_id") != str(APP_ID):
            return web.json_response({"error": "invalid_client"}, status=401)
        access = self.codes.get(str(form.get("code")))
        if access is None or form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": access, "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        self.calls.append(("me", auth, {}))
        user = self.users.get(auth.removeprefix("Bearer "))
        if user is None or not auth.startswith("Bearer "):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response(user)

    async def instance(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        self.calls.append(("instance", auth, {}))
        if auth != f"Bot {BOT_TOKEN}" or request.match_info["app"] != str(APP_ID):
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        if self.lag > 0:
            self.lag -= 1
            return web.json_response({**found, "users": found["users"][1:]})
        return web.json_response(found)


@pytest.fixture
async def discord() -> AsyncIterator[tuple[Discord, ActivityAuth]]:
    fake = Discord()
    server = TestServer(fake.app())
    await server.start_server()
    async with aiohttp.ClientSession() as http:
        auth = ActivityAuth(
            application_id=APP_ID,
            client_secret=SECRET,
            bot_token=BOT_TOKEN,
            http=http,
            clock=lambda: NOW,
            api=str(server.make_url("")),
            ttl=60.0,
            sleep=fake.sleep,
        )
        yield fake, auth
    await server.close()


async def test_a_player_in_the_instance_gets_a_session_of_its_channel(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    fake, auth = discord
    login = await auth.login("good-code", "i-1")
    session = login.session
    assert (session.user_id, session.name) == (1001, "Ana")
    assert (session.instance_id, session.channel_id, session.guild_id) == ("i-1", 55, 7)
    assert session.expires == NOW + 60.0
    assert login.access_token == "access-1"  # for the page's SDK
    (token_call, me_call, instance_call) = fake.calls
    assert token_call[2]["client_secret"] == SECRET and token_call[2]["code"] == "good-code"
    assert me_call[1] == "Bearer access-1"
    assert instance_call[1] == f"Bot {BOT_TOKEN}"  # the bot's token reads the instance


async def test_a_dm_instance_has_no_server(discord: tuple[Discord, ActivityAuth]) -> None:
    fake, auth = discord
    location = fake.instances["i-1"]["location"]
    location.pop("guild_id")
    location.update(kind="pc", channel_id="77")
    session = (await auth.login("good-code", "i-1")).session
    assert (session.channel_id, session.guild_id) == (77, None)


@pytest.mark.parametrize(
    ("code", "instance", "why"),
    [
        ("bad-code", "i-1", "code refused"),
        ("good-code", "i-2", "no such instance"),
        ("", "i-1", "malformed"),
        ("good-code", "x" * 201, "malformed"),
    ],
)
async def test_what_discord_refuses_refuses_the_login(
    discord: tuple[Discord, ActivityAuth], code: str, instance: str, why: str
) -> None:
    _, auth = discord
    with pytest.raises(WebAuthError, match=why):
        await auth.login(code, instance)


async def test_a_player_not_in_the_instance_is_refused(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    """A page cannot claim a table by naming another channel's instance."""
    fake, auth = discord
    fake.instances["i-1"]["users"] = ["1002"]
    with pytest.raises(WebAuthError, match="not in the instance"):
        await auth.login("good-code", "i-1")


async def test_an_instance_of_another_id_is_not_taken(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    fake, auth = discord
    fake.instances["i-1"]["instance_id"] = "i-9"
    with pytest.raises(WebAuthError, match="no such instance"):
        await auth.login("good-code", "i-1")


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_discord_down_or_busy_makes_no_session(
    discord: tuple[Discord, ActivityAuth], status: int
) -> None:
    fake, auth = discord
    fake.status = status
    with pytest.raises(DiscordCallError):
        await auth.login("good-code", "i-1")


async def test_discord_unreachable_makes_no_session() -> None:
    async with aiohttp.ClientSession() as http:
        auth = ActivityAuth(
            application_id=APP_ID,
            client_secret=SECRET,
            bot_token=BOT_TOKEN,
            http=http,
            clock=lambda: NOW,
            api="http://127.0.0.1:9",  # nothing listens there
        )
        with pytest.raises(DiscordCallError):
            await auth.login("good-code", "i-1")


# ------------------------------------------------------------------ a hostile instance id

HOSTILE_IDS = [
    "../../../users/@me",
    "i-1/../../../users/@me",
    "..",
    "%2E%2E",
    "i-1%2F..%2F..",
    "i-1?with_counts=true",
    "i-1#x",
    "i-1/",
    "i 1",
    "i-1\n",
    "i-1\u0131",
    "\u0130-1",
    "i-" + "1" * 100,
    "",
]


@pytest.mark.parametrize("instance", HOSTILE_IDS)
async def test_an_instance_id_not_of_discords_form_is_malformed_before_any_call(
    discord: tuple[Discord, ActivityAuth], instance: str
) -> None:
    """The page's instance id goes into a path the bot's token calls: only letters, digits
    and dashes, or nothing is asked of Discord at all."""
    fake, auth = discord
    with pytest.raises(WebAuthError, match="malformed"):
        await auth.login("good-code", instance)
    with pytest.raises(WebAuthError, match="malformed"):
        await auth.instance(instance)
    assert fake.requests == []


# ------------------------------------------------------------------ as Discord asks of a bot


async def test_every_call_says_who_makes_it(discord: tuple[Discord, ActivityAuth]) -> None:
    """Discord asks every call for ``User-Agent: DiscordBot (url, version)``."""
    fake, auth = discord
    long_id = "i-1276580072400224306-gc-912952092627435520-912954213460484116"
    fake.instances[long_id] = {**fake.instances["i-1"], "instance_id": long_id}
    await auth.login("good-code", long_id)
    assert [(method, path) for method, path, _ in fake.requests] == [
        ("POST", "/oauth2/token"),
        ("GET", "/users/@me"),
        ("GET", f"/applications/{APP_ID}/activity-instances/{long_id}"),
    ]
    for _, _, headers in fake.requests:
        said = re.fullmatch(
            r"DiscordBot \((https://[^\s,()]+), ([^\s,()]+)\)", headers["User-Agent"]
        )
        assert said is not None, headers["User-Agent"]
        assert said[2] == importlib.metadata.version("tute-bot")


async def test_a_429_is_waited_out_as_discord_asks(discord: tuple[Discord, ActivityAuth]) -> None:
    fake, auth = discord
    fake.limits = [
        (json.dumps({"message": "You are being rate limited.", "retry_after": 1.5}), {}),
        ("<html>slow down</html>", {"Retry-After": "2"}),
    ]
    login = await auth.login("good-code", "i-1")
    assert login.session.user_id == 1001
    assert fake.slept == [1.5, 2.0]
    assert [path for _, path, _ in fake.requests][:3] == ["/oauth2/token"] * 3


@pytest.mark.parametrize(
    ("limits", "slept"),
    [
        ([(json.dumps({"retry_after": 0.5}), {})] * (RATE_TRIES + 5), [0.5] * RATE_TRIES),
        ([(json.dumps({"retry_after": 2}), {})] * 5, [2.0, 2.0]),
        ([(json.dumps({"retry_after": RATE_WAIT + 1}), {})], []),
        ([("", {})], []),
        ([(json.dumps({"retry_after": "soon"}), {"Retry-After": "later"})], []),
        ([('{"retry_after": 1' + "0" * 400 + "}", {})], []),
        ([(json.dumps({"retry_after": -1}), {"Retry-After": "inf"})], []),
    ],
    ids=[
        "again and again",
        "past the seconds",
        "too long a wait",
        "no wait said",
        "nonsense",
        "past a float",
        "negative, infinite",
    ],
)
async def test_429s_past_a_few_tries_or_seconds_fail_as_discord_unavailable(
    discord: tuple[Discord, ActivityAuth],
    limits: list[tuple[str, dict[str, str]]],
    slept: list[float],
) -> None:
    fake, auth = discord
    fake.limits = list(limits)
    with pytest.raises(DiscordCallError):
        await auth.login("good-code", "i-1")
    assert fake.slept == slept and sum(fake.slept) <= RATE_WAIT
    assert len(fake.requests) == len(slept) + 1 <= RATE_TRIES + 1


async def test_a_rate_limited_login_is_answered_503_in_a_word(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    fake, auth = discord
    fake.limits = [(json.dumps({"retry_after": 1}), {})] * (RATE_TRIES + 1)
    app = make_app(hub=None, secret=b"k" * 32, clock=lambda: NOW, auth=auth)  # type: ignore[arg-type]
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        answer = await client.post("/api/token", json={"code": "good-code", "instance_id": "i-1"})
        assert answer.status == 503
        assert (await answer.json())["error"] == "discord unavailable"
        assert fake.slept == [1.0] * RATE_TRIES
    finally:
        await client.close()


# ------------------------------------------------------------------ a player who just joined


async def test_a_player_not_listed_yet_is_read_again_until_discord_lists_them(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    fake, auth = discord
    fake.lag = 2
    login = await auth.login("good-code", "i-1")
    assert login.session.user_id == 1001
    assert fake.slept == list(LAG_WAITS[:2])


async def test_a_player_never_listed_is_refused_after_a_few_seconds(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    fake, auth = discord
    fake.lag = 100
    with pytest.raises(WebAuthError, match="not in the instance"):
        await auth.login("good-code", "i-1")
    assert fake.slept == list(LAG_WAITS) and sum(fake.slept) <= 5
    reads = [path for _, path, _ in fake.requests if "activity-instances" in path]
    assert len(reads) == 1 + len(LAG_WAITS)


def test_every_part_of_a_path_is_quoted_and_none_climbs() -> None:
    assert _path("applications", 7, "activity-instances", "a/b?c#d e") == (
        "/applications/7/activity-instances/a%2Fb%3Fc%23d%20e"
    )
    assert _path("users", "@me") == "/users/@me"
    for climbing in ("..", ".", ""):
        with pytest.raises(WebAuthError, match="malformed"):
            _path("applications", 7, "activity-instances", climbing)


async def test_the_bots_own_token_refused_is_the_bots_fault_not_the_players(
    discord: tuple[Discord, ActivityAuth],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A 401 on the instance's call (the bot's token, or its application, is wrong) says
    nothing of the player: no "no such instance" (which would refuse their reconnecting
    session), but Discord unavailable, and the operator told in the log; a 404 still says
    the instance is gone."""
    _, auth = discord
    good = auth._bot_token  # pyright: ignore[reportPrivateUsage]
    auth._bot_token = "not-the-token"  # pyright: ignore[reportPrivateUsage]
    with pytest.raises(DiscordCallError):
        await auth.instance("i-1")
    with pytest.raises(DiscordCallError):
        await auth.login("good-code", "i-1")
    assert "check DISCORD_TOKEN" in caplog.text
    auth._bot_token = good  # pyright: ignore[reportPrivateUsage]
    with pytest.raises(WebAuthError, match="no such instance"):
        await auth.instance("i-404")


async def test_each_answer_to_the_card_tables_calls_is_told_for_the_bots_figures(
    discord: tuple[Discord, ActivityAuth],
) -> None:
    """The card table's logins are Discord calls too: a refused one counts towards the
    limit of refused requests (the guard), as the bot's own requests do."""
    _, auth = discord
    told: list[int] = []
    auth._answered = told.append  # pyright: ignore[reportPrivateUsage]
    await auth.login("good-code", "i-1")
    assert told == [200, 200, 200]
    told.clear()
    with pytest.raises(WebAuthError, match="code refused"):
        await auth.login("bad-code", "i-1")
    assert told == [400]  # told: the guard counts the 401s, 403s and 429s among them
