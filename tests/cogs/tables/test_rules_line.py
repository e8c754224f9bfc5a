"""The lobby's rules line says what the preset of the table's variant sets, in words."""

from __future__ import annotations

import pytest

from bot.engine import Variant, parse_options
from bot.i18n import t
from cogs.tables.rules_text import rules_line


@pytest.mark.parametrize(
    ("variant", "preset", "rules"),
    [
        (Variant.PAIRS, "parejas", ("overtrump.false", "undertrump.true")),
        (Variant.HABANERO, "havanian", ("sing_until.next_trick", "exchange_window.before_draw")),
        (Variant.HABANERO, "online", ("deal_score.per_deal", "forty_first.strict")),
        (Variant.ARRASTRADO, "online", ("deck.36", "forty_first.strict")),
        (Variant.ARRASTRADO, "fournier", ("forty_first.strict", "auto_exchange.false")),
        (Variant.PAIRS, "sixty-five", ("forty_first.strict", "tute_knights.false")),
    ],
)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_rules_line_says_what_the_preset_sets_here(
    variant: Variant, preset: str, rules: tuple[str, ...], lang: str
) -> None:
    options = parse_options(variant, {"rules": preset})
    line, named = rules_line(options, lang, variant)
    assert line.startswith(t("tables.opt.preset_with", lang, preset="", rules="")[:5])
    assert t(f"house.preset.{preset}", lang) in line
    for rule in rules:
        assert t(f"house.rule.{rule}", lang) in line, rule
        assert rule.partition(".")[0] in named
