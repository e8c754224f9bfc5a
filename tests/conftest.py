"""Shared fixtures: a real TuteBot for SimCord, and a world to play it in."""

import asyncio
import dataclasses
import functools
import gc
import inspect
import tempfile
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
import discord
import pytest
import simcord
import simcord.http.router
import simcord.interactions
from simcord import ChannelHandle, GuildHandle, MemberActor

from bot.app import TuteApp
from bot.client import TuteBot
from bot.config import Config
from bot.storage import Database
from tests.discord_limits import check_request
from tests.migrated import copy_migrated_now
from tests.pgserver import drop_made
from tests.runtime import new_seeds, table_runtime
from tests.tables._play import keep_ended

TEST_CONFIG = Config(
    token="not-a-real-token",
    db_path=Path(tempfile.mkdtemp()) / "tute.db",
    robot_processes=0,
    shard_count=1,
)
"""For tests that build a bot outside a fixture: its database is in a temporary folder."""


@pytest.fixture(autouse=True)
def host_leads() -> None:
    """Each table a test opens draws its seed from a fixed list (``tests.runtime.Seeds``),
    not at random: the runs are the same every time, and the host leads the first trick
    (the first dealer is drawn from the seed). A test that pins a seed (``table_seed``)
    plays that one."""
    new_seeds()


@pytest.fixture
def test_config(tmp_path: Path) -> Config:
    """A configuration whose database is a fresh SQLite file of the test's own (migrated
    already: a copy of one migrated once per run, as the bot's first start would make it);
    its robots think in threads (the worker processes have tests of their own)."""
    db_path = tmp_path / "tute.db"
    copy_migrated_now(db_path)
    return Config(token="not-a-real-token", db_path=db_path, robot_processes=0, shard_count=1)


async def on_the_simulated_clock(delay: float) -> None:
    """How a test bot's tables wait: a table's clock (a turn, a robot's wait, a lobby's
    expiry, a place's write) ends only when the test moves SimCord's clock. A plain
    asyncio.sleep would be waited out in real time by a settle whose settle_timeout outlasts
    it, and fire on its own (moving SimCord's clock for every table) once a test has run
    that long."""
    if not RUNNING:
        await asyncio.sleep(delay)
        return
    await RUNNING[-1].external_wait(asyncio.sleep(delay), reason="the table's clock")


def sim_bot(config: Config) -> TuteApp:
    """The real bot, its tables on SimCord's clock, the test's seeds and robots."""
    return TuteApp(config, runtime=table_runtime(sleep=on_the_simulated_clock))


def fast_bot(config: Config) -> TuteApp:
    """The real bot whose robots play at once and think 0.02 s a move."""
    return sim_bot(dataclasses.replace(config, robot_delay=0, think_budget=0.02))


@pytest.fixture
def simcord_bot(test_config: Config) -> TuteBot:
    """The bot SimCord's ``simcord_env`` fixture starts: the real one, setup_hook and all."""
    return sim_bot(test_config)


RUNNING: list[simcord.Env] = []
"""The SimCord environment of the test running (one at a time), for helpers that read what
its bot keeps (``tests.cogs.tables._world.placed``)."""


@pytest.fixture
async def simcord_env(simcord_env: simcord.Env) -> AsyncIterator[simcord.Env]:
    """SimCord's environment (its own fixture, wrapped), whose bots close their database.

    SimCord stops a bot without calling its ``close()``, so its aiosqlite connection (and
    that connection's thread) would outlive the test. Here the database of a bot that
    ``env.restart_bot`` replaces is closed at once (that process would be gone; its
    ``close()`` would save its tables' stale state over the new bot's), and so is the one a
    bot restarted as itself opened before (``setup_hook`` opens another). The last bot is
    closed at the end of the test as the bot stops in production: its clocks keep each
    turn's time left, then its database closes."""
    env = simcord_env
    restart = env.restart_bot

    async def restart_bot(bot: discord.Client | None = None) -> None:
        old: Database | None = getattr(env.bot, "db", None)
        await restart(bot)
        if old is not None and getattr(env.bot, "db", None) is not old:
            await old.close()

    env.restart_bot = restart_bot  # type: ignore[method-assign]
    RUNNING.append(env)
    try:
        yield env
    finally:
        RUNNING.remove(env)
        bot = env.bot
        if isinstance(bot, TuteBot) and "db" in vars(bot):
            db = bot.db
            try:
                await bot.close()
            finally:
                await db.close()  # already closed unless close() failed before it


