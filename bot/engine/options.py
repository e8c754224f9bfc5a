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


class FortyFirst(str, Enum):
    """``forty_first``: what singing a 20 while holding the 40 does."""

    LOSE = "lose"
    """The 40 is lost (the default)."""
    STRICT = "strict"
    """A 20 is refused while the singer holds an unsung 40 (seeds/000)."""
    FREE = "free"
    """Nothing: the 40 may still be sung (seeds/001)."""


class ExchangeWindow(str, Enum):
    """``exchange_window`` (habanero): when the trump 7 (or 2) may take the turned card."""

    BEFORE_LEAD = "before_lead"
    BEFORE_DRAW = "before_draw"
    ANNOUNCE = "announce"


class PairsSing(str, Enum):
    """``pairs_sing``: one cante per trick won by the side, or one per partner."""

    SIDE = "side"
    EACH = "each"


class NextDealer(str, Enum):
    """``next_dealer`` (habanero): the next deal's dealer."""

    ROTATE = "rotate"
    LAST_TEN = "last_ten"


class SingUntil(str, Enum):
    """``sing_until``: when the cante window of the last trick's winner closes."""

    NEXT_CARD = "next_card"
    """At the next card played (the default)."""
    NEXT_TRICK = "next_trick"
    """When the next trick is complete, so also after leading (seeds/004)."""


class DealScore(str, Enum):
    """``deal_score`` (habanero): what one deal decides."""

    TARGET = "target"
    """A game to the target, over as many deals as it takes (the default)."""
    PER_DEAL = "per_deal"
    """Each deal is a round of its own, won by the higher score (seeds/000)."""


class Preset(str, Enum):
    """``rules``: a set of house rules named after the seed it comes from."""

    STANDARD = "standard"
    FOURNIER = "fournier"
    ONLINE = "online"
    SIXTY_FIVE = "sixty-five"
    PAREJAS = "parejas"
    HAVANIAN = "havanian"


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
    rules: Preset = Preset.STANDARD
    forty_first: FortyFirst = FortyFirst.LOSE
    sing_drawn: bool = True
    exchange_window: ExchangeWindow = ExchangeWindow.BEFORE_LEAD
    pairs_sing: PairsSing = PairsSing.SIDE
    tute_knights: bool = True
    auto_exchange: bool = True
    seats: int = 3
    next_dealer: NextDealer = NextDealer.ROTATE
    overtrump: bool = True
    sing_until: SingUntil = SingUntil.NEXT_CARD
    deal_score: DealScore = DealScore.TARGET

    def tute_allowed(self, variant: Variant) -> bool:
        if self.allow_tute is None:
            return VARIANTS[variant].tute_by_default
        return self.allow_tute

    def seats_at(self, variant: Variant) -> int:
        """The seats at a ``variant`` table: its players, and in arrastrado the option
        ``seats`` (with four, the dealer sits each deal out)."""
        if variant is Variant.ARRASTRADO:
            return self.seats
        return VARIANTS[variant].players

    def resolved(self, variant: Variant) -> Options:
        """The same options with the variant's default filled in for ``allow_tute``."""
        if self.allow_tute is not None:
            return self
        return replace(self, allow_tute=self.tute_allowed(variant))

    def to_dict(self, only_changed: bool = True, variant: Variant | None = None) -> dict[str, Any]:
        """Options as JSON values; by default only those that differ from the defaults and,
        given the ``variant``, from what the preset sets there (an option the host named
        back to its default under a preset is written, so it reads back the same)."""
        default = Options()
        preset = {} if variant is None else preset_options(variant, self.rules, {}, self)
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if (
                only_changed
                and value == getattr(default, f.name)
                and value == preset.get(f.name, value)
            ):
                continue
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out


OPTION_NAMES: Final = tuple(f.name for f in fields(Options))

HOUSE_RULES: Final = (
    "forty_first",
    "sing_drawn",
    "exchange_window",
    "pairs_sing",
    "tute_knights",
    "auto_exchange",
    "seats",
    "next_dealer",
    "overtrump",
    "sing_until",
    "deal_score",
)
"""The options of RULES.md "House rules from the seeds", in its order."""

_RANGES: Final = {
    "target": (1, 1000),
    "rounds": (1, 9),
    "bet": (0, 1_000_000_000),
    "turn_time": (10, 3600),
}
_ENUMS: Final[dict[str, type[Enum]]] = {
    "stock_duty": StockDuty,
    "scoring": Scoring,
    "rules": Preset,
    "forty_first": FortyFirst,
    "exchange_window": ExchangeWindow,
    "pairs_sing": PairsSing,
    "next_dealer": NextDealer,
    "sing_until": SingUntil,
    "deal_score": DealScore,
}
_CHOICES: Final = {"deck": (40, 36), "seats": (3, 4)}

