"""Settings, read once from the environment and an optional ``.env`` file into one typed object.

Real environment variables win over the ``.env`` file. The ``.env`` file is looked for in the
folder the bot is started from, which is also where the relative ``TUTE_DB_PATH`` is resolved.
"""

import dataclasses
import hashlib
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from dotenv import load_dotenv

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language

DEFAULT_DB_PATH: Final = Path("data") / "tute.db"
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one sentence that says what to do."""


class MissingTokenError(ConfigError):
    """``DISCORD_TOKEN`` is not set."""

    def __init__(self) -> None:
        super().__init__(
            "DISCORD_TOKEN is not set: put your bot's token in the environment or in a .env "
            "file in the folder you start the bot from (see .env.example); "
            "the sandbox (tute-bot --sandbox) needs no token."
        )


RETENTION_DAYS: Final = 30
"""Days a server's data is kept after the bot leaves it, unless TUTE_RETENTION_DAYS says."""
REFUSED_LIMIT: Final = 2_000
"""Refused requests in 10 minutes past which optional work stops, unless
TUTE_REFUSED_LIMIT says (as ``bot.metrics.guard``'s own default)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """Everything the bot reads from its environment. Build it with :func:`load_config`."""

    # Kept out of repr, so logging the config never shows the secret.
    token: str = field(repr=False)
    db_path: Path = DEFAULT_DB_PATH
    log_level: int = logging.INFO
    dev_guild_id: int | None = None
    language: Language = DEFAULT_LANGUAGE
    robot_delay: float = 1.2
    """Seconds a robot waits before it plays, so people can follow (TUTE_ROBOT_DELAY)."""
    think_budget: float = 0.4
    """Seconds a hard robot searches for one move (TUTE_THINK_BUDGET)."""
    robot_processes: int | None = None
    """Worker processes the hard robots search on (TUTE_ROBOT_PROCESSES): None, one per
    core; 0, threads of the bot's own process."""
    database_url: str | None = None
    """A PostgreSQL database (TUTE_DATABASE_URL) to keep everything in instead of the SQLite
    file at ``db_path``: what several processes of one bot share. Its password never shows
    in the repr."""
    shards: tuple[int, ...] | None = None
    """The shards this process runs (``--shards``); None: all of them."""
    shard_count: int | None = None
    """How many shards the whole bot has (``--shard-count``); None: as Discord says."""
    web_port: int | None = None
    """The port the web table (the Activity's page and sockets) listens on
    (TUTE_WEB_PORT); None: no web table."""
    web_host: str = "127.0.0.1"
    """Where it listens (TUTE_WEB_HOST): this machine alone by default, behind the proxy
    that Discord's Activity URL mapping reaches."""
    client_secret: str = field(default="", repr=False)
    """The application's OAuth2 secret (DISCORD_CLIENT_SECRET): a player of the Activity
    proves who they are with it. Never in the repr."""
    retention_days: int = RETENTION_DAYS
    """Days a server's data is kept after the bot leaves it (TUTE_RETENTION_DAYS): the bot
    coming back before then keeps everything; 0, it is erased at once."""
    web_peer_url: str | None = None
    """Where the bot's other processes reach this one's web table (TUTE_WEB_PEER_URL,
    ``http://host:port``), kept beside its shard leases, so that a page's socket that lands
    on another process is relayed here. None: one process, or no web table."""
    metrics_port: int | None = None
    """The port of ``/metrics``, ``/healthz`` and ``/readyz`` (TUTE_METRICS_PORT); None:
    not served."""
    metrics_host: str = "127.0.0.1"
    """Where they listen (TUTE_METRICS_HOST): this machine alone by default."""
    refused_limit: int = REFUSED_LIMIT
    """Requests Discord refused in 10 minutes past which optional work stops
    (TUTE_REFUSED_LIMIT; Discord bans the IP at 10,000)."""

    def web_secret(self) -> bytes:
        """The key that signs the web table's sessions, made from the client secret (the
        same in every process of the bot, and new when the secret is reset)."""
        if not self.client_secret:
            raise ConfigError("the web table needs DISCORD_CLIENT_SECRET")
        return hashlib.sha256(b"tute web sessions\0" + self.client_secret.encode()).digest()

    def __post_init__(self) -> None:
        _check_shards(self.shards, self.shard_count, self.database_url)
        if self.web_port is not None and not self.client_secret:
            raise ConfigError(
                "TUTE_WEB_PORT opens the web table, which needs DISCORD_CLIENT_SECRET (the "
                "application's OAuth2 secret, on its OAuth2 page) to know who its players are."
            )

    def __repr__(self) -> str:
        shown = []
        for item in dataclasses.fields(self):
            if not item.repr:
                continue
            value = getattr(self, item.name)
            if item.name == "database_url" and value is not None:
                value = mask_url(value)
            shown.append(f"{item.name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    def prepare_db_path(self) -> Path:
        """The database file's path, after creating its folder if it is missing."""
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        return self.db_path

    def database_target(self) -> str | Path:
        """Where the bot keeps everything: the PostgreSQL URL when one is set, else the
        SQLite file's path (its folder created)."""
        if self.database_url is not None:
            return self.database_url
        return self.prepare_db_path()

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process runs the whole bot (not only some of its shards)."""
        return self.shards is None or self.shards == tuple(range(self.shard_count or 0))


def load_config(
    environ: Mapping[str, str] | None = None,
    *,
    dotenv_path: Path | None = Path(".env"),
    shards: tuple[int, ...] | None = None,
    shard_count: int | None = None,
    require_token: bool = True,
) -> Config:
    """Read the settings; ``shards`` and ``shard_count`` come from the command line.

    With ``environ`` left out, ``dotenv_path`` (when it exists) is loaded into
    ``os.environ`` without overriding variables already set, and ``os.environ`` is read.
    With an explicit ``environ`` (tests), only that mapping is read. With
    ``require_token=False`` (commands that never log in, such as ``migrate-to-postgres``),
    a missing token is left empty.
    """
    if environ is None:
        if dotenv_path is not None and dotenv_path.is_file():
            load_dotenv(dotenv_path, override=False)
        environ = os.environ

    def setting(name: str) -> str | None:
        value = environ.get(name, "").strip()
        return value or None

    token = setting("DISCORD_TOKEN")
    if token is None and require_token:
        raise MissingTokenError
    return Config(
        token=token or "",
        db_path=Path(setting("TUTE_DB_PATH") or DEFAULT_DB_PATH),
        log_level=_parse_log_level(setting("TUTE_LOG_LEVEL")),
        dev_guild_id=_parse_guild_id(setting("TUTE_DEV_GUILD_ID")),
        language=_parse_language(setting("TUTE_LANGUAGE")),
        robot_delay=_parse_seconds("TUTE_ROBOT_DELAY", setting("TUTE_ROBOT_DELAY"), 1.2, 10.0),
        think_budget=_parse_seconds("TUTE_THINK_BUDGET", setting("TUTE_THINK_BUDGET"), 0.4, 5.0),
        robot_processes=_parse_processes(setting("TUTE_ROBOT_PROCESSES")),
        database_url=parse_database_url(setting("TUTE_DATABASE_URL")),
        shards=shards,
        shard_count=shard_count,
        web_port=parse_port(setting("TUTE_WEB_PORT")),
        web_host=setting("TUTE_WEB_HOST") or "127.0.0.1",
        client_secret=setting("DISCORD_CLIENT_SECRET") or "",
        web_peer_url=_parse_peer_url(setting("TUTE_WEB_PEER_URL")),
        retention_days=_parse_retention(setting("TUTE_RETENTION_DAYS")),
        metrics_port=parse_metrics_port(setting("TUTE_METRICS_PORT")),
        metrics_host=setting("TUTE_METRICS_HOST") or "127.0.0.1",
        refused_limit=_parse_refused_limit(setting("TUTE_REFUSED_LIMIT")),
    )


def parse_port(value: str | None, name: str = "TUTE_WEB_PORT", empty: str = "") -> int | None:
    """Setting ``name``, a port, as given (None when empty; ``empty`` says what that does)."""
    if value is None:
        return None
    if not (value.isascii() and value.isdecimal()) or not 0 < int(value) < 65536:
        raise ConfigError(f"{name} is {value!r}, but it must be a port number (1 to 65535){empty}.")
    return int(value)


def _parse_peer_url(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        port = None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or port is None
        or parts.path not in ("", "/")
        or parts.query
    ):
        raise ConfigError(
            f"TUTE_WEB_PEER_URL is {value!r}, but it must be where the bot's other processes"
            " reach this one's web table: http://host:port, such as http://10.0.0.5:8080."
        )
    return value.rstrip("/")


def parse_database_url(value: str | None, name: str = "TUTE_DATABASE_URL") -> str | None:
    """A PostgreSQL URL as given (None when empty); ``name`` is where it came from (the
    setting, or ``--to``), for the error."""
    if value is None:
        return None
    scheme, _, rest = value.partition("://")
    if f"{scheme}://" not in POSTGRES_SCHEMES or not rest:
        unset = ", or left empty to keep the SQLite file" if name == "TUTE_DATABASE_URL" else ""
        raise ConfigError(
            f"{name} is {mask_url(value)!r}, but it must be a PostgreSQL URL such as "
            f"postgresql://user:password@host:5432/tute{unset}."
        )
    return value


def mask_url(url: str) -> str:
    """``url`` with its password (before the host, or a ``password=`` parameter) as ***;
    a URL without one as it is."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "***"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        if ":" in userinfo:
            netloc = f"{userinfo.split(':', 1)[0]}:***@{host}"
    query = parts.query
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(key == "password" for key, _ in pairs):
        masked = [(key, "***" if key == "password" else value) for key, value in pairs]
        query = urlencode(masked, safe="/*:")
    if (netloc, query) == (parts.netloc, parts.query):
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_SHARD_PART = re.compile(r"(\d+)(?:-(\d+))?", re.ASCII)


def parse_shards(text: str) -> tuple[int, ...]:
    """The shards ``--shards`` names: ``5``, ``0-3`` or a list of both, ``0,2,4-6``
    (sorted, each once)."""
    found: set[int] = set()
    for part in text.split(","):
        match = _SHARD_PART.fullmatch(part.strip())
        if match is None:
            raise ConfigError(
                f"--shards is {text!r}, but it must be shard numbers and ranges such as "
                "0-3 or 0,2,4-6."
            )
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if last < first:
            raise ConfigError(
                f"--shards has the range {part.strip()!r}, which runs backwards: "
                f"write it {last}-{first}."
            )
        found.update(range(first, last + 1))
    return tuple(sorted(found))


def _check_shards(
    shards: tuple[int, ...] | None, shard_count: int | None, database_url: str | None
) -> None:
    if shard_count is not None and shard_count < 1:
        raise ConfigError(f"--shard-count is {shard_count}, but it must be 1 or more.")
    if shards is None:
        return
    if shard_count is None:
        raise ConfigError(
            "--shards needs --shard-count too: say how many shards the whole bot has, "
            "for example --shards 0-3 --shard-count 16."
        )
    if not shards:
        raise ConfigError("--shards names no shard: give at least one, such as 0 or 0-3.")
    outside = [shard for shard in shards if not 0 <= shard < shard_count]
    if outside:
        raise ConfigError(
            f"--shards names shard {outside[0]}, but with --shard-count {shard_count} the "
            f"shards are 0 to {shard_count - 1}."
        )
    if shards != tuple(range(shard_count)) and database_url is None:
        raise ConfigError(
            "--shards runs only some shards in this process, and several processes cannot "
            "share a SQLite file: set TUTE_DATABASE_URL to a PostgreSQL database they all use."
        )


def _parse_log_level(value: str | None) -> int:
    if value is None:
        return logging.INFO
    name = value.upper()
    if name not in LOG_LEVELS:
        raise ConfigError(
            f"TUTE_LOG_LEVEL is {value!r}, but it must be one of {', '.join(LOG_LEVELS)}."
        )
    return logging.getLevelNamesMapping()[name]


def _parse_guild_id(value: str | None) -> int | None:
    if value is None:
        return None
    if not (value.isascii() and value.isdecimal()) or int(value) == 0:
        raise ConfigError(
            f"TUTE_DEV_GUILD_ID is {value!r}, but it must be a server id (a positive whole "
            "number: right-click the server in Discord with Developer Mode on, Copy Server ID), "
            "or left empty."
        )
    return int(value)


def _parse_seconds(name: str, value: str | None, default: float, most: float) -> float:
    if value is None:
        return default
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= most:
        raise ConfigError(
            f"{name} is {value!r}, but it must be a number of seconds, 0 to {most:g}."
        )
    return seconds


def _parse_processes(value: str | None) -> int | None:
    if value is None:
        return None
    if not (value.isascii() and value.isdecimal()) or int(value) > 256:
        raise ConfigError(
            f"TUTE_ROBOT_PROCESSES is {value!r}, but it must be a whole number of worker "
            "processes, 0 (the robots think in threads of the bot) to 256, or left empty "
            "(one per core)."
        )
    return int(value)


MOST_RETENTION_DAYS: Final = 3650


def _parse_retention(value: str | None) -> int:
    if value is None:
        return RETENTION_DAYS
    if not (value.isascii() and value.isdecimal()) or int(value) > MOST_RETENTION_DAYS:
        raise ConfigError(
            f"TUTE_RETENTION_DAYS is {value!r}, but it must be the whole number of days a "
            f"server's data is kept after the bot leaves it, 0 (erased at once) to "
            f"{MOST_RETENTION_DAYS}, or left empty ({RETENTION_DAYS})."
        )
    return int(value)


def _parse_language(value: str | None) -> Language:
    if value is None:
        return DEFAULT_LANGUAGE
    for language in LANGUAGES:
        if value.lower() == language:
            return language
    raise ConfigError(f"TUTE_LANGUAGE is {value!r}, but it must be one of {', '.join(LANGUAGES)}.")


def _parse_refused_limit(value: str | None) -> int:
    if value is None:
        return REFUSED_LIMIT
    if not (value.isascii() and value.isdecimal()) or not 1 <= int(value) <= 9_999:
        raise ConfigError(
            f"TUTE_REFUSED_LIMIT is {value!r}, but it must be a number of refused requests"
            f" in 10 minutes, 1 to 9999 (Discord bans the IP at 10,000), or left empty"
            f" ({REFUSED_LIMIT})."
        )
    return int(value)


def parse_metrics_port(value: str | None) -> int | None:
    """TUTE_METRICS_PORT as given (None when empty)."""
    return parse_port(value, "TUTE_METRICS_PORT", ", or left empty to serve no metrics")