SETTLE_CHECKS = 0.002
"""Seconds between SimCord's checks of a settling bot (0.05 by default). A settle waits that
long whenever the bot has only just scheduled a callback (a finished task's own callbacks, a
message's listeners), although the callback runs at once: a whole game's clicks waited
seconds of nothing. Checking more often changes nothing else: a settle still ends when every
task is parked, and fails at the same deadline."""


def _quick_settle() -> Callable[..., Any] | None:
    settle = simcord.Env._settle_internal  # pyright: ignore[reportPrivateUsage]
    if "idle" not in inspect.signature(settle).parameters:
        return None  # another SimCord: the tests are slower, not different

    @functools.wraps(settle)
    async def quick(self: simcord.Env, **kwargs: Any) -> None:
        kwargs["idle"] = min(kwargs.get("idle", SETTLE_CHECKS), SETTLE_CHECKS)
        await settle(self, **kwargs)

    return quick


QUICK_SETTLE = _quick_settle()
"""SimCord's settle checking every ``SETTLE_CHECKS`` seconds, made once (reading the
signature for each of thousands of tests cost more than the patch)."""


@pytest.fixture(autouse=True)
def quick_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    if QUICK_SETTLE is not None:
        monkeypatch.setattr(simcord.Env, "_settle_internal", QUICK_SETTLE)


@pytest.fixture(autouse=True)
def keep_ended_tables() -> Iterator[None]:
    """Tables the service releases at their end stay visible to the test that played them
    (``tests.tables._play.tables_of``)."""
    undo = keep_ended()
    yield
    undo()


@pytest.fixture(autouse=True)
def discord_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every request a bot makes to SimCord is held to Discord's documented limits
    (``tests/discord_limits.py``), which SimCord does not enforce: the test fails with each
    request that breaks one, its route, the limit and the value. The request still goes
    through, so the bot's code runs as it would have (a bot that catches errors would hide a
    refusal). A test of a refused payload clears the list it gets from this fixture."""
    broken: list[str] = []
    dispatch = simcord.http.router.dispatch

    def checked(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        broken.extend(check_request(method, path, kwargs.get("json"), kwargs.get("files")))
        return dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(simcord.http.router, "dispatch", checked)
    yield broken
    if broken:
        shown = "\n".join(dict.fromkeys(broken))
        pytest.fail(f"requests over Discord's documented limits:\n{shown}", pytrace=False)


@dataclass
class World:
    guild: GuildHandle
    channel: ChannelHandle
    member: MemberActor


@pytest.fixture
async def world(simcord_env: simcord.Env) -> World:
    """One server with a #tute channel and a member, alice. It must be an async fixture: the
    builders need the running environment's event loop."""
    guild = simcord_env.create_guild("Casino")
    channel = guild.create_text_channel("tute")
    member = guild.add_member(simcord_env.create_user("alice"))
    return World(guild, channel, member)


@pytest.fixture
def set_locale(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make the next interactions come from a Discord client in this locale (``es-ES``...).

    SimCord sends every interaction with the locale ``en-US`` and has no setting for it, so
    this wraps the function that builds the interaction payload."""
    build = simcord.interactions.base_payload

    def set_to(locale: str) -> None:
        def base_payload(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = build(*args, **kwargs)
            payload["locale"] = locale
            return record, payload

        monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)

    return set_to


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the thread of any database connection a test left open: aiosqlite's threads
    are not daemons, so one left running would keep the test run from ever exiting."""
    del session, exitstatus
    for found in gc.get_objects():
        if isinstance(found, aiosqlite.Connection) and found._connection is not None:  # pyright: ignore[reportPrivateUsage]
            warnings.warn(f"a test left {found!r} open", ResourceWarning, stacklevel=1)
            found.stop()


@pytest.fixture(autouse=True)
def pg_databases_dropped() -> Iterator[None]:
    """The PostgreSQL databases a test made are dropped once it is over (a run's would take
    a gigabyte or more, in memory where the server lives there)."""
    yield
    drop_made()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL server of the test run's own (its ``postgres`` database's URL); the tests
    that ask for it are skipped where PostgreSQL is not installed."""
    from tests.pgserver import find_binaries, running_server

    binaries, why = find_binaries()
    if binaries is None:
        pytest.skip(why)
    with running_server() as url:
        yield url
