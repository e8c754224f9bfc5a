"""Table options, with their defaults and validation (RULES.md); the variants are in
``variants``."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, Final

from .variants import VARIANTS, Variant


class StockDuty(str, Enum):
    """The habanero option ``stock_duty``, and so also the duty in force at a play: once
    there is no stock (or in a variant without one) it is always FULL (see ``duty``)."""

    FREE = "free"
    TRUMP = "trump"
    FULL = "full"


class Scoring(str, Enum):
    MOST = "most"
    SIXTY_FIVE = "sixty-five"


class OptionError(ValueError):
    """An option that does not exist, or a value it cannot take."""


@dataclass(frozen=True, slots=True)
class Options:
    """Every table option of RULES.md. ``allow_tute=None`` means the variant's default."""

    stock_duty: StockDuty = StockDuty.FREE
    beat_partner: bool = True
    undertrump: bool = False
    exchange: bool = True
    capote: bool = True
    allow_tute: bool | None = None
    target: int = 101
    scoring: Scoring = Scoring.MOST
    rounds: int = 1
    deck: int = 40
    plato: bool = False
    bet: int = 0
    competitive: bool = True
    turn_time: int = 60
    private: bool = False
    spectators: bool = True

    def tute_allowed(self, variant: Variant) -> bool:
        if self.allow_tute is None:
            return VARIANTS[variant].tute_by_default
        return self.allow_tute

    def resolved(self, variant: Variant) -> Options:
        """The same options with the variant's default filled in for ``allow_tute``."""
        if self.allow_tute is not None:
            return self
        return replace(self, allow_tute=self.tute_allowed(variant))

    def to_dict(self, only_changed: bool = True) -> dict[str, Any]:
        """Options as JSON values; by default only those that differ from the defaults."""
        default = Options()
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if only_changed and value == getattr(default, f.name):
                continue
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out


OPTION_NAMES: Final = tuple(f.name for f in fields(Options))

_RANGES: Final = {
    "target": (1, 1000),
    "rounds": (1, 5),
    "bet": (0, 1_000_000_000),
    "turn_time": (10, 3600),
}


def parse_options(variant: Variant, raw: dict[str, Any] | None) -> Options:
    """Options from a JSON-like mapping; unknown keys and values raise OptionError."""
    if raw is None:
        return Options()
    if not isinstance(raw, dict):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise OptionError("options must be an object")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in OPTION_NAMES:
            raise OptionError(f"unknown option {key!r}")
        values[key] = _parse_value(key, value)
    options = Options(**values)
    check_options(variant, options)
    return options


def _parse_value(key: str, value: Any) -> Any:
    if key == "stock_duty":
        return _enum(StockDuty, key, value)
    if key == "scoring":
        return _enum(Scoring, key, value)
    if key == "deck":
        if value in (40, "40"):
            return 40
        if value in (36, "36"):
            return 36
        raise OptionError(f"option deck must be 40 or 36, not {value!r}")
    if key == "allow_tute" and value is None:
        return None
    if key in _RANGES:
        low, high = _RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise OptionError(f"option {key} must be a whole number from {low} to {high}")
        return value
    if not isinstance(value, bool):
        raise OptionError(f"option {key} must be true or false, not {value!r}")
    return value


def _enum(kind: type[StockDuty] | type[Scoring], key: str, value: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise OptionError(f"option {key} must be one of {allowed}, not {value!r}") from None


def check_options(variant: Variant, options: Options) -> None:
    """Refuse the combinations RULES.md does not define."""
    if options.deck not in VARIANTS[variant].dealings:
        dealt = ", ".join(v.value for v in Variant if options.deck in VARIANTS[v].dealings)
        raise OptionError(f"option deck {options.deck} exists only in {dealt}")
    if options.scoring is Scoring.SIXTY_FIVE and variant not in (Variant.HABANERO, Variant.PAIRS):
        raise OptionError("scoring sixty-five exists only in habanero and pairs")
    if options.plato and variant is not Variant.ARRASTRADO:
        raise OptionError("option plato exists only in arrastrado")
