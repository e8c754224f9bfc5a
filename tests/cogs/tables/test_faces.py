"""The card faces as the application's emojis: their names, the registry with a client that
fails in every way, and the sync at start-up in SimCord (uploaded once across restarts, an
outdated picture replaced, someone else's emoji left alone, a refusal leaving text)."""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import discord
import pytest
import simcord

from bot.config import Config
from bot.engine import CODES
from bot.render.faces import (
    BACK,
    EMOJI_KEYS,
    current_names,
    emoji_hash,
    emoji_name,
    emoji_png,
    key_of,
)
from cogs.tables import faces as faces_module
from cogs.tables.faces import NO_FACES, CardFaces, faces_of
from tests.cogs.tables._driver import Driver, Player
from tests.cogs.tables._world import open_table
from tests.conftest import World, fast_bot
from tests.logged import logged

DISCORD_EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")

# ---------------------------------------------------------------------- the names


@pytest.mark.parametrize("key", EMOJI_KEYS)
def test_every_name_is_a_valid_emoji_name_that_says_its_card_and_picture(key: str) -> None:
    name = emoji_name(key)
    assert DISCORD_EMOJI_NAME.fullmatch(name), name
    assert name == f"tute_{key}_{emoji_hash(key)}"
    assert key_of(name) == key


@pytest.mark.parametrize(
    "name",
    ["party_parrot", "tute", "tute_logo", "tute_13O_1a2b3c4d", "tute_1O", "tute_back_1A2B3C4D"],
)
def test_a_name_not_in_the_pattern_is_not_ours(name: str) -> None:
    assert key_of(name) is None


def test_an_outdated_name_is_still_ours() -> None:
    assert key_of("tute_12B_00000000") == "12B"
    assert key_of(f"tute_{BACK}_ffffffff") == BACK


# ---------------------------------------------------- the registry, without Discord


def test_no_faces_has_no_emoji_and_never_syncs() -> None:
    assert not NO_FACES.ready
    assert all(NO_FACES.emoji(card) is None for card in range(len(CODES)))
    assert all(NO_FACES.inline(card) == "" for card in range(len(CODES)))
    assert NO_FACES.back() is None
    client = FakeClient()
    asyncio.run(NO_FACES.sync(cast(discord.Client, client)))
    assert client.calls == []
    assert faces_of(cast(discord.Client, object())) is NO_FACES


@dataclass
class FakeEmoji:
    id: int
    name: str
    animated: bool = False
    deleted: bool = False

    async def delete(self) -> None:
        self.deleted = True


class FakeClient:
    """A client whose emoji calls do what a test says: list these, fail, or hang."""

    def __init__(
        self,
        listed: list[FakeEmoji] | None = None,
        *,
        list_error: BaseException | None = None,
        create: Callable[[str], Any] | None = None,
    ) -> None:
        self.listed = listed or []
        self.list_error = list_error
        self.create = create
        self.calls: list[str] = []
        self.next_id = 1000

    async def fetch_application_emojis(self) -> list[FakeEmoji]:
        self.calls.append("list")
        if self.list_error is not None:
            raise self.list_error
        return self.listed

    async def create_application_emoji(self, *, name: str, image: bytes) -> FakeEmoji:
        self.calls.append(f"create {name}")
        if self.create is not None:
            await self.create(name)
        self.next_id += 1
        return FakeEmoji(self.next_id, name)


def as_client(client: FakeClient) -> discord.Client:
    return cast(discord.Client, client)


async def test_a_sync_that_cannot_list_keeps_no_emoji_and_does_not_raise(
    caplog: pytest.LogCaptureFixture,
) -> None:
    faces = CardFaces()
    client = FakeClient(list_error=OSError("connection reset"))
    await faces.sync(as_client(client))
    assert client.calls == ["list"]
    assert not faces.ready and faces.emoji(0) is None and faces.back() is None
    assert await faces.wait_synced(0)
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "could not list" in warning.getMessage()
    assert "OSError: connection reset" in warning.getMessage()


