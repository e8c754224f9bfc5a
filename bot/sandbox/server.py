"""The sandbox's server: the real bot against SimCord, one server and one channel, served
as a Discord-like page on 127.0.0.1, with a clock that ticks along with real time."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

import discord
import simcord
from simcord import interactions as simcord_interactions
from simcord.preview import Preview

from bot.app import TuteApp
from bot.client import TuteBot
from bot.config import Config
from bot.i18n import Language, t
from bot.storage.settings import update_settings
from bot.tables.model import Status
from bot.tables.runtime import Runtime, fresh_seed
from bot.tables.service import TableService
from bot.web.server import WebDoor

from .clock import SandboxClock
from .dms import show_direct_messages
from .launch import Launch, answer_launches, open_the_card_table
from .localized import show_commands_in
from .page import (
    card_face_assets,
    chrome_words,
    open_in_browser,
    remember_markdown,
    serve_the_page_script,
    show_mentions_in_embeds,
    show_pictures_at_once,
    stamp_with_the_simulated_time,
)
from .waits import SimulatedWaits
from .web import WEB_PORT, CardTable, SandboxAuth, sandbox_door

log = logging.getLogger(__name__)

SANDBOX_DB_PATH: Final = Path("data") / "sandbox.db"
SERVER_ID: Final = 1_300_000_000_000_000_001
"""Pinned, like the members' ids (made in the same order every run): the standings in the
SQLite file belong to these ids."""
SERVER_NAME: Final = "Tute sandbox"
CHANNEL_NAME: Final = "tute"
BOT_NAME: Final = "Tute"
YOU: Final = "Alex"
"""The person at the page: a name of their own (the texts say "Alex wins", not "You wins"),
and the server's admin, so that ``/tute config`` works."""
FRIENDS: Final = ("Lola", "Paco", "Rocío")

ROBOT_DELAY: Final = 1.0
"""Seconds a robot waits before it plays, so a person can follow the game."""
THINK_BUDGET: Final = 0.3
"""Seconds a robot may think per decision."""
SETTLE_TIMEOUT: Final = 5.0
"""Real seconds SimCord gives the bot to finish what a click (or a tick) set off."""
PAGE_SIZE: Final = (600, 1200)
"""The page's size (the served page fits the browser window; the screenshots' too)."""


@dataclass(slots=True)
class Sandbox:
    """A running sandbox: the simulated Discord, the bot in it, and the page on loopback."""

    env: simcord.Env
    bot: TuteBot
    server: simcord.GuildHandle
    channel: simcord.ChannelHandle
    you: simcord.MemberActor
    friends: tuple[simcord.MemberActor, ...]
    preview: Preview
    clock: SandboxClock
    resumed: tuple[int, ...]
    """The games of an earlier run that go on in this one (their table ids)."""
    web: CardTable | None = None
    """The card table in the browser, when it is served (``web_port``)."""

    def web_url(self, member: simcord.MemberActor) -> str | None:
        """The card table's address for one member (each tab plays as one)."""
        if self.web is None:
            return None
        return self.web.url(member.id, self.clock.locale.split("-")[0])

    @property
    def url(self) -> str:
        """The page's address: loopback only, and a secret (it lets anyone act in the page)."""
        return self.preview.url

    @property
    def tables(self) -> TableService:
        return _service_of(self.bot)

    def place_of(self, table_id: int) -> MessagePlace | None:
        """Where the table's messages live, as the bot shows it (None: not shown yet)."""
        for presenter in self.tables.presenters:  # Discord's, beside the card table's
            places = getattr(presenter, "places", None)
            if places is not None:
                return places.known(table_id)
        return None


class MessagePlace(Protocol):
    """Where a table's messages live (``cogs.tables.places.Place``, which bot/ may not
    import): what the sandbox's pictures look for."""

    thread_id: int | None
    play_message_id: int | None


LANGUAGES: Final = {"en": "en-US", "es": "es-ES"}
"""The sandbox's languages, and the Discord locale its page and clicks speak."""


def sandbox_bot(
    db_path: Path,
    *,
    robot_delay: float,
    think_budget: float,
    language: Language = "en",
    waits: SimulatedWaits | None = None,
    seeds: Callable[[], int] = fresh_seed,
    web: tuple[int, WebDoor] | None = None,
    metrics_port: int | None = None,
) -> TuteBot:
    """The real bot with its own database; SimCord needs no token. ``language`` is the
    bot's default language (``TUTE_LANGUAGE``); ``waits``: how its tables wait (on
    SimCord's clock, once its environment is made); ``web``: the port its card table
    listens on and its door (the sandbox's members come in with a key, not through
    Discord), or None for no card table; ``metrics_port``: where its figures and health
    are served (TUTE_METRICS_PORT; 0, a port the system picks), or None."""
    config = Config(
        token="",
        db_path=db_path,
        robot_delay=robot_delay,
        think_budget=think_budget,
        language=language,
        # one person's tables: the robots think in threads, and the sandbox starts at once
        robot_processes=0,
        shard_count=1,  # one simulated server: one shard
        web_port=None if web is None else web[0],
        # signs the card table's sessions (no Discord application: nobody checks it)
        client_secret="" if web is None else secrets.token_urlsafe(32),
        metrics_port=metrics_port,
    )
    runtime = Runtime(clock=lambda: discord.utils.utcnow().timestamp(), seeds=seeds)
    return TuteApp(
        config,
        runtime=runtime if waits is None else replace(runtime, sleep=waits),
        door=None if web is None else web[1],
    )


