"""The options a host opens a table with: the house rules typed as ``name=value`` pairs
(``/tute new house:``), what to suggest while they are typed, and the preset filled in
under the options the host named (RULES.md "House rules from the seeds").

A refusal is a :class:`TableError` whose key and parameters the cogs put in the user's
language; what a user typed travels in the parameter ``typed``, raw (the cogs escape it).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, Final

from bot.engine import OptionError, Options, Variant
from bot.engine.options import (
    HOUSE_RULES,
    OPTION_NAMES,
    PRESET_VARIANTS,
    check_options,
    not_applying,
    option_applies,
    preset_applies,
    with_preset,
)

from .errors import TableError

SEATS: Final = ("3", "4")
"""The values of ``seats`` (RULES.md: arrastrado with three or four at the table)."""

_DEFAULTS: Final = Options()
_SEPARATOR: Final = re.compile(r"[\s,;]+")
_EQUALS: Final = re.compile(r"\s*=\s*")
_NOT_WITH: Final = {"sixty_five": "option_sixty_five", "per_deal": "option_per_deal"}
"""The refusal of an option the table's scoring leaves out (else: the 40-card deck's)."""
_TYPED_SHOWN: Final = 40
"""At most this many characters of what a user typed go back in a refusal."""


def values_of(name: str) -> tuple[str, ...]:
    """The values house rule ``name`` takes, as typed, its default first."""
    default = getattr(_DEFAULTS, name)
    if isinstance(default, Enum):
        return tuple(str(member.value) for member in type(default))
    if isinstance(default, bool):
        return ("true", "false") if default else ("false", "true")
    return SEATS


def typed_value(name: str, value: Any) -> str:
    """An option's value as it is typed: ``strict``, ``false``, ``4``."""
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def house_rules_of(variant: Variant | None, options: Options | None = None) -> tuple[str, ...]:
    """The house rules that exist at a ``variant`` table with these ``options`` (every
    one while the variant is not chosen yet), in RULES.md's order."""
    if variant is None:
        return HOUSE_RULES
    return tuple(name for name in HOUSE_RULES if option_applies(variant, name, options))


def _shown(text: str) -> str:
    return text if len(text) <= _TYPED_SHOWN else text[: _TYPED_SHOWN - 1] + "…"


def _canonical(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _value(name: str, typed: str) -> Any:
    """The value of house rule ``name`` that ``typed`` names (case and ``-``/``_`` aside)."""
    allowed = values_of(name)
    wanted = typed.strip().lower()
    for candidate in (wanted, wanted.replace("-", "_")):
        if candidate in allowed:
            default = getattr(_DEFAULTS, name)
            if isinstance(default, Enum):
                return type(default)(candidate)
            if isinstance(default, bool):
                return candidate == "true"
            return int(candidate)
    raise TableError("house_value", option=name, typed=_shown(typed), values=", ".join(allowed))


def pairs_of(text: str) -> list[str]:
    """The ``name=value`` pairs of a ``house`` text, in order: separated by spaces, commas
    or semicolons, with or without spaces around ``=``."""
    return [pair for pair in _SEPARATOR.split(_EQUALS.sub("=", text.strip())) if pair]


def parse_house(variant: Variant, text: str) -> dict[str, Any]:
    """The house rules named in ``text`` (``forty_first=strict sing_drawn=false``), each
    with its value. Names and values are RULES.md's, in any case. A pair that is not
    ``name=value``, a name that is no house rule, a value the rule does not take, a rule
    named twice or one that does not exist in the variant is refused."""
    found: dict[str, Any] = {}
    for pair in pairs_of(text):
        name, equals, typed = pair.partition("=")
        if not equals or not name or not typed:
            raise TableError("house_pair", typed=_shown(pair))
        key = _canonical(name)
        if key not in HOUSE_RULES:
            known = ", ".join(house_rules_of(variant)) or "-"
            raise TableError("house_unknown", typed=_shown(name), names=known)
        if key in found:
            raise TableError("house_twice", option=key)
        if not option_applies(variant, key):
            raise _not_here(variant, key)
        found[key] = _value(key, typed)
    return found


def _not_here(variant: Variant, name: str) -> TableError:
    where = [v.value for v in Variant if option_applies(v, name)]
    return TableError("option_not_here", option=name, variant=variant.value, variants=where)


def opening_options(
    variant: Variant, options: Options, named: set[str], *, quiet: frozenset[str] = frozenset()
) -> Options:
    """The options a table opens with: ``options`` as the host gave them, the preset
    (``rules``) filled in under those not in ``named``. Each option named must exist in the
    variant, except those in ``quiet`` (options the host picked from a form that offers them
    in every variant) left at their default, which change nothing."""
    named = {n for n in named if n in OPTION_NAMES}
    checked = {
        n
        for n in named
        if n not in quiet
        or getattr(options, n) != getattr(_DEFAULTS, n)
        or option_applies(variant, n)
    }
    if not preset_applies(variant, options.rules):
        where = [v.value for v in Variant if v in PRESET_VARIANTS[options.rules]]
        raise TableError("preset_not_here", preset=options.rules.value, variants=where)
    options = with_preset(variant, options, named)
    for name in sorted(checked, key=OPTION_NAMES.index):
        why = not_applying(variant, name, options)
        if why == "variant":
            raise _not_here(variant, name)
        if why is not None:
            raise TableError(_NOT_WITH.get(why, "option_40"), option=name)
    try:
        check_options(variant, options, checked)
    except OptionError as error:  # a combination the checks above do not name
        raise TableError("bad_options", why=str(error)) from None
    return options


def completions(
    variant: Variant | None, typed: str, options: Options | None = None
) -> list[tuple[str, str, str]]:
    """What to offer while ``typed`` is being written into ``house``: each
    ``(the whole text it would make, the rule, its value)``, for the house rules of the
    variant not named yet whose name (or ``name=value``) starts with what is being typed."""
    pairs = pairs_of(typed)
    joined = _EQUALS.sub("=", typed)  # "name = " is still being typed
    ends_open = not joined.strip() or bool(_SEPARATOR.fullmatch(joined[-1:]))
    current = "" if ends_open or not pairs else pairs.pop()
    before = " ".join(pairs)
    named = {_canonical(p.partition("=")[0]) for p in pairs}
    name_part, equals, value_part = current.partition("=")
    name_part, value_part = _canonical(name_part), value_part.strip().lower()
    offered: list[tuple[str, str, str]] = []
    for name in house_rules_of(variant, options):
        if name in named:
            continue
        if equals and name != name_part:
            continue
        if not equals and not name.startswith(name_part):
            continue
        for value in values_of(name):
            if equals and not value.startswith(value_part):
                continue
            whole = f"{before} {name}={value}".strip()
            offered.append((whole, name, value))
    return offered