async def test_a_sync_runs_once_per_registry() -> None:
    faces = CardFaces()
    client = FakeClient()
    await faces.sync(as_client(client))
    await faces.sync(as_client(client))
    assert client.calls.count("list") == 1
    assert faces.ready


async def test_a_sync_stuck_on_an_upload_ends_within_its_time_limit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord may make an upload wait out a long rate limit: the sync gives up in time, and
    keeps what it had found and made."""
    monkeypatch.setattr(faces_module, "SYNC_TIME_LIMIT", 0.2)
    # the pictures hashed first (kept for the run), as the tests before this one happened
    # to: drawing all 41 takes longer than the limit, which would run out before any upload
    current_names()
    found = FakeEmoji(1, emoji_name(CODES[5]))
    made: list[str] = []

    async def third_hangs(name: str) -> None:
        made.append(name)
        if len(made) == 3:
            await asyncio.sleep(60)

    faces = CardFaces()
    await faces.sync(as_client(FakeClient([found], create=third_hangs)))
    assert await faces.wait_synced(0)
    known = [card for card in range(len(CODES)) if faces.emoji(card) is not None]
    assert len(known) == 3  # the one found and the first two made
    assert faces.inline(5) == f"<:{found.name}:1>"
    assert not faces.ready
    assert any("stopped after" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ in SimCord


def emoji_path(env: simcord.Env) -> str:
    return f"/applications/{env.backend.application_id}/emojis"


def calls(env: simcord.Env, method: str, since: int = 0) -> list[simcord.HttpLogEntry]:
    """The bot's calls of ``method`` to the application's emojis since the cursor."""
    path = emoji_path(env)
    return [
        r
        for r in env.http_requests[since:]
        if r.method == method and (r.path == path or r.path.startswith(path + "/"))
    ]


def sent(request: simcord.HttpLogEntry) -> dict[str, Any]:
    """The JSON body of a request."""
    assert isinstance(request.json, dict)
    return cast(dict[str, Any], request.json)


def app_emojis(env: simcord.Env) -> dict[int, str]:
    return {e.id: e.name for e in env.backend.application_emojis.values()}


def ours(env: simcord.Env) -> dict[str, int]:
    """The application's card-face emojis of the current pictures, by card code."""
    return {
        key: emoji_id
        for emoji_id, name in app_emojis(env).items()
        if (key := key_of(name)) is not None and name == emoji_name(key)
    }


def emoji_by_name(env: simcord.Env, name: str) -> int:
    (found,) = [i for i, n in app_emojis(env).items() if n == name]
    return found


