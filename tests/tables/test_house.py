"""The house rules a host types into ``/tute new house:``, what is offered while they are
typed, and the options a table opens with (its preset under the options named)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import (
    ExchangeWindow,
    FortyFirst,
    NextDealer,
    Options,
    PairsSing,
    Preset,
    Scoring,
    StockDuty,
    Variant,
)
from bot.engine.options import HOUSE_RULES, option_applies
from bot.tables.errors import TableError
from bot.tables.house import completions, opening_options, parse_house, values_of
from bot.tables.lobby import new_table
from bot.tables.model import Seat, Table
from tests.tables._play import restored


def a_variant_of(name: str) -> Variant:
    return next(v for v in Variant if option_applies(v, name))


@pytest.mark.parametrize(
    ("variant", "text", "parsed"),
    [
        (Variant.HABANERO, "", {}),
        (Variant.HABANERO, "  , ", {}),
        (
            Variant.HABANERO,
            "forty_first=strict sing_drawn=false",
            {"forty_first": FortyFirst.STRICT, "sing_drawn": False},
        ),
        (
            Variant.HABANERO,
            "Forty_First = FREE, exchange_window=before-draw;next_dealer=LAST_TEN",
            {
                "forty_first": FortyFirst.FREE,
                "exchange_window": ExchangeWindow.BEFORE_DRAW,
                "next_dealer": NextDealer.LAST_TEN,
            },
        ),
        (
            Variant.PAIRS,
            "pairs_sing=each,tute_knights=false",
            {"pairs_sing": PairsSing.EACH, "tute_knights": False},
        ),
        (Variant.ARRASTRADO, "seats=4 auto_exchange=False", {"seats": 4, "auto_exchange": False}),
    ],
)
def test_house_rules_are_read_from_name_value_pairs(
    variant: Variant, text: str, parsed: dict[str, Any]
) -> None:
    assert parse_house(variant, text) == parsed


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_takes_each_of_its_values_its_default_first(name: str) -> None:
    variant = a_variant_of(name)
    values = values_of(name)
    assert parse_house(variant, f"{name}={values[0]}") == {name: getattr(Options(), name)}
    for value in values[1:]:
        (parsed,) = parse_house(variant, f"{name}={value}").values()
        assert parsed != getattr(Options(), name)


@pytest.mark.parametrize(
    ("variant", "text", "key", "params"),
    [
        (Variant.HABANERO, "forty_first", "house_pair", {"typed": "forty_first"}),
        (Variant.HABANERO, "forty_first=", "house_pair", {"typed": "forty_first="}),
        (Variant.HABANERO, "=strict", "house_pair", {"typed": "=strict"}),
        (
            Variant.PAIRS,
            "fourty_first=strict",
            "house_unknown",
            {
                "typed": "fourty_first",
                "names": "forty_first, pairs_sing, tute_knights, overtrump, sing_until",
            },
        ),
        (Variant.HABANERO, "bet=10", "house_unknown", {"typed": "bet"}),
        (
            Variant.HABANERO,
            "forty_first=maybe",
            "house_value",
            {"option": "forty_first", "typed": "maybe", "values": "lose, strict, free"},
        ),
        (Variant.ARRASTRADO, "seats=5", "house_value", {"option": "seats", "values": "3, 4"}),
        (
            Variant.HABANERO,
            "forty_first=strict forty_first=free",
            "house_twice",
            {"option": "forty_first"},
        ),
        (
            Variant.HABANERO,
            "pairs_sing=each",
            "option_not_here",
            {"option": "pairs_sing", "variant": "habanero", "variants": ["pairs"]},
        ),
        (
            Variant.INDIVIDUAL,
            "next_dealer=rotate",
            "option_not_here",
            {"option": "next_dealer", "variants": ["habanero"]},
        ),
    ],
)
def test_what_is_not_a_house_rule_of_the_variant_is_refused(
    variant: Variant, text: str, key: str, params: dict[str, Any]
) -> None:
    with pytest.raises(TableError) as refused:
        parse_house(variant, text)
    assert refused.value.key == key
    assert params.items() <= refused.value.params.items()


def test_what_a_user_typed_comes_back_short() -> None:
    with pytest.raises(TableError) as refused:
        parse_house(Variant.HABANERO, "x" * 500 + "=1")
    assert len(refused.value.params["typed"]) <= 40


# ------------------------------------------------------------------ the options


def test_a_preset_sets_only_what_the_host_did_not_name() -> None:
    given = Options(rules=Preset.FOURNIER, forty_first=FortyFirst.LOSE)
    opened = opening_options(Variant.HABANERO, given, {"rules", "forty_first"})
    assert opened.forty_first is FortyFirst.LOSE
    assert opened.exchange_window is ExchangeWindow.ANNOUNCE
    assert opened.next_dealer is NextDealer.LAST_TEN
    # what does not exist in habanero is left alone
    assert opened.pairs_sing is PairsSing.SIDE and opened.auto_exchange


def test_a_preset_sets_what_exists_in_the_variant() -> None:
    opened = opening_options(Variant.PAIRS, Options(rules=Preset.SIXTY_FIVE), {"rules"})
    assert opened.scoring is Scoring.SIXTY_FIVE and not opened.tute_knights
    assert opened.stock_duty is StockDuty.FREE  # habanero's


@pytest.mark.parametrize(
    ("variant", "options", "named", "key"),
    [
        (Variant.PAIRS, Options(stock_duty=StockDuty.FULL), {"stock_duty"}, "option_not_here"),
        (Variant.HABANERO, Options(plato=True), {"plato"}, "option_not_here"),
        (Variant.ARRASTRADO, Options(deck=36, seats=4), {"deck", "seats"}, "option_40"),
        (
            Variant.HABANERO,
            Options(scoring=Scoring.SIXTY_FIVE, target=50),
            {"scoring", "target"},
            "option_sixty_five",
        ),
    ],
)
def test_an_option_named_where_it_does_not_exist_is_refused(
    variant: Variant, options: Options, named: set[str], key: str
) -> None:
    with pytest.raises(TableError) as refused:
        opening_options(variant, options, named)
    assert refused.value.key == key


def test_an_option_of_the_form_left_at_its_default_changes_nothing_anywhere() -> None:
    form = frozenset({"stock_duty", "target", "deck"})
    opened = opening_options(Variant.PAIRS, Options(), set(form), quiet=form)
    assert opened == Options()
    with pytest.raises(TableError):  # typed in house:, it is refused all the same
        opening_options(Variant.PAIRS, Options(), {"next_dealer"}, quiet=form)


def _lobby(variant: Variant, options: Options) -> Table:
    """A lobby the service would open, with its host seated."""
    return new_table(
        guild_id=1,
        channel_id=2,
        host=Seat(name="ana", user_id=3),
        variant=variant,
        options=options,
        language="en",
        invited=None,
        hand_delivery="dm",
        seed=4,
        now=0.0,
        deadline=600.0,
    )


def test_a_preset_and_a_rule_named_back_to_its_default_survive_a_restart() -> None:
    given = Options(rules=Preset.FOURNIER, forty_first=FortyFirst.LOSE)
    opened = opening_options(Variant.HABANERO, given, {"rules", "forty_first"})
    table = _lobby(Variant.HABANERO, opened)
    back = restored(table, table.state_json())
    assert back.options == opened and back.options.forty_first is FortyFirst.LOSE


def test_an_arrastrado_table_of_four_has_four_seats() -> None:
    four = opening_options(Variant.ARRASTRADO, Options(seats=4), {"seats"})
    table = _lobby(Variant.ARRASTRADO, four)
    assert table.players == len(table.seats) == 4
    assert restored(table, table.state_json()).players == 4


# ------------------------------------------------------------------ completions


def offered(variant: Variant | None, typed: str, options: Options | None = None) -> list[str]:
    return [whole for whole, _, _ in completions(variant, typed, options)]


def test_completions_offer_the_house_rules_of_the_variant() -> None:
    names = {name for _, name, _ in completions(Variant.HABANERO, "")}
    every = {"forty_first", "tute_knights", "overtrump", "sing_until"}
    assert names == every | {"sing_drawn", "exchange_window", "next_dealer", "deal_score"}
    names = {name for _, name, _ in completions(Variant.PAIRS, "")}
    assert names == every | {"pairs_sing"}
    names = {name for _, name, _ in completions(Variant.ARRASTRADO, "", Options(deck=36))}
    assert names == every
    assert {name for _, name, _ in completions(None, "")} == set(HOUSE_RULES)


def test_completions_complete_the_pair_being_typed_after_those_typed() -> None:
    assert offered(Variant.HABANERO, "forty_first=s") == ["forty_first=strict"]
    assert offered(Variant.HABANERO, "forty_first=strict ne") == [
        "forty_first=strict next_dealer=rotate",
        "forty_first=strict next_dealer=last_ten",
    ]
    after = offered(Variant.HABANERO, "forty_first=strict, ")
    assert after and all(w.startswith("forty_first=strict ") for w in after)
    assert not any("forty_first" in w.removeprefix("forty_first=strict ") for w in after)
    assert offered(Variant.HABANERO, "pairs_") == []
    assert offered(Variant.PAIRS, "tute_knights = ") == [
        "tute_knights=true",
        "tute_knights=false",
    ]
