"""Every option has one name, in words, in every place it appears (the guide's options and
house rules, the Settings form, the lobby's lines), in both languages; a quantity reads one
way everywhere (a turn's time in the lobby, the form and ``/tute config``; numbers grouped
as each language groups them); ``/tute config`` says the values a setting takes when it
refuses one, and its menus name their setting."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.engine import Options, Variant
from bot.engine.options import HOUSE_RULES, option_applies
from bot.i18n import LANGUAGES, number, t
from bot.storage.settings import GuildSettings, whole_bounds
from bot.tables.form import form_options
from bot.tables.views import table_view
from bot.words import option_name, seconds_text
from cogs.standings.config_form import ConfigForm, refusal
from cogs.standings.embeds import settings_embed
from cogs.tables import guide_pages, rules_text, settings_form
from cogs.tournaments.buttons import signup_payload
from tests.cogs.tables.test_views_rendered import playing_table
from tests.cogs.tournaments.test_posts_at_scale import tour_of

GUIDED = guide_pages._OPTIONS  # pyright: ignore[reportPrivateUsage]
LOBBY_LINES = (
    "rounds",
    "turn_time",
    "bet",
    "stock_duty",
    "beat_partner",
    "undertrump",
    "exchange",
    "capote",
    "allow_tute",
    "target",
    "robots",
    "scoring",
    "deck",
    "plato",
)
"""The options the lobby shows as "name: value"."""
PARAMS = {"rounds": 1, "time": "1", "bet": "1", "value": "1"}


def guide_text(variant: Variant, lang: str) -> str:
    return "\n".join(p for page in guide_pages.guide_pages(variant, lang) for p in page.paragraphs)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_the_guide_names_each_option_in_words(variant: Variant, lang: str) -> None:
    text = guide_text(variant, lang)
    for name in (*GUIDED, *HOUSE_RULES):
        if not option_applies(variant, name):
            continue
        worded = option_name(name, lang)
        assert worded != name, name
        assert f"**{worded}" in text, (name, worded)
        if "_" in name:  # the name typed in house: shows only as what to type, in code
            assert f"**{name}" not in text and f"{name}:" not in text, name


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_the_settings_form_and_the_lobby_say_the_same_name(variant: Variant, lang: str) -> None:
    table = playing_table(variant)
    panel = settings_form.settings_panel(table_view(table), lang)
    shown = "\n".join(
        item.content for item in panel.walk_children() if isinstance(item, discord.ui.TextDisplay)
    )
    for name in form_options(variant, table.options):
        assert f"**{option_name(name, lang)}**" in shown, name
    for name in LOBBY_LINES:
        line = t(f"tables.opt.{name}", lang, **PARAMS)
        assert line.startswith(f"{option_name(name, lang)}: "), (name, line)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seconds", [45, 90, 180, 3600])
def test_a_turn_time_reads_one_way(lang: str, seconds: int) -> None:
    words = seconds_text(seconds, lang)
    table = playing_table(Variant.HABANERO, options=Options(turn_time=seconds))
    lines = rules_text.options_lines(table_view(table), lang)
    assert t("tables.opt.turn_time", lang, time=words) in lines
    embed = settings_embed(replace(GuildSettings(), turn_time=seconds), "x", lang, "en")
    assert any(field.value == words for field in embed.fields)
    assert not any(field.value == f"{seconds} s" for field in embed.fields)


@pytest.mark.parametrize(("lang", "grouped"), [("en", "1,000,000"), ("es", "1.000.000")])
def test_numbers_are_grouped_one_way(lang: str, grouped: str) -> None:
    assert number(1_000_000, lang) == grouped
    tour = tour_of(3, lang)  # an entry of 1,000,000 chips
    embed = signup_payload(tour)["embed"]
    assert isinstance(embed, discord.Embed)
    entry = embed.fields[0].value or ""
    assert grouped in entry and "1000000" not in entry
    table = playing_table(Variant.HABANERO, options=Options(bet=1_000_000))
    lines = rules_text.options_lines(table_view(table), lang)
    assert t("tables.opt.bet", lang, bet=grouped) in lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_config_refusals_say_the_values_a_setting_takes(lang: str) -> None:
    for name in ("starting_chips", "turn_time", "max_tables", "min_rated_games"):
        bounds = whole_bounds(name)
        assert bounds is not None
        said = refusal(name, lang)
        assert all(number(n, lang) in said for n in bounds), said


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_config_menus_name_their_setting(lang: str) -> None:
    form = ConfigForm(GuildSettings(), lang)
    selects: list[Any] = [i for i in form.children if isinstance(i, discord.ui.Select)]
    assert len(selects) == 2
    for select, name in zip(selects, ("language", "hand_delivery"), strict=True):
        setting = t(f"settings.config.{name}", lang)
        assert select.placeholder == setting
        assert all(option.label.startswith(f"{setting}: ") for option in select.options)
