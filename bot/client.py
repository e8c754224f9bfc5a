"""The bot: start-up (translator, cogs, command sync) and the one error path."""

import importlib.util
import logging
import pkgutil
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from bot.config import Config
from bot.i18n import DEFAULT_LANGUAGE, language_of, t
from bot.storage import Database, open_database
from bot.storage.bus import Bus
from bot.tables.cluster import Cluster
from bot.tables.competition.tournaments import TournamentService
from bot.tables.daily import DailyService
from bot.tables.runtime import Runtime
from bot.tables.service import TableService
from bot.web.server import WebTable
from bot.web.sockets import Sockets

log = logging.getLogger(__name__)


def catalog_str(key: str) -> app_commands.locale_str:
    """A command name or description from the catalog: English in the command itself, the other
    languages supplied at sync time by :class:`CatalogTranslator`."""
    return app_commands.locale_str(t(key, DEFAULT_LANGUAGE), key=key)


class CatalogTranslator(app_commands.Translator):
    """Localizes every :func:`catalog_str` (command names and descriptions) from the catalog."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = language_of(locale.value)
        if not isinstance(key, str) or language == DEFAULT_LANGUAGE:
            return None
        return t(key, language)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one error path for commands, views and buttons: log the traceback, then tell the user
    ephemerally, in their language, that something went wrong."""
    log.error(
        "Error while handling %s for user %s",
        _describe(interaction),
        interaction.user.id,
        exc_info=error,
    )
    message = t("errors.generic", interaction.locale.value)
    try:
        await tell(interaction, message)
    except discord.HTTPException:
        # Expired interaction or Discord outage: the log above is all that can be done.
        log.warning("Could not tell user %s about the error", interaction.user.id, exc_info=True)


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer with ``text`` for the user alone: as the answer, or, after a "thinking" defer,
    as the edit of that deferred answer (what Discord documents; a followup taking its place
    is not), or else as a followup."""
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=True)
    elif response.type is discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=text)
    else:
        await interaction.followup.send(text, ephemeral=True)


def _describe(interaction: discord.Interaction[Any]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    if custom_id is not None:
        return f"component {custom_id!r}"
    return f"{interaction.type.name} interaction"


LoginFailure = discord.LoginFailure
"""Discord refused the token (for the entry point, which imports no discord)."""


def setup_logging(level: int) -> None:
    """The bot's logging, as discord.py formats it, on the root logger."""
    discord.utils.setup_logging(level=level, root=True)


PRIMARY_ENTRY_POINT = 4
"""The application command type of an Entry Point: the command Discord adds to the app's
global commands when its Activity is enabled, which opens the Activity from the App
Launcher. discord.py's tree does not know it."""


Refusal = Callable[[discord.Interaction[Any]], str | None]
"""Why a command may not run here, in the user's words (None: it may)."""
EntryPoint = Callable[[discord.Interaction[Any]], Awaitable[object]]
"""What answers the app's Entry Point command, when Discord leaves the answer to the app."""


class TuteTree(app_commands.CommandTree["TuteBot"]):
    """The command tree; every slash-command error goes through :func:`answer_error`.

    Before a command runs, each of its :attr:`refusals` may refuse it: the user is told why,
    privately, and nothing runs (a command that needs a server, used in a DM). The
    Activity's Entry Point command, which discord.py's tree does not know, is answered by
    :attr:`entry_point` (where its handler is the app's, ``APP_HANDLER``)."""

    def __init__(self, client: "TuteBot", **options: Any) -> None:
        super().__init__(client, **options)
        self.refusals: list[Refusal] = []
        self.entry_point: EntryPoint | None = None

    async def interaction_check(self, interaction: discord.Interaction["TuteBot"], /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        data: Any = interaction.data or {}
        if data.get("type") == PRIMARY_ENTRY_POINT:
            if self.entry_point is None:
                log.warning("The Entry Point command came, and nothing answers it")
            else:
                await self.entry_point(interaction)
            return False
        for refusal in self.refusals:
            text = refusal(interaction)
            if text is None:
                continue
            try:
                await tell(interaction, text)
            except discord.HTTPException:
                log.warning("Could not tell user %s why not", interaction.user.id, exc_info=True)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction["TuteBot"], error: app_commands.AppCommandError, /
    ) -> None:
        await answer_error(interaction, error)