_HABANERO: Final = frozenset({Variant.HABANERO})
_ARRASTRADO: Final = frozenset({Variant.ARRASTRADO})
_APPLIES: Final[dict[str, frozenset[Variant]]] = {
    "stock_duty": _HABANERO,
    "beat_partner": frozenset({Variant.PAIRS}),
    "capote": _HABANERO,
    "target": _HABANERO,
    "scoring": frozenset({Variant.HABANERO, Variant.PAIRS}),
    "deck": _ARRASTRADO,
    "plato": _ARRASTRADO,
    "exchange": frozenset({Variant.HABANERO, Variant.ARRASTRADO}),
    "sing_drawn": _HABANERO,
    "exchange_window": _HABANERO,
    "pairs_sing": frozenset({Variant.PAIRS}),
    "auto_exchange": _ARRASTRADO,
    "seats": _ARRASTRADO,
    "next_dealer": _HABANERO,
    "deal_score": _HABANERO,
}
"""The variants an option exists in; an option not listed exists in every variant."""

PRESETS: Final[dict[Preset, dict[str, Any]]] = {
    Preset.STANDARD: {},
    Preset.FOURNIER: {
        "forty_first": FortyFirst.FREE,
        "exchange_window": ExchangeWindow.ANNOUNCE,
        "pairs_sing": PairsSing.EACH,
        "auto_exchange": False,
        "next_dealer": NextDealer.LAST_TEN,
        "stock_duty": StockDuty.FREE,
    },
    Preset.ONLINE: {"forty_first": FortyFirst.STRICT, "sing_drawn": False},
    Preset.SIXTY_FIVE: {
        "scoring": Scoring.SIXTY_FIVE,
        "tute_knights": False,
        "stock_duty": StockDuty.FULL,
    },
    Preset.PAREJAS: {"overtrump": False, "undertrump": True},
    Preset.HAVANIAN: {
        "stock_duty": StockDuty.TRUMP,
        "exchange_window": ExchangeWindow.BEFORE_DRAW,
        "sing_until": SingUntil.NEXT_TRICK,
    },
}
"""What each preset sets (RULES.md "Presets") in every variant it exists in; only what
applies to the variant is set. ``PRESETS_BY_VARIANT`` says what differs in one variant."""

PRESETS_BY_VARIANT: Final[dict[Preset, dict[Variant, dict[str, Any]]]] = {
    # seeds/001's arrastrado sings the 40 before the 20
    Preset.FOURNIER: {Variant.ARRASTRADO: {"forty_first": FortyFirst.STRICT}},
    Preset.ONLINE: {
        Variant.ARRASTRADO: {"deck": 36},
        Variant.HABANERO: {"deal_score": DealScore.PER_DEAL},
    },
    # with four, the cuarenta comes before the veinte (seeds/003)
    Preset.SIXTY_FIVE: {Variant.PAIRS: {"forty_first": FortyFirst.STRICT}},
}

PRESET_VARIANTS: Final[dict[Preset, frozenset[Variant]]] = {
    Preset.PAREJAS: frozenset({Variant.PAIRS}),
    Preset.HAVANIAN: _HABANERO,
}
"""The variants a preset exists in; a preset not listed exists in every variant."""


def preset_applies(variant: Variant, preset: Preset) -> bool:
    """Whether preset ``preset`` exists at a ``variant`` table (``parejas`` is a pairs
    table's, ``havanian`` a habanero one's)."""
    return variant in PRESET_VARIANTS.get(preset, frozenset(Variant))


def not_applying(variant: Variant, name: str, options: Options | None = None) -> str | None:
    """Why option ``name`` does not exist at a ``variant`` table with these ``options``:
    ``variant`` (not in this variant), ``sixty_five`` or ``per_deal`` (no target or carry
    with that scoring), ``deck`` (only with the 40-card deck); None where it exists."""
    if variant not in _APPLIES.get(name, frozenset(Variant)):
        return "variant"
    if options is None:
        return None
    if name in ("target", "carry", "deal_score") and options.scoring is Scoring.SIXTY_FIVE:
        return "sixty_five"
    if name in ("target", "carry") and options.deal_score is DealScore.PER_DEAL:
        return "per_deal"
    if name in ("auto_exchange", "seats") and options.deck != 40:
        return "deck"
    return None


