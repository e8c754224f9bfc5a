"""Settings, read once from the environment and an optional ``.env`` file into one typed object.

Real environment variables win over the ``.env`` file. The ``.env`` file is looked for in the
folder the bot is started from, which is also where the relative ``TUTE_DB_PATH`` is resolved.
"""

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from dotenv import load_dotenv

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language

DEFAULT_DB_PATH: Final = Path("data") / "tute.db"
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


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

    def prepare_db_path(self) -> Path:
        """The database file's path, after creating its folder if it is missing."""
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        return self.db_path


def load_config(
    environ: Mapping[str, str] | None = None, *, dotenv_path: Path | None = Path(".env")
) -> Config:
    """Read the settings.

    With ``environ`` left out, ``dotenv_path`` (when it exists) is loaded into
    ``os.environ`` without overriding variables already set, and ``os.environ`` is read.
    With an explicit ``environ`` (tests), only that mapping is read.
    """
    if environ is None:
        if dotenv_path is not None and dotenv_path.is_file():
            load_dotenv(dotenv_path, override=False)
        environ = os.environ

    def setting(name: str) -> str | None:
        value = environ.get(name, "").strip()
        return value or None

    token = setting("DISCORD_TOKEN")
    if token is None:
        raise MissingTokenError
    return Config(
        token=token,
        db_path=Path(setting("TUTE_DB_PATH") or DEFAULT_DB_PATH),
        log_level=_parse_log_level(setting("TUTE_LOG_LEVEL")),
        dev_guild_id=_parse_guild_id(setting("TUTE_DEV_GUILD_ID")),
        language=_parse_language(setting("TUTE_LANGUAGE")),
        robot_delay=_parse_seconds("TUTE_ROBOT_DELAY", setting("TUTE_ROBOT_DELAY"), 1.2, 10.0),
        think_budget=_parse_seconds("TUTE_THINK_BUDGET", setting("TUTE_THINK_BUDGET"), 0.4, 5.0),
        robot_processes=_parse_processes(setting("TUTE_ROBOT_PROCESSES")),
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


def _parse_language(value: str | None) -> Language:
    if value is None:
        return DEFAULT_LANGUAGE
    for language in LANGUAGES:
        if value.lower() == language:
            return language
    raise ConfigError(f"TUTE_LANGUAGE is {value!r}, but it must be one of {', '.join(LANGUAGES)}.")