COGS_PACKAGE = "cogs"


def cog_module_names() -> list[str]:
    """The extension modules of the ``cogs`` package: every module whose name does not start
    with an underscore (those are helpers shared by the cogs, such as ``cogs._base``)."""
    # found without importing the package: the cogs import this module, not the reverse
    spec = importlib.util.find_spec(COGS_PACKAGE)
    folders = spec.submodule_search_locations if spec is not None else None
    return sorted(
        info.name
        for info in pkgutil.iter_modules(folders or [], f"{COGS_PACKAGE}.")
        if not info.ispkg and not info.name.rpartition(".")[2].startswith("_")
    )


def _shards(config: Config) -> dict[str, Any]:
    """The shards this process runs: those given, or every one Discord asks for."""
    given: dict[str, Any] = {}
    if config.shard_count is not None:
        given["shard_count"] = config.shard_count
    if config.shards is not None:
        given["shard_ids"] = list(config.shards)
    return given


class TuteBot(commands.AutoShardedBot):
    """The Discord client. It asks for no privileged intent: everything goes through
    interactions (slash commands and buttons), so it never reads members or message text.

    It runs every shard Discord asks for, or, as one of several processes on one PostgreSQL
    database, the shards it is given (``--shards``, see :mod:`bot.tables.cluster`)."""

    # what the cogs stand on, each built once at the start (``assemble``): the database,
    # this process's shards, the table service and the card table's sockets (one of its
    # presenters), the card table (it listens where TUTE_WEB_PORT asks), the tournaments
    # and the daily deals
    db: Database
    cluster: Cluster
    tables: TableService
    sockets: Sockets
    web: WebTable
    tournaments: TournamentService
    daily: DailyService

    def __init__(self, config: Config, *, runtime: Runtime | None = None, **options: Any) -> None:
        """``runtime``: what the tables run on (the clock, how they wait, the seeds, the
        robot); the real ones unless a test or the sandbox brings its own."""
        super().__init__(
            # Prefix commands are not used; a mention is the only prefix that needs no
            # message-content intent.
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=discord.Intents.default(),
            tree_cls=TuteTree,
            # Ping nobody unless a message means to: the one that does (the /tute new
            # invitation) passes its own allowed_mentions, merged over this default.
            allowed_mentions=discord.AllowedMentions.none(),
            **_shards(config) | options,
        )
        self.config = config
        self.runtime = runtime or Runtime(clock=lambda: discord.utils.utcnow().timestamp())
        self._closing = False

    @property
    def tute_tree(self) -> TuteTree:
        """The command tree, with what may refuse a command before it runs and what answers
        the Entry Point command (:class:`TuteTree`)."""
        tree = self.tree
        if not isinstance(tree, TuteTree):
            raise TypeError("the bot's tree is a TuteTree")
        return tree

    async def setup_hook(self) -> None:
        # Order matters: resources the cogs use are opened first, the cogs load next (their
        # setup() may use those resources), and the command tree is synced last, once every
        # cog has added its commands.
        await self.tree.set_translator(CatalogTranslator())
        self.db = await open_database(self.config.database_target())
        self.cluster = self._cluster(self.db)
        await self.assemble()
        if await self._load_cogs():
            await self._sync_commands()
        else:
            # a sync now would take the failed cog's commands away from every server:
            # Discord keeps the commands synced last time, and they answer once it loads
            log.error("Not syncing the slash commands: a cog failed to load")

    async def assemble(self) -> None:
        """Build what the cogs stand on, once, in order (:class:`bot.app.TuteApp`)."""
        raise NotImplementedError("the bot is assembled by bot.app.TuteApp")

    async def close(self) -> None:
        """Stop the card table, the tournaments and the table clocks (keeping each turn's
        time left), then the database: once, whatever of them the start had built."""
        if self._closing:
            await super().close()
            return
        self._closing = True
        built = vars(self)
        if "web" in built:
            await self.web.stop()
        if "tournaments" in built:
            self.tournaments.stop()
        if "daily" in built:
            self.daily.stop()
        if "tables" in built:
            await self.tables.suspend()
        if "cluster" in built:
            await self.cluster.stop()
        await super().close()
        if "db" in built:
            await self.db.close()

    def _cluster(self, db: Database) -> Cluster:
        """This process's place among the bot's processes: every shard (the default), or
        those of ``--shards``, which then talk to the others over the database."""
        config = self.config
        cluster = Cluster(
            db,
            shard_count=config.shard_count or 1,
            shards=config.shards,
            clock=lambda: discord.utils.utcnow().timestamp(),
            peer_url=config.web_peer_url,
        )
        if not cluster.whole and config.database_url is not None:
            cluster.bus = Bus(config.database_url)
        cluster.on_lost = self._shards_lost
        return cluster

    async def _shards_lost(self) -> None:
        # the tables first: close() would keep their clocks, saving over the new holder's
        if "tables" in vars(self):
            self.tables.abandon()
        self.loop.create_task(self.close(), name="shards-lost")

    async def _load_cogs(self) -> bool:
        """Load every cog; whether all of them loaded."""
        loaded: list[str] = []
        failed = False
        for name in cog_module_names():
            try:
                await self.load_extension(name)
            except commands.ExtensionError:
                log.exception("Could not load cog %s; starting without it", name)
                failed = True
            else:
                loaded.append(name)
        log.info("Loaded cogs: %s", ", ".join(loaded) or "none")
        return not failed

    async def _sync_commands(self) -> None:
        guild_id = self.config.dev_guild_id
        try:
            if guild_id is None:
                synced = await sync_global_commands(
                    self.tree,
                    self.http,
                    self.application_id,
                    user_install=user_install_of(self.application),
                )
                if synced is None:
                    return
                where = "globally"
            else:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                where = f"to server {guild_id}"
        except discord.HTTPException:
            # The commands synced last time keep working, so this is not worth stopping for.
            log.exception("Could not sync the slash commands")
            return
        log.info("Synced %d slash commands %s", len(synced), where)


