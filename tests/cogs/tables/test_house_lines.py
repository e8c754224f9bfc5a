"""The words of the house rules, without Discord: the lobby's line of rules, a refusal that
names an option, the hand of a dealer who sits the deal out. Milliseconds each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.engine import FortyFirst, Options, Preset, StockDuty, Variant
from bot.i18n import t
from bot.tables.house import opening_options
from bot.tables.model import Seat, Status, Table
from bot.tables.views import hand_view, sits_out, table_view
from cogs.tables import embeds as ui
from tests.cogs.tables.test_views_rendered import playing_table


def lobby_of(variant: Variant, options: Options) -> Table:
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=100,
        variant=variant,
        options=options,
        language="en",
        created_at=0.0,
        seats=[Seat("ana", user_id=100)] + [None] * (options.seats_at(variant) - 1),
    )


def lines(variant: Variant, options: Options, named: set[str], lang: str = "en") -> list[str]:
    opened = opening_options(variant, options, named | {"rules"})
    return ui.options_lines(table_view(lobby_of(variant, opened)), lang)


def test_a_standard_table_lists_no_rules() -> None:
    shown = lines(Variant.HABANERO, Options(), set())
    assert not any(line.startswith(("Rules", "House rules")) for line in shown)


def test_a_house_rule_shows_in_one_line_in_both_languages() -> None:
    options = Options(forty_first=FortyFirst.STRICT)
    assert "House rules: no 20 while you hold the 40" in lines(
        Variant.PAIRS, options, {"forty_first"}
    )
    assert "Reglas de la casa: no se cantan las 20 teniendo las 40" in lines(
        Variant.PAIRS, options, {"forty_first"}, "es"
    )


def test_a_preset_shows_what_it_sets_here_and_nothing_twice() -> None:
    shown = lines(Variant.HABANERO, Options(rules=Preset.SIXTY_FIVE), set())
    assert (
        "Rules: Sixty-five (full duty from the first trick, more than 65 of 130, "
        "only four kings are a tute)"
    ) in shown
    assert not any(line.startswith(("Scoring", "Duty with stock")) for line in shown)
    shown = lines(Variant.HABANERO, Options(rules=Preset.SIXTY_FIVE), set(), "es")
    assert (
        "Reglas: Sesenta y cinco (obligación completa desde la primera baza, más de 65 de 130, "
        "solo hay tute de reyes)"
    ) in shown


def test_a_preset_whose_rules_were_all_named_back_shows_its_name_alone() -> None:
    options = Options(rules=Preset.SIXTY_FIVE, tute_knights=True)
    assert "Rules: Sixty-five" in lines(Variant.INDIVIDUAL, options, {"tute_knights"})


def test_an_option_outside_the_preset_keeps_its_own_line_in_words() -> None:
    options = Options(rules=Preset.FOURNIER, stock_duty=StockDuty.TRUMP)
    shown = lines(Variant.HABANERO, options, {"stock_duty"})
    assert t("tables.opt.stock_duty", "en", value=t("options.stock_duty.trump", "en")) in shown


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The option `beat_partner` does not exist in arrastrado, only in pairs."),
        ("es", "La opción `matar_companero` no existe en arrastrado, solo en parejas."),
    ],
)
def test_a_refusal_names_the_option_and_the_variants_in_the_users_words(
    lang: str, said: str
) -> None:
    params = {"option": "beat_partner", "variant": "arrastrado", "variants": ["pairs"]}
    assert ui.refusal_text("option_not_here", params, lang) == said


def test_what_a_user_typed_is_shown_escaped() -> None:
    said = ui.refusal_text("house_pair", {"typed": "@everyone"}, "en")
    assert "@everyone" not in said and "@\u200beveryone" in said


def test_the_dealer_of_a_table_of_four_sits_the_deal_out() -> None:
    four = lobby_of(Variant.ARRASTRADO, Options(seats=4))
    three = lobby_of(Variant.ARRASTRADO, Options())
    assert sits_out(four, 3, dealer=3) and not sits_out(four, 2, dealer=3)
    assert not sits_out(three, 2, dealer=2)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_hand_that_sits_out_says_so_instead_of_an_empty_hand(lang: str) -> None:
    table = playing_table(Variant.HABANERO)
    assert table.status is Status.PLAYING
    hand = replace(hand_view(table, 0), cards=(), playable=frozenset(), sits_out=True)
    shown = ui.hand_lines(table_view(table), hand, lang)
    assert t("hand.sitting_out", lang) in shown
    assert t("hand.no_cards", lang) not in shown
    empty = ui.hand_lines(table_view(table), replace(hand, sits_out=False), lang)
    assert t("hand.no_cards", lang) in empty and t("hand.sitting_out", lang) not in empty


def test_an_arrastrado_lobby_says_it_pays_chips_whatever_the_bet() -> None:
    """Arrastrado pays every deal in chips even with a bet of 0: the lobby says so in words
    (a practice table pays nothing and says nothing)."""
    shown = lines(Variant.ARRASTRADO, Options(bet=0), set())
    assert not any(line.startswith("Bet") for line in shown)
    assert t("tables.opt.arrastrado_pays", "en") in shown
    assert "100" in t("tables.opt.arrastrado_pays", "en")
    assert t("tables.opt.arrastrado_pays", "es") in lines(
        Variant.ARRASTRADO, Options(), set(), "es"
    )
    plato = lines(Variant.ARRASTRADO, Options(plato=True), {"plato"})
    assert t("tables.opt.arrastrado_pays_plato", "en") in plato
    practice = lines(Variant.ARRASTRADO, Options(competitive=False), {"competitive"})
    assert not any("100" in line for line in practice)
    assert not any("100" in line for line in lines(Variant.HABANERO, Options(), set()))
