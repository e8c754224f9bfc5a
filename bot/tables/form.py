"""The lobby's Settings form: the table options a host changes after opening (``/tute new``
names only what a host decides when opening), the values each offers at a table, and the
change itself, checked as the engine checks a table's options.

Every value travels as it is typed (``true``, ``sixty-five``, ``36``), as in ``house``; the
cogs put each in words. A refusal is a :class:`TableError`, as everywhere in the service.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from bot.engine import OptionError, Options, Preset, Variant
from bot.engine.options import (
    check_options,
    not_applying,
    option_applies,
    parse_options,
    preset_applies,
)
from bot.engine.variants import VARIANTS

from .errors import TableError
from .house import typed_value, values_of
from .model import Status, Table

FORM_OPTIONS: Final = (
    "rules",
    "turn_time",
    "competitive",
    "spectators",
    "allow_tute",
    "stock_duty",
    "beat_partner",
    "undertrump",
    "exchange",
    "capote",
    "scoring",
    "target",
    "deck",
    "plato",
    "auto_exchange",
    "seats",
)
"""The options of the form, in the order it shows them."""
_KEPT: Final = ("auto_exchange", "seats")
"""Options of the form that another change never drops silently (the deck of 36 while
four sit at an arrastrado table): that change is refused, saying why."""

TURN_TIMES: Final = (15, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600)
"""The seconds a turn may last, as the form offers them (with the table's own, if other)."""
TARGETS: Final = (30, 51, 61, 81, 101, 121, 151, 201, 301, 501)
"""The points a habanero game may go to, as the form offers them (with the table's own)."""

_DEFAULTS: Final = Options()
_NOT_WITH: Final = {"sixty_five": "option_sixty_five", "per_deal": "option_per_deal"}


def form_options(variant: Variant, options: Options) -> tuple[str, ...]:
    """The options the form shows at a ``variant`` table with these ``options``: those that
    exist there (a target, say, only while the scoring has one)."""
    return tuple(name for name in FORM_OPTIONS if option_applies(variant, name, options))


def current(variant: Variant, options: Options, name: str) -> str:
    """The value option ``name`` has at the table, as typed (tute: as the variant plays it
    when the host left it alone)."""
    if name == "allow_tute":
        return typed_value(name, options.tute_allowed(variant))
    return typed_value(name, getattr(options, name))


def _with(values: tuple[int, ...], own: int) -> tuple[str, ...]:
    return tuple(str(v) for v in sorted({*values, own}))


def choices(variant: Variant, options: Options, name: str) -> tuple[str, ...]:
    """The values option ``name`` may take at the table, as typed, the current one among
    them."""
    if name == "turn_time":
        return _with(TURN_TIMES, options.turn_time)
    if name == "target":
        return _with(TARGETS, options.target)
    if name == "deck":
        return tuple(str(deck) for deck in VARIANTS[variant].dealings)
    if name == "allow_tute":
        return ("true", "false")
    if name == "rules":  # the presets of the variant (parejas: pairs; havanian: habanero)
        return tuple(preset.value for preset in Preset if preset_applies(variant, preset))
    return values_of(name)


def may_change(table: Table, user_id: int) -> None:
    """Only the host changes the settings, and only before the game."""
    if user_id != table.host_id:
        raise TableError("settings_host")
    if table.status is not Status.LOBBY:
        raise TableError("settings_started")


def _parsed(name: str, typed: str) -> Any:
    default = getattr(_DEFAULTS, name)
    if name == "allow_tute" or isinstance(default, bool):
        return typed == "true"
    if isinstance(default, int):
        return int(typed)
    return type(default)(typed)


def changed(variant: Variant, options: Options, name: str, typed: str) -> Options:
    """``options`` with option ``name`` set to ``typed``. A value the form does not offer
    (a form left open while another change took the option away) is refused; an option of
    the form that no longer exists with the new value (the target, once the scoring has
    none) goes back to its default; what the engine still refuses is refused."""
    if name not in form_options(variant, options) or typed not in choices(variant, options, name):
        raise TableError("settings_stale")
    if name == "rules":
        return _under_preset(variant, options, typed)
    value = _parsed(name, typed)
    if name == "allow_tute" and value == VARIANTS[variant].tute_by_default:
        value = None  # as the variant plays it: the table does not name it
    new = replace(options, **{name: value})
    gone = {
        other: getattr(_DEFAULTS, other)
        for other in FORM_OPTIONS
        if other not in _KEPT
        and getattr(new, other) != getattr(_DEFAULTS, other)
        and not option_applies(variant, other, new)
    }
    new = replace(new, **gone)
    for other in new.to_dict():
        why = not_applying(variant, other, new)
        if why is not None:
            raise TableError(_NOT_WITH.get(why, "option_40"), option=other)
    try:
        check_options(variant, new)
    except OptionError as error:
        raise TableError("bad_options", why=str(error)) from None
    return new


def _under_preset(variant: Variant, options: Options, preset: str) -> Options:
    """The table's options under another preset, as ``/tute new rules:`` sets them: the
    preset's values, under every option the host named (those that differ from the
    defaults and from what the former preset set). What still does not go together is
    refused."""
    former = parse_options(variant, {"rules": options.rules.value})  # the preset alone
    every = options.to_dict(only_changed=False)
    named = {k: v for k, v in every.items() if getattr(options, k) != getattr(former, k)}
    # a setting of the form that no longer exists under the new preset (the target, once
    # its scoring has none) goes back to its default, as when the scoring itself changes
    shaping = {k: getattr(options, k) for k in ("scoring", "deal_score", "deck") if k in named}
    probe = replace(parse_options(variant, {"rules": preset}), **shaping)
    named = {
        k: v
        for k, v in named.items()
        if k not in FORM_OPTIONS or k in _KEPT or option_applies(variant, k, probe)
    }
    try:
        return parse_options(variant, named | {"rules": preset})
    except OptionError as error:
        raise TableError("bad_options", why=str(error)) from None


def change(table: Table, user_id: int, name: str, typed: str) -> None:
    """The host sets option ``name`` of their lobby to ``typed``."""
    may_change(table, user_id)
    options = changed(table.variant, table.options, name, typed)
    seats = options.seats_at(table.variant)
    if seats < len(table.seats):
        if any(seat is not None for seat in table.seats[seats:]):
            raise TableError("settings_seats")  # nobody is unseated by a setting
        del table.seats[seats:]
    table.seats.extend([None] * (seats - len(table.seats)))
    table.options = options