ENTRY_POINT_REMOVED = 50240
"""Discord's error for a bulk overwrite of the global commands that leaves the app's Entry
Point out: it may not be removed that way."""
ENTRY_POINT_FIELDS = (
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "type",
    "handler",
    "integration_types",
    "contexts",
    "default_member_permissions",
    "nsfw",
)
"""What of a fetched Entry Point goes back in a bulk overwrite: the command as Discord holds
it (its ``handler``: 1, the app answers; 2, Discord launches the Activity)."""


USER_INSTALL = 1
"""The integration type of an app installed to a user (0: to a server)."""
PRIVATE_CHANNEL = 2
"""The interaction context of group DMs and DMs between members, which only a user install
reaches (0: a server, 1: the DM with the bot)."""


def user_install_of(application: discord.AppInfo | None) -> bool | None:
    """Whether the application may be installed to a user: its ``integration_types_config``
    (the Developer Portal's Installation page; "0" a server install, "1" a user install) as
    read at login, right before the sync (``GET /oauth2/applications/@me``, the application
    object ``GET /applications/@me`` gives too). None when it does not say."""
    if application is None:
        return None
    if application.user_integration_config is not None:
        return True
    if application.guild_integration_config is not None:
        return False
    return None


def for_servers_only(payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands as offered without a user install: no user integration type, and no
    group DMs or DMs between members (what only a user install reaches); a command offered
    to user installs alone is left out."""
    narrowed: list[dict[str, Any]] = []
    for command in payload:
        types = command.get("integration_types")
        if types is None or USER_INSTALL not in types:
            narrowed.append(command)
            continue
        kept = [kind for kind in types if kind != USER_INSTALL]
        if not kept:
            continue
        command = {**command, "integration_types": kept}
        contexts = command.get("contexts")
        if contexts is not None:
            command["contexts"] = [where for where in contexts if where != PRIVATE_CHANNEL]
        narrowed.append(command)
    return narrowed


def offers_user_install(payload: list[dict[str, Any]]) -> bool:
    return any(USER_INSTALL in (command.get("integration_types") or ()) for command in payload)


def entry_points(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Entry Point commands among fetched global commands, as a bulk overwrite keeps them."""
    return [
        {key: command[key] for key in ENTRY_POINT_FIELDS if key in command}
        for command in commands
        if command.get("type") == PRIMARY_ENTRY_POINT
    ]


async def sync_global_commands(
    tree: app_commands.CommandTree[Any],
    http: Any,
    application_id: int | None,
    *,
    user_install: bool | None = None,
) -> list[dict[str, Any]] | None:
    """Overwrite the application's global commands with the tree's (translated, as
    ``tree.sync()`` sends them), keeping the Entry Point command Discord added for the
    Activity: a bulk overwrite without it is refused (50240), and one that removed it would
    take the Activity from the App Launcher. The global commands are read first, with their
    localizations (``GET /applications/{id}/commands?with_localizations=true``: the Entry
    Point goes back whole, its names in other languages too); if they cannot be, nothing is
    overwritten (None, logged): the commands of the last sync stay. An Entry Point that
    appears between the read and the overwrite (50240) is read again, once.

    ``user_install`` is whether the application may be installed to a user
    (:func:`user_install_of`): False, the commands are offered to server installs only; None
    (it does not say), as the tree declares them, and an overwrite Discord refuses (400)
    while it offers user installs is made again once without them, logged: Discord may
    refuse the whole overwrite when User Install is off. ``http`` is the client's HTTP
    (``bot.http``). What Discord holds after the sync."""
    if application_id is None:
        raise discord.MissingApplicationID
    translator = tree.translator
    payload: list[dict[str, Any]] = []
    for command in tree.get_commands():
        if translator is None:
            payload.append(command.to_dict(tree))
        else:
            payload.append(await command.get_translated_payload(tree, translator))
    if user_install is False and offers_user_install(payload):
        log.info(
            "User Install is off for this application (Developer Portal, Installation): "
            "syncing the slash commands for servers only"
        )
        payload = for_servers_only(payload)
    kept = await _held_entry_points(http, application_id)
    if kept is None:
        return None
    read_again = narrowed = False
    while True:
        try:
            return await _overwrite(http, application_id, payload, kept)
        except discord.HTTPException as error:
            if error.code == ENTRY_POINT_REMOVED and not read_again:
                read_again = True
                log.warning(
                    "An Entry Point command appeared while syncing: reading the commands again"
                )
                kept = await _held_entry_points(http, application_id)
                if kept is None:
                    return None
            elif (
                error.status == 400
                and error.code != ENTRY_POINT_REMOVED
                and not narrowed
                and user_install is None
                and offers_user_install(payload)
            ):
                narrowed = True
                log.warning(
                    "Discord refused the slash commands offered to user installs (%s %s: %s);"
                    " syncing them again for servers only. To offer /tute in DMs and group DMs, turn"
                    " on User Install (Developer Portal, Installation) and restart the bot.",
                    error.status,
                    error.code,
                    error.text,
                )
                payload = for_servers_only(payload)
            else:
                raise


GLOBAL_COMMANDS = "/applications/{application_id}/commands"


async def _held_entry_points(http: Any, application_id: int) -> list[dict[str, Any]] | None:
    """The Entry Points among the global commands Discord holds, read with their
    localizations; None (logged) when they cannot be read."""
    route = Route("GET", GLOBAL_COMMANDS, application_id=application_id)
    try:
        held: list[dict[str, Any]] = await http.request(
            route, params={"with_localizations": "true"}
        )
    except discord.HTTPException:
        log.exception("Not syncing the slash commands: the global ones could not be read")
        return None
    return entry_points(held)


async def _overwrite(
    http: Any, application_id: int, payload: list[dict[str, Any]], kept: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    synced: list[dict[str, Any]] = await http.bulk_upsert_global_commands(
        application_id, payload=[*payload, *kept]
    )
    if kept:
        log.info("Kept the Entry Point command %r in the sync", kept[0].get("name"))
    return synced