def _speak(language: Language) -> Callable[[], None]:
    """Every click and command from the page comes in ``language``'s Discord locale.
    SimCord internals: it sends each interaction as en-US and has no setting for it, so this
    wraps the function that builds the interaction's payload. Returns what undoes it."""
    build = simcord_interactions.base_payload
    locale = LANGUAGES[language]

    def base_payload(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(*args, **kwargs)
        payload["locale"] = locale
        return record, payload

    simcord_interactions.base_payload = base_payload

    def undo() -> None:
        simcord_interactions.base_payload = build

    return undo


@asynccontextmanager
async def open_sandbox(
    db_path: Path = SANDBOX_DB_PATH,
    *,
    robot_delay: float = ROBOT_DELAY,
    think_budget: float = THINK_BUDGET,
    settle_timeout: float = SETTLE_TIMEOUT,
    page_size: tuple[int, int] = PAGE_SIZE,
    language: Language = "en",
    real_time: Callable[[], float] = time.monotonic,
    web_port: int | None = None,
    seeds: Callable[[], int] = fresh_seed,
    metrics_port: int | None = None,
) -> AsyncIterator[Sandbox]:
    """Start the bot in a simulated Discord and serve its page; stop both at the end.

    The clock is not started: call ``sandbox.clock.start()`` to let time run (its first tick
    catches up on the time since SimCord's clock was set to the real date), or
    ``sandbox.clock.catch_up()`` for one tick. ``real_time`` is the real clock it follows.
    With a ``robot_delay`` of 0, robots play at once, within the click that gave them the
    turn. With a ``web_port``, the bot serves the card table too (0: on a port the system
    picks; a port that is taken gives way to one too), and its tables offer Play at the
    table, which opens it in the page. ``seeds``: where its tables' seeds come from (a
    test's own, for the same deals each run). With a ``metrics_port``, the bot serves its
    figures and health there, as with TUTE_METRICS_PORT (0: on a port the system picks).
    """
    waits = SimulatedWaits()
    gate = asyncio.Lock()  # a tick, a click in the page and the card table take turns
    door, auth = sandbox_door(waits, gate, lambda: discord.utils.utcnow().timestamp())
    bot = sandbox_bot(
        db_path,
        robot_delay=robot_delay,
        think_budget=think_budget,
        language=language,
        waits=waits,
        seeds=seeds,
        web=None if web_port is None else (web_port, door),
        metrics_port=metrics_port,
    )
    # Bot errors are answered and logged by the bot's own error path; the sandbox goes on.
    env = simcord.Env(bot, settle_timeout=settle_timeout, check_errors=False)
    waits.env = env
    server, channel, you, friends = _build_world(env, language)
    members = zip((you, *friends), (YOU, *FRIENDS), strict=True)
    _start_clock_now(env)
    clock_set = real_time()
    # SimCord internals: the bot account is "TestBot" unless renamed before start.
    env.backend.bot_user.name = BOT_NAME
    unsay = _speak(language)
    unshow = show_mentions_in_embeds()
    unparse = remember_markdown()
    unlist = show_commands_in(LANGUAGES[language])
    launched: list[Launch] = []
    unlaunch = answer_launches(launched)
    auth.admit(
        {m.id: name for m, name in members},
        channel_id=channel.id,
        guild_id=SERVER_ID,
        launched=launched,
    )
    clock_scope = env.time_context()
    clock_scope.__enter__()
    try:
        await env.start()
        resumed = await _prepare_server(bot)
        preview = env.preview(
            channel,
            viewers=[you, *friends],
            layout="channel",
            display="responsive",
            width=page_size[0],
            height=page_size[1],
            locale=LANGUAGES[language],
            assets=card_face_assets(env),
        )
        web = _card_table(bot, auth)
        stamp_with_the_simulated_time(preview)
        show_pictures_at_once(preview)
        serve_the_page_script(
            preview,
            chrome_words(language, CHANNEL_NAME, BOT_NAME),
            language,
            frames=None if web is None else web.origin,
            places={"channel": CHANNEL_NAME, "bot": BOT_NAME},
        )
        async with preview:
            show_direct_messages(preview, channel)
            clock = SandboxClock(
                env,
                preview,
                real_time=real_time,
                since=clock_set,
                locale=LANGUAGES[language],
                gate=gate,
            )
            if web is not None:
                table = web

                def address(launch: Launch) -> str:
                    return table.url(launch.user_id, language, launch.instance_id)

                open_the_card_table(preview, launched, address)
            try:
                yield Sandbox(env, bot, server, channel, you, friends, preview, clock, resumed, web)
            finally:
                await clock.stop()
    finally:
        try:
            # Stops the table clocks (keeping each turn's time left) and closes the database.
            await bot.close()
        finally:
            try:
                await env.shutdown()
            finally:
                clock_scope.__exit__(None, None, None)
                unlaunch()
                unlist()
                unparse()
                unshow()
                unsay()


def _card_table(bot: TuteBot, auth: SandboxAuth) -> CardTable | None:
    """The bot's card table, when it serves one (it was built with the sandbox's door)."""
    return CardTable(bot.web, auth.key) if bot.web.serving else None


def _service_of(bot: TuteBot) -> TableService:
    return bot.tables


def _new_table_command(language: Language) -> str:
    """``/tute new`` as a client in ``language`` lists it."""
    return f"{t('commands.tute.name', language)} {t('commands.tute.new.name', language)}"


def _build_world(
    env: simcord.Env,
    language: Language,
) -> tuple[
    simcord.GuildHandle,
    simcord.ChannelHandle,
    simcord.MemberActor,
    tuple[simcord.MemberActor, ...],
]:
    """The server, its channel and its members, made in the same order every run (so with
    the same ids) and before the bot starts, so the games it restores find their channel."""
    server = env.create_guild(SERVER_NAME, id=SERVER_ID)
    # The page shows one channel and cannot enter threads, so tables play in the channel:
    # nobody here may make threads, the bot included.
    no_threads = discord.PermissionOverwrite(
        create_public_threads=False, create_private_threads=False
    )
    channel = server.create_text_channel(
        CHANNEL_NAME,
        overwrites={server.default_role: no_threads},
        topic=t("sandbox.channel_topic", language, command=_new_table_command(language)),
    )
    admin = server.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    you = server.add_member(env.create_user(YOU.lower(), global_name=YOU), roles=[admin])
    friends = tuple(
        server.add_member(env.create_user(_username(name), global_name=name)) for name in FRIENDS
    )
    return server, channel, you, friends


def _username(name: str) -> str:
    return name.lower().replace("í", "i")


def _start_clock_now(env: simcord.Env) -> None:
    """SimCord's clock starts on 2026-01-01; move it to now, so the page shows real dates and
    the daily chips and turn clocks agree with the runs before this one."""
    behind = (datetime.now(UTC) - env.now()).total_seconds()
    if behind > 0:
        # SimCord internals: advance_time needs a running bot; the backend's clock does not.
        env.backend.advance_clock(behind)


async def _prepare_server(bot: TuteBot) -> tuple[int, ...]:
    """Hands come as a message only you can see, in the channel, where its tables play (the
    page's DMs beside it have the lessons and the daily deal). A lobby left open by an earlier run is closed (its message is gone); a game in
    play goes on: the bot shows its table again in the channel."""
    db = bot.db
    assert db is not None
    async with db.transaction() as conn:
        await update_settings(conn, SERVER_ID, hand_delivery="ephemeral")
    service = _service_of(bot)
    resumed: list[int] = []
    for table in list(service.tables.values()):
        if table.guild_id != SERVER_ID:
            continue
        if table.status is Status.LOBBY:
            await service.close(table.id, table.host_id)
        elif table.status is Status.PLAYING:
            resumed.append(table.id)
    return tuple(resumed)


# --------------------------------------------------------------------------- serving


async def serve(
    db_path: Path = SANDBOX_DB_PATH, language: Language = "en", metrics_port: int | None = None
) -> None:
    """Run the sandbox until the page ends the session or Ctrl-C; ``language``: the page's,
    the clicks' and the bot's default language; ``metrics_port``: TUTE_METRICS_PORT's."""
    async with open_sandbox(
        db_path, language=language, web_port=WEB_PORT, metrics_port=metrics_port
    ) as sandbox:
        sandbox.clock.start()
        print(f"Tute sandbox: the real bot, in a simulated Discord server ({db_path}).")
        served = getattr(sandbox.bot, "metrics_server", None)
        if served is not None:
            print(f"Its figures: http://127.0.0.1:{served.port}/metrics (and /readyz, /healthz)")
        if sandbox.resumed:
            games = ", ".join(f"#{table_id}" for table_id in sandbox.resumed)
            print(f"Games from the last run go on in #{CHANNEL_NAME}: table {games}.")
        print("Open this page in a browser on this computer (keep the address to yourself):")
        print(f"    {sandbox.url}", flush=True)
        print(
            f"Type /tute new in the message box to open a table. Switch 'Viewing as' to "
            f"{', '.join(FRIENDS)} to take more seats. /tute learn and /tute challenge play "
            f"answer in your DMs: click '@ {BOT_NAME}' above the channel. Stop with Ctrl-C.",
            flush=True,
        )
        if sandbox.web is not None:
            print(
                f"The card table on port {sandbox.web.port} (Play at the table opens it), "
                f"one tab per player (the table of #{CHANNEL_NAME}, as in Discord):"
            )
            for member, name in zip((sandbox.you, *sandbox.friends), (YOU, *FRIENDS), strict=True):
                print(f"    {name}: {sandbox.web_url(member)}", flush=True)
        if await asyncio.to_thread(open_in_browser, sandbox.url):
            print("(Opened in your browser.)", flush=True)
        await sandbox.preview.wait_closed()
        print("The page ended the session.")
