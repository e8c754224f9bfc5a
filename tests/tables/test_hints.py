"""Hints: what the hard robot would do in a member's seat, and why. Always one of the seat's
legal actions, the same whatever the cards the seat cannot see (it names none of them),
only at tables that are not competitive, on the member's turn, counted once per decision,
and the count kept in the table's saved state; written as JSON for another process, read
back the same."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.ai import Level
from bot.engine import (
    Action,
    Deal,
    Kind,
    Options,
    SeatView,
    Variant,
    seat_view,
    shuffle_deal,
)
from bot.i18n import LANGUAGES
from bot.storage import Database
from bot.tables.errors import TableError
from bot.tables.hints import Hint, hint_action, reason
from bot.tables.model import Seat, Status, Table
from bot.tables.views import hand_view
from bot.words import hint_line
from tests.ai.helpers import ask, move
from tests.ai.test_view_only import CASES, robot_steps, twin
from tests.tables._play import restored
from tests.tables.test_service import ana_opens, db, quick_service, settle

__all__ = ["db"]  # the fixture, used by name

BUDGET = 0.02
"""The hint's budget in its counted clock's seconds: a few sampled deals, on any machine."""


def hint_of(view: SeatView) -> Hint:
    return reason(view, hint_action(view, BUDGET))


def public_cards(view: SeatView) -> set[int]:
    """Every card the seat may know the place of: its hand, the cards played, those shown by
    a cante or an exchange, the turned card and the card left out of play."""
    known = set(view.hand) | {c for t in view.tricks for c in t.cards} | {view.turned}
    known |= {c for _, c in view.trick} | {c for _, c in view.shown}
    known |= {c for e in view.exchanges for c in (e.gave, e.took)}
    if view.table_card is not None:
        known.add(view.table_card)
    return known


def positions(variant: Variant, seed: int) -> list[SeatView]:
    """Views of the seat on turn, each time it has a choice to make, through one deal that
    normal robots play."""
    r = Deal(shuffle_deal(variant, Options(), 1, random.Random(seed)))
    rng = random.Random(seed)
    views: list[SeatView] = []
    while not r.finished:
        view = seat_view(r, r.turn)
        if any(a.kind in (Kind.PLAY, Kind.BID, Kind.PASS) for a in view.legal):
            views.append(view)
        move(r, lambda seat: ask(r, seat, Level.NORMAL, rng, 0.0))
    return views


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_a_hint_is_always_a_legal_action_and_names_no_hidden_card(variant: Variant) -> None:
    for view in positions(variant, seed=11)[::2]:
        hint = hint_of(view)
        assert hint.action in view.legal
        public = public_cards(view)
        if hint.action.kind is Kind.PLAY:
            assert hint.action.arg in view.hand
        assert hint.other < 0 or hint.other in public, "the hint names a card it cannot see"
        for lang in LANGUAGES:
            line = hint_line(replace(hint, counted=True), lang)
            assert line.startswith("💡") and "\n" not in line and len(line) < 300


@pytest.mark.parametrize(("variant", "steps"), CASES, ids=[v.value for v, _ in CASES])
def test_the_same_hint_whatever_the_hidden_cards(variant: Variant, steps: int) -> None:
    """Two deals that differ only in cards the seat cannot see: the same hint, the same
    reason, the same words."""
    r = Deal(shuffle_deal(variant, Options(), 1, random.Random(4)))
    robot_steps(r, steps, seed=4)
    viewer = r.turn
    other = twin(r, viewer)
    first, second = hint_of(seat_view(r, viewer)), hint_of(seat_view(other, viewer))
    assert first == second
    for lang in LANGUAGES:
        assert hint_line(first, lang) == hint_line(second, lang)


def test_the_reasons_say_what_the_seat_sees() -> None:
    """A few positions whose reason is plain from the hand and the trick."""
    r = Deal(shuffle_deal(Variant.PAIRS, Options(), 1, random.Random(4)))
    robot_steps(r, 13, seed=4)
    view = seat_view(r, r.turn)
    plays = [a for a in view.legal if a.kind is Kind.PLAY]
    for action in plays:
        why = reason(view, action).why
        if not view.trick:
            assert why in ("draw_trumps", "master", "lead_low", "best")
        else:
            assert why not in ("draw_trumps", "master", "lead_low")


# --------------------------------------------------------------- at the table


async def test_a_hint_at_a_friendly_table_is_counted_once_per_decision(db: Database) -> None:
    service = quick_service(db)
    service.hints.budget = BUDGET
    table = await ana_opens(service, Variant.HABANERO, Options(competitive=False), language="en")
    await service.start(table.id, 10)
    await settle(service, table)
    deal = table.deal
    assert deal is not None
    seat = table.seat_of(10)
    assert seat is not None and deal.turn == seat
    assert hand_view(table, seat).hint

    first = await service.hint(table.id, 10)
    assert first.counted and first.action in seat_view(deal, seat).legal
    again = await service.hint(table.id, 10)
    assert again == replace(first, counted=False), "the same hint, not counted twice"
    occupant = table.seats[seat]
    assert occupant is not None and occupant.hints == 1

    with pytest.raises(TableError) as refused:
        await service.hint(table.id, 99)
    assert refused.value.key == "not_seated"

    # the count and the decision hinted survive a restart: asked again, still once
    back = restored(table, table.state_json())
    assert back.seats[seat] == occupant

    await service.act(table.id, 10, first.action, deal_no=table.deal_no, trick_no=len(deal.tricks))
    await settle(service, table)
    if table.status is Status.PLAYING and table.deal is not None and table.deal.turn == seat:
        assert (await service.hint(table.id, 10)).counted
        assert occupant.hints == 2


async def test_no_hint_off_turn(db: Database) -> None:
    """Ana and Bea play habanero: whoever is not on turn is refused in words."""
    service = quick_service(db)
    service.hints.budget = BUDGET
    table = await ana_opens(service, Variant.HABANERO, Options(competitive=False), language="en")
    with pytest.raises(TableError) as refused:
        await service.hint(table.id, 10)  # the lobby
    assert refused.value.key == "hint_not_playing"
    await service.join(table.id, 11, "Bea")
    await service.start(table.id, 10)
    deal = table.deal
    assert deal is not None
    waiting = 11 if deal.turn == table.seat_of(10) else 10
    waiting_seat = table.seat_of(waiting)
    assert waiting_seat is not None and not hand_view(table, waiting_seat).hint
    with pytest.raises(TableError) as refused:
        await service.hint(table.id, waiting)
    assert refused.value.key == "hint_not_your_turn"
    assert (await service.hint(table.id, 21 - waiting)).counted


async def test_competitive_tables_give_no_hint(db: Database) -> None:
    service = quick_service(db)
    table = await ana_opens(service, Variant.HABANERO, Options(), language="en")
    await service.start(table.id, 10)
    await settle(service, table)
    assert table.options.competitive and table.deal is not None and table.deal.turn == 0
    assert not hand_view(table, 0).hint, "no Hint button"
    with pytest.raises(TableError) as refused:  # a forged click
        await service.hint(table.id, 10)
    assert refused.value.key == "hint_competitive"
    occupant = table.seats[0]
    assert occupant is not None and occupant.hints == 0


def test_an_old_saved_state_reads_with_no_hints() -> None:
    """A table saved before hints were counted: every count is 0."""
    table = Table(
        id=3,
        guild_id=1,
        channel_id=2,
        host_id=10,
        variant=Variant.HABANERO,
        options=Options(competitive=False),
        language="en",
        created_at=1_800_000_000.0,
        seats=[Seat(name="Ana", user_id=10, hints=2, hinted="0:5"), None],
    )
    state = json.loads(table.state_json())
    for seat in state["seats"]:
        if seat is not None:
            del seat["hints"], seat["hinted"]
    back = restored(table, json.dumps(state))
    assert back.seats[0] == Seat(name="Ana", user_id=10)
    assert restored(table, table.state_json()).seats[0] == table.seats[0]


@pytest.mark.parametrize(
    "hint",
    [
        Hint(Action.play(1, 5), "wins", other=3, keeps=2, trump=1, target=101, counted=True),
        Hint(Action.sing(0, 3), "sing", trump=3),
        Hint(Action.simple(2, Kind.EXCHANGE), "exchange", other=17, trump=1),
        Hint(Action.of(2, Kind.BID, 120), "bid"),
        Hint(Action.simple(3, Kind.PASS), "pass", target=230),
    ],
    ids=lambda hint: hint.why,
)
def test_a_hint_crosses_to_another_process_as_json(hint: Hint) -> None:
    """The answer of the process holding the table to a hint asked on another one."""
    back = Hint.from_json(json.loads(json.dumps(hint.to_json())))
    assert back == hint and back.action is hint.action
    for lang in LANGUAGES:
        assert hint_line(back, lang) == hint_line(hint, lang)
