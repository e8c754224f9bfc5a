"""The swap of the turned card for the trump 7 (or 2) is a line of the table's log, in every
variant that has it: at the deal (arrastrado, automatic), by hand (habanero; arrastrado
without the automatic exchange), and announced under the turned card (habanero,
``exchange_window: announce``). The line names the cards, reads back from the saved state,
and a line saved before it named them still reads."""

from __future__ import annotations

import json
import random

import pytest

from bot.ai import Level
from bot.engine import ExchangeWindow, Kind, Options, Variant, parse_card
from bot.engine.events import exchange_card
from bot.i18n import t
from bot.tables import model, play
from bot.tables.events import Happened, LogEvent, Who
from bot.tables.model import Seat, Status, Table
from cogs.tables.embeds import card_name
from cogs.tables.said import log_line


def lobby(variant: Variant, seed: int, options: Options | None = None) -> Table:
    seats: list[Seat | None] = [Seat("Ana", user_id=100)]
    seats += [Seat.for_robot(i, Level.EASY) for i in range(1, variant.players)]
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=100,
        variant=variant,
        options=options or Options(),
        language="en",
        created_at=0.0,
        seats=seats,
        status=Status.LOBBY,
        seed=seed,
    )


def swaps_logged(table: Table) -> list[LogEvent]:
    return [e for e in table.log if e.what is Happened.EXCHANGE]


def expected(table: Table) -> list[LogEvent]:
    deal = table.deal
    assert deal is not None
    return [
        LogEvent(Happened.EXCHANGE, table.who_at(s.seat), cards=(s.gave, s.took))
        for s in deal.exchanges
    ]


@pytest.mark.parametrize(
    "event",
    [
        LogEvent(Happened.EXCHANGE, Who("Ana", 10), cards=(parse_card("7O"), parse_card("1O"))),
        LogEvent(Happened.EXCHANGE, Who(robot=2), cards=(parse_card("2E"), parse_card("5E"))),
        LogEvent(Happened.PUT_UNDER, Who("Ana", 10), cards=(parse_card("7O"),)),
        LogEvent(Happened.EXCHANGE, Who("Ana", 10)),  # saved before it named its cards
    ],
)
def test_a_swap_reads_back_as_it_was_saved(event: LogEvent) -> None:
    saved = json.loads(json.dumps(event.to_json()))
    assert LogEvent.from_json(saved) == event


def test_a_swap_saved_before_it_named_its_cards_still_reads() -> None:
    old = {"what": "exchange", "who": {"name": "Ana", "user_id": 10}}
    assert LogEvent.from_json(old) == LogEvent(Happened.EXCHANGE, Who("Ana", 10))
    older = {"key": "tables.log.exchange", "params": {"name": "robot:2"}}
    event = LogEvent.from_json(older)
    assert event == LogEvent(Happened.EXCHANGE, Who(robot=2))
    robot = t("tables.robot_short", "es", number=2)
    assert log_line(event, "es") == t("tables.log.exchange", "es", name=robot)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_swap_line_names_both_cards(lang: str) -> None:
    seven, king = parse_card("7B"), parse_card("12B")
    line = log_line(LogEvent(Happened.EXCHANGE, Who("*Ana*", 10), cards=(seven, king)), lang)
    gave, took = card_name(seven, lang, the=True), card_name(king, lang, the=True)
    assert line == t("tables.log.swapped", lang, name="\\*Ana\\*", card=gave, took=took)
    if lang == "en":
        assert line == "\\*Ana\\* swapped the 7 of clubs for the turned card (the King of clubs)"
    under = log_line(LogEvent(Happened.PUT_UNDER, Who(robot=1), cards=(seven,)), lang)
    robot = t("tables.robot_short", lang, number=1)
    assert under == t("tables.log.put_under", lang, name=robot, card=gave)


def test_arrastrado_logs_the_swap_made_as_the_deal_ends() -> None:
    swapped = unswapped = 0
    for seed in range(12):
        table = lobby(Variant.ARRASTRADO, seed)
        play.start(table, lambda: 0.0)
        deal = table.deal
        assert deal is not None
        assert swaps_logged(table) == expected(table)
        swapped += bool(deal.exchanges)
        unswapped += not deal.exchanges
        # the state saved reads back with its line
        again = Table.from_state(
            table_id=7,
            guild_id=1,
            channel_id=2,
            host_id=100,
            variant="arrastrado",
            status="playing",
            state=table.state_json(),
        )
        assert again.log == table.log
    assert swapped, "some deal swaps"


def play_out_deal(table: Table, rng: random.Random) -> None:
    """Play the deal through ``play.apply``, taking every exchange offered."""
    deal = table.deal
    assert deal is not None
    while not deal.finished:
        legal = deal.legal_actions()
        swap = [a for a in legal if a.kind is Kind.EXCHANGE]
        plays = [a for a in legal if a.kind in (Kind.PLAY, Kind.BID, Kind.PASS)]
        play.apply(table, deal, swap[0] if swap else rng.choice(plays))


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        (Variant.HABANERO, Options()),
        (Variant.HABANERO, Options(exchange_window=ExchangeWindow.BEFORE_DRAW)),
        (Variant.HABANERO, Options(exchange_window=ExchangeWindow.ANNOUNCE)),
        (Variant.ARRASTRADO, Options(auto_exchange=False)),
    ],
    ids=["before_lead", "before_draw", "announce", "arrastrado_by_hand"],
)
def test_a_swap_by_hand_is_logged_when_it_is_made(
    variant: Variant, options: Options, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(model, "LOG_LENGTH", 1000)  # the whole deal's log
    swapped = put_under = 0
    for seed in range(10):
        table = lobby(variant, seed, options)
        play.start(table, lambda: 0.0)
        deal = table.deal
        assert deal is not None
        play_out_deal(table, random.Random(seed))
        log = table.log
        swaps = [e for e in log if e.what is Happened.EXCHANGE]
        assert swaps == expected(table)
        swapped += len(swaps)
        under = [e for e in log if e.what is Happened.PUT_UNDER]
        put_under += len(under)
        for event in under:  # the trump 7 (or 2) that takes the turned card
            assert event.cards == (exchange_card(deal.dealt.turned, deal.trump),)
        assert all(e.what is not Happened.EXCHANGE or e.cards for e in log)
    assert swapped
    if options.exchange_window is ExchangeWindow.ANNOUNCE:
        assert put_under, "an announced swap waits under the turned card"