def option_applies(variant: Variant, name: str, options: Options | None = None) -> bool:
    """Whether option ``name`` exists at a ``variant`` table with these ``options``."""
    return not_applying(variant, name, options) is None


def preset_options(
    variant: Variant, preset: Preset, explicit: dict[str, Any], table: Options | None = None
) -> dict[str, Any]:
    """The values ``preset`` gives the options not named in ``explicit`` at a ``variant``
    table (those named explicitly win; an option that does not exist there, with the deck
    and scoring the table ends up with, or those of ``table`` where given, is not set)."""
    if not preset_applies(variant, preset):
        return {}
    values = PRESETS[preset] | PRESETS_BY_VARIANT.get(preset, {}).get(variant, {})
    values = {name: value for name, value in values.items() if name not in explicit}
    probe = table
    if probe is None:
        probe = Options(
            **{
                name: (explicit | values)[name]
                for name in ("deck", "scoring", "deal_score")
                if name in explicit or name in values
            }
        )
    return {name: value for name, value in values.items() if option_applies(variant, name, probe)}


def parse_options(variant: Variant, raw: dict[str, Any] | None, *, named: bool = True) -> Options:
    """Options from a JSON-like mapping: the preset ``rules`` first, then the options named.
    Unknown keys and values raise OptionError, and so does (with ``named``) an option named
    that does not exist in the variant, or a preset that does not."""
    if raw is None:
        return Options()
    if not isinstance(raw, dict):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise OptionError("options must be an object")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in OPTION_NAMES:
            raise OptionError(f"unknown option {key!r}")
        values[key] = _parse_value(key, value)
    preset = values.get("rules", Preset.STANDARD)
    options = Options(**(preset_options(variant, preset, values) | values))
    check_options(variant, options, named=set(values) if named else set())
    return options


def with_preset(variant: Variant, options: Options, named: set[str]) -> Options:
    """``options`` with its preset's values for the options not in ``named`` (a table
    opened with a preset and some options named)."""
    explicit = {name: getattr(options, name) for name in named if name in OPTION_NAMES}
    preset = preset_options(variant, options.rules, explicit)
    return replace(options, **preset) if preset else options


def _parse_value(key: str, value: Any) -> Any:
    kind = _ENUMS.get(key)
    if kind is not None:
        return _enum(kind, key, value)
    if key in _CHOICES:
        for choice in _CHOICES[key]:
            if not isinstance(value, bool) and value in (choice, str(choice)):
                return choice
        allowed = " or ".join(str(c) for c in _CHOICES[key])
        raise OptionError(f"option {key} must be {allowed}, not {value!r}")
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


def _enum(kind: type[Enum], key: str, value: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise OptionError(f"option {key} must be one of {allowed}, not {value!r}") from None


def _where(name: str) -> str:
    return ", ".join(v.value for v in Variant if v in _APPLIES.get(name, frozenset(Variant)))


def check_options(variant: Variant, options: Options, named: set[str] | None = None) -> None:
    """Refuse the combinations RULES.md does not define. ``named``: the options the host
    or the record named explicitly (by default those that differ from their default);
    each must exist in the variant."""
    if named is None:
        default = Options()
        named = {
            f.name for f in fields(options) if getattr(options, f.name) != getattr(default, f.name)
        }
    if options.deck not in VARIANTS[variant].dealings:
        dealt = ", ".join(v.value for v in Variant if options.deck in VARIANTS[v].dealings)
        raise OptionError(f"option deck {options.deck} exists only in {dealt}")
    if options.scoring is Scoring.SIXTY_FIVE and variant not in (Variant.HABANERO, Variant.PAIRS):
        raise OptionError("scoring sixty-five exists only in habanero and pairs")
    if options.plato and variant is not Variant.ARRASTRADO:
        raise OptionError("option plato exists only in arrastrado")
    if not preset_applies(variant, options.rules):
        where = ", ".join(v.value for v in PRESET_VARIANTS[options.rules])
        raise OptionError(f"preset {options.rules.value} exists only in {where}")
    for name in sorted(named, key=OPTION_NAMES.index):
        why = not_applying(variant, name, options)
        if why == "variant":
            raise OptionError(f"option {name} exists only in {_where(name)}")
        if why == "sixty_five":
            raise OptionError(f"option {name} does not apply with sixty-five scoring")
        if why == "per_deal":
            raise OptionError(f"option {name} does not apply with per-deal scoring")
        if why == "deck":
            raise OptionError(f"option {name} exists only with the 40-card deck")
