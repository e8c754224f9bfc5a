"""The composition root: the bot as it runs. Its start builds everything the cogs stand on,
once and in order, from the open database, before any cog loads:

1. the card faces (the application's emojis; waited for a moment, so that the first
   redraws have them);
2. the presenters: Discord's messages and the card table's sockets;
3. the table service with those presenters and the bot's runtime (its clock, its waits, its
   seeds, its robot), then the tournaments (with the Discord side's record of where each
   lives, and its loop that tells where their tables opened) and the daily deals on it, the
   servers' retention (what the bot keeps of a server it left, and for how long), and who
   listens to what;
4. the card table, listening where TUTE_WEB_PORT asks;
5. this process's shards (the cluster), then the tables restored, the tournaments, the
   daily deals caught up, every table shown again, and the erasure of the servers the bot
   left long enough ago planned (again once the gateway has listed the servers).

Its figures (:class:`bot.metrics.Metrics`) are built with the bot, before it logs in, so
that every request to Discord counts; they are served from the very start where
TUTE_METRICS_PORT asks (``/readyz`` says "not ready" until the bot is), and handed to what
records: the table service (its saves, robots, games and moves), the card table's sockets,
the presenter (the guard on refused requests).

Nothing is swapped later: a collaborator is a plain attribute of the bot, set here once.
This is the one module under bot/ that knows the cogs: it builds their presenter, and
hands the services to them."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord.http import Route

from bot.client import TuteBot
from bot.config import Config
from bot.metrics import LoopLag, Metrics, MetricsServer, route_class
from bot.metrics.guard import REFUSED_STATUSES
from bot.storage.health import ping
from bot.tables.competition.tournaments import Tournament, TournamentService
from bot.tables.daily import DailyService, Scored
from bot.tables.retention import Retention
from bot.tables.runtime import Runtime
from bot.tables.service import TableService
from bot.web.hub import at_once
from bot.web.relay import Relay
from bot.web.server import WebDoor, WebTable, directly
from bot.web.sockets import Sockets
from cogs.daily.commands import tell_scored
from cogs.tables.clicks import BUTTONS
from cogs.tables.faces import CardFaces
from cogs.tables.guide import GUIDE_ITEMS
from cogs.tables.presenter import DiscordPresenter
from cogs.tables.replay_buttons import REPLAY_ITEMS
from cogs.tournaments import announce
from cogs.tournaments.buttons import TournamentButton
from cogs.tournaments.commands import tell_caught_up
from cogs.tournaments.opened import Telling
from cogs.tournaments.places import TournamentPlaces

log = logging.getLogger(__name__)

FACES_WAIT = 5.0
"""Seconds the start waits for the card faces before restoring the tables."""


class TuteApp(TuteBot):
    """The Tute bot, assembled (:meth:`assemble`)."""

    faces: CardFaces
    """The card faces as this application's emojis, synced in the background."""
    tournament_places: TournamentPlaces
    """Where each tournament lives on Discord: its sign-up message, the tables told."""
    tournament_telling: Telling
    """The tables whose link a tournament's channel is still to be told, tried again."""
    retention: Retention
    """The servers the bot is in, and the erasure of those it left long enough ago."""

    metrics: Metrics
    """The bot's figures; served (``metrics_server``, with ``loop_lag``) where
    TUTE_METRICS_PORT asks."""
    metrics_server: MetricsServer
    loop_lag: LoopLag

    def __init__(
        self, config: Config, *, runtime: Runtime | None = None, door: WebDoor | None = None
    ) -> None:
        """``door``: how players come in to the card table when it is not Discord's
        Activity (the sandbox's, which serves it beside its simulated Discord)."""
        # every answer Discord gives, one that discord.py tries again too (a 429)
        super().__init__(config, runtime=runtime, http_trace=self._answers_trace())
        self.door = door
        self.metrics = Metrics(clock=self.runtime.clock, refused_limit=config.refused_limit)
        self._refusals_on_wire = False
        """Whether refusals are counted as Discord gives them (the aiohttp trace saw an
        answer); with a stand-in transport (SimCord), which has no wire, as requests end."""
        self._arrivals: dict[int, float] = {}
        """When each interaction not answered yet arrived (``metrics.timer``), by id."""
        _watch_answers()

    async def setup_hook(self) -> None:
        await self._serve_metrics()
        await super().setup_hook()

    async def assemble(self) -> None:
        config, runtime, db = self.config, self.runtime, self.db
        # the card faces sync in the background; the tables wait a moment for them (finding
        # them again is one call), so that they are drawn with faces from the first redraw:
        # the first start of a bot, which uploads them, goes on without them meanwhile
        self.faces = CardFaces()
        self.faces.start(self)
        await self.faces.wait_synced(FACES_WAIT)
        self.sockets = Sockets(runtime.clock)
        metrics = self.metrics
        presenter = DiscordPresenter(
            self, db, runtime, language=config.language, optional=lambda: metrics.optional
        )
        self.tables = tables = TableService(
            db,
            # the quick ones first: the sockets are sent a change before Discord's messages
            (self.sockets, presenter),
            runtime,
            robot_delay=config.robot_delay,
            think_budget=config.think_budget,
            robot_processes=config.robot_processes,
            metrics=metrics,
        )
        # read at each scrape
        metrics.open_tables = tables.open_by_state
        metrics.sockets = self.sockets.count
        self.tournaments = TournamentService(db, tables, runtime.clock)
        self.tournament_places = TournamentPlaces(db)
        self.tournament_telling = Telling(
            self, self.tournaments, self.tournament_places, runtime.sleep
        )
        self.daily = DailyService(db, tables)
        self.retention = Retention(
            db,
            days=config.retention_days,
            clock=runtime.clock,
            sleep=runtime.sleep,
            owns=self.cluster.owns,
            busy=self._busy,
        )
        self._listen()
        door = self.door
        self.web = WebTable(
            tables,
            self.sockets,
            secret=config.web_secret() if config.web_port is not None else b"",
            clock=runtime.clock,
            application_id=self.application_id,
            client_secret=config.client_secret,
            bot_token=config.token,
            relay=None if self.cluster.whole else Relay(self.cluster),
            auth=None if door is None else door.auth,
            runner=at_once if door is None else door.runner,
            answered=self._card_table_answered,
        )
        self.add_dynamic_items(*BUTTONS, *GUIDE_ITEMS, *REPLAY_ITEMS, TournamentButton)
        await self._serve_web()
        await self._restore()

    def _listen(self) -> None:
        """Who is told what: the tournaments of each game that ends and of the tables they
        open, the daily deals' members of their scores."""
        tables, tournaments, telling = self.tables, self.tournaments, self.tournament_telling

        async def game_over(table: announce.EndedTable) -> None:
            await announce.game_over(self, tournaments, table)

        async def tables_opened(tour: Tournament, table_ids: tuple[int, ...]) -> None:
            await telling.opened(tour, table_ids)

        async def scored(told: Scored) -> None:
            await tell_scored(self, told)

        tables.on_game_over(game_over)
        tournaments.on_opened(tables_opened)
        self.daily.scored_listeners.append(scored)

    def _busy(self, guild_id: int) -> bool:
        """Whether a table or tournament of the server is still open in this process: its
        data waits for them to end before it is erased."""
        return self.tables.holds_open(guild_id) or bool(self.tournaments.active_in(guild_id))

    async def _serve_web(self) -> None:
        """The card table, where TUTE_WEB_PORT asks for one. One that cannot listen (the
        port taken) leaves the bot on Discord alone, and says so; the sandbox's door takes
        a port the system picks instead."""
        config, door = self.config, self.door
        if config.web_port is None:
            return
        starter = directly if door is None else door.starter
        ports = (
            (config.web_port, 0)
            if door is not None and door.any_port_when_taken
            else (config.web_port,)
        )
        for port in ports:
            try:
                await starter(lambda port=port: self.web.start(config.web_host, port))
            except OSError:
                log.exception("The web table could not listen on port %s", port)
            else:
                return

    async def _restore(self) -> None:
        """This process's shards first (a process that takes over from one that died waits
        here for its leases to run out), then what was open: the tables, the tournaments
        (a table they open now is shown with the others), the daily deals that ended while
        the bot was away; then every table shown again."""
        tables: TableService = self.tables
        await self.cluster.start(tables)
        try:
            await tables.restore()
        except Exception:
            # the commands stay; the tables in the database come back at the next start
            log.exception("Could not restore the open tables")
        await self._restore_tournaments(self.tournaments)
        await self._catch_up(self.daily)
        self.loop.create_task(tables.publish_all(), name="tables-shown")
        self.retention.plan()

    async def _restore_tournaments(self, tournaments: TournamentService) -> None:
        try:
            caught = await tournaments.restore()
        except Exception:
            # the commands stay; the tournaments in the database come back at the next start
            log.exception("Could not restore the tournaments")
            return
        if caught:
            # told once the bot is up and the tables are shown (their links in the posts):
            # what the catch-up did, and the tables whose link its channel never got
            self.loop.create_task(tell_caught_up(self, caught))

    async def close(self) -> None:
        """Not ready any more, and nothing more is told of a tournament's tables (the next
        start tells what is left); then the bot stops as it was built."""
        built = vars(self)
        if "metrics_server" in built:
            await self.loop_lag.stop()
            await self.metrics_server.stop()
            del self.metrics_server
        if "tournament_telling" in built:
            self.tournament_telling.stop()
        if "retention" in built:
            self.retention.stop()
        await super().close()

    # ---------------------------------------------------------------- the servers

    async def on_ready(self) -> None:
        """The gateway has listed every server of this process's shards (those Discord
        cannot serve now too): a server the bot was in and is not any more was left while
        the bot was away."""
        here = [guild.id for guild in self.guilds]
        await self._servers(lambda retention: retention.connected(here))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._servers(lambda retention: retention.joined(guild.id))

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server Discord serves again, or one joined whose first news says it is
        available: the bot is in it (those listed before ``on_ready`` are written there,
        all at once)."""
        if self.is_ready():
            await self.on_guild_join(guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from the server (or it was deleted); not a server Discord
        cannot serve for a while, which stays among ``guilds``."""
        await self._servers(lambda retention: retention.left(guild.id))

    async def _servers(self, tell: Callable[[Retention], Awaitable[object]]) -> None:
        """Tell the retention where the bot is. A failure (the database down, or closing
        as the bot stops) is logged: the next start lists the servers again."""
        if "retention" not in vars(self):
            return
        try:
            await tell(self.retention)
        except Exception:
            log.exception("Could not keep the servers the bot is in")

    # the figures ------------------------------------------------------------------

    async def _serve_metrics(self) -> None:
        """``/metrics``, ``/healthz`` and ``/readyz`` where TUTE_METRICS_PORT asks, from
        the start on; and the event loop's lag measured. A port that is taken leaves the
        bot without them, and says so."""
        config = self.config
        if config.metrics_port is None or "metrics_server" in vars(self):
            return
        server = MetricsServer(self.metrics, self.readiness)
        try:
            await server.start(config.metrics_host, config.metrics_port)
        except OSError:
            log.exception("The metrics could not listen on port %s", config.metrics_port)
            return
        self.metrics_server = server
        runtime = self.runtime
        self.loop_lag = LoopLag(self.metrics.lagged, clock=runtime.clock, sleep=runtime.sleep)
        self.loop_lag.start()

    async def readiness(self) -> dict[str, bool]:
        """What ``/readyz`` asks: connected to Discord's gateway, the database answers, and
        this process holds its shards (all of them, for one that runs every shard)."""
        built = vars(self)
        database = False
        if "db" in built:
            try:
                await ping(self.db)
            except Exception as error:
                log.warning("The database does not answer (%r)", error)
            else:
                database = True
        connected = self.is_ready() and not self.is_closed()
        # each shard's connection (one that reconnects is not, for a moment)
        connected = connected and not any(shard.is_closed() for shard in self.shards.values())
        return {
            "gateway": connected,
            "database": database,
            "shards": "cluster" in built and self.cluster.held,
        }

    def _answers_trace(self) -> aiohttp.TraceConfig:
        trace = aiohttp.TraceConfig()

        async def answered(
            _session: aiohttp.ClientSession,
            _context: Any,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            self._refusals_on_wire = True
            if params.response.status in REFUSED_STATUSES:
                self.metrics.refused(params.response.status)

        trace.on_request_end.append(answered)
        return trace

    async def login(self, token: str) -> None:
        self._count_requests()
        await super().login(token)

    def _count_requests(self) -> None:
        """Count each request to Discord's REST API as it ends, by its route's class and
        its status. discord.py has no hook for it: this bot's HTTP client's ``request`` is
        wrapped (after SimCord put its own in, in the tests and the sandbox)."""
        http = self.http
        request = http.request
        if getattr(request, "counted", False):
            return

        @functools.wraps(request)
        async def counted(route: Route, **kwargs: Any) -> Any:
            kind = route_class(route.method, route.path)
            try:
                result = await request(route, **kwargs)
            except discord.HTTPException as error:
                self._requested(kind, error.status)
                raise
            except Exception:
                self.metrics.requested(kind, None)
                raise
            self._requested(kind, 200)
            return result

        counted.counted = True  # type: ignore[attr-defined]
        http.request = counted  # type: ignore[method-assign]

    def _card_table_answered(self, status: int) -> None:
        """The card table's own call to Discord (a login) was answered ``status``: counted,
        and a refusal towards the guard's limit, as the bot's own requests."""
        self.metrics.requested("card_table", status)
        self.metrics.refused(status)

    def _requested(self, kind: str, status: int) -> None:
        self.metrics.requested(kind, status)
        if not self._refusals_on_wire:
            self.metrics.refused(status)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # told as the interaction is read, before any of its handlers runs
        if event_name == "interaction" and args and isinstance(args[0], discord.Interaction):
            self._arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    def _arrived(self, interaction: discord.Interaction[Any]) -> None:
        now = self.metrics.timer()
        arrivals = self._arrivals
        if len(arrivals) >= ARRIVALS_KEPT:
            # never answered (a handler that failed before it could): forgotten in time
            for key in [k for k, at in arrivals.items() if now - at > INTERACTION_LIFE]:
                del arrivals[key]
        arrivals[interaction.id] = now

    def first_answer(self, interaction: discord.Interaction[Any], status: int) -> None:
        """An interaction's first answer ended with ``status``: the request is counted, and
        the time since the interaction arrived."""
        self._requested("interaction", status)
        arrived = self._arrivals.pop(interaction.id, None)
        if arrived is not None:
            self.metrics.answered(self.metrics.timer() - arrived)

    @staticmethod
    async def _catch_up(daily: DailyService) -> None:
        try:
            # a deal that ended while the bot was away is scored now
            await daily.catch_up()
        except Exception:
            log.exception("The daily deals could not be caught up")


ARRIVALS_KEPT = 1_000
"""Interactions waiting for their first answer past which the oldest are looked at."""
INTERACTION_LIFE = 900.0
"""Seconds an interaction may be answered (its token's life): older ones are forgotten."""
FIRST_ANSWERS = (
    "defer",
    "pong",
    "send_message",
    "edit_message",
    "send_modal",
    "autocomplete",
    "launch_activity",
)
"""What answers an interaction first (``InteractionResponse``'s methods)."""


def _watch_answers() -> None:
    """Have each interaction's first answer told to its bot (:meth:`TuteApp.first_answer`).
    An interaction's answers go through discord.py's webhook adapter, not the bot's HTTP
    client, and discord.py has no hook for them: ``InteractionResponse``'s answering
    methods are wrapped, once per process, for every bot in it."""
    for name in FIRST_ANSWERS:
        method = getattr(discord.InteractionResponse, name)
        if not getattr(method, "watched", False):
            setattr(discord.InteractionResponse, name, _watched(method))


def _watched(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def answer(
        response: discord.InteractionResponse[Any], /, *args: Any, **kwargs: Any
    ) -> Any:
        first = not response.is_done()
        interaction: discord.Interaction[Any] = response._parent  # pyright: ignore[reportPrivateUsage]
        try:
            result = await method(response, *args, **kwargs)
        except discord.HTTPException as error:
            if first:
                _told_first(interaction, error.status)
            raise
        if first:
            _told_first(interaction, 200)
        return result

    answer.watched = True  # type: ignore[attr-defined]
    return answer


def _told_first(interaction: discord.Interaction[Any], status: int) -> None:
    client = interaction.client
    if isinstance(client, TuteApp):
        client.first_answer(interaction, status)
