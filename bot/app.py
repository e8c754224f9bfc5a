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

Nothing is swapped later: a collaborator is a plain attribute of the bot, set here once.
This is the one module under bot/ that knows the cogs: it builds their presenter, and
hands the services to them."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.client import TuteBot
from bot.config import Config
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

    def __init__(
        self, config: Config, *, runtime: Runtime | None = None, door: WebDoor | None = None
    ) -> None:
        """``door``: how players come in to the card table when it is not Discord's
        Activity (the sandbox's, which serves it beside its simulated Discord)."""
        super().__init__(config, runtime=runtime)
        self.door = door

    async def assemble(self) -> None:
        config, runtime, db = self.config, self.runtime, self.db
        # the card faces sync in the background; the tables wait a moment for them (finding
        # them again is one call), so that they are drawn with faces from the first redraw:
        # the first start of a bot, which uploads them, goes on without them meanwhile
        self.faces = CardFaces()
        self.faces.start(self)
        await self.faces.wait_synced(FACES_WAIT)
        self.sockets = Sockets(runtime.clock)
        self.tables = tables = TableService(
            db,
            # the quick ones first: the sockets are sent a change before Discord's messages
            (self.sockets, DiscordPresenter(self, db, runtime, language=config.language)),
            runtime,
            robot_delay=config.robot_delay,
            think_budget=config.think_budget,
            robot_processes=config.robot_processes,
        )
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
        ports = (config.web_port, 0) if door is not None and door.any_port_when_taken else None
        for port in ports or (config.web_port,):
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
        """Nothing more is told of a tournament's tables (the next start tells what is
        left); then the bot stops as it was built."""
        if "tournament_telling" in vars(self):
            self.tournament_telling.stop()
        if "retention" in vars(self):
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

    @staticmethod
    async def _catch_up(daily: DailyService) -> None:
        try:
            # a deal that ended while the bot was away is scored now
            await daily.catch_up()
        except Exception:
            log.exception("The daily deals could not be caught up")
