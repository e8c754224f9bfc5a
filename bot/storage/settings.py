"""A server's settings: starting chips, the daily grant, the default turn time, the language of
public messages, how hands are delivered, who may open tables, how many may be open, and how
games are rated."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from .base import Conn, Database

Language = Literal["en", "es"]
HandDelivery = Literal["dm", "ephemeral"]

LANGUAGES: Final[tuple[str, ...]] = get_args(Language)
HAND_DELIVERIES: Final[tuple[str, ...]] = get_args(HandDelivery)

# Bounds a server may choose within (the schema's CHECKs are the looser, last line).
MAX_CHIPS_SETTING: Final = 1_000_000
TURN_TIME_RANGE: Final = (10, 3600)
MAX_TABLES_RANGE: Final = (1, 50)
ROBOT_WEIGHT_RANGE: Final = (0, 100)
MIN_RATED_GAMES_RANGE: Final = (1, 100)
PAIR_DAILY_CAP_RANGE: Final = (0, 100)
MIN_DAYS_RANGE: Final = (0, 3650)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """What a server has chosen; a server that never chose gets these defaults."""

    starting_chips: int = 1000
    daily_grant: int = 100
    turn_time: int = 60
    language: Language | None = None
    """None: the bot's own default (``TUTE_LANGUAGE``)."""
    hand_delivery: HandDelivery = "dm"
    opener_role_id: int | None = None  # None: every member may open tables
    max_tables: int = 10
    robot_rating_weight: int = 0
    """Percent of a full update that a game of one member against robots gives its rating
    (0: such games are not rated)."""
    min_rated_games: int = 5
    """Rated games a member needs to be listed on the rating leaderboard."""
    pair_daily_cap: int = 10
    """Games a day (UTC) two members may play together and still be rated (0: no limit)."""
    min_account_days: int = 0
    """How old (days) a member's Discord account must be for the daily grant and rated play."""
    min_member_days: int = 0
    """How long (days) they must have been in the server for the same."""
    daily_experience: bool = False
    """Whether a finished daily deal gives experience (as a friendly game does not)."""

    def old_enough(self, account_created: float | None, joined: float | None, now: float) -> bool:
        """Whether a member whose account was created at ``account_created`` and who joined
        the server at ``joined`` (seconds since the epoch; None: unknown, taken as new) meets
        both minimums at ``now``."""
        day = 86_400.0
        if self.min_account_days and (
            account_created is None or now - account_created < self.min_account_days * day
        ):
            return False
        return not (
            self.min_member_days and (joined is None or now - joined < self.min_member_days * day)
        )

    def language_or(self, default: Language) -> Language:
        """The language of the server's public messages: its choice, else ``default``."""
        return self.language or default


DEFAULT_SETTINGS: Final = GuildSettings()
SETTING_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in dataclasses.fields(GuildSettings))


class InvalidSetting(ValueError):
    """A setting got a value it cannot take; ``name`` says which one."""

    def __init__(self, name: str, value: object, reason: str) -> None:
        super().__init__(f"{name} = {value!r}: {reason}")
        self.name = name
        self.value = value
        self.reason = reason


def _whole(name: str, value: object, low: int, high: int) -> int:
    # bool is an int subclass, but True chips is a bug in the caller
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidSetting(name, value, "must be a whole number")
    if not low <= value <= high:
        raise InvalidSetting(name, value, f"must be between {low} and {high}")
    return value


_WHOLE: Final[dict[str, tuple[int, int]]] = {
    "starting_chips": (0, MAX_CHIPS_SETTING),
    "daily_grant": (0, MAX_CHIPS_SETTING),
    "turn_time": TURN_TIME_RANGE,
    "max_tables": MAX_TABLES_RANGE,
    "robot_rating_weight": ROBOT_WEIGHT_RANGE,
    "min_rated_games": MIN_RATED_GAMES_RANGE,
    "pair_daily_cap": PAIR_DAILY_CAP_RANGE,
    "min_account_days": MIN_DAYS_RANGE,
    "min_member_days": MIN_DAYS_RANGE,
}
"""The settings that are whole numbers, and the bounds of each."""


def whole_bounds(name: str) -> tuple[int, int] | None:
    """The lowest and highest value of a setting that is a whole number (None: another)."""
    return _WHOLE.get(name)


def validate(name: str, value: object) -> object:
    """The value ``name`` would be stored with, or :class:`InvalidSetting`."""
    bounds = _WHOLE.get(name)
    if bounds is not None:
        return _whole(name, value, *bounds)
    if name == "daily_experience":
        if not isinstance(value, bool):
            raise InvalidSetting(name, value, "must be true or false")
        return int(value)
    if name == "language":
        if value is not None and value not in LANGUAGES:
            raise InvalidSetting(name, value, f"must be one of {', '.join(LANGUAGES)}")
        return value
    if name == "hand_delivery":
        if value not in HAND_DELIVERIES:
            raise InvalidSetting(name, value, f"must be one of {', '.join(HAND_DELIVERIES)}")
        return value
    if name == "opener_role_id":
        if value is None:
            return None
        return _whole(name, value, 1, 2**63 - 1)
    raise InvalidSetting(name, value, "is not a setting")


async def get_settings(source: Database | Conn, guild_id: int) -> GuildSettings:
    """The server's settings; the defaults when it never changed any."""
    sql = f"SELECT {', '.join(SETTING_NAMES)} FROM guild_settings WHERE guild_id = ?"
    row = await source.fetchone(sql, (guild_id,))
    if row is None:
        return DEFAULT_SETTINGS
    values = dict(zip(SETTING_NAMES, tuple(row), strict=True))
    values["daily_experience"] = bool(values["daily_experience"])  # stored as 0 or 1
    return GuildSettings(**values)


async def update_settings(conn: Conn, guild_id: int, **changes: Any) -> GuildSettings:
    """Change some settings (validated all together first: one bad value changes nothing) and
    return the server's settings after the change. Pass ``conn`` from ``db.transaction()``."""
    checked = {name: validate(name, value) for name, value in changes.items()}
    if not checked:
        return await get_settings(conn, guild_id)
    # The column names come from SETTING_NAMES (validate refuses any other), never from input.
    names = list(checked)
    await conn.execute(
        f"INSERT INTO guild_settings (guild_id, {', '.join(names)})"
        f" VALUES (?{', ?' * len(names)})"
        f" ON CONFLICT (guild_id) DO UPDATE SET"
        f" {', '.join(f'{n} = excluded.{n}' for n in names)}",
        (guild_id, *checked.values()),
    )
    return await get_settings(conn, guild_id)