@pytest.mark.e2e
async def test_the_faces_are_uploaded_once_and_found_again_after_a_restart(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    env = simcord_env
    posts = calls(env, "POST")
    assert len(posts) == len(EMOJI_KEYS) == 41
    prefix = "data:image/png;base64,"
    for post in posts:
        body = sent(post)
        key = key_of(body["name"])
        assert key is not None and body["name"] == emoji_name(key)
        assert body["image"].startswith(prefix)
        assert base64.b64decode(body["image"][len(prefix) :]) == emoji_png(key)
    faces = faces_of(env.bot)
    assert faces.ready
    made = ours(env)
    assert sorted(made) == sorted(EMOJI_KEYS)
    for card, code in enumerate(CODES):
        assert faces.inline(card) == f"<:{emoji_name(code)}:{made[code]}>"
    back = faces.back()
    assert back is not None and back.id == made[BACK]

    cursor = len(env.http_requests)
    await env.restart_bot(fast_bot(test_config))
    again = faces_of(env.bot)
    assert again is not faces and again.ready
    assert calls(env, "GET", cursor) and not calls(env, "POST", cursor)
    assert not calls(env, "DELETE", cursor)
    assert ours(env) == made
    assert [again.inline(c) for c in range(40)] == [faces.inline(c) for c in range(40)]


@pytest.mark.e2e
async def test_an_outdated_face_is_replaced_and_other_emojis_are_left_alone(
    simcord_env: simcord.Env, world: World, test_config: Config
) -> None:
    env = simcord_env
    backend = env.backend
    card = 17
    code = CODES[card]
    assert emoji_hash(code) != "00000000"
    # the drawing of one card changed since its emoji was made...
    backend.delete_application_emoji(emoji_by_name(env, emoji_name(code)))
    old = backend.create_application_emoji(f"tute_{code}_00000000").id
    # ...an older picture of another card is left over beside its current one
    leftover = backend.create_application_emoji(f"tute_{BACK}_0badf00d").id
    foreign = {
        backend.create_application_emoji(name).id: name
        for name in ("party_parrot", "tute_logo", "tute_13O_1a2b3c4d", "Tute_1O_1a2b3c4d")
    }

    cursor = len(env.http_requests)
    await env.restart_bot(fast_bot(test_config))

    assert [sent(p)["name"] for p in calls(env, "POST", cursor)] == [emoji_name(code)]
    assert sorted(r.path for r in calls(env, "DELETE", cursor)) == sorted(
        f"{emoji_path(env)}/{i}" for i in (old, leftover)
    )
    emojis = app_emojis(env)
    assert old not in emojis and leftover not in emojis
    assert {i: emojis.get(i) for i in foreign} == foreign, "someone else's emojis stay"
    faces = faces_of(env.bot)
    assert faces.ready
    replaced = faces.emoji(card)
    assert replaced is not None and replaced.name == emoji_name(code)
    assert replaced.id == emoji_by_name(env, emoji_name(code))


@pytest.mark.e2e
@pytest.mark.simcord(settle_timeout=3)
async def test_a_refused_upload_leaves_the_cards_as_text_and_the_game_goes_on(
    simcord_env: simcord.Env,
    world: World,
    test_config: Config,
    table_seed: Callable[[int], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = simcord_env
    for emoji_id in ours(env).values():
        env.backend.delete_application_emoji(emoji_id)
    env.inject_error(
        "POST",
        emoji_path(env),
        status=400,
        code=30008,
        message="Maximum number of emojis reached",
        times=None,
    )
    cursor = len(env.http_requests)
    caplog.clear()
    await env.restart_bot(fast_bot(test_config))

    assert len(calls(env, "POST", cursor)) == 1, "the first refusal stops the uploads"
    faces = faces_of(env.bot)
    assert not faces.ready
    assert all(faces.emoji(c) is None and faces.inline(c) == "" for c in range(40))
    assert faces.back() is None
    warnings = logged(caplog, logging.WARNING)
    assert len(warnings) == 1 and "could not create" in warnings[0]
    assert "code 30008" in warnings[0]

    # the bot answers and plays as before, in text
    rules = (await world.member.slash(world.channel, "tute rules")).response
    assert rules is not None and rules.components
    table_seed(8)
    await open_table(env, world, "habanero", [world.member], robots=1)
    driver = Driver(env, world, [Player(world.member)])
    await driver.play()
    driver.check_end()


@pytest.mark.e2e
async def test_when_the_list_is_refused_no_emoji_is_used_and_none_is_uploaded(
    simcord_env: simcord.Env, world: World, test_config: Config, caplog: pytest.LogCaptureFixture
) -> None:
    """Without the list, the bot cannot tell which emojis exist: it uses none and uploads
    none (an upload could only make a duplicate)."""
    env = simcord_env
    before = app_emojis(env)
    env.inject_error("GET", emoji_path(env), status=403, code=50013, message="Missing Permissions")
    cursor = len(env.http_requests)
    caplog.clear()
    await env.restart_bot(fast_bot(test_config))

    assert not calls(env, "POST", cursor) and not calls(env, "DELETE", cursor)
    assert app_emojis(env) == before
    faces = faces_of(env.bot)
    assert not faces.ready and faces.emoji(0) is None and faces.back() is None
    assert any("could not list" in r.getMessage() for r in caplog.records)
    rules = (await world.member.slash(world.channel, "tute rules")).response
    assert rules is not None and rules.components
