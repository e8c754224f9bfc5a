"""The rules of a table in words: its options in the lobby, the rules line (a preset and
the house rules), and ``/tute rules``' house rules and presets, each as the variant plays
it. Pure builders over the service's views, every text from the catalog."""

from __future__ import annotations

from typing import Any

from bot.engine import Options, Preset, Variant
from bot.engine.options import (
    HOUSE_RULES,
    OPTION_NAMES,
    PRESET_VARIANTS,
    PRESETS,
    PRESETS_BY_VARIANT,
    option_applies,
    preset_applies,
    preset_options,
)
from bot.i18n import CATALOGS, t
from bot.tables.house import typed_value
from bot.tables.views import TableView
from bot.words import option_name, seconds_text, variants_text
from bot.words.result import stakes_lines

_OWN_LINES = frozenset({"rounds", "turn_time", "bet", "competitive", "private", "spectators"})
"""Options the lobby always shows on a line of their own (or, at their default, not)."""


def options_lines(table: TableView, lang: str) -> list[str]:
    """The options that differ from the defaults, plus rounds, bet and turn time; the
    preset and the house rules in one line."""
    o = table.options
    lines = [
        t("tables.opt.rounds", lang, rounds=o.rounds),
        t("tables.opt.turn_time", lang, time=seconds_text(o.turn_time, lang)),
        t("tables.opt.robots", lang, value=t(f"robots.{table.robot_level.value}", lang)),
    ]
    rules, in_rules = rules_line(o, lang, table.variant)
    if rules:
        lines.append(rules)
    lines += stakes_lines(table, lang)
    if o.private:
        lines.append(t("tables.opt.private", lang))
    if not o.spectators:
        lines.append(t("tables.opt.no_spectators", lang))
    for name, value in o.to_dict().items():
        if name in _OWN_LINES or name in in_rules or name == "rules" or name in HOUSE_RULES:
            continue
        if name == "allow_tute" and value is None:
            continue
        lines.append(t(f"tables.opt.{name}", lang, value=_option_value(name, value, lang)))
    return lines


def rules_line(options: Options, lang: str, variant: Variant) -> tuple[str, frozenset[str]]:
    """The rules in play in one line, and the options it names. Under a preset: its name,
    and every house rule (or option the preset set) that differs from its default ("Rules:
    Fournier (a 20 never loses the 40, ...)"); without one, the house rules that differ
    ("House rules: ..."). Empty when every rule is at its default. ``variant``: the table's
    (what the preset sets there)."""
    default = Options()
    preset = preset_options(variant, options.rules, {}, options)
    named = [
        name
        for name in OPTION_NAMES
        if getattr(options, name) != getattr(default, name)
        and (name in HOUSE_RULES or (name in preset and getattr(options, name) == preset[name]))
    ]
    texts = ", ".join(rule_text(name, getattr(options, name), lang) for name in named)
    if options.rules is Preset.STANDARD:
        line = t("tables.opt.house", lang, rules=texts) if texts else ""
    else:
        title = t(f"house.preset.{options.rules.value}", lang)
        key = "tables.opt.preset_with" if texts else "tables.opt.preset"
        line = t(key, lang, preset=title, rules=texts)
    return line, frozenset(named)


def rule_text(name: str, value: Any, lang: str) -> str:
    """What an option's value does, in a few words: "a 20 never loses the 40"."""
    shown = typed_value(name, value)
    key = f"house.rule.{name}.{shown}"
    if key in CATALOGS["en"]:
        return t(key, lang)
    return t(f"options.{name}.{shown}", lang)


def _option_value(name: str, value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return t("common.yes" if value else "common.no", lang)
    key = f"options.{name}.{value}"
    return t(key, lang) if key in CATALOGS["en"] else str(value)


def house_rules_fields(variants: list[Variant], lang: str) -> list[tuple[str, str]]:
    """``/tute rules``: how to name house rules, each house rule of these variants in words,
    and the presets with what each sets."""
    names = [n for n in HOUSE_RULES if any(option_applies(v, n) for v in variants)]
    fields = [(t("rules.house_title", lang), t("rules.house_intro", lang))]
    fields += [
        (
            t("rules.house_name", lang, name=option_name(n, lang), typed=n),
            t(f"rules.house.{n}", lang),
        )
        for n in names
    ]
    presets = [_preset_text(preset, variants, lang) for preset in Preset]
    presets = [line for line in presets if line]
    presets.append(t("rules.presets_note", lang))
    fields.append((t("rules.presets_title", lang), "\n".join(presets)))
    return fields


def _preset_rules(sets: dict[str, Any], variants: list[Variant], lang: str) -> list[str]:
    """What a preset sets, each as it is typed in house: (a house rule) or in words (an
    option of the form), leaving out what exists in none of ``variants``."""
    default = Options()
    return [
        f"`{name}={typed_value(name, value)}`"
        if name in HOUSE_RULES
        else rule_text(name, value, lang)
        for name, value in sets.items()
        if any(option_applies(v, name) for v in variants) and value != getattr(default, name)
    ]


def _preset_text(preset: Preset, variants: list[Variant], lang: str) -> str:
    """``/tute rules``: one preset's line (empty where it exists in none of ``variants``):
    what it sets, what it sets otherwise in one variant, and where it exists at all."""
    where = [v for v in variants if preset_applies(v, preset)]
    if not where:
        return ""
    parts = [", ".join(_preset_rules(PRESETS[preset], where, lang))]
    for variant in where:
        sets = PRESETS_BY_VARIANT.get(preset, {}).get(variant)
        if sets:
            shown = ", ".join(_preset_rules(sets, [variant], lang))
            name = t(f"variants.short.{variant.value}", lang)
            parts.append(t("rules.preset_in", lang, variant=name, rules=shown))
    if preset in PRESET_VARIANTS:
        only = [v.value for v in Variant if v in PRESET_VARIANTS[preset]]
        parts.insert(0, t("rules.preset_only", lang, variants=variants_text(only, lang)))
    what = "; ".join(part for part in parts if part) or t("rules.preset_none", lang)
    return t("rules.preset_line", lang, preset=t(f"house.preset.{preset.value}", lang), rules=what)
