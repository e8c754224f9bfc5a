"""The lobby's Settings form, as the service decides it: what it offers at a table, and a
change checked as the engine checks a table's options."""

from __future__ import annotations

import pytest

from bot.engine import DealScore, FortyFirst, Options, Preset, Scoring, Variant
from bot.engine.options import ExchangeWindow, StockDuty, with_preset
from bot.engine.variants import VARIANTS
from bot.tables.errors import TableError
from bot.tables.form import FORM_OPTIONS, TURN_TIMES, changed, choices, current, form_options
from bot.tables.house import typed_value


def test_the_form_offers_only_what_exists_at_the_table() -> None:
    assert "deck" in form_options(Variant.ARRASTRADO, Options())
    assert "deck" not in form_options(Variant.HABANERO, Options())
    assert "target" in form_options(Variant.HABANERO, Options())
    assert "target" not in form_options(Variant.HABANERO, Options(scoring=Scoring.SIXTY_FIVE))
    assert set(form_options(Variant.PAIRS, Options())) <= set(FORM_OPTIONS)
    assert choices(Variant.ARRASTRADO, Options(), "deck") == ("40", "36")
    # a turn time the form does not list (the server's) is offered too, in order
    times = choices(Variant.HABANERO, Options(turn_time=17), "turn_time")
    assert "17" in times and len(times) == len(TURN_TIMES) + 1
    assert [int(v) for v in times] == sorted(int(v) for v in times)
    assert current(Variant.INDIVIDUAL, Options(), "allow_tute") == "true"


def test_a_change_keeps_what_the_host_and_the_preset_named() -> None:
    named = with_preset(
        Variant.PAIRS, Options(rules=Preset.FOURNIER, forty_first=FortyFirst.LOSE), {"forty_first"}
    )
    new = changed(Variant.PAIRS, named, "undertrump", "true")
    assert new.undertrump is True
    assert new.forty_first is FortyFirst.LOSE  # the host's, not the preset's
    assert new.rules is Preset.FOURNIER


@pytest.mark.parametrize("variant", list(Variant))
def test_tute_as_the_variant_plays_it_is_left_unnamed(variant: Variant) -> None:
    played = VARIANTS[variant].tute_by_default
    other, own = typed_value("allow_tute", not played), typed_value("allow_tute", played)
    assert changed(variant, Options(), "allow_tute", other).allow_tute is (not played)
    assert changed(variant, Options(allow_tute=not played), "allow_tute", own).allow_tute is None


def test_an_option_that_no_longer_exists_goes_back_to_its_default() -> None:
    new = changed(Variant.HABANERO, Options(target=61), "scoring", "sixty-five")
    assert (new.scoring, new.target) == (Scoring.SIXTY_FIVE, 101)


@pytest.mark.parametrize(
    ("variant", "options", "name", "typed", "key"),
    [
        (Variant.HABANERO, Options(), "deck", "36", "settings_stale"),
        (Variant.HABANERO, Options(), "target", "62", "settings_stale"),
        (Variant.HABANERO, Options(scoring=Scoring.SIXTY_FIVE), "target", "61", "settings_stale"),
        (Variant.ARRASTRADO, Options(seats=4), "deck", "36", "option_40"),
        (
            Variant.HABANERO,
            Options(deal_score=DealScore.PER_DEAL),
            "scoring",
            "sixty-five",
            "option_sixty_five",
        ),
    ],
)
def test_what_may_not_change_is_refused(
    variant: Variant, options: Options, name: str, typed: str, key: str
) -> None:
    with pytest.raises(TableError) as refused:
        changed(variant, options, name, typed)
    assert refused.value.key == key


def test_the_form_offers_the_presets_of_the_variant() -> None:
    assert "havanian" in choices(Variant.HABANERO, Options(), "rules")
    assert "parejas" not in choices(Variant.HABANERO, Options(), "rules")
    assert "parejas" in choices(Variant.PAIRS, Options(), "rules")
    assert current(Variant.PAIRS, Options(), "rules") == "standard"


def test_a_preset_chosen_keeps_what_the_host_chose_and_drops_the_former_preset() -> None:
    fournier = changed(Variant.HABANERO, Options(target=61), "rules", "fournier")
    assert fournier.exchange_window is ExchangeWindow.ANNOUNCE and fournier.target == 61
    mine = changed(Variant.HABANERO, fournier, "capote", "false")
    havanian = changed(Variant.HABANERO, mine, "rules", "havanian")
    assert havanian.exchange_window is ExchangeWindow.BEFORE_DRAW  # fournier's is gone
    assert havanian.forty_first is FortyFirst.LOSE
    assert havanian.stock_duty is StockDuty.TRUMP  # havanian's
    assert (havanian.capote, havanian.target) == (False, 61)  # the host's
    standard = changed(Variant.HABANERO, havanian, "rules", "standard")
    assert standard == Options(capote=False, target=61)
    # a target has no place under sixty-five: it goes, as when the scoring changes
    sixty_five = changed(Variant.HABANERO, Options(target=61), "rules", "sixty-five")
    assert (sixty_five.scoring, sixty_five.target) == (Scoring.SIXTY_FIVE, 101)
    with pytest.raises(TableError) as refused:  # four seats need the deck of 40
        changed(Variant.ARRASTRADO, Options(seats=4), "rules", "online")
    assert refused.value.key == "bad_options"
