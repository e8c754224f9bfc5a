"""Who opened the web table, proved by Discord. The Activity's page gets an OAuth2 code from
Discord's SDK and posts it with its instance id; here the code is exchanged (with the
application's secret) for the player's access token, the token says who they are
(``/users/@me``), and the bot's own token asks Discord where that instance runs and who is
in it (``/applications/{id}/activity-instances/{instance}``), so a page cannot claim a
channel, a server or a seat it is not in. The result is a :class:`Session`, and the access
token the page's SDK needs.

Every call can fail: a code Discord refuses or a player not in the instance is a
:class:`WebAuthError` (the login is refused, in a word); Discord down or slow is a
:class:`DiscordCallError` (try again), and never a session. A 429 is waited out as Discord
asks (``retry_after``), a few times; a player who has just joined may not be listed in the
instance yet, and it is read again for a few seconds before the login is refused.

The page's instance id goes into the address of a call made with the bot's own token: only
the form Discord gives (letters, digits and dashes) is taken, and every part of every path
is quoted (:func:`_path`). Each call says who makes it (``User-Agent``), as Discord asks.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import logging
import math
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

import aiohttp

from bot.tables.numbers import parse_number
from bot.web.sessions import SESSION_TTL, Session, WebAuthError

log = logging.getLogger(__name__)

DISCORD_API: Final = "https://discord.com/api/v10"
CALL_TIMEOUT: Final = 10.0
"""Seconds a call to Discord may take before the login fails (the page may try again)."""
MAX_CODE: Final = 200
"""The longest OAuth2 code a page may post (Discord's are about 30 characters)."""
INSTANCE_ID: Final = re.compile(r"[A-Za-z0-9-]{1,100}")
"""An Activity instance id as Discord gives it
(``i-1276580072400224306-gc-912952092627435520-912954213460484116``): nothing that could
climb out of its place in a path."""
RATE_TRIES: Final = 3
"""How many times a call Discord answered 429 is made again, at most."""
RATE_WAIT: Final = 5.0
"""The most seconds a login waits on 429s in all; a longer wait fails it (the page may try
again later)."""
LAG_WAITS: Final = (0.5, 1.0, 1.5)
"""Seconds before each new reading of an instance that does not list the player yet (Discord
lists a player a moment after they joined): three seconds in all, then the refusal."""
LIBRARY_URL: Final = "https://github.com/Rapptz/discord.py"
"""The address a User-Agent names when the bot's package names none (the library it is
built on, as discord.py's own calls name it)."""


def user_agent() -> str:
    """``DiscordBot (url, version)``, as Discord asks of every call: the bot's package
    address (else its library's) and its version."""
    try:
        meta = importlib.metadata.metadata("tute-bot")
        version = meta["Version"] or "0"
        urls = meta.get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        version, urls = "0", []
    url = next((u.partition(",")[2].strip() for u in urls if "," in u), LIBRARY_URL)
    return f"DiscordBot ({url}, {version})"


USER_AGENT: Final = user_agent()


def _path(*parts: str | int) -> str:
    """A path of Discord's API from its parts, each quoted: no part can add a segment or
    start a query, and none may be empty or dots alone (the URL would climb: ``%2E%2E`` is
    ``..`` to the client too), which refuses the login as malformed."""
    texts = [str(part) for part in parts]
    if any(not text.strip(".") for text in texts):
        raise WebAuthError("malformed")
    return "".join("/" + quote(text, safe="@") for text in texts)


class DiscordCallError(Exception):
    """Discord did not answer a login's call (down, slow, or rate limited): nothing is
    proved either way, and the page may try again."""


@dataclass(frozen=True, slots=True)
class Instance:
    """Where an Activity instance runs, and who is in it (Discord's word)."""

    instance_id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


@dataclass(frozen=True, slots=True)
class Login:
    session: Session
    access_token: str
    """For the page's SDK (``authenticate``); never stored here."""


class ActivityAuth:
    """Logs players of the Activity in. ``http`` is the bot's client session; ``api`` is
    Discord's (a test points it at a stand-in); ``clock`` gives the time in seconds and
    ``sleep`` waits (a 429's, a lagging instance's): tests own both."""

    def __init__(
        self,
        *,
        application_id: int,
        client_secret: str,
        bot_token: str,
        http: aiohttp.ClientSession,
        clock: Callable[[], float],
        api: str = DISCORD_API,
        ttl: float = SESSION_TTL,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        answered: Callable[[int], None] = lambda status: None,
    ) -> None:
        self._answered = answered
        """Told each answer's status, as it comes (the bot's figures: a refusal counts
        towards Discord's limit of refused requests)."""
        self._application_id = application_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._http = http
        self._clock = clock
        self._api = api.rstrip("/")
        self._ttl = ttl
        self._sleep = sleep

    async def login(
        self, code: str, instance_id: str, body: Mapping[str, Any] | None = None
    ) -> Login:
        """The session of whoever the page's code belongs to, in that instance. ``body``,
        the rest of what the page posted, proves nothing here: Discord says it all."""
        if not code or len(code) > MAX_CODE:
            raise WebAuthError("malformed")
        _check_instance_id(instance_id)
        token = await self._exchange(code)
        user = await self._call("GET", _path("users", "@me"), f"Bearer {token}")
        user_id = _snowflake(user.get("id"))
        instance = await self.instance(instance_id)
        for wait in LAG_WAITS:
            if user_id in instance.users:
                break
            await self._sleep(wait)  # they joined a moment ago: Discord lists them soon
            instance = await self.instance(instance_id)
        if user_id not in instance.users:
            raise WebAuthError("not in the instance")
        name = str(user.get("global_name") or user.get("username") or user_id)
        session = Session(
            user_id=user_id,
            name=name,
            instance_id=instance.instance_id,
            channel_id=instance.channel_id,
            guild_id=instance.guild_id,
            expires=self._clock() + self._ttl,
        )
        return Login(session, token)

    async def instance(self, instance_id: str) -> Instance:
        """Where the instance runs and who is in it; a WebAuthError if Discord knows none,
        or if ``instance_id`` is not of the form Discord gives (no call is made then)."""
        _check_instance_id(instance_id)
        path = _path("applications", self._application_id, "activity-instances", instance_id)
        data = await self._call("GET", path, f"Bot {self._bot_token}")
        location = data.get("location")
        if not isinstance(location, dict) or str(data.get("instance_id")) != instance_id:
            raise WebAuthError("no such instance")
        guild = location.get("guild_id")
        users = data.get("users")
        return Instance(
            instance_id=instance_id,
            channel_id=_snowflake(location.get("channel_id")),
            guild_id=None if guild is None else _snowflake(guild),
            users=frozenset(_snowflake(u) for u in users)
            if isinstance(users, list)
            else frozenset(),
        )

    async def _exchange(self, code: str) -> str:
        form = {
            "client_id": str(self._application_id),
            "client_secret": self._client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        data = await self._call("POST", _path("oauth2", "token"), None, form=form)
        token = data.get("access_token")
        if not isinstance(token, str) or not token:
            raise WebAuthError("code refused")
        return token

    async def _call(
        self,
        method: str,
        path: str,
        authorization: str | None,
        *,
        form: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """One call to Discord: its JSON object; 4xx refuses the login, anything else (5xx,
        a timeout, a broken connection) is a DiscordCallError. A 429 is made again after
        the wait Discord asks, while :data:`RATE_TRIES` and :data:`RATE_WAIT` allow."""
        waited = 0.0
        for tries in range(RATE_TRIES + 1):
            status, data, retry_after = await self._once(method, path, authorization, form)
            if status != 429:
                return data
            if retry_after is None or tries == RATE_TRIES or waited + retry_after > RATE_WAIT:
                break
            waited += retry_after
            await self._sleep(retry_after)
        raise DiscordCallError(f"{method} {path}: 429, rate limited")

    async def _once(
        self, method: str, path: str, authorization: str | None, form: dict[str, str] | None
    ) -> tuple[int, dict[str, Any], float | None]:
        """One request: its status, its JSON object, and for a 429 the seconds to wait."""
        headers = {"User-Agent": USER_AGENT}
        if authorization:
            headers["Authorization"] = authorization
        timeout = aiohttp.ClientTimeout(total=CALL_TIMEOUT)
        try:
            async with self._http.request(
                method, self._api + path, headers=headers, data=form, timeout=timeout
            ) as response:
                self._answered(response.status)
                if response.status == 429:
                    return 429, {}, await _retry_after(response)
                if response.status >= 500:
                    raise DiscordCallError(f"{method} {path}: {response.status}")
                if response.status >= 400:
                    raise _refusal(method, path, authorization, response.status)
                data = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordCallError(f"{method} {path}: {type(error).__name__}") from error
        if not isinstance(data, dict):
            raise DiscordCallError(f"{method} {path}: not an object")
        return response.status, data, None


async def _retry_after(response: aiohttp.ClientResponse) -> float | None:
    """The seconds a 429 asks to wait: its body's ``retry_after``, else its ``Retry-After``
    header; None when it says none that makes sense."""
    said: object = None
    try:
        body = await response.json(content_type=None)
        if isinstance(body, dict):
            said = body.get("retry_after")
    except (aiohttp.ClientError, ValueError):
        pass  # not JSON (a proxy's page): the header may say it
    if not isinstance(said, int | float) or isinstance(said, bool):
        try:
            said = float(response.headers.get("Retry-After", ""))
        except ValueError:
            return None
    try:
        wait = float(said)
    except OverflowError:  # an int past any float
        return None
    return wait if math.isfinite(wait) and wait >= 0 else None


def _check_instance_id(instance_id: str) -> None:
    if not INSTANCE_ID.fullmatch(instance_id):
        raise WebAuthError("malformed")


def _refusal(
    method: str, path: str, authorization: str | None, status: int
) -> WebAuthError | DiscordCallError:
    """What a 4xx of Discord says. Of a call made with the player's code or token, that it
    does not prove them: the login is refused. Of one made with the bot's own token, only a
    404 says something of the player (Discord has no such instance); any other (401, 403:
    the token or the application is wrong) is the bot's own set-up, said in its log, and
    proves nothing either way: a signed session stands (:mod:`instances`), and a login may
    be tried again once an admin mends it."""
    if authorization is not None and authorization.startswith("Bot ") and status != 404:
        log.warning(
            "Discord refused the bot's own call %s %s (%s): check DISCORD_TOKEN and the "
            "application's Activity settings",
            method,
            path.split("/activity-instances/")[0],
            status,
        )
        return DiscordCallError(f"{method} {path}: {status}, the bot's token refused")
    return WebAuthError(_REFUSED.get(path.split("/")[1], "refused"))


_REFUSED: Final = {
    "oauth2": "code refused",
    "users": "token refused",
    "applications": "no such instance",
}
"""The word a refused call gives the login, by the first part of its path."""


def _snowflake(value: object) -> int:
    """A Discord id (a string of digits), or a WebAuthError."""
    number = parse_number(value) if isinstance(value, str) else None
    if number is None:
        raise WebAuthError("malformed")
    return number
